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

// Exponential returns the exponential mechanism's distribution in the
// linear domain, Pr[r] = μ(r)·exp(rate·u(r)) / Σ_s μ(s)·exp(rate·u(s)), with
// rate = ε/(2Δ) and μ = 1 when mu is nil. It overflows for large rate·u: for
// small scores only.
func Exponential(u []float64, rate float64, mu []float64) []float64 {
	p := make([]float64, len(u))
	for r := range u {
		p[r] = math.Exp(rate * u[r])
		if mu != nil {
			p[r] *= mu[r]
		}
	}
	return normalized(p)
}

// PermuteAndFlip returns permute-and-flip's distribution by its definition
// (McKenna and Sheldon 2020), averaged over every order of the candidates:
// in order, candidate r is taken with probability exp(ε(u(r) − u*)/(2Δ)), u*
// the best score, and the first taken wins (the best is always taken, so
// every pass ends). It takes k! steps for k candidates.
func PermuteAndFlip(u []float64, eps, delta float64) []float64 {
	k := len(u)
	best := math.Inf(-1)
	for _, v := range u {
		best = math.Max(best, v)
	}
	take := make([]float64, k)
	for r := range u {
		take[r] = math.Exp(eps * (u[r] - best) / (2 * delta))
	}
	p := make([]float64, k)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	var visit func(i int)
	visit = func(i int) {
		if i == k {
			reach := 1.0
			for _, r := range order {
				p[r] += reach * take[r]
				reach *= 1 - take[r]
			}
			return
		}
		for j := i; j < k; j++ {
			order[i], order[j] = order[j], order[i]
			visit(i + 1)
			order[i], order[j] = order[j], order[i]
		}
	}
	visit(0)
	return normalized(p)
}

// normalized divides xs by their sum, in place, and returns it.
func normalized(xs []float64) []float64 {
	total := 0.0
	for _, x := range xs {
		total += x
	}
	for i := range xs {
		xs[i] /= total
	}
	return xs
}
