package mech

// A per-candidate quadrature for report noisy max's exact probabilities:
// O(n²) or worse, but an independent route to the numbers rnm.go's shared
// quadrature gives, so the tests compare the two.

import (
	"errors"
	"math"
	"sort"

	"github.com/dpplay/dpplay/core/numeric"
)

// refExponentialMaxLogProbabilities gives permute-and-flip's distribution. With
// pⱼ = exp(sⱼ) ≤ 1 and the substitution y = exp(−(x − u*)/scale),
//
//	Pr[i] = pᵢ ∫₀¹ ∏_{j≠i} (1 − pⱼ·y) dy,
//	ln Pr[i] = sᵢ + ln ∫₀¹ ∏_{j≠i} (1 − pⱼ·y) dy,
//
// a smooth integrand on [0, 1] between 0 and 1. The factor
// pᵢ stays in the log domain: on raw counts it is like e^−2147, which is 0
// as a double, while its logarithm sᵢ is exact. Inside the integral an
// underflowed pⱼ = 0 is harmless, since then 1 − pⱼ·y is 1 to the last bit.
// The integral is at least ∫₀¹ (1 − y)^(n−1) dy = 1/n, so its logarithm is
// finite.
func refExponentialMaxLogProbabilities(s []float64) ([]float64, error) {
	p := make([]float64, len(s))
	for i := range s {
		p[i] = math.Exp(s[i])
	}
	logp := make([]float64, len(s))
	for i := range s {
		if math.IsInf(s[i], -1) {
			// Infinitely far below the best: the standardised score itself
			// underflowed, so the candidate is impossible in double range.
			logp[i] = numeric.LogZero
			continue
		}
		integrand := func(y float64) float64 {
			sum := 0.0
			for j, pj := range p {
				if j != i {
					sum += math.Log1p(-pj * y)
				}
			}
			return math.Exp(sum)
		}
		v, err := integrateOver(integrand, []float64{0, 1})
		if err != nil {
			return nil, err
		}
		logp[i] = s[i] + math.Log(v)
	}
	return logp, nil
}

// quadTolerance is the absolute error asked of each integral of an
// integrand whose peak is 1.
const quadTolerance = 1e-14

// quadAccept bounds the error estimate accepted, relative to the integral
// (or absolutely below 1), from pieces that missed quadTolerance. Hundreds
// of kinks (report noisy max over a thousand candidates) can leave a few
// 1e-14 after the quadrature's 500 intervals, which is still far inside the
// 1e-9 the exact probabilities promise; anything larger means the numbers
// cannot be trusted, and the constructor returns the error.
const quadAccept = 1e-11

// integrateOver returns ∫ f over [cuts[0], cuts[len−1]], integrating each
// piece between consecutive cuts (sorted) separately so that no kink of f
// falls inside one.
func integrateOver(f func(float64) float64, cuts []float64) (float64, error) {
	total, missed := 0.0, 0.0
	var worst error
	for k := 1; k < len(cuts); k++ {
		if !(cuts[k] > cuts[k-1]) {
			continue
		}
		v, err := numeric.Integrate(f, cuts[k-1], cuts[k], quadTolerance)
		var nc *numeric.NotConvergedError
		switch {
		case err == nil:
		case errors.As(err, &nc):
			missed += nc.ErrEstimate
			worst = err
		default:
			return 0, err
		}
		total += v
	}
	if missed > quadAccept*math.Max(1, total) {
		return 0, worst
	}
	return total, nil
}

// laplaceLogCDF is ln F(z) for the unit Laplace distribution.
func laplaceLogCDF(z float64) float64 {
	if z < 0 {
		return z - math.Ln2
	}
	return math.Log1p(-0.5 * math.Exp(-z))
}

// laplaceLogCDFSlope is d/dz ln F(z): 1 below 0, 1/(2eᶻ − 1) above.
func laplaceLogCDFSlope(z float64) float64 {
	if z < 0 {
		return 1
	}
	return 1 / (2*math.Exp(z) - 1)
}

