package selection

import (
	"math"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// maxAttackDraws bounds one attack request: each draw inverts the sampler,
// up to a few thousand logarithms.
const maxAttackDraws = 20000

// Attack is the result of the floating-point attack on the naive Laplace
// sampler (mech.FloatingPointAttack).
type Attack struct {
	Outputs   []float64 // the first draws' outputs (at most 12), for display
	RuledOut  []bool    // whether q′ could never have produced each of them
	Count     int       // outputs among all draws that rule q′ out
	Draws     int
	Neighbour int // of the outputs q′ would give, how many rule q out (same draws count, seed+1)
}

// FloatAttack draws the naive floating-point Laplace mechanism (mech.Laplace,
// which samples q + b·S·(−ln U) in doubles) at answer q, seeded, and asks of
// every output whether the neighbouring answer q′ could have produced it
// (mech.NaiveLaplaceCouldOutput). It then runs the same experiment the other
// way round, from q′ against q.
func FloatAttack(q, qNeighbour, sensitivity, epsilon float64, draws int, seed uint64) (Attack, error) {
	if draws < 0 || draws > maxAttackDraws {
		return Attack{}, validate.Errorf("draws", "must be between 0 and %d, got %d", maxAttackDraws, draws)
	}
	l, err := mech.NewLaplace(q, sensitivity, epsilon)
	if err != nil {
		return Attack{}, err
	}
	if err := validate.Finite("q′", qNeighbour); err != nil {
		return Attack{}, err
	}
	a := Attack{Draws: draws}
	r := rng.Seeded(seed)
	for i := 0; i < draws; i++ {
		x := l.Sample(r)
		ok, err := mech.NaiveLaplaceCouldOutput(x, qNeighbour, l.Scale())
		if err != nil {
			return Attack{}, err
		}
		if !ok {
			a.Count++
		}
		if len(a.Outputs) < 12 {
			a.Outputs = append(a.Outputs, x)
			a.RuledOut = append(a.RuledOut, !ok)
		}
	}
	a.Neighbour, err = mech.FloatingPointAttack(qNeighbour, q, sensitivity, epsilon, draws, rng.Seeded(seed+1))
	return a, err
}

// DiscreteLaplaceHistogram draws the exact discrete Laplace mechanism
// (mech.NewDiscreteLaplace, Canonne–Kamath–Steinke 2020) n times at the
// integer answer value, seeded, and returns for each integer in [lo, hi] its
// exact probability and how many draws landed there, plus the draws outside
// and the ε actually achieved (σ is rounded up to a multiple of 1/4096).
func DiscreteLaplaceHistogram(value, sensitivity int64, epsilon float64, n int, seed uint64, lo, hi int64) (pmf, counts []float64, outside int, achieved float64, err error) {
	if n < 0 || n > 1_000_000 {
		return nil, nil, 0, 0, validate.Errorf("draws", "must be between 0 and 1,000,000, got %d", n)
	}
	if hi < lo || hi-lo > 400 {
		return nil, nil, 0, 0, validate.Errorf("range", "needs lo ≤ hi and at most 401 integers, got [%d, %d]", lo, hi)
	}
	m, err := mech.NewDiscreteLaplace(value, sensitivity, epsilon)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	pmf = make([]float64, hi-lo+1)
	counts = make([]float64, hi-lo+1)
	for y := lo; y <= hi; y++ {
		pmf[y-lo] = math.Exp(m.LogPMF(y))
	}
	r := rng.Seeded(seed)
	for i := 0; i < n; i++ {
		y := m.Sample(r)
		if y < lo || y > hi {
			outside++
			continue
		}
		counts[y-lo]++
	}
	return pmf, counts, outside, m.Epsilon(), nil
}
