package mech

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/dpplay/dpplay/core/numeric"
)

// bigPrec is the working precision of the independent computation below:
// far more than float64's 53 bits, so its rounding cannot mask an error.
const bigPrec = 256

// bigExp returns e^x to bigPrec bits for a finite x. It splits x = n + f
// with n an integer and |f| < 1, sums the Taylor series of e^f and raises
// e to the n by squaring. math/big's exponent range (±2^31 bits) holds
// e^−10⁵ and beyond, where float64 underflows to 0.
func bigExp(x float64) *big.Float {
	n := math.Trunc(x)
	f := new(big.Float).SetPrec(bigPrec).SetFloat64(x - n)
	series := func(f *big.Float) *big.Float {
		sum := new(big.Float).SetPrec(bigPrec).SetInt64(1)
		term := new(big.Float).SetPrec(bigPrec).SetInt64(1)
		for k := int64(1); k < 200; k++ {
			term.Mul(term, f)
			term.Quo(term, new(big.Float).SetPrec(bigPrec).SetInt64(k))
			sum.Add(sum, term)
		}
		return sum
	}
	e := series(new(big.Float).SetPrec(bigPrec).SetInt64(1))
	if n < 0 {
		e.Quo(new(big.Float).SetPrec(bigPrec).SetInt64(1), e)
		n = -n
	}
	pow := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	for k := uint64(n); k > 0; k >>= 1 {
		if k&1 == 1 {
			pow.Mul(pow, e)
		}
		e = new(big.Float).SetPrec(bigPrec).Mul(e, e)
	}
	return pow.Mul(pow, series(f))
}

// bigLog returns ln x for x > 0 as a float64: with x = m·2^k, m ∈ [½, 1),
// ln x = ln m + k·ln 2, each part accurate to a few ulps.
func bigLog(x *big.Float) float64 {
	m := new(big.Float)
	k := x.MantExp(m)
	mf, _ := m.Float64()
	return math.Log(mf) + float64(k)*math.Ln2
}

// permuteAndFlipBig computes the log-probabilities of permute-and-flip in
// 256-bit arithmetic, by a route independent of the package's quadrature:
// with pⱼ = exp(ε(uⱼ − u*)/(2Δ)), the integrand ∏_{j≠i}(1 − pⱼy) is a
// polynomial Σ cₖyᵏ whose integral on [0, 1] is Σ cₖ/(k + 1), so
//
//	Pr[i] = pᵢ · Σₖ cₖ/(k + 1),
//
// exactly, with no underflow however small pᵢ is.
func permuteAndFlipBig(scores []float64, eps, sen float64) []float64 {
	best := math.Inf(-1)
	for _, u := range scores {
		best = math.Max(best, u)
	}
	p := make([]*big.Float, len(scores))
	for i, u := range scores {
		p[i] = bigExp(eps * (u - best) / (2 * sen))
	}
	out := make([]float64, len(scores))
	for i := range scores {
		coef := []*big.Float{new(big.Float).SetPrec(bigPrec).SetInt64(1)}
		for j := range scores {
			if j == i {
				continue
			}
			next := make([]*big.Float, len(coef)+1)
			for k := range next {
				next[k] = new(big.Float).SetPrec(bigPrec)
			}
			for k, c := range coef {
				next[k].Add(next[k], c)
				next[k+1].Sub(next[k+1], new(big.Float).SetPrec(bigPrec).Mul(c, p[j]))
			}
			coef = next
		}
		integral := new(big.Float).SetPrec(bigPrec)
		for k, c := range coef {
			integral.Add(integral, new(big.Float).SetPrec(bigPrec).Quo(c, new(big.Float).SetPrec(bigPrec).SetInt64(int64(k+1))))
		}
		out[i] = bigLog(new(big.Float).SetPrec(bigPrec).Mul(p[i], integral))
	}
	return out
}

func TestBigExpAndLog(t *testing.T) {
	// The helpers are themselves checked against float64 where it suffices.
	for _, x := range []float64{0, 1, -1, 0.5, -2.75, 30, -700} {
		if got := bigLog(bigExp(x)); math.Abs(got-x) > 1e-13*math.Max(1, math.Abs(x)) {
			t.Errorf("ln exp(%v) = %v", x, got)
		}
	}
	if got, _ := bigExp(-3.5).Float64(); math.Abs(got-math.Exp(-3.5)) > 1e-16 {
		t.Errorf("exp(−3.5) = %v, want %v", got, math.Exp(-3.5))
	}
}

