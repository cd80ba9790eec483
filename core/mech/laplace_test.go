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

// laplaceEMCases are the ranges the continuous exponential mechanism is
// tested on: the whole line, a range around q, q outside it on either side
// and a far tail.
var laplaceEMCases = []struct {
	name  string
	q, lo float64
	hi    float64
}{
	{"whole line", 3, math.Inf(-1), math.Inf(1)},
	{"range around q", 3, 0, 10},
	{"q left of range", -4, 0, 10},
	{"q right of range", 25, 0, 10},
	{"far tail", 0, 900, 901},
	{"half line", 3, 1, math.Inf(1)},
}

// The continuous sampler with the mis-scaled rate ε/Δ (instead of
// ε/(2Δ)) must fail the same KS test the correct sampler passes
// (TestLaplaceAsExponential), at the same false-failure rate 1e-6.
func TestLaplaceAsExponentialMisScaledSamplerFails(t *testing.T) {
	for i, tc := range laplaceEMCases {
		m, err := NewLaplaceAsExponential(tc.q, 1, 1, tc.lo, tc.hi)
		if err != nil {
			t.Fatal(err)
		}
		broken, err := NewLaplaceAsExponential(tc.q, 1, 2, tc.lo, tc.hi) // rate 2ε/(2Δ) = ε/Δ
		if err != nil {
			t.Fatal(err)
		}
		res, err := stats.KS(samples(100_000, uint64(500+i), broken.Sample), m.CDF)
		if err != nil {
			t.Fatal(err)
		}
		if res.PValue >= alpha {
			t.Errorf("%s: mis-scaled samples passed: D = %v, p = %.3g", tc.name, res.Statistic, res.PValue)
		}
	}
}

// CDF (closed form, per side of q) against the numerical integral of
// Density (the log-density, exponentiated): two independent routes to the
// same numbers. On an infinite side the integral starts 80 scales out,
// where the mass left behind is below e^−40.
func TestLaplaceAsExponentialCDFMatchesIntegratedDensity(t *testing.T) {
	for _, tc := range laplaceEMCases {
		for _, p := range []struct{ sen, eps float64 }{{1, 1}, {0.5, 3}, {2, 0.25}} {
			m, err := NewLaplaceAsExponential(tc.q, p.sen, p.eps, tc.lo, tc.hi)
			if err != nil {
				t.Fatal(err)
			}
			scale := 2 * p.sen / p.eps
			start := math.Max(tc.lo, tc.q-80*scale)
			end := math.Min(tc.hi, math.Max(tc.q, tc.lo)+80*scale)
			for k := 0; k <= 40; k++ {
				x := start + (end-start)*float64(k)/40
				// Split at q, the density's kink, for an accurate integral.
				cuts := []float64{start, x}
				if tc.q > start && tc.q < x {
					cuts = []float64{start, tc.q, x}
				}
				want := 0.0
				for j := 1; j < len(cuts); j++ {
					v, err := numeric.Integrate(m.Density, cuts[j-1], cuts[j], 1e-13)
					if err != nil {
						t.Fatal(err)
					}
					want += v
				}
				if got := m.CDF(x); math.Abs(got-want) > 1e-9 {
					t.Errorf("%s Δ = %v ε = %v: CDF(%v) = %.12g, ∫ density = %.12g", tc.name, p.sen, p.eps, x, got, want)
				}
			}
		}
	}
}

// maxLogRatio returns max |ln a(x) − ln b(x)| over x from lo to hi in steps.
func maxLogRatio(a, b func(float64) float64, lo, hi float64, steps int) float64 {
	worst := 0.0
	for k := 0; k <= steps; k++ {
		x := lo + (hi-lo)*float64(k)/float64(steps)
		worst = math.Max(worst, math.Abs(a(x)-b(x)))
	}
	return worst
}

// The Laplace mechanism with scale Δ/ε on neighbouring answers q and q + Δ:
// ln p_q(x) − ln p_{q+Δ}(x) = (|x − q − Δ| − |x − q|)·ε/Δ, at most ε and
// equal to ε outside [q, q + Δ]. With half the noise (scale Δ/(2ε)) the
// same pair loses 2ε.
func TestLaplacePrivacyOnNeighbours(t *testing.T) {
	for _, p := range []struct{ q, sen, eps float64 }{{0, 1, 1}, {10, 1, 0.1}, {-3, 2.5, 2}, {1e6, 0.01, 0.5}} {
		for _, misScaled := range []bool{false, true} {
			eps := p.eps
			if misScaled {
				eps *= 2 // scale Δ/(2ε)
			}
			a, err := NewLaplace(p.q, p.sen, eps)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewLaplace(p.q+p.sen, p.sen, eps)
			b0 := p.sen / p.eps
			loss := maxLogRatio(a.LogDensity, b.LogDensity, p.q-30*b0, p.q+p.sen+30*b0, 20_000)
			switch {
			case !misScaled && (loss > p.eps+1e-9 || loss < p.eps*(1-1e-9)):
				t.Errorf("%+v: loss %v, want exactly ε = %v", p, loss, p.eps)
			case misScaled && loss <= p.eps*1.5:
				t.Errorf("%+v mis-scaled: loss %v, want well above ε = %v", p, loss, p.eps)
			}
		}
	}
}

