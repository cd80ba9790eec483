package mech

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
)

func samples(n int, seed uint64, draw func(r *rand.Rand) float64) []float64 {
	r := rng.Seeded(seed)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = draw(r)
	}
	return xs
}

func TestLaplaceMechanism(t *testing.T) {
	l, err := NewLaplace(10, 1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if l.Scale() != 2 {
		t.Fatalf("scale %v, want Δ/ε = 2", l.Scale())
	}
	xs := samples(100_000, 21, l.Sample)
	if res, _ := stats.KS(xs, l.CDF); res.PValue < alpha {
		t.Errorf("Laplace samples rejected: D = %v, p = %.3g", res.Statistic, res.PValue)
	}
	// A sampler with scale 2Δ/ε (the exponential mechanism's) must fail.
	wide, _ := NewLaplace(10, 2, 0.5)
	if res, _ := stats.KS(samples(100_000, 22, wide.Sample), l.CDF); res.PValue >= alpha {
		t.Errorf("twice-too-wide samples passed: p = %.3g", res.PValue)
	}
	total, err := numeric.Integrate(l.Density, -90, 110, 1e-12)
	if err != nil || math.Abs(total-1) > 1e-9 {
		t.Errorf("density integrates to %v (%v)", total, err)
	}
	for _, bad := range [][3]float64{{math.NaN(), 1, 1}, {0, 0, 1}, {0, 1, 0}, {0, 1e308, 1e-308}} {
		if _, err := NewLaplace(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("NewLaplace%v: no error", bad)
		}
	}
}

func TestLaplaceAsExponential(t *testing.T) {
	for _, tc := range []struct {
		name   string
		q, lo  float64
		hi     float64
		seed   uint64
		wantSD float64 // for the whole line: Laplace(2Δ/ε) has sd 2√2·Δ/ε
	}{
		{"whole line", 3, math.Inf(-1), math.Inf(1), 31, 2 * math.Sqrt2},
		{"range around q", 3, 0, 10, 32, 0},
		{"q left of range", -4, 0, 10, 33, 0},
		{"q right of range", 25, 0, 10, 34, 0},
		{"far tail", 0, 900, 901, 35, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewLaplaceAsExponential(tc.q, 1, 1, tc.lo, tc.hi)
			if err != nil {
				t.Fatal(err)
			}
			xs := samples(100_000, tc.seed, m.Sample)
			for _, x := range xs {
				if x < tc.lo || x > tc.hi {
					t.Fatalf("sample %v outside [%v, %v]", x, tc.lo, tc.hi)
				}
			}
			if res, _ := stats.KS(xs, m.CDF); res.PValue < alpha {
				t.Errorf("samples rejected: D = %v, p = %.3g", res.Statistic, res.PValue)
			}
			if tc.wantSD > 0 {
				want, _ := NewLaplace(tc.q, 2, 1) // scale 2Δ/ε
				for _, x := range []float64{-5, 0, 3, 4.5, 12} {
					if d := math.Abs(m.Density(x) - want.Density(x)); d > 1e-15 {
						t.Errorf("density at %v differs from Laplace(2Δ/ε) by %g", x, d)
					}
				}
				return
			}
			lo, hi := math.Max(tc.lo, -1e3), math.Min(tc.hi, 1e3)
			total, err := numeric.Integrate(m.Density, lo, hi, 1e-13)
			if err != nil || math.Abs(total-1) > 1e-9 {
				t.Errorf("density integrates to %v (%v)", total, err)
			}
		})
	}
}

func TestLaplaceAsExponentialPrivacy(t *testing.T) {
	// On the whole line the normaliser does not move, so neighbours q and
	// q + Δ differ by at most ε/2 in log density; on a bounded range the
	// normaliser moves too and the full ε is used, but never more.
	const eps = 1.0
	for _, tc := range []struct {
		lo, hi, max float64
	}{{math.Inf(-1), math.Inf(1), eps / 2}, {0, 2, eps}} {
		a, _ := NewLaplaceAsExponential(1, 1, eps, tc.lo, tc.hi)
		b, _ := NewLaplaceAsExponential(2, 1, eps, tc.lo, tc.hi)
		worst := 0.0
		for x := -3.0; x <= 5; x += 0.01 {
			if x >= tc.lo && x <= tc.hi {
				worst = math.Max(worst, math.Abs(a.LogDensity(x)-b.LogDensity(x)))
			}
		}
		if worst > tc.max*(1+1e-9) || worst < tc.max*0.6 {
			t.Errorf("range [%v, %v]: loss %v, want at most and near %v", tc.lo, tc.hi, worst, tc.max)
		}
	}
}

func TestLaplaceOnGrid(t *testing.T) {
	grid, m, err := LaplaceOnGrid(2.3, 1, 1, -5, 10, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if len(grid) != 31 || grid[30] != 10 {
		t.Fatalf("grid has %d points ending at %v", len(grid), grid[len(grid)-1])
	}
	p := m.Probabilities()
	for k := 1; k < len(grid); k++ {
		// Neighbouring points' odds are exp(−ε·(|r′ − q| − |r − q|)/(2Δq)).
		want := -(math.Abs(grid[k]-2.3) - math.Abs(grid[k-1]-2.3)) / 2
		if got := math.Log(p[k] / p[k-1]); math.Abs(got-want) > 1e-12 {
			t.Errorf("log odds at %v: %v, want %v", grid[k], got, want)
		}
	}
	if _, _, err := LaplaceOnGrid(0, 1, 1, 0, 1, 1e-9); err == nil {
		t.Error("a billion grid points accepted")
	}
}
