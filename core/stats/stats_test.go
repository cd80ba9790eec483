package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestChiSquareSurvivalKnownQuantiles(t *testing.T) {
	// Upper 5% and 1e-6 points of the chi-square distribution (standard
	// tables; the 1e-6 points from the Wilson–Hilferty-checked R qchisq).
	for _, tc := range []struct{ x, df, p float64 }{
		{3.841458820694124, 1, 0.05},
		{18.30703805327515, 10, 0.05},
		{124.3421134, 100, 0.05},
		{23.92812697687947, 1, 1e-6},
		{1, 2, math.Exp(-0.5)},
		{10, 2, math.Exp(-5)},
	} {
		if got := ChiSquareSurvival(tc.x, tc.df); math.Abs(got-tc.p) > 1e-6*tc.p+1e-12 {
			t.Errorf("Q(x=%v, df=%v) = %.10g, want %.10g", tc.x, tc.df, got, tc.p)
		}
	}
}

func TestChiSquare(t *testing.T) {
	probs := []float64{0.5, 0.3, 0.2}
	r := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, 3)
	for i := 0; i < 30_000; i++ {
		u := r.Float64()
		switch {
		case u < 0.5:
			counts[0]++
		case u < 0.8:
			counts[1]++
		default:
			counts[2]++
		}
	}
	if res, _ := ChiSquare(counts, probs); res.PValue < 1e-6 || res.DF != 2 {
		t.Errorf("fair counts rejected: %+v", res)
	}
	if res, _ := ChiSquare(counts, []float64{0.45, 0.35, 0.2}); res.PValue >= 1e-6 {
		t.Errorf("wrong probabilities accepted: %+v", res)
	}
	if res, _ := ChiSquare([]int{5, 1}, []float64{1, 0}); res.PValue != 0 {
		t.Errorf("an impossible outcome drawn gives p = %v, want 0", res.PValue)
	}
	for _, bad := range []struct {
		c []int
		p []float64
	}{{nil, nil}, {[]int{1}, []float64{0.5, 0.5}}, {[]int{0, 0}, []float64{0.5, 0.5}}, {[]int{-1, 2}, []float64{0.5, 0.5}}} {
		if _, err := ChiSquare(bad.c, bad.p); err == nil {
			t.Errorf("ChiSquare(%v, %v): no error", bad.c, bad.p)
		}
	}
}

func TestKS(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 10_000)
	for i := range xs {
		xs[i] = r.Float64()
	}
	uniform := func(x float64) float64 { return math.Min(1, math.Max(0, x)) }
	if res, _ := KS(xs, uniform); res.PValue < 1e-6 {
		t.Errorf("uniform draws rejected: %+v", res)
	}
	if res, _ := KS(xs, func(x float64) float64 { return uniform(x * x) }); res.PValue >= 1e-6 {
		t.Errorf("wrong CDF accepted: %+v", res)
	}
	if p := KolmogorovSurvival(1.3580986393225505); math.Abs(p-0.05) > 1e-6 {
		t.Errorf("P[K > 1.358] = %v, want 0.05", p)
	}
}

func TestLogRatioCoverage(t *testing.T) {
	// With pa = 0.3, pb = 0.2 and 2000 draws each, the 95% interval should
	// cover ln 1.5 in about 95% of 2000 repetitions; a binomial count below
	// 1820 (≈ 91%) has probability < 1e-6 for a correct interval.
	r := rand.New(rand.NewPCG(5, 6))
	covered := 0
	for rep := 0; rep < 2000; rep++ {
		ca, cb := 0, 0
		for i := 0; i < 2000; i++ {
			if r.Float64() < 0.3 {
				ca++
			}
			if r.Float64() < 0.2 {
				cb++
			}
		}
		_, lo, hi, err := LogRatio(ca, 2000, cb, 2000, 1.96)
		if err != nil {
			t.Fatal(err)
		}
		if lo <= math.Log(1.5) && math.Log(1.5) <= hi {
			covered++
		}
	}
	if covered < 1820 || covered > 1980 {
		t.Errorf("95%% interval covered the truth %d of 2000 times", covered)
	}
	if _, _, _, err := LogRatio(0, 10, 5, 10, 1.96); err == nil {
		t.Error("zero count accepted")
	}
}