// The continuous exponential mechanism on neighbours q = 1 and q′ = 2
// (Δ = 1, rate λ = ε/(2Δ)). The log-ratio is λ(|r − q′| − |r − q|), at most
// λΔ = ε/2, plus the change in the log-normaliser, at most another λΔ.
//
// On the whole line the normaliser does not move: the correct rate loses
// exactly ε/2 and even the mis-scaled rate ε/Δ only ε: the general
// analysis is loose by a factor of 2.
// On [1, 40], which starts at q, it does: the loss is
// λ + ln(M(q′)/M(q)) with M(q) = (1 − e^−39λ)/λ and
// M(q′) = (1 − e^−λ)/λ + (1 − e^−38λ)/λ, within ε for the correct rate and
// beyond it for the mis-scaled one; [0, 2] must agree on both counts too.
func TestLaplaceAsExponentialMisScaledPrivacy(t *testing.T) {
	const eps = 1.0
	edgeLoss := func(lambda float64) float64 {
		mq := -math.Expm1(-39*lambda) / lambda
		mq2 := (-math.Expm1(-lambda) - math.Expm1(-38*lambda)) / lambda
		return lambda + math.Log(mq2/mq)
	}
	for _, tc := range []struct {
		name           string
		lo, hi         float64
		exact, exactMS float64 // exact worst losses, correct and mis-scaled (0: not known in closed form)
	}{
		{"whole line", math.Inf(-1), math.Inf(1), eps / 2, eps},
		{"[1, 40], starting at q", 1, 40, edgeLoss(eps / 2), edgeLoss(eps)},
		{"[0, 2]", 0, 2, 0, 0},
	} {
		var losses [2]float64
		for k, e := range []float64{eps, 2 * eps} { // 2ε: the rate ε/Δ
			a, err := NewLaplaceAsExponential(1, 1, e, tc.lo, tc.hi)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewLaplaceAsExponential(2, 1, e, tc.lo, tc.hi)
			losses[k] = maxLogRatio(a.LogDensity, b.LogDensity, math.Max(tc.lo, -20), math.Min(tc.hi, 20), 20_000)
		}
		if losses[0] > eps+1e-9 {
			t.Errorf("%s: loss %v exceeds ε = %v", tc.name, losses[0], eps)
		}
		if bounded := !math.IsInf(tc.lo, 0); bounded != (losses[1] > eps+1e-9) {
			t.Errorf("%s: mis-scaled loss %v against ε = %v: exceeds should be %v", tc.name, losses[1], eps, bounded)
		}
		for k, want := range []float64{tc.exact, tc.exactMS} {
			if want != 0 && math.Abs(losses[k]-want) > 1e-9 {
				t.Errorf("%s: loss %.12g, closed form %.12g", tc.name, losses[k], want)
			}
		}
	}
}

// LaplaceOnGrid is the exponential mechanism with Δu = 2Δ: on neighbours
// q and q + Δ every score moves by at most Δu, so the exact worst log-ratio
// over the grid is at most ε; built with the mis-scaled rate (2ε) it
// exceeds ε.
func TestLaplaceOnGridPrivacy(t *testing.T) {
	for _, p := range []struct{ q, sen, eps, lo, hi, spacing float64 }{
		{2.3, 1, 1, -5, 10, 0.5},
		{0, 1, 0.5, 0, 4, 0.01},
		{8, 2, 3, 0, 10, 0.25}, // q′ = 10 on the edge
		// q on the edge of a long range with small ε: the loss is about
		// ε/2 + ln(2 − e^−ε/2) ≈ 0.976ε (the continuous value; the grid's
		// sums differ slightly), so even a 10% mis-scaling shows.
		{0, 1, 0.1, 0, 400, 0.05},
		{-1, 0.5, 1, -1, 1, 0.1},
	} {
		for _, misScaled := range []bool{false, true} {
			eps := p.eps
			if misScaled {
				eps *= 2
			}
			_, a, err := LaplaceOnGrid(p.q, p.sen, eps, p.lo, p.hi, p.spacing)
			if err != nil {
				t.Fatal(err)
			}
			_, b, err := LaplaceOnGrid(p.q+p.sen, p.sen, eps, p.lo, p.hi, p.spacing)
			if err != nil {
				t.Fatal(err)
			}
			loss, err := PrivacyLoss(a, b)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case !misScaled && loss > p.eps+1e-9:
				t.Errorf("%+v: loss %v exceeds ε", p, loss)
			case !misScaled && p.eps == 0.1 && loss < 0.97*p.eps:
				t.Errorf("%+v: loss %v, want about ε/2 + ln(2 − e^−ε/2) ≈ 0.976ε", p, loss)
			case !misScaled && loss < p.eps/2:
				t.Errorf("%+v: loss %v suspiciously small", p, loss)
			case misScaled && loss <= p.eps+1e-9:
				t.Errorf("%+v mis-scaled: loss %v does not exceed ε = %v", p, loss, p.eps)
			}
		}
	}
}
