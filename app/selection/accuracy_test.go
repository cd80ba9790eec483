package selection

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/validate"
)

// For two candidates with scores 1 and 0 (Δ = 1) the losses have closed
// forms: the exponential mechanism picks the worse one with probability
// 1/(1+e^{ε/2}); permute-and-flip only when it looks at the worse one first
// (probability ½) and its coin, of bias e^{−ε/2}, comes up heads.
func TestLossCurveTwoCandidates(t *testing.T) {
	eps := []float64{0.1, 1, 2 * math.Log(3), 5}
	got, err := LossCurve([]float64{1, 0}, 1, []string{mech.NameExponential, mech.NamePermuteAndFlip}, eps)
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range eps {
		em := 1 / (1 + math.Exp(e/2))
		pf := 0.5 * math.Exp(-e/2)
		if d := math.Abs(got[k] - em); d > 1e-9 {
			t.Errorf("exponential at ε=%g: loss %g, want %g", e, got[k], em)
		}
		if d := math.Abs(got[len(eps)+k] - pf); d > 1e-6 {
			t.Errorf("permute-and-flip at ε=%g: loss %g, want %g", e, got[len(eps)+k], pf)
		}
	}
}

// Permute-and-flip is never worse than the exponential mechanism, and the
// ratio of their losses stays within [1, 2] (McKenna and Sheldon 2020).
func TestLossCurvePermuteAndFlipDominates(t *testing.T) {
	scores := []float64{14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023}
	var eps []float64
	for e := 0.05; e < 20; e *= 1.3 {
		eps = append(eps, e)
	}
	got, err := LossCurve(scores, 1, []string{mech.NameExponential, mech.NamePermuteAndFlip}, eps)
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range eps {
		em, pf := got[k], got[len(eps)+k]
		if pf > em*(1+1e-6)+1e-12 {
			t.Errorf("ε=%g: permute-and-flip loss %g exceeds the exponential mechanism's %g", e, pf, em)
		}
		if em > 2*pf*(1+1e-6)+1e-12 {
			t.Errorf("ε=%g: exponential loss %g is more than twice permute-and-flip's %g", e, em, pf)
		}
	}
	// Losses fall as ε grows.
	for k := 1; k < len(eps); k++ {
		if got[k] > got[k-1]+1e-12 {
			t.Errorf("exponential loss rose from %g to %g between ε=%g and ε=%g", got[k-1], got[k], eps[k-1], eps[k])
		}
	}
}

func TestLossCurveRejects(t *testing.T) {
	many := make([]float64, maxLossPoints+1)
	for i := range many {
		many[i] = 1
	}
	for _, tc := range []struct {
		name   string
		scores []float64
		mechs  []string
		eps    []float64
	}{
		{"no mechanisms", []float64{1, 0}, nil, []float64{1}},
		{"no epsilons", []float64{1, 0}, []string{mech.NameExponential}, nil},
		{"unknown mechanism", []float64{1, 0}, []string{"nope"}, []float64{1}},
		{"negative epsilon", []float64{1, 0}, []string{mech.NameExponential}, []float64{-1}},
		{"NaN score", []float64{1, math.NaN()}, []string{mech.NameExponential}, []float64{1}},
		{"too many points", []float64{1, 0}, []string{mech.NameExponential}, many},
	} {
		_, err := LossCurve(tc.scores, 1, tc.mechs, tc.eps)
		var ve *validate.Error
		if err == nil || !errors.As(err, &ve) {
			t.Errorf("%s: got %v, want a validate error", tc.name, err)
		}
	}
}