// Permute-and-flip's losers on raw counts have probabilities like e^−2147,
// below float64's range: their logarithms must still be exact, not
// "impossible" (the page and the command line print them).
func TestPermuteAndFlipLargeGaps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scores   []float64
		eps, sen float64
	}{
		{"raw Adult counts", adultCounts, 1, 1},
		{"raw Adult counts, ε = 0.1", adultCounts, 0.1, 1},
		{"raw Adult counts, Δ = 3", adultCounts, 1, 3},
		{"two near the top, two far below", []float64{1000, 999, -800, -5000}, 1, 1},
		{"two candidates, gap 10⁴", []float64{0, -1e4}, 1, 1},
		{"gap just past exp's range", []float64{0, -1491}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, NamePermuteAndFlip, Config{Scores: tc.scores, Epsilon: tc.eps, Sensitivity: tc.sen})
			want := permuteAndFlipBig(tc.scores, tc.eps, tc.sen)
			for i, lp := range m.LogProbabilities() {
				if math.Abs(lp-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
					t.Errorf("ln p[%d] = %.12g, 256-bit computation %.12g", i, lp, want[i])
				}
			}
		})
	}
	// Two candidates gap g apart (in units of 2Δ/ε): the loser has
	// probability ∫₀¹ e^−g·(1 − y) dy = e^−g/2, so ln p = −g − ln 2.
	for _, g := range []float64{1, 745, 746, 2146.5, 1e5, 1e300} {
		m := mustNew(t, NamePermuteAndFlip, Config{Scores: []float64{0, -2 * g}, Epsilon: 1, Sensitivity: 1})
		want := -g - math.Ln2
		if got := m.LogProbabilities()[1]; math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("gap %v: ln p[1] = %v, want −g − ln 2 = %v", g, got, want)
		}
	}
}

