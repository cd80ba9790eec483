package selection

import (
	"math"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/validate"
)

// maxLossPoints bounds one loss-curve request (mechanisms × ε values), so a
// crafted URL cannot make the worker compute for minutes.
const maxLossPoints = 2000

// LossCurve returns, for each named mechanism and each ε, the exact expected
// score loss OPT − E[u(output)] (mech.ExpectedLoss) on scores with
// sensitivity Δ. The result is flat, mechanism-major: out[m*len(epsilons)+k]
// is mechanism m at epsilons[k].
func LossCurve(scores []float64, sensitivity float64, mechanisms []string, epsilons []float64) ([]float64, error) {
	if len(mechanisms) == 0 {
		return nil, validate.Errorf("mechanisms", "must name at least one mechanism")
	}
	if len(epsilons) == 0 {
		return nil, validate.Errorf("epsilons", "must hold at least one ε")
	}
	if len(mechanisms)*len(epsilons) > maxLossPoints {
		return nil, validate.Errorf("epsilons", "asks for %d points; at most %d", len(mechanisms)*len(epsilons), maxLossPoints)
	}
	out := make([]float64, 0, len(mechanisms)*len(epsilons))
	for _, name := range mechanisms {
		for _, eps := range epsilons {
			s, err := mech.New(name, mech.Config{Scores: scores, Epsilon: eps, Sensitivity: sensitivity})
			if err != nil {
				return nil, err
			}
			l, err := mech.ExpectedLoss(s, scores)
			if err != nil {
				return nil, err
			}
			out = append(out, l)
		}
	}
	return out, nil
}

// Accuracy is the exponential mechanism's accuracy theorem applied to one
// run of it.
type Accuracy struct {
	Opt       float64 // OPT, the best score
	Optimal   int     // |R_OPT|, how many candidates attain it
	Threshold float64 // OPT − (2Δ/ε)(ln(|R|/|R_OPT|) + t)
	Exact     float64 // exact Pr[u(output) ≤ Threshold]
	Bound     float64 // e^−t, the theorem's bound on Exact
	Empirical float64 // share of the draws with u ≤ Threshold (0 without draws)
	// Levels are the distinct scores, lowest first; ExactCDF and DrawCDF the
	// exact and empirical Pr[u(output) ≤ level] (DrawCDF is nil without draws).
	Levels, ExactCDF, DrawCDF []float64
}

// AccuracyReport computes the accuracy theorem's threshold for the
// exponential mechanism on scores, the exact probability of falling to it or
// below, and, from draw counts per candidate (as Streams.Draws returns them;
// all zero for none), the empirical distribution of the achieved score
// (mech.EmpiricalScores).
func AccuracyReport(scores []float64, epsilon, sensitivity, t float64, counts []float64) (Accuracy, error) {
	var a Accuracy
	opt, optimal, err := mech.OptimalCount(scores)
	if err != nil {
		return a, err
	}
	m, err := mech.NewExponential(mech.Config{Scores: scores, Epsilon: epsilon, Sensitivity: sensitivity})
	if err != nil {
		return a, err
	}
	th, err := mech.AccuracyThreshold(opt, epsilon, sensitivity, len(scores), optimal, t)
	if err != nil {
		return a, err
	}
	p := m.Probabilities()
	exact, err := mech.TailProbability(p, scores, th)
	if err != nil {
		return a, err
	}
	a = Accuracy{Opt: opt, Optimal: optimal, Threshold: th, Exact: exact, Bound: math.Exp(-t)}
	// The exact CDF over the distinct score levels.
	ones := make([]int, len(scores))
	for i := range ones {
		ones[i] = 1
	}
	levels, _ := mech.EmpiricalScores(scores, ones)
	for _, l := range levels {
		c, err := mech.TailProbability(p, scores, l.Score)
		if err != nil {
			return Accuracy{}, err
		}
		a.Levels = append(a.Levels, l.Score)
		a.ExactCDF = append(a.ExactCDF, c)
	}
	if len(counts) == 0 {
		return a, nil
	}
	ic := make([]int, len(counts))
	n := 0
	for i, c := range counts {
		if c < 0 || c != math.Trunc(c) || c > math.MaxInt32 {
			return Accuracy{}, validate.Errorf("counts", "must be whole numbers ≥ 0, got %v", c)
		}
		ic[i] = int(c)
		n += ic[i]
	}
	if n == 0 {
		return a, nil
	}
	emp, err := mech.EmpiricalScores(scores, ic)
	if err != nil {
		return Accuracy{}, err
	}
	a.DrawCDF = make([]float64, len(a.Levels))
	k := 0
	for i, l := range a.Levels {
		for k < len(emp) && emp[k].Score <= l {
			k++
		}
		if k > 0 {
			a.DrawCDF[i] = emp[k-1].Cumulative
		}
		if l <= th {
			a.Empirical = a.DrawCDF[i]
		}
	}
	return a, nil
}

// MeasureBound is the article's base-measure accuracy lemma
// (mech.MeasureTailBound) for the mechanism exp(ε_a·q)·μ: the bound
// exp(−ε_a·t)/μ(S_t) on Pr[q ≤ OPT − 2t], the exact probability, and the
// normalised near-optimal mass μ(S_t) with S_t = {r : q(r) > OPT − t}.
func MeasureBound(scores, measure []float64, epsArticle, t float64) (bound, exact, near float64, err error) {
	if measure == nil {
		measure = make([]float64, len(scores))
		for i := range measure {
			measure[i] = 1
		}
	}
	bound, exact, err = mech.MeasureTailBound(scores, measure, epsArticle, t)
	if err != nil {
		return 0, 0, 0, err
	}
	opt, _, _ := mech.OptimalCount(scores)
	total := 0.0
	for i, q := range scores {
		total += measure[i]
		if q > opt-t {
			near += measure[i]
		}
	}
	return bound, exact, near / total, nil
}