// The accuracy theorem must hold exactly: Pr[u ≤ threshold] ≤ e^−t, for
// every ε, t and candidate set tried; and the threshold is the formula.
func TestAccuracyReportTheorem(t *testing.T) {
	spread := make([]float64, 200)
	for i := range spread {
		spread[i] = 10 * (1 - float64(i)/199)
	}
	sets := map[string][]float64{"two": {1, 0}, "adult": adult, "spread": spread, "ties": {5, 5, 4, 0, 0, 0}}
	for name, s := range sets {
		for _, eps := range []float64{0.1, 1, 3} {
			for _, tt := range []float64{0, 0.5, 2, 5} {
				a, err := AccuracyReport(s, eps, 1, tt, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := a.Opt - 2/eps*(math.Log(float64(len(s))/float64(a.Optimal))+tt)
				if math.Abs(a.Threshold-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("%s ε=%g t=%g: threshold %g, want %g", name, eps, tt, a.Threshold, want)
				}
				if a.Exact > a.Bound*(1+1e-9) {
					t.Errorf("%s ε=%g t=%g: Pr = %g exceeds the bound e^−t = %g", name, eps, tt, a.Exact, a.Bound)
				}
				if last := a.ExactCDF[len(a.ExactCDF)-1]; math.Abs(last-1) > 1e-9 {
					t.Errorf("%s: exact CDF ends at %g", name, last)
				}
			}
		}
	}
	// Two candidates at ε = 1, t = 0: threshold 1 − 2 ln 2 < 0, so the tail
	// is empty; at ε = 10 the threshold is above 0 and the tail is the
	// chance of picking the 0, 1/(1 + e^5).
	a, _ := AccuracyReport([]float64{1, 0}, 10, 1, 0, nil)
	if want := 1 / (1 + math.Exp(5)); math.Abs(a.Exact-want) > 1e-12 {
		t.Errorf("two candidates, ε = 10: tail %g, want %g", a.Exact, want)
	}
	if a, _ := AccuracyReport([]float64{1, 0}, 1, 1, 0, nil); a.Exact != 0 {
		t.Errorf("two candidates, ε = 1: tail %g, want 0", a.Exact)
	}
}

func TestAccuracyReportDraws(t *testing.T) {
	scores := []float64{3, 1, 1, 0}
	a, err := AccuracyReport(scores, 2, 1, 0.5, []float64{5, 2, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 1, 3}; !slices.Equal(a.Levels, want) {
		t.Fatalf("levels %v, want %v", a.Levels, want)
	}
	if want := []float64{0.2, 0.5, 1}; !slices.Equal(a.DrawCDF, want) {
		t.Errorf("draw CDF %v, want %v", a.DrawCDF, want)
	}
	// Threshold 3 − (ln 4 + 0.5) ≈ 1.11: the empirical tail is u ≤ 1.
	if a.Empirical != 0.5 {
		t.Errorf("empirical tail %g, want 0.5 (threshold %g)", a.Empirical, a.Threshold)
	}
	// Draws from the streams agree with the exact tail.
	b := New()
	c, err := b.Draws("acc", Request{Mechanism: mech.NameExponential, Scores: adult, Epsilon: 0.5, Sensitivity: 1}, 7, 20000)
	if err != nil {
		t.Fatal(err)
	}
	r, err := AccuracyReport(adult, 0.5, 1, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Levels {
		// Binomial standard error at 20,000 draws is at most 0.0036; 6 s.e.
		// fails a correct sampler with probability below 1e-8.
		if math.Abs(r.DrawCDF[i]-r.ExactCDF[i]) > 6*math.Sqrt(r.ExactCDF[i]*(1-r.ExactCDF[i])/20000)+1e-12 {
			t.Errorf("level %g: draw CDF %g, exact %g", r.Levels[i], r.DrawCDF[i], r.ExactCDF[i])
		}
	}
	for _, bad := range [][]float64{{1, -1, 0, 0}, {0.5, 0, 0, 0}} {
		if _, err := AccuracyReport(scores, 2, 1, 0.5, bad); err == nil {
			t.Errorf("counts %v accepted", bad)
		}
	}
}

// The article's lemma holds for a plateau of near-optimal mass and for a
// needle, and is far weaker for the needle.
func TestMeasureBound(t *testing.T) {
	plateau, needle := shapes(101)
	for _, ea := range []float64{1, 5, 20} {
		bp, ep, np, err := MeasureBound(plateau, nil, ea, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		bn, en, nn, err := MeasureBound(needle, nil, ea, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		if ep > bp || en > bn {
			t.Errorf("ε_a=%g: exact above bound (plateau %g > %g or needle %g > %g)", ea, ep, bp, en, bn)
		}
		if np <= nn {
			t.Errorf("ε_a=%g: plateau near mass %g not above needle's %g", ea, np, nn)
		}
		if bn < bp {
			t.Errorf("ε_a=%g: needle bound %g below plateau bound %g", ea, bn, bp)
		}
	}
}

// shapes returns two candidate sets on n points: a gentle slope
// (much near-optimal mass) and a needle (one good candidate).
func shapes(n int) (plateau, needle []float64) {
	plateau, needle = make([]float64, n), make([]float64, n)
	for i := range plateau {
		plateau[i] = -math.Abs(float64(i-n/2)) / float64(n)
		needle[i] = -0.5
	}
	needle[n/2] = 0
	return plateau, needle
}
