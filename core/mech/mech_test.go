package mech

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/internal/reference"
	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// alpha is the false-failure rate every distribution test is held to.
const alpha = 1e-6

// adultCounts are the Adult data set's marital-status counts.
var adultCounts = []float64{14976, 10683, 4443, 1025, 993, 418, 23}

// spread is a score vector whose probabilities are all far from 0 and 1 at
// ε = 1, so a chi-square test has power in every cell.
var spread = []float64{3, 2.5, 2, 1, 0, -1, 0.2}

func mustNew(t *testing.T, name string, c Config) Selector {
	t.Helper()
	s, err := New(name, c)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	return s
}

// chiSquare draws n times from s and tests the counts against probs.
func chiSquare(t *testing.T, s Selector, probs []float64, seed uint64, n int) stats.Result {
	t.Helper()
	counts, err := Draw(s, rng.Seeded(seed), n)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stats.ChiSquare(counts, probs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSamplersMatchExactProbabilities(t *testing.T) {
	const draws = 200_000
	for i, name := range Names() {
		t.Run(name, func(t *testing.T) {
			c := Config{Scores: spread, Epsilon: 1, Sensitivity: 1}
			m := mustNew(t, name, c)
			if res := chiSquare(t, m, m.Probabilities(), uint64(100+i), draws); res.PValue < alpha {
				t.Errorf("correct sampler rejected: χ² = %.1f, df = %d, p = %.3g", res.Statistic, res.DF, res.PValue)
			}
			// The mis-scaled variant uses ε/Δ instead of ε/(2Δ): the same
			// mechanism at twice the ε. Its draws must fail the same test.
			c.Epsilon *= 2
			broken := mustNew(t, name, c)
			if res := chiSquare(t, broken, m.Probabilities(), uint64(200+i), draws); res.PValue >= alpha {
				t.Errorf("mis-scaled sampler passed: χ² = %.1f, p = %.3g", res.Statistic, res.PValue)
			}
		})
	}
}

func TestProbabilitiesSumToOne(t *testing.T) {
	for _, name := range Names() {
		for _, scores := range [][]float64{spread, adultCounts, {0}, {1, 1, 1, 1}} {
			m := mustNew(t, name, Config{Scores: scores, Epsilon: 1, Sensitivity: 1})
			sum := 0.0
			for _, p := range m.Probabilities() {
				sum += p
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s %v: probabilities sum to %.15f", name, scores, sum)
			}
		}
	}
}

func TestExponentialMatchesSoftmax(t *testing.T) {
	for _, tc := range []struct {
		scores   []float64
		eps, sen float64
	}{
		{spread, 1, 1},
		{spread, 0.1, 2},
		{[]float64{14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023}, 1, 1}, // the notebook's count/1000 scores
		{[]float64{-3, 7, 7, 0}, 3, 0.5},
	} {
		m, err := NewExponential(Config{Scores: tc.scores, Epsilon: tc.eps, Sensitivity: tc.sen})
		if err != nil {
			t.Fatal(err)
		}
		want := reference.Exponential(tc.scores, tc.eps/(2*tc.sen), nil)
		for i, p := range m.Probabilities() {
			if math.Abs(p-want[i]) > 1e-12 {
				t.Errorf("%v: p[%d] = %.15g, want %.15g", tc.scores, i, p, want[i])
			}
		}
	}
}

func TestExponentialOnRawAdultCounts(t *testing.T) {
	m, err := NewExponential(Config{Scores: adultCounts, Epsilon: 1, Sensitivity: 1})
	if err != nil {
		t.Fatal(err)
	}
	logp := m.LogProbabilities()
	// Every other weight is below e^−2000 of the top one, so the top's log
	// probability is 0 to double precision and the others' are exact gaps.
	for i, lp := range logp {
		want := (adultCounts[i] - adultCounts[0]) / 2
		if math.Abs(lp-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("ln p[%d] = %v, want %v", i, lp, want)
		}
	}
	if p := m.Probabilities(); p[0] != 1 {
		t.Errorf("top candidate has p = %v, want 1", p[0])
	}
}

func TestGumbelNoiseEqualsExponentialMechanism(t *testing.T) {
	for _, eps := range []float64{0.1, 1, 5} {
		c := Config{Scores: spread, Epsilon: eps, Sensitivity: 1}
		em := mustNew(t, NameExponential, c)
		gumbel := mustNew(t, NameReportNoisyMaxGumbel, c)
		for i, p := range em.Probabilities() {
			if d := math.Abs(p - gumbel.Probabilities()[i]); d > 1e-15 {
				t.Errorf("ε = %v: exact probabilities differ by %g at %d", eps, d, i)
			}
		}
		// The real noise-adding sampler against the exponential mechanism's
		// distribution.
		if res := chiSquare(t, gumbel, em.Probabilities(), 7, 200_000); res.PValue < alpha {
			t.Errorf("ε = %v: Gumbel report noisy max differs from the exponential mechanism: p = %.3g", eps, res.PValue)
		}
	}
}

// TestReportNoisyMaxLaplaceMatchesIndependentIntegral compares the exact
// probabilities with reference.RNMLaplace, Simpson's rule in the linear
// domain, at unit scale on the scores ε·u/Δ.
func TestReportNoisyMaxLaplaceMatchesIndependentIntegral(t *testing.T) {
	for _, tc := range []struct {
		scores   []float64
		eps, sen float64
	}{
		{spread, 1, 1},
		{[]float64{0, 0}, 1, 1},
		{[]float64{5, 4.9, 4.8, -2}, 2, 1},
		{[]float64{14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023}, 1, 1},
		{[]float64{1, 3, 3, 2, 0.5}, 0.7, 0.3},
	} {
		m, err := NewReportNoisyMax(Config{Scores: tc.scores, Epsilon: tc.eps, Sensitivity: tc.sen}, LaplaceNoise)
		if err != nil {
			t.Fatal(err)
		}
		s := make([]float64, len(tc.scores))
		for i, u := range tc.scores {
			s[i] = u * tc.eps / tc.sen
		}
		want := reference.RNMLaplace(s, 1, 20000)
		for i, p := range m.Probabilities() {
			if math.Abs(p-want[i]) > 1e-9 {
				t.Errorf("%v: p[%d] = %.12f, independent integral %.12f", tc.scores, i, p, want[i])
			}
		}
	}
}

func TestReportNoisyMaxLaplaceTinyProbabilities(t *testing.T) {
	// Raw Adult counts with b = 1: losers' probabilities are like e^−4000.
	m, err := NewReportNoisyMax(Config{Scores: adultCounts, Epsilon: 1, Sensitivity: 1}, LaplaceNoise)
	if err != nil {
		t.Fatal(err)
	}
	logp := m.LogProbabilities()
	// With two candidates far apart by g (in units of b), the runner-up wins
	// when L₂ − L₁ > g; that tail is (2 + g)·e^−g/4. The others only lower it.
	g := adultCounts[0] - adultCounts[1]
	upper := math.Log((2+g)/4) - g
	if !(logp[1] <= upper+1e-9 && logp[1] > upper-1e-6) {
		t.Errorf("ln p[1] = %v, want about %v", logp[1], upper)
	}
	for i := 2; i < len(logp); i++ {
		if !(logp[i] < logp[i-1]) || math.IsInf(logp[i], 0) || math.IsNaN(logp[i]) {
			t.Errorf("ln p[%d] = %v after %v", i, logp[i], logp[i-1])
		}
	}
}

func TestPermuteAndFlipMatchesEnumeration(t *testing.T) {
	for _, tc := range []struct {
		scores   []float64
		eps, sen float64
	}{
		{spread, 1, 1},
		{[]float64{2, 2, 1}, 1, 1},
		{[]float64{0, -1, -2, -3, -4}, 4, 1},
		{[]float64{0.3, 0.1}, 0.5, 0.25},
	} {
		m := mustNew(t, NamePermuteAndFlip, Config{Scores: tc.scores, Epsilon: tc.eps, Sensitivity: tc.sen})
		want := reference.PermuteAndFlip(tc.scores, tc.eps, tc.sen)
		for i, p := range m.Probabilities() {
			if math.Abs(p-want[i]) > 1e-9 {
				t.Errorf("%v: p[%d] = %.12f, enumeration %.12f", tc.scores, i, p, want[i])
			}
		}
	}
}

func TestPermuteAndFlipNeverLessAccurate(t *testing.T) {
	r := rng.Seeded(3)
	for trial := 0; trial < 50; trial++ {
		scores := make([]float64, 2+r.IntN(6))
		for i := range scores {
			scores[i] = 10 * r.Float64()
		}
		c := Config{Scores: scores, Epsilon: 0.1 + 3*r.Float64(), Sensitivity: 1}
		em, pf := mustNew(t, NameExponential, c), mustNew(t, NamePermuteAndFlip, c)
		if a, b := expectedScore(pf, scores), expectedScore(em, scores); a < b-1e-12 {
			t.Errorf("%v: permute-and-flip expected score %v < exponential mechanism %v", scores, a, b)
		}
	}
}

func expectedScore(s Selector, scores []float64) float64 {
	e := 0.0
	for i, p := range s.Probabilities() {
		e += p * scores[i]
	}
	return e
}

func TestZeroMeasureNeverChosen(t *testing.T) {
	c := Config{Scores: []float64{100, 1, 0}, Epsilon: 1, Sensitivity: 1, Measure: []float64{0, 1, 2}}
	m, err := NewExponential(c)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Probabilities(); p[0] != 0 || m.LogProbabilities()[0] != numeric.LogZero {
		t.Fatalf("top-scoring candidate with μ = 0 has p = %v", p[0])
	}
	r := rng.Seeded(11)
	for i := 0; i < 100_000; i++ {
		if m.Sample(r) == 0 {
			t.Fatal("alias sampler chose a candidate with μ = 0")
		}
		if k, _ := SampleExponentialOnce(c, r); k == 0 {
			t.Fatal("Gumbel-max sampler chose a candidate with μ = 0")
		}
	}
	// μ = (0, 1, 2) weights the remaining two by 1·e^(1/2) and 2·e^0.
	want := math.Exp(0.5) / (math.Exp(0.5) + 2)
	if got := m.Probabilities()[1]; math.Abs(got-want) > 1e-15 {
		t.Errorf("p[1] = %v, want %v", got, want)
	}
}

func TestSampleExponentialOnce(t *testing.T) {
	c := Config{Scores: spread, Epsilon: 1, Sensitivity: 1, Measure: []float64{1, 2, 0.5, 1, 3, 1, 0.1}}
	m, err := NewExponential(c)
	if err != nil {
		t.Fatal(err)
	}
	r := rng.Seeded(5)
	counts := make([]int, len(spread))
	for i := 0; i < 100_000; i++ {
		k, err := SampleExponentialOnce(c, r)
		if err != nil {
			t.Fatal(err)
		}
		counts[k]++
	}
	if res, _ := stats.ChiSquare(counts, m.Probabilities()); res.PValue < alpha {
		t.Errorf("Gumbel-max draws differ from exact: p = %.3g", res.PValue)
	}
}

func TestValidation(t *testing.T) {
	good := Config{Scores: spread, Epsilon: 1, Sensitivity: 1}
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"zero ε", func(c *Config) { c.Epsilon = 0 }},
		{"negative ε", func(c *Config) { c.Epsilon = -1 }},
		{"NaN ε", func(c *Config) { c.Epsilon = math.NaN() }},
		{"infinite ε", func(c *Config) { c.Epsilon = math.Inf(1) }},
		{"zero Δ", func(c *Config) { c.Sensitivity = 0 }},
		{"infinite Δ", func(c *Config) { c.Sensitivity = math.Inf(1) }},
		{"no candidates", func(c *Config) { c.Scores = nil }},
		{"NaN score", func(c *Config) { c.Scores = []float64{1, math.NaN()} }},
		{"infinite score", func(c *Config) { c.Scores = []float64{math.Inf(-1), 1} }},
		{"short measure", func(c *Config) { c.Measure = []float64{1} }},
		{"negative measure", func(c *Config) { c.Measure = []float64{1, 1, 1, -1, 1, 1, 1} }},
		{"NaN measure", func(c *Config) { c.Measure = []float64{1, 1, 1, math.NaN(), 1, 1, 1} }},
		{"zero measure", func(c *Config) { c.Measure = make([]float64, 7) }},
	} {
		c := good
		tc.edit(&c)
		for _, name := range Names() {
			_, err := New(name, c)
			var verr *validate.Error
			if !errors.As(err, &verr) {
				t.Errorf("%s with %s: got %v, want a *validate.Error", name, tc.name, err)
			}
		}
		if _, err := SampleExponentialOnce(c, rng.Seeded(1)); err == nil {
			t.Errorf("SampleExponentialOnce with %s: no error", tc.name)
		}
	}
	// Report noisy max's exact probabilities stop at MaxExactCandidates;
	// the exponential mechanism has no such limit.
	many := make([]float64, MaxExactCandidates+1)
	for _, noise := range []Noise{LaplaceNoise, GumbelNoise, ExponentialNoise} {
		if _, err := NewReportNoisyMax(Config{Scores: many, Epsilon: 1, Sensitivity: 1}, noise); err == nil {
			t.Errorf("%v noise: %d candidates accepted", noise, len(many))
		}
	}
	if _, err := NewReportNoisyMax(Config{Scores: many[:MaxExactCandidates], Epsilon: 1, Sensitivity: 1}, ExponentialNoise); err != nil {
		t.Errorf("%d candidates refused: %v", MaxExactCandidates, err)
	}
	if _, err := NewExponential(Config{Scores: many, Epsilon: 1, Sensitivity: 1}); err != nil {
		t.Errorf("the exponential mechanism refused %d candidates: %v", len(many), err)
	}
	if _, err := New("nonsense", good); err == nil {
		t.Error("unknown mechanism name accepted")
	} else if msg := err.Error(); strings.Contains(msg, "%!") || !strings.Contains(msg, strings.Join(Names(), ", ")) {
		t.Errorf("unknown mechanism: message %q does not list the names", msg)
	}
}

