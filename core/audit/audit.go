// Package audit checks a mechanism's privacy claim exactly on a small
// universe of data sets: every count vector of k candidates with counts
// 0..m, every pair of neighbours, every output. For each pair x, x′ it
// computes the privacy loss maxₒ |ln P(o|x) − ln P(o|x′)| from the exact
// output distributions of package mech (or, for continuous outputs, the
// supremum of the log density ratio), and reports the worst pair.
//
// A mechanism that claims ε-differential privacy keeps every pair's loss at
// most ε; the auditor finds the pair that breaks a claim, or confirms it on
// the universe checked. It is exact, not statistical: no sampling, no
// confidence level, the same answer every run.
//
// Data sets are count vectors: count[r] people chose option r. Neighbours
// are AddRemove (one person added or removed: one count moves by 1) or
// ChangeOne (one person changes their choice: one count −1, another +1).
package audit

import (
	"math"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/audit/pair"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/validate"
)

// Neighbour notions.
const (
	AddRemove = "add-remove"
	ChangeOne = "change-one"
)

// AreNeighbours reports whether the count vectors x and y (of one length)
// are neighbours under notion: under AddRemove one count differs, by 1;
// under ChangeOne one count is 1 lower and another 1 higher.
func AreNeighbours(x, y []int, notion string) bool {
	l1, nx, ny := 0, 0, 0
	for i := range x {
		l1 += max(x[i]-y[i], y[i]-x[i])
		nx += x[i]
		ny += y[i]
	}
	if notion == AddRemove {
		return l1 == 1
	}
	return l1 == 2 && nx == ny
}

// Mechanisms the auditor knows beyond mech's selection mechanisms
// (exponential, report noisy max with Laplace or Gumbel noise,
// permute-and-flip):
//
//   - NameLaplace adds Lap(Δ/ε) to each of the k values u(x, 0), …, u(x, k−1)
//     and releases them all; it is ε-DP when Δ bounds the L1 change
//     Σᵣ |u(x,r) − u(x′,r)|. With one candidate it is the Laplace mechanism
//     on one count.
//   - NameGaussian adds N(0, σ²) with σ = Δ/ε to each value: a student's
//     claim of pure ε-DP for it is always false (its loss is unbounded).
//   - NameReportNoisyMaxWithValue is report noisy max with Lap(Δ/ε) noise
//     that releases the winning noisy score as well as its index.
const (
	NameLaplace                 = "laplace"
	NameGaussian                = "gaussian"
	NameReportNoisyMaxWithValue = "report-noisy-max-laplace-value"
)

// Mechanisms lists the mechanism names Config accepts.
func Mechanisms() []string {
	return append(mech.Names(), NameReportNoisyMaxWithValue, NameLaplace, NameGaussian)
}

// Limits of one audit: the page and the command line refuse larger ones.
const (
	MaxCandidates = 8
	MaxCount      = 1000
	MaxDataSets   = 1 << 24
)

// Config describes one audit: the mechanism, its score and sensitivity
// expressions, the claimed ε and the universe.
type Config struct {
	Mechanism   string
	Score       string // over count, r, n, k; see CompileScore
	Sensitivity string // over count, n, k; a number is an expression
	Epsilon     float64
	Candidates  int // k
	MaxCount    int // m: each count is 0..m
	Neighbours  string
	Measure     []float64 // base measure of the exponential mechanism; nil is uniform
}

// A Worst pair: the data set, its neighbour and the output where the loss
// is largest. For a selection mechanism Output is the candidate and the
// log-probabilities are those of that candidate; for a continuous output
// Output is −1, Point holds the output (or a point far in the tail where the
// loss is only approached) and the log-probabilities are log densities.
// An impossible output has log-probability −Inf.
type Worst struct {
	Data, Neighbour         []int
	Output                  int
	Point                   []float64
	Description             string
	LogPData, LogPNeighbour float64
}

// Result is the outcome of an audit, or of one chunk of it.
type Result struct {
	// Loss is the largest privacy loss found, +Inf when unbounded.
	Loss  float64
	Worst Worst
	// Pairs is the number of neighbouring pairs checked, DataSets the
	// number of data sets whose pairs were enumerated.
	Pairs, DataSets int64
}

// Holds reports whether a loss keeps a claim of ε, by pair.Holds's rule.
func Holds(loss, epsilon float64) bool { return pair.Holds(loss, epsilon) }

// Merge returns the result of two chunks together: the larger loss (the
// first on a tie, so chunks merged in order give the same worst pair as one
// run) and the summed counts.
func Merge(a, b Result) Result {
	out := a
	if b.Loss > a.Loss || (a.Pairs == 0 && b.Pairs > 0) {
		out = b
	}
	out.Pairs, out.DataSets = a.Pairs+b.Pairs, a.DataSets+b.DataSets
	return out
}

// An Auditor enumerates one universe lazily. It caches each data set's
// scores and output distribution in a window as wide as the largest index
// step to a neighbour, so memory is O((m+1)^(k−1)·k), not the universe's
// size. It is not safe for concurrent use.
type Auditor struct {
	c          Config
	score, sen *Expr
	constSen   float64 // Δ when the sensitivity is a plain number, else 0
	radix      int
	size       int
	pow        []int
	discrete   bool

	// The cache: slot s holds data set tag[s].
	tag     []int
	u, logp []float64
	delta   []float64
	x, y    []int
}

