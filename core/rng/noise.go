package rng

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/validate"
)

// Gumbel returns a standard Gumbel draw, −ln(−ln U) with U uniform on (0, 1).
// Adding independent Gumbel noise of scale 2Δ/ε to every score and taking the
// argmax is exactly the exponential mechanism (lessons 1 and 2).
func Gumbel(r *mrand.Rand) float64 {
	return -math.Log(-math.Log(OpenUnit(r)))
}

// Exponential returns a unit-rate exponential draw, −ln U. Report noisy max
// with exponential noise of scale 2Δ/ε is permute-and-flip (lessons 2 and 6).
func Exponential(r *mrand.Rand) float64 {
	return -math.Log(OpenUnit(r))
}

// Laplace is the zero-mean Laplace distribution with density
// exp(−|x|/b)/(2b), the noise of the Laplace mechanism with b = Δ/ε.
type Laplace struct{ scale float64 }

// NewLaplace returns the Laplace distribution with scale b > 0.
func NewLaplace(scale float64) (Laplace, error) {
	if err := validate.Positive("scale", scale); err != nil {
		return Laplace{}, err
	}
	return Laplace{scale: scale}, nil
}

// Scale returns b.
func (l Laplace) Scale() float64 { return l.scale }

// Sample draws b·S·E, with S a fair sign and E a unit exponential. Taking the
// sign from a separate bit keeps the two tails exactly symmetric.
//
// This is the textbook floating-point sampler. Lesson 7 shows how its output
// leaks the true value through which doubles it can produce; use the discrete
// Laplace sampler when that matters.
func (l Laplace) Sample(r *mrand.Rand) float64 {
	e := l.scale * Exponential(r)
	if r.Uint64()&1 == 0 {
		return -e
	}
	return e
}
