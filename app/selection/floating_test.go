package selection

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
)

func TestFloatAttack(t *testing.T) {
	for _, tc := range []struct {
		q, q2, eps float64
		minShare   float64 // the attack must rule q′ out at least this often
	}{
		{0, 1, 1, 0.3},   // counts 0 and 1: most outputs give the answer away
		{0, 1, 0.1, 0.3}, // more noise does not help
		{1000, 1001, 0.5, 0},
	} {
		a, err := FloatAttack(tc.q, tc.q2, 1, tc.eps, 3000, 9)
		if err != nil {
			t.Fatal(err)
		}
		want, err := mech.FloatingPointAttack(tc.q, tc.q2, 1, tc.eps, 3000, rng.Seeded(9))
		if err != nil {
			t.Fatal(err)
		}
		if a.Count != want {
			t.Errorf("q=%g: %d outputs ruled out, core's attack counts %d", tc.q, a.Count, want)
		}
		if share := float64(a.Count) / 3000; share < tc.minShare {
			t.Errorf("q=%g, q′=%g: only %.3f of outputs rule q′ out, want ≥ %g", tc.q, tc.q2, share, tc.minShare)
		}
		// Every output must be reachable from the true answer itself.
		for _, x := range a.Outputs {
			l, _ := mech.NewLaplace(tc.q, 1, tc.eps)
			if ok, err := mech.NaiveLaplaceCouldOutput(x, tc.q, l.Scale()); err != nil || !ok {
				t.Errorf("q=%g: output %v is not reachable from q itself", tc.q, x)
			}
		}
	}
	if _, err := FloatAttack(0, 1, 1, 1, maxAttackDraws+1, 1); err == nil {
		t.Error("too many draws accepted")
	}
	if _, err := FloatAttack(0, math.NaN(), 1, 1, 10, 1); err == nil {
		t.Error("NaN neighbour accepted")
	}
}

// The exact discrete Laplace sampler matches its PMF (chi-square, p ≥ 1e-6
// fails a correct sampler with probability 1e-6), and the same test rejects
// the PMF of a different ε.
func TestDiscreteLaplaceHistogram(t *testing.T) {
	const n = 200000
	for _, eps := range []float64{0.5, 1, 2} {
		pmf, counts, outside, got, err := DiscreteLaplaceHistogram(3, 1, eps, n, 4, -40, 46)
		if err != nil {
			t.Fatal(err)
		}
		if got > eps || got < eps*0.999 {
			t.Errorf("ε=%g: achieved %g", eps, got)
		}
		p, c := binsWithRest(pmf, counts, outside)
		res, err := stats.ChiSquare(c, p)
		if err != nil {
			t.Fatal(err)
		}
		if res.PValue < 1e-6 {
			t.Errorf("ε=%g: draws do not match the PMF, p = %g", eps, res.PValue)
		}
		wrong, _, _, _, _ := DiscreteLaplaceHistogram(3, 1, eps*1.15, 0, 4, -40, 46)
		pw, _ := binsWithRest(wrong, counts, outside)
		if res, _ := stats.ChiSquare(c, pw); res.PValue >= 1e-6 {
			t.Errorf("ε=%g: the test accepts the PMF for ε·1.15 (p = %g)", eps, res.PValue)
		}
	}
	if _, _, _, _, err := DiscreteLaplaceHistogram(0, 1, 1, 10, 1, 5, 4); err == nil {
		t.Error("empty range accepted")
	}
	if _, _, _, _, err := DiscreteLaplaceHistogram(0, 0, 1, 10, 1, -5, 5); err == nil {
		t.Error("Δ = 0 accepted")
	}
}

// binsWithRest appends the probability and count outside the range.
func binsWithRest(pmf, counts []float64, outside int) ([]float64, []int) {
	p := append([]float64(nil), pmf...)
	c := make([]int, len(counts)+1)
	rest := 1.0
	for i := range pmf {
		rest -= pmf[i]
		c[i] = int(counts[i])
	}
	p = append(p, math.Max(rest, 0))
	c[len(counts)] = outside
	return p, c
}