// One person raising one raw Adult count moves the log-probabilities by at
// most ε; a person who also lowers the top count moves the raised
// candidate's by exactly ε. A log probability that underflowed to
// "impossible" would report a loss of 0 here and hide it.
func TestPermuteAndFlipPrivacyOnRawAdult(t *testing.T) {
	const eps, sen = 1.0, 1.0
	raised := clone(adultCounts)
	raised[6]++
	both := clone(raised)
	both[0]--
	for _, tc := range []struct {
		name       string
		neighbour  []float64
		eps        float64 // the mechanism's ε
		want, tol  float64
		mustExceed bool
	}{
		// Raising a loser by Δ raises its log-probability by ε/2 and leaves
		// the others' integrals unchanged to double precision.
		{"one count raised", raised, eps, eps / 2, 1e-9, false},
		// Lowering the top as well raises every loser by ε/2 more.
		{"raised and top lowered", both, eps, eps, 1e-9, false},
		// The mis-scaled mechanism (ε/Δ instead of ε/(2Δ)) loses 2ε.
		{"mis-scaled", both, 2 * eps, 2 * eps, 1e-9, true},
	} {
		a := mustNew(t, NamePermuteAndFlip, Config{Scores: adultCounts, Epsilon: tc.eps, Sensitivity: sen})
		b := mustNew(t, NamePermuteAndFlip, Config{Scores: tc.neighbour, Epsilon: tc.eps, Sensitivity: sen})
		if err := CheckNeighbours(adultCounts, tc.neighbour, sen); err != nil {
			t.Fatal(err)
		}
		loss, err := PrivacyLoss(a, b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(loss-tc.want) > tc.tol {
			t.Errorf("%s: privacy loss %v, want %v", tc.name, loss, tc.want)
		}
		if exceeds := loss > eps*(1+1e-9); exceeds != tc.mustExceed {
			t.Errorf("%s: loss %v against ε = %v: exceeds is %v, want %v", tc.name, loss, eps, exceeds, tc.mustExceed)
		}
	}
}

// The exact probabilities rest on integrals; one that cannot be trusted
// must stop the constructor with an error rather than be used silently.
func TestIntegrateOverReportsWhatItCannotTrust(t *testing.T) {
	if v, err := integrateOver(func(y float64) float64 { return 1 - y }, []float64{0, 0.5, 1}); err != nil || math.Abs(v-0.5) > 1e-15 {
		t.Errorf("∫(1 − y) = %v, %v", v, err)
	}
	rough := func(x float64) float64 { return math.Sin(1 / x) }
	if _, err := integrateOver(rough, []float64{0, 1}); !errors.Is(err, numeric.ErrNotConverged) {
		t.Errorf("sin(1/x): got %v, want ErrNotConverged", err)
	}
	if _, err := integrateOver(func(float64) float64 { return math.NaN() }, []float64{0, 1}); !errors.Is(err, numeric.ErrNotConverged) {
		t.Errorf("NaN integrand: got %v, want ErrNotConverged", err)
	}
}

// Report noisy max with Laplace noise on two candidates gap G apart (in
// units of b = Δ/ε): the loser wins when L₂ − L₁ > G, whose probability is
// (2 + G)·e^−G/4, so ln p = −G + ln((2 + G)/4) exactly. Far gaps test that
// the exponent is not lost to rounding, nor to an integration window that
// runs out to ±Inf.
func TestReportNoisyMaxLaplaceLargeGaps(t *testing.T) {
	for _, g := range []float64{1, 50, 745, 4293, 1e6, 1e12, 1e16, 1e300} {
		m := mustNew(t, NameReportNoisyMaxLaplace, Config{Scores: []float64{0, -g}, Epsilon: 1, Sensitivity: 1})
		want := -g + math.Log((2+g)/4)
		if got := m.LogProbabilities()[1]; math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("gap %v: ln p[1] = %.17g, want %.17g", g, got, want)
		}
		if got := m.LogProbabilities()[0]; g >= 50 && (got > 0 || got < -1e-9) {
			t.Errorf("gap %v: winner's ln p = %v", g, got)
		}
	}
	// At the edge of the range: a loser 1e308 below two tied leaders, and
	// one 2e308 below (beyond the doubles, hence impossible).
	m := mustNew(t, NameReportNoisyMaxLaplace, Config{Scores: []float64{1e308, 0, -1e308}, Epsilon: 1, Sensitivity: 1})
	lp := m.LogProbabilities()
	if lp[0] != 0 || lp[1] != -1e308 || lp[2] != numeric.LogZero {
		t.Errorf("ln p = %v, want [0 −1e308 LogZero]", lp)
	}
}

// The exponential mechanism's exponent ε·(u − u*)/(2Δ) is finite even when
// (u − u*)/Δ overflows or ε/2 underflows: it must come out as that finite
// number, not as NaN (−Inf·0, an error) or "impossible" (−Inf).
func TestExponentialExtremeExponents(t *testing.T) {
	for _, tc := range []struct{ eps, sen float64 }{
		// (u − u*)/Δ = −1e608 overflows and ε/2 underflows to 0; the
		// exponent is −5e307·ε/Δ ≈ −2.47e284.
		{5e-324, 1e-300},
		// (u − u*)/Δ overflows, ε normal: the exponent is −5e307.
		{1e-300, 1e-300},
		// Everything in range: −5e297.
		{1, 1e10},
	} {
		// Multiplying first keeps this reference in range for these rows;
		// at run time, so that ε is the double 4.94e-324, not the constant.
		want := -5e307 * tc.eps / tc.sen
		m, err := NewExponential(Config{Scores: []float64{0, -1e308}, Epsilon: tc.eps, Sensitivity: tc.sen})
		if err != nil {
			t.Errorf("ε = %v, Δ = %v: %v", tc.eps, tc.sen, err)
			continue
		}
		lp := m.LogProbabilities()
		if lp[0] != 0 || math.Abs(lp[1]-want) > 1e-12*math.Abs(want) {
			t.Errorf("ε = %v, Δ = %v: ln p = %v, want [0 %v]", tc.eps, tc.sen, lp, want)
		}
	}
	// ε/2 underflows and the gap is small: the true exponent −2.5e-324·1e-3
	// is 0 to double precision, so the two are equally likely.
	m, err := NewExponential(Config{Scores: []float64{0, -1e-3}, Epsilon: 5e-324, Sensitivity: 1})
	if err != nil || m.Probabilities()[0] != 0.5 {
		t.Errorf("ε = 5e-324: %v, %v; want a fair choice", m, err)
	}
}
