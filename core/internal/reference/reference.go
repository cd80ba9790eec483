// Package reference holds independent computations that the mechanisms'
// tests compare them with: textbook formulas in the linear domain, sharing
// no code with the log-domain, adaptive methods under test.
package reference

import (
	"math"
	"slices"
)

// RNMLaplace returns report noisy max's distribution over the scores u under
// Laplace noise of scale b,
//
//	Pr[i] = ∫ f(t − uᵢ) ∏_{j≠i} F(t − uⱼ) dt,
//
// with f and F the Laplace density and CDF, by composite Simpson's rule with
// steps (even) steps on every piece between consecutive scores, where the
// integrand is smooth, and on both tails, taken 60b wide.
func RNMLaplace(u []float64, b float64, steps int) []float64 {
	cuts := slices.Clone(u)
	slices.Sort(cuts)
	cuts = append(append([]float64{cuts[0] - 60*b}, cuts...), cuts[len(cuts)-1]+60*b)
	p := make([]float64, len(u))
	for i := range u {
		f := func(t float64) float64 {
			v := LaplacePDF(t-u[i], b)
			for j := range u {
				if j != i {
					v *= LaplaceCDF(t-u[j], b)
				}
			}
			return v
		}
		for c := 0; c+1 < len(cuts); c++ {
			p[i] += simpson(f, cuts[c], cuts[c+1], steps)
		}
	}
	return p
}

// simpson integrates f over [a, b] by the composite Simpson rule with n
// (even) steps.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	if h == 0 {
		return 0
	}
	s := f(a) + f(b)
	for q := 1; q < n; q++ {
		w := 2.0
		if q%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(q)*h)
	}
	return s * h / 3
}

// LaplacePDF is the density of Laplace noise of scale b at z, e^{−|z|/b}/(2b).
func LaplacePDF(z, b float64) float64 { return math.Exp(-math.Abs(z)/b) / (2 * b) }

// LaplaceCDF is the distribution function of Laplace noise of scale b at z:
// e^{z/b}/2 below 0, 1 − e^{−z/b}/2 from 0 on.
func LaplaceCDF(z, b float64) float64 {
	if z < 0 {
		return 0.5 * math.Exp(z/b)
	}
	return 1 - 0.5*math.Exp(-z/b)
}
