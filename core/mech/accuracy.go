package mech

import (
	"math"
	"sort"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/validate"
)

// AccuracyThreshold returns the score below which the exponential mechanism
// falls with probability at most e^−t:
//
//	Pr[u(r) ≤ OPT − (2Δ/ε)·(ln(|R|/|R_OPT|) + t)] ≤ e^−t,
//
// where |R| is the number of candidates and |R_OPT| the number that attain
// the optimum OPT.
func AccuracyThreshold(opt, epsilon, sensitivity float64, candidates, optimal int, t float64) (float64, error) {
	if err := validate.Finite("OPT", opt); err != nil {
		return 0, err
	}
	if err := checkEpsilonDelta(epsilon, sensitivity); err != nil {
		return 0, err
	}
	if candidates < 1 || optimal < 1 || optimal > candidates {
		return 0, validate.Errorf("|R_OPT|", "needs 1 ≤ |R_OPT| ≤ |R|, got %d of %d", optimal, candidates)
	}
	if err := validate.Finite("t", t); err != nil || t < 0 {
		return 0, validate.Errorf("t", "must be a finite number ≥ 0, got %v", t)
	}
	x := opt - 2*sensitivity/epsilon*(math.Log(float64(candidates)/float64(optimal))+t)
	if err := validate.Finite("threshold", x); err != nil {
		return 0, validate.Errorf("threshold", "overflows for ε = %v, Δ = %v", epsilon, sensitivity)
	}
	return x, nil
}

// OptimalCount returns OPT = max u and |R_OPT|, the number of candidates
// attaining it, as the exponential mechanism's accuracy theorem and
// ExpectedLoss use them.
func OptimalCount(scores []float64) (opt float64, count int, err error) {
	if err := validate.Scores("scores", scores); err != nil {
		return 0, 0, err
	}
	opt = math.Inf(-1)
	for _, u := range scores {
		if u > opt {
			opt, count = u, 0
		}
		if u == opt {
			count++
		}
	}
	return opt, count, nil
}

// TailProbability returns the exact Pr[u(output) ≤ threshold] for a
// mechanism with the given output probabilities over candidates with these
// scores, Σ_{r : u(r) ≤ threshold} Pr[r]: the quantity the accuracy theorem
// bounds.
func TailProbability(probs, scores []float64, threshold float64) (float64, error) {
	if err := validate.Scores("scores", scores); err != nil {
		return 0, err
	}
	if err := validate.Measure("probabilities", probs, len(scores)); err != nil {
		return 0, err
	}
	if math.IsNaN(threshold) {
		return 0, validate.Errorf("threshold", "is NaN")
	}
	tail := 0.0
	for i, u := range scores {
		if u <= threshold {
			tail += probs[i]
		}
	}
	return math.Min(tail, 1), nil
}

// MeasureTailBound is the article's base-measure accuracy lemma for its
// mechanism exp(ε_a·q)·μ. With μ normalised to total mass 1,
// S_t = {r : q(r) > OPT − t} and S̄_2t = {r : q(r) ≤ OPT − 2t},
//
//	Pr[S̄_2t] ≤ exp(−ε_a·t)/μ(S_t).
//
// It returns the bound (capped at 1) and the exact probability it bounds,
// so a page can show both: lots of near-optimal mass makes the bound tight
// and small; a lone optimal "needle" makes it weak.
func MeasureTailBound(scores, measure []float64, epsArticle, t float64) (bound, exact float64, err error) {
	if err := validate.Positive("t", t); err != nil {
		return 0, 0, err
	}
	if err := validate.Positive("ε_a (article)", epsArticle); err != nil {
		return 0, 0, err
	}
	if measure == nil {
		measure = make([]float64, len(scores))
		for i := range measure {
			measure[i] = 1
		}
	}
	// The article's mechanism with parameter ε_a is ours with ε = 2·ε_a·Δ
	// for any Δ; Δ = 1 keeps the conversion exact.
	eps, err := FromArticle(epsArticle, 1)
	if err != nil {
		return 0, 0, err
	}
	m, err := NewExponential(Config{Scores: scores, Epsilon: eps, Sensitivity: 1, Measure: measure})
	if err != nil {
		return 0, 0, err
	}
	opt, _, _ := OptimalCount(scores)
	// Weights relative to the largest, so that the sums stay finite even
	// for weights near MaxFloat64.
	wmax := 0.0
	for _, w := range measure {
		wmax = math.Max(wmax, w)
	}
	total, near := 0.0, 0.0
	for i, u := range scores {
		total += measure[i] / wmax
		if u > opt-t {
			near += measure[i] / wmax
		}
	}
	bound = 1 // no near-optimal mass: the lemma says nothing
	if near > 0 {
		logBound := -epsArticle*t - math.Log(near/total)
		bound = math.Min(1, math.Exp(math.Max(logBound, numeric.LogZero)))
	}
	exact, err = TailProbability(m.Probabilities(), scores, opt-2*t)
	return bound, exact, err
}

// ScoreMass is one step of an empirical score distribution: the fraction of
// draws whose score is Score.
type ScoreMass struct {
	Score      float64
	Fraction   float64 // share of draws that achieved exactly this score
	Cumulative float64 // share of draws that achieved this score or less
}

// EmpiricalScores turns draw counts per candidate into the empirical
// distribution of the achieved score, lowest score first.
func EmpiricalScores(scores []float64, counts []int) ([]ScoreMass, error) {
	if err := validate.Scores("scores", scores); err != nil {
		return nil, err
	}
	if len(counts) != len(scores) {
		return nil, validate.Errorf("counts", "has %d entries for %d candidates", len(counts), len(scores))
	}
	byScore := map[float64]int{}
	n := 0
	for i, c := range counts {
		if c < 0 {
			return nil, validate.Errorf(validate.Index("counts", i), "must be ≥ 0, got %d", c)
		}
		byScore[scores[i]] += c
		n += c
	}
	if n == 0 {
		return nil, validate.Errorf("counts", "holds no draws")
	}
	out := make([]ScoreMass, 0, len(byScore))
	for u, c := range byScore {
		out = append(out, ScoreMass{Score: u, Fraction: float64(c) / float64(n)})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Score < out[b].Score })
	cum := 0.0
	for i := range out {
		cum += out[i].Fraction
		out[i].Cumulative = math.Min(cum, 1)
	}
	return out, nil
}

// ExpectedLoss returns OPT − E[u(output)], the expected shortfall of a
// selection mechanism from the best score, computed exactly from s's output
// probabilities: Σᵣ Pr[r]·(OPT − u(r)).
func ExpectedLoss(s Selector, scores []float64) (float64, error) {
	opt, _, err := OptimalCount(scores)
	if err != nil {
		return 0, err
	}
	probs := s.Probabilities()
	if len(probs) != len(scores) {
		return 0, validate.Errorf("scores", "has %d candidates; the mechanism has %d", len(scores), len(probs))
	}
	loss := 0.0
	for i, p := range probs {
		if p > 0 {
			// Halving keeps opt − u finite for scores near ±1e308.
			loss += p * (opt/2 - scores[i]/2)
		}
	}
	return math.Min(2*loss, math.MaxFloat64), nil
}