// New validates c and compiles its expressions.
func New(c Config) (*Auditor, error) {
	if !contains(Mechanisms(), c.Mechanism) {
		return nil, refuse(mechanismSetting, "unknown mechanism %q; choose one of %s", c.Mechanism, strings.Join(Mechanisms(), ", "))
	}
	if c.Neighbours != AddRemove && c.Neighbours != ChangeOne {
		return nil, refuse(neighboursSetting, "unknown neighbour notion %q; choose %s or %s", c.Neighbours, AddRemove, ChangeOne)
	}
	if err := validate.Positive("ε", c.Epsilon); err != nil {
		return nil, about(epsilonSetting, err)
	}
	if c.Candidates < 1 || c.Candidates > MaxCandidates {
		return nil, refuse(candidatesSetting, "must be between 1 and %d, got %d", MaxCandidates, c.Candidates)
	}
	if c.Neighbours == ChangeOne && c.Candidates < 2 {
		return nil, refuseEach(candidatesSetting, "change-one neighbours need at least 2 candidates",
			"neighbours that change one person’s choice need at least 2 candidates")
	}
	if c.MaxCount < 1 || c.MaxCount > MaxCount {
		return nil, refuse(maxCountSetting, "must be between 1 and %d, got %d", MaxCount, c.MaxCount)
	}
	size := 1
	pow := make([]int, c.Candidates)
	for i := range pow {
		pow[i] = size
		if size > MaxDataSets/(c.MaxCount+1) {
			return nil, refuseEach(universeSetting,
				"(%d+1)^%d data sets is more than %d; lower -max-count or -candidates",
				"(%d+1)^%d data sets is more than the %d an audit may check; lower “Largest count m” or “Candidates k”",
				c.MaxCount, c.Candidates, MaxDataSets)
		}
		size *= c.MaxCount + 1
	}
	if c.Measure != nil {
		if c.Mechanism != mech.NameExponential {
			return nil, refuse(measureSetting, "only the exponential mechanism has a base measure")
		}
		if err := validate.Measure("measure μ", c.Measure, c.Candidates); err != nil {
			return nil, about(measureSetting, err)
		}
	}
	a := &Auditor{c: c, radix: c.MaxCount + 1, size: size, pow: pow}
	var err error
	if a.score, err = CompileScore(c.Score); err != nil {
		return nil, err
	}
	if a.sen, err = CompileSensitivity(c.Sensitivity); err != nil {
		return nil, err
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(c.Sensitivity), 64); err == nil {
		if err := validate.Positive("Δ", v); err != nil {
			return nil, about(deltaSetting, err)
		}
		a.constSen = v
	}
	a.discrete = contains(mech.Names(), c.Mechanism)
	k := c.Candidates
	w := pow[k-1] + 1 // the largest step from a data set to a neighbour, plus one
	a.tag = make([]int, w)
	for i := range a.tag {
		a.tag[i] = -1
	}
	a.u, a.delta = make([]float64, w*k), make([]float64, w)
	if a.discrete {
		a.logp = make([]float64, w*k)
	}
	a.x, a.y = make([]int, k), make([]int, k)
	return a, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// DataSets returns the number of data sets in the universe, (m+1)^k.
func (a *Auditor) DataSets() int { return a.size }

// Decode returns the data set with index i: count[r] is the r-th digit of
// i in base m+1.
func (a *Auditor) Decode(i int) []int {
	x := make([]int, a.c.Candidates)
	a.decode(i, x)
	return x
}

func (a *Auditor) decode(i int, x []int) {
	for r := range x {
		x[r] = i % a.radix
		i /= a.radix
	}
}

// entry returns the cache slot of data set i (whose counts are x),
// computing its scores, Δ and, for a selection mechanism, its exact
// log-probabilities on a miss.
func (a *Auditor) entry(i int, x []int) (int, error) {
	s := i % len(a.tag)
	if a.tag[s] == i {
		return s, nil
	}
	k := a.c.Candidates
	u := a.u[s*k : (s+1)*k]
	for r := range u {
		v, err := a.score.Score(x, r)
		if err != nil {
			return 0, err
		}
		u[r] = v
	}
	d := a.constSen
	if d == 0 {
		var err error
		if d, err = a.sen.Sensitivity(x); err != nil {
			return 0, err
		}
	}
	a.delta[s] = d
	if a.discrete {
		mc := mech.Config{Scores: u, Epsilon: a.c.Epsilon, Sensitivity: d, Measure: a.c.Measure}
		var lp []float64
		var err error
		switch a.c.Mechanism {
		case mech.NameExponential, mech.NameReportNoisyMaxGumbel:
			// Gumbel noise of scale 2Δ/ε gives exactly the exponential
			// mechanism's distribution (the Gumbel-max trick; the tests
			// compare both with a brute force): skip the sampler.
			lp, err = mech.ExponentialLogProbabilities(mc)
		default:
			var m mech.Selector
			if m, err = mech.New(a.c.Mechanism, mc); err == nil {
				lp = m.LogProbabilities()
			}
		}
		if err != nil {
			return 0, refuse(mechanismSetting, "at count = %s: %v", ints(x), err)
		}
		copy(a.logp[s*k:], lp)
	}
	a.tag[s] = i
	return s, nil
}

// All audits the whole universe.
func (a *Auditor) All() (Result, error) { return a.Run(0, a.size) }

// Run audits the pairs {x, x′} whose lower-indexed data set x has index in
// [from, to): x′ = x + e_i for add-remove, x′ = x − e_i + e_j with i < j for
// change-one (each unordered pair once). Chunks run in order reuse the
// cache, so the page can audit a large universe in steps and show progress.
func (a *Auditor) Run(from, to int) (Result, error) {
	from, to = max(from, 0), min(to, a.size)
	res := Result{}
	k := a.c.Candidates
	x, y := a.x, a.y
	for i := from; i < to; i++ {
		a.decode(i, x)
		sx, err := a.entry(i, x)
		if err != nil {
			return Result{}, err
		}
		res.DataSets++
		for r := 0; r < k; r++ {
			if a.c.Neighbours == AddRemove {
				if x[r] == a.c.MaxCount {
					continue
				}
				copy(y, x)
				y[r]++
				if err := a.pair(&res, i, x, sx, i+a.pow[r], y); err != nil {
					return Result{}, err
				}
				continue
			}
			if x[r] == 0 {
				continue
			}
			for j := r + 1; j < k; j++ {
				if x[j] == a.c.MaxCount {
					continue
				}
				copy(y, x)
				y[r]--
				y[j]++
				if err := a.pair(&res, i, x, sx, i-a.pow[r]+a.pow[j], y); err != nil {
					return Result{}, err
				}
			}
		}
	}
	return res, nil
}

// pair checks the pair (x, y), y having index j, and folds it into res.
func (a *Auditor) pair(res *Result, i int, x []int, sx, j int, y []int) error {
	sy, err := a.entry(j, y)
	if err != nil {
		return err
	}
	// The entry of y may have evicted x's slot only if the window were too
	// narrow; it is one wider than the largest step, so sx still holds x.
	k := a.c.Candidates
	res.Pairs++
	if a.discrete {
		lp, lq := a.logp[sx*k:(sx+1)*k], a.logp[sy*k:(sy+1)*k]
		loss, o := discreteLoss(lp, lq)
		if res.Pairs == 1 || loss > res.Loss {
			res.Loss, res.Worst = loss, Worst{Output: o, LogPData: logOrInf(lp[o]), LogPNeighbour: logOrInf(lq[o]),
				Description: "candidate " + itoa(o)}
		} else {
			return nil
		}
	} else {
		u, v := a.u[sx*k:(sx+1)*k], a.u[sy*k:(sy+1)*k]
		loss, w := continuousLoss(a.c.Mechanism, a.c.Epsilon, u, v, a.delta[sx], a.delta[sy])
		if res.Pairs > 1 && loss <= res.Loss {
			return nil
		}
		res.Loss, res.Worst = loss, w
	}
	res.Worst.Data, res.Worst.Neighbour = append([]int(nil), x...), append([]int(nil), y...)
	return nil
}

// discreteLoss returns maxₒ |ln p(o) − ln q(o)| and the output attaining it;
// an output possible under one and impossible under the other gives +Inf.
func discreteLoss(lp, lq []float64) (float64, int) {
	best, at := 0.0, 0
	for o := range lp {
		zp, zq := lp[o] <= numeric.LogZero, lq[o] <= numeric.LogZero
		var l float64
		switch {
		case zp && zq:
			continue
		case zp || zq:
			l = math.Inf(1)
		default:
			l = math.Abs(lp[o] - lq[o])
		}
		if l > best {
			best, at = l, o
		}
	}
	return best, at
}

func logOrInf(l float64) float64 {
	if l <= numeric.LogZero {
		return math.Inf(-1)
	}
	return l
}

// LogProbabilities returns the exact output log-probabilities of a
// selection mechanism on data set x (the page charts the worst pair's).
func (a *Auditor) LogProbabilities(x []int) ([]float64, error) {
	if !a.discrete {
		return nil, validate.Errorf("mechanism", "%s has a continuous output", a.c.Mechanism)
	}
	if len(x) != a.c.Candidates {
		return nil, validate.Errorf("data", "has %d counts, not %d", len(x), a.c.Candidates)
	}
	i := 0
	for r, c := range x {
		if c < 0 || c > a.c.MaxCount {
			return nil, validate.Errorf(validate.Index("data", r), "must be between 0 and %d, got %d", a.c.MaxCount, c)
		}
		i += c * a.pow[r]
	}
	s, err := a.entry(i, append([]int(nil), x...))
	if err != nil {
		return nil, err
	}
	k := a.c.Candidates
	return append([]float64(nil), a.logp[s*k:(s+1)*k]...), nil
}

func itoa(i int) string { return strconv.Itoa(i) }

func ints(xs []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}
