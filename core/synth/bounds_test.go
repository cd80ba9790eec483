package synth

import (
	"context"
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

// TestProp44HoldsExactly checks Proposition 4.4 against the exact error
// distribution: with α = √(ln|Q|/m) (so m = ln|Q|/α²), the best candidate is
// within α, and the exact probability of exceeding the bound is at most β.
func TestProp44HoldsExactly(t *testing.T) {
	for _, tc := range []struct {
		cols  []string
		width int
		m     int
		eps   float64
	}{
		{[]string{"sex", "smoker", "lung_cancer", "over_50"}, 2, 4, 1},
		{[]string{"sex", "smoker", "lung_cancer", "over_50"}, 1, 5, 0.3},
		{[]string{"smoker", "lung_cancer", "over_50"}, 2, 6, 3},
	} {
		d := medical(t, tc.cols...)
		qs, _ := Marginals(d.Columns(), tc.width)
		res, err := SmallDB(context.Background(), SmallDBConfig{Data: d, Queries: qs, Size: tc.m, Epsilon: tc.eps}, rng.Seeded(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		alpha, err := AlphaForSize(qs.Len(), tc.m)
		if err != nil {
			t.Fatal(err)
		}
		if best := res.Levels[0].MaxError; best > alpha {
			t.Errorf("%v m=%d: best candidate has error %v > α = %v", tc.cols, tc.m, best, alpha)
		}
		for _, beta := range []float64{0.5, 0.1, 0.01, 1e-6} {
			bound, err := Prop44Bound(d.UniverseSize(), qs.Len(), d.N(), tc.eps, alpha, beta)
			if err != nil {
				t.Fatal(err)
			}
			tail, err := TailProbability(res.Levels, bound)
			if err != nil {
				t.Fatal(err)
			}
			if tail > beta {
				t.Errorf("%v m=%d β=%v: P[error > %v] = %v", tc.cols, tc.m, beta, bound, tail)
			}
		}
	}
}

func TestBoundsAgree(t *testing.T) {
	for _, tc := range []struct {
		x, q, n   int
		eps, beta float64
	}{
		{16, 24, 120, 1, 0.05}, {32, 40, 10000, 0.5, 0.01}, {1 << 10, 1000, 1e6, 2, 1e-6},
	} {
		b, err := Thm45Bound(tc.x, tc.q, tc.n, tc.eps, tc.beta)
		if err != nil {
			t.Fatal(err)
		}
		// (4.3) is (4.2) solved for ‖x‖₁.
		rows, err := Thm45MinRows(tc.x, tc.q, tc.eps, b, tc.beta)
		if err != nil || math.Abs(rows-float64(tc.n)) > 1e-9*float64(tc.n) {
			t.Errorf("Thm45MinRows at α = %v gives %v rows, want %d (%v)", b, rows, tc.n, err)
		}
		// Theorem 4.5 follows from Proposition 4.4 run with α/2 (when α ≤ 1).
		if b <= 1 {
			p, err := Prop44Bound(tc.x, tc.q, tc.n, tc.eps, b/2, tc.beta)
			if err != nil || p > b*(1+1e-12) {
				t.Errorf("Prop44Bound(α/2 = %v) = %v exceeds Theorem 4.5's %v", b/2, p, b)
			}
		}
	}
	m, err := SizeForAlpha(24, 0.5)
	if err != nil || m != 13 {
		t.Errorf("SizeForAlpha(24, 0.5) = %d, %v; want ⌈ln 24/0.25⌉ = 13", m, err)
	}
	if a, _ := AlphaForSize(24, 13); a > 0.5 || a < 0.49 {
		t.Errorf("AlphaForSize(24, 13) = %v", a)
	}
	for _, bad := range [][6]float64{{1, 24, 100, 1, 0.1, 0.1}, {16, 1, 100, 1, 0.1, 0.1}, {16, 24, 0, 1, 0.1, 0.1}, {16, 24, 100, 0, 0.1, 0.1}, {16, 24, 100, 1, 0, 0.1}, {16, 24, 100, 1, 0.1, 1}} {
		if _, err := Prop44Bound(int(bad[0]), int(bad[1]), int(bad[2]), bad[3], bad[4], bad[5]); err == nil {
			t.Errorf("Prop44Bound%v accepted", bad)
		}
	}
}

// TestLearnHalfspace is the article's use case: a halfspace learned from the
// synthetic data is within 2α of the best on the real data, α being the
// synthetic data's max error over the halfspace queries.
func TestLearnHalfspace(t *testing.T) {
	d := medical(t, "sex", "smoker", "over_50", "lung_cancer")
	qs, err := Halfspaces(d.Columns())
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		res, err := SmallDB(context.Background(), SmallDBConfig{Data: d, Queries: qs, Size: 5, Epsilon: 1}, rng.Seeded(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		fit, err := LearnHalfspace(res.SyntheticData.Fractions(), d)
		if err != nil {
			t.Fatal(err)
		}
		if fit.RealAgreement < fit.BestAgreement-2*res.MaxError-1e-12 {
			t.Errorf("seed %d: learned %q agrees on %v of real rows; best %q %v; α = %v", seed, fit.Name, fit.RealAgreement, fit.BestName, fit.BestAgreement, res.MaxError)
		}
		// The learned halfspace is the best on the synthetic data.
		for i := 0; i < qs.Len(); i++ {
			q, _ := qs.Query(i)
			w := 0.0
			for x, in := range q.Member {
				if in {
					w += res.SyntheticData.Fractions()[x]
				}
			}
			if w > fit.SyntheticAgreement+1e-12 {
				t.Errorf("seed %d: %q agrees on %v of synthetic rows, more than the learned %v", seed, q.Name, w, fit.SyntheticAgreement)
			}
		}
	}
	if _, err := LearnHalfspace(make([]float64, 16), d); err == nil {
		t.Error("LearnHalfspace accepted all-zero weights")
	}
}
