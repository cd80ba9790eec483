package selection

import (
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// IntervalZ is the half-width, in standard errors, of the interval around
// each estimated log-ratio in Neighbours. At z = 3 one interval misses the truth
// about 0.3% of the time, so with up to ten outcomes all of them cover it
// together at least 97% of the time: a correct mechanism rarely shows a
// false breach, and a broken one cannot hide behind one.
const IntervalZ = 3

// Neighbours compares the exponential mechanism run on two
// neighbouring data sets x and x′ (one person's answer differs).
type Neighbours struct {
	Claimed float64 // the ε the mechanism is said to have
	// Run is the ε in exp(ε·u/(2Δ)) actually used: Claimed, or 2·Claimed for
	// the broken variant, which weighs by exp(ε·u/Δ), the ε/Δ scale.
	Run      float64
	PX, PY   []float64 // exact output probabilities on x and on x′
	LogRatio []float64 // ln PX(r) − ln PY(r), exact, from the log-domain probabilities
	Loss     float64   // max over r of |LogRatio|: the privacy loss on this pair
	// From the draws: the estimate of each log-ratio and its interval
	// (stats.LogRatio at IntervalZ); Drawn[r] is 0 where an outcome was never
	// drawn on one side, which leaves no finite estimate.
	CountX, CountY      []float64
	Estimate, Low, High []float64
	Drawn               []float64
	// Breaches counts outcomes whose whole interval lies outside [−ε, ε]:
	// evidence from draws alone that the claimed ε is false.
	Breaches int
}

// CompareNeighbours runs the exponential mechanism with sensitivity Δ at the
// claimed ε (or, broken, at the ε/Δ scale) on scores x and y, which must be
// neighbours (mech.CheckNeighbours), and n seeded draws on each side from the
// slot's streams, and estimates each output's log-ratio ln(PX/PY) from the
// draws, to be compared with the ±ε band.
func (c *Streams) CompareNeighbours(slot string, x, y []float64, epsilon, sensitivity float64, broken bool, seed uint64, n int) (Neighbours, error) {
	var out Neighbours
	if err := validate.Positive("ε (epsilon)", epsilon); err != nil {
		return out, err
	}
	if err := mech.CheckNeighbours(x, y, sensitivity); err != nil {
		return out, err
	}
	run := epsilon
	if broken {
		run = 2 * epsilon
	}
	mx, err := mech.NewExponential(mech.Config{Scores: x, Epsilon: run, Sensitivity: sensitivity})
	if err != nil {
		return out, err
	}
	my, err := mech.NewExponential(mech.Config{Scores: y, Epsilon: run, Sensitivity: sensitivity})
	if err != nil {
		return out, err
	}
	loss, err := mech.PrivacyLoss(mx, my)
	if err != nil {
		return out, err
	}
	out = Neighbours{Claimed: epsilon, Run: run, PX: mx.Probabilities(), PY: my.Probabilities(), Loss: loss}
	lx, ly := mx.LogProbabilities(), my.LogProbabilities()
	out.LogRatio = make([]float64, len(x))
	for i := range x {
		out.LogRatio[i] = lx[i] - ly[i]
	}
	req := func(s []float64) Request {
		return Request{Mechanism: mech.NameExponential, Scores: s, Epsilon: run, Sensitivity: sensitivity}
	}
	if out.CountX, err = c.Draws(slot+"/x", req(x), seed, n); err != nil {
		return Neighbours{}, err
	}
	// The second side gets its own stream: the same seed on both sides would
	// couple the two histograms' noise.
	if out.CountY, err = c.Draws(slot+"/y", req(y), seed^0x5bd1e995, n); err != nil {
		return Neighbours{}, err
	}
	k := len(x)
	out.Estimate, out.Low, out.High, out.Drawn = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	for i := range x {
		est, lo, hi, err := stats.LogRatio(int(out.CountX[i]), n, int(out.CountY[i]), n, IntervalZ)
		if err != nil {
			continue // never drawn on one side (or no draws yet): no estimate
		}
		out.Estimate[i], out.Low[i], out.High[i], out.Drawn[i] = est, lo, hi, 1
		if lo > epsilon || hi < -epsilon {
			out.Breaches++
		}
	}
	return out, nil
}
