package rng

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/validate"
)

// bernoulliRational returns true with probability num/den exactly, from one unbiased
// integer draw.
func bernoulliRational(r *mrand.Rand, num, den uint64) bool {
	return r.Uint64N(den) < num
}

// bernoulliExpFraction returns true with probability exp(−num/den) for
// 0 ≤ num ≤ den, using only integer arithmetic (Canonne, Kamath and Steinke
// 2020, Algorithm 1): draw Bernoulli(γ/k) for k = 1, 2, … until one fails;
// the number of successes is even with probability exp(−γ).
func bernoulliExpFraction(r *mrand.Rand, num, den uint64) bool {
	k := uint64(1)
	for ; ; k++ {
		// γ/k = num/(den·k); den·k stays far below 2^64: den ≤ 2^40
		// here, and k beyond 20 has probability below 1/20!.
		if !bernoulliRational(r, num, den*k) {
			break
		}
	}
	return k%2 == 1
}

// DiscreteLaplace is the discrete Laplace distribution on the integers,
//
//	Pr[Y = y] = tanh(1/(2σ)) · exp(−|y|/σ),
//
// sampled exactly with integer arithmetic only, so that no floating-point
// rounding can leak anything (Canonne, Kamath and Steinke 2020).
// The scale σ is held as a rational n/d. The zero value is the distribution
// with σ = 1.
type DiscreteLaplace struct {
	num, den uint64
}

// discreteDenominator is the fixed denominator of σ = n/d: fine enough that
// σ is rounded up by at most 1/4096 of a grid step.
const discreteDenominator = 1 << 12

// MaxDiscreteScale is the largest σ NewDiscreteLaplace accepts, 2^28: it
// keeps n = 4096·σ ≤ 2^40, so that the integer arithmetic of Sample
// (products like d·k with k the rare long run of successes) stays far from
// 2^64. With σ = Δ/ε it means ε ≥ Δ/2^28.
const MaxDiscreteScale = 1 << 28

// NewDiscreteLaplace returns the discrete Laplace distribution whose scale
// is σ rounded up to a multiple of 1/4096. Rounding up only adds noise, so a
// mechanism built on it keeps (at least) the privacy it asked for; Scale
// reports the σ actually used. σ must be positive and at most
// MaxDiscreteScale; any positive σ below 1/4096 becomes 1/4096.
func NewDiscreteLaplace(scale float64) (DiscreteLaplace, error) {
	if err := validate.Positive("scale", scale); err != nil {
		return DiscreteLaplace{}, err
	}
	if scale > MaxDiscreteScale {
		return DiscreteLaplace{}, validate.Errorf("scale", "is %v; at most 2^28 = %d is supported", scale, MaxDiscreteScale)
	}
	n := math.Ceil(scale * discreteDenominator)
	return DiscreteLaplace{num: uint64(n), den: discreteDenominator}, nil
}

// params returns n and d, σ = 1 for the zero value (whose n = 0 would make
// Sample's uniform draw on {0, …, n−1} impossible).
func (l DiscreteLaplace) params() (num, den uint64) {
	if l.num == 0 || l.den == 0 {
		return discreteDenominator, discreteDenominator
	}
	return l.num, l.den
}

// Scale returns the exact scale σ = n/d in use; a mechanism of sensitivity
// Δ built on it achieves ε = Δ/σ.
func (l DiscreteLaplace) Scale() float64 {
	num, den := l.params()
	return float64(num) / float64(den)
}

// LogPMF returns ln Pr[Y = y] = ln tanh(1/(2σ)) − |y|/σ.
func (l DiscreteLaplace) LogPMF(y int64) float64 {
	s := l.Scale()
	return math.Log(math.Tanh(1/(2*s))) - math.Abs(float64(y))/s
}

// Sample draws Y. With σ = n/d: take U uniform on {0, …, n−1} and keep it
// with probability exp(−U/n); add n·V with V geometric, Pr[V = v] ∝ e^−v;
// then W = U + n·V has Pr[W = w] ∝ exp(−w/n) on w ≥ 0, and X = ⌊W/d⌋ has
// Pr[X = x] ∝ exp(−x·d/n) = exp(−x/σ). A fair sign makes it two-sided,
// rejecting "−0" so that 0 is not counted twice.
func (l DiscreteLaplace) Sample(r *mrand.Rand) int64 {
	num, den := l.params()
	for {
		u := r.Uint64N(num)
		if !bernoulliExpFraction(r, u, num) {
			continue
		}
		v := uint64(0)
		for bernoulliExpFraction(r, 1, 1) {
			v++
		}
		x := (u + num*v) / den
		negative := r.Uint64()&1 == 1
		if negative && x == 0 {
			continue
		}
		if negative {
			return -int64(x)
		}
		return int64(x)
	}
}
