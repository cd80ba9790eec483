package rng

import (
	"math"
	"math/bits"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/validate"
)

// Alias draws from a fixed discrete distribution in O(1) per draw with
// Walker's alias method (Vose's construction). A draw costs one 64-bit word:
// its high part (via a 128-bit product) picks a column, its low part decides
// between the column and its alias, so batches run near the source's rate.
//
// The zero value (and a nil *Alias) has no outcomes: Draw returns 0 and Fill
// an error for any draws. Build tables with NewAlias.
type Alias struct {
	columns []column
}

// A column keeps its own outcome when the low word is below threshold, and
// otherwise gives its alias; a column whose own share is 1 is its own alias.
// Keeping both in one struct puts a draw's two loads on one cache line.
type column struct {
	threshold uint64
	alias     int
}

// NewAlias builds the table for the given probabilities. They must be finite,
// non-negative and have a positive sum; they are normalised here, pᵢ/Σp.
func NewAlias(probs []float64) (*Alias, error) {
	n := len(probs)
	if n == 0 {
		return nil, validate.Errorf("probabilities", "needs at least one outcome")
	}
	if n > math.MaxInt32 {
		return nil, validate.Errorf("probabilities", "has %d outcomes; at most %d are supported", n, math.MaxInt32)
	}
	if err := validate.Measure("probabilities", probs, n); err != nil {
		return nil, err
	}
	total := 0.0
	for _, p := range probs {
		total += p
	}
	if math.IsInf(total, 0) {
		return nil, validate.Errorf("probabilities", "sum overflows")
	}
	scaled := make([]float64, n)
	var small, large []int32
	for i, p := range probs {
		scaled[i] = p / total * float64(n)
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	a := &Alias{columns: make([]column, n)}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.columns[s] = column{threshold: fraction64(scaled[s]), alias: int(l)}
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// What is left has probability 1 up to rounding.
	for _, i := range append(small, large...) {
		a.columns[i] = column{threshold: math.MaxUint64, alias: int(i)}
	}
	return a, nil
}

// fraction64 converts p in [0, 1) to a threshold on a uniform 64-bit word.
func fraction64(p float64) uint64 {
	if p <= 0 {
		return 0
	}
	return uint64(math.Ldexp(p, 64))
}

// Len returns the number of outcomes.
func (a *Alias) Len() int {
	if a == nil {
		return 0
	}
	return len(a.columns)
}

// Draw returns one outcome, i with probability pᵢ (0 for a table with none).
func (a *Alias) Draw(r *mrand.Rand) int {
	if a.Len() == 0 {
		return 0
	}
	return a.pick(r.Uint64())
}

// pick maps one uniform word to an outcome. For a uniform word x,
// x·n = col·2^64 + low: col is uniform over the columns and, given col,
// low/2^64 is uniform on a grid of step n/2^64. It is small enough to be
// inlined into Fill's loop, and written as a conditional move because a
// branch on low would be taken at random and mispredict half the time.
func (a *Alias) pick(x uint64) int {
	col, low := bits.Mul64(x, uint64(len(a.columns)))
	c := a.columns[col]
	out := c.alias
	if low < c.threshold {
		out = int(col)
	}
	return out
}

// Fill adds n draws to counts, which must have one entry per outcome.
func (a *Alias) Fill(r *mrand.Rand, counts []int, n int) error {
	if len(counts) != a.Len() {
		return validate.Errorf("counts", "has %d entries for %d outcomes", len(counts), a.Len())
	}
	if n < 0 {
		return validate.Errorf("draws", "must be ≥ 0, got %d", n)
	}
	if n == 0 {
		return nil
	}
	if a.Len() == 0 {
		return validate.Errorf("probabilities", "the table has no outcomes to draw; build it with NewAlias")
	}
	if r == nil {
		return validate.Errorf("source", "is nil; pass a seeded or cryptographic *rand.Rand")
	}
	// Draws are picked into a block first and counted in a second pass. A
	// store to counts[pick] right after each call into the source makes the
	// processor wait to learn whether the source's next loads alias it, which
	// costs more than the pick itself; sequential stores into the block do
	// not. The count alternates two tallies: consecutive draws of the same
	// outcome (the usual case, a likely winner) would otherwise wait on each
	// other's increment of one memory word.
	var block [256]int32
	other := make([]int, len(counts))
	for n > 0 {
		k := min(n, len(block))
		for j := range k {
			block[j] = int32(a.pick(r.Uint64()))
		}
		j := 0
		for ; j+1 < k; j += 2 {
			counts[block[j]]++
			other[block[j+1]]++
		}
		if j < k {
			counts[block[j]]++
		}
		n -= k
	}
	for k, c := range other {
		counts[k] += c
	}
	return nil
}