// refLaplaceMaxLogProbabilities gives report noisy max's distribution under unit
// Laplace noise for standardised scores s. For candidate i the
// log-integrand
//
//	g(x) = −|x − sᵢ| − ln 2 + Σ_{j≠i} ln F(x − sⱼ)
//
// is concave (every term is), so it has one peak x*. We find x* by
// bisection on g′, integrate exp(g − g(x*)) between the points where it has
// fallen by e^60, splitting at every kink sⱼ, and add g(x*) back: tiny
// probabilities such as e^−4000 keep their exact logarithm.
//
// g − g(x*) is summed term by term (laplaceLogRatio): a term whose kink does
// not lie between x and x* differs by exactly ±(x − x*), so the large
// constants in g (sᵢ = −7477 on raw counts, or −1e308 at the edge of the
// range) cancel symbolically instead of in floating point, where they would
// leave rounding noise of ulp(sᵢ) in the exponent.
func refLaplaceMaxLogProbabilities(s []float64) ([]float64, error) {
	n := len(s)
	logp := make([]float64, n)
	others := make([]float64, 0, n)
	atPeak := make([]float64, 0, n)
	for i := range s {
		if math.IsInf(s[i], -1) {
			logp[i] = numeric.LogZero
			continue
		}
		// Candidates infinitely far below never beat anyone: F = 1 for them.
		others = others[:0]
		for j, sj := range s {
			if j != i && !math.IsInf(sj, -1) {
				others = append(others, sj)
			}
		}
		slope := func(x float64) float64 {
			d := -1.0
			if x < s[i] {
				d = 1
			}
			for _, sj := range others {
				d += laplaceLogCDFSlope(x - sj)
			}
			return d
		}
		// g rises below sᵢ and falls beyond max s + ln n + 2 = ln n + 2.
		peak := bisectDecreasing(slope, s[i], math.Log(float64(n))+2)
		top := -math.Abs(peak-s[i]) - math.Ln2
		atPeak = atPeak[:0]
		for _, sj := range others {
			l := laplaceLogCDF(peak - sj)
			atPeak = append(atPeak, l)
			top += l
		}
		h := func(x float64) float64 { return laplaceLogRatio(x, peak, s[i], others, atPeak) }
		const drop = 60
		lo := outward(h, peak, -drop, -1)
		hi := outward(h, peak, -drop, +1)
		// Split at every kink: sᵢ (of −|x − sᵢ|) and each other sⱼ.
		cuts := []float64{lo, peak, hi}
		for _, sj := range s {
			if sj > lo && sj < hi {
				cuts = append(cuts, sj)
			}
		}
		sort.Float64s(cuts)
		// h ≤ 0 exactly, since x* is the peak; min clips rounding above it.
		f := func(x float64) float64 { return math.Exp(math.Min(h(x), 0)) }
		total, err := integrateOver(f, cuts)
		if err != nil {
			return nil, err
		}
		logp[i] = top + numeric.Log(total)
	}
	return logp, nil
}

// laplaceLogRatio returns g(x) − g(x*) for refLaplaceMaxLogProbabilities, given
// the other candidates' scores and their ln F(x* − sⱼ). Each term is taken on
// its own linear piece when x and x* share it: −|x − sᵢ| changes by ∓(x − x*)
// and ln F(x − sⱼ) by (x − x*) while both lie below sⱼ.
func laplaceLogRatio(x, peak, si float64, others, atPeak []float64) float64 {
	d := x - peak
	var v float64
	switch {
	case x >= si && peak >= si:
		v = -d
	case x < si && peak < si:
		v = d
	default:
		v = math.Abs(peak-si) - math.Abs(x-si)
	}
	for j, sj := range others {
		if x < sj && peak < sj {
			v += d
		} else {
			v += laplaceLogCDF(x-sj) - atPeak[j]
		}
	}
	return v
}

// bisectDecreasing returns the root of a non-increasing function on [a, b]
// with f(a) ≥ 0 ≥ f(b), to the last bit.
func bisectDecreasing(f func(float64) float64, a, b float64) float64 {
	for {
		m := a + (b-a)/2
		if m <= a || m >= b {
			return m
		}
		if f(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
}

// outward walks from x in direction dir with doubling steps until the
// concave h drops below level, then bisects back to within one unit of the
// crossing, and returns a point just beyond it. The walk stops at ±MaxFloat64
// rather than at ±Inf, so every cut it gives is finite; a NaN from h counts
// as below the level.
func outward(h func(float64) float64, x, level, dir float64) float64 {
	inside := x
	for step := 1.0; ; step *= 2 {
		y := x + dir*step
		if math.IsInf(y, 0) {
			y = dir * math.MaxFloat64
		}
		if !(h(y) >= level) {
			return refineCrossing(h, inside, y, level)
		}
		if math.Abs(y) == math.MaxFloat64 {
			return y
		}
		inside = y
	}
}

// refineCrossing bisects [in, out] (h(in) ≥ level > h(out), either order)
// until the two are within one unit, and returns the outer point.
func refineCrossing(h func(float64) float64, in, out, level float64) float64 {
	for math.Abs(out/2-in/2) > 0.5 {
		m := in/2 + out/2
		if m == in || m == out {
			break
		}
		if h(m) >= level {
			in = m
		} else {
			out = m
		}
	}
	return out
}