func TestExtremeInputsStayFinite(t *testing.T) {
	for _, c := range []Config{
		{Scores: []float64{1e308, -1e308, 0}, Epsilon: 1, Sensitivity: 1},
		{Scores: []float64{math.MaxFloat64, -math.MaxFloat64}, Epsilon: 1e-12, Sensitivity: 1e-300},
		{Scores: []float64{1, 2, 3}, Epsilon: 1e-12, Sensitivity: 1},
		{Scores: []float64{1, 2, 3}, Epsilon: 1e300, Sensitivity: 1e-300},
		{Scores: []float64{42}, Epsilon: 1, Sensitivity: 1},
		{Scores: []float64{-1e308, -1e308}, Epsilon: 5e-324, Sensitivity: math.MaxFloat64},
	} {
		for _, name := range Names() {
			m, err := New(name, c)
			if err != nil {
				t.Errorf("%s %v: %v", name, c, err)
				continue
			}
			sum := 0.0
			for i, p := range m.Probabilities() {
				lp := m.LogProbabilities()[i]
				if math.IsNaN(p) || math.IsInf(p, 0) || math.IsNaN(lp) || math.IsInf(lp, 0) {
					t.Errorf("%s %v: p[%d] = %v, ln p = %v", name, c, i, p, lp)
				}
				sum += p
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("%s %v: probabilities sum to %v", name, c, sum)
			}
			if k := m.Sample(rng.Seeded(1)); k < 0 || k >= len(c.Scores) {
				t.Errorf("%s %v: sample %d out of range", name, c, k)
			}
		}
	}
}

func TestArticleConversion(t *testing.T) {
	// exp(ε_a·q) with ε_a = 0.25 and Δ = 2 is the notebook's form with
	// ε = 2·0.25·2 = 1: both give weights exp(q/4).
	eps, err := FromArticle(0.25, 2)
	if err != nil || eps != 1 {
		t.Fatalf("FromArticle(0.25, 2) = %v, %v; want 1", eps, err)
	}
	back, err := ToArticle(eps, 2)
	if err != nil || back != 0.25 {
		t.Fatalf("ToArticle(1, 2) = %v, %v; want 0.25", back, err)
	}
	m, _ := NewExponential(Config{Scores: spread, Epsilon: eps, Sensitivity: 2})
	want := reference.Exponential(spread, 0.25, nil)
	for i, p := range m.Probabilities() {
		if math.Abs(p-want[i]) > 1e-12 {
			t.Errorf("p[%d] = %v, article's form gives %v", i, p, want[i])
		}
	}
	if _, err := FromArticle(0, 1); err == nil {
		t.Error("FromArticle accepted ε_a = 0")
	}
}
