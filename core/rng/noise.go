package rng

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/validate"
)

// Gumbel returns a standard Gumbel draw, −ln(−ln U) with U uniform on (0, 1).
// Adding independent Gumbel noise of scale 2Δ/ε to every score and taking the
// argmax is exactly the exponential mechanism.
func Gumbel(r *mrand.Rand) float64 {
	return -math.Log(-math.Log(OpenUnit(r)))
}

// Exponential returns a unit-rate exponential draw, −ln U. Report noisy max
// with exponential noise of scale 2Δ/ε is permute-and-flip.
func Exponential(r *mrand.Rand) float64 {
	return -math.Log(OpenUnit(r))
}

// MaxUnitExponential is the largest value Exponential can return,
// −ln 2^−53 = 53·ln 2 ≈ 36.7, since OpenUnit never goes below 2^−53. The
// Laplace mechanism checks that q(x) ± 36.7·b is finite.
const MaxUnitExponential = 53 * math.Ln2

// MinScale and MaxScale bound the scale of a Laplace distribution. Below
// MinScale, the smallest normal double (about 2.2e-308), a scale has lost
// precision and its reciprocal, in the density ε/(2Δ), overflows; above
// MaxScale = MaxFloat64/64 a draw of up to MaxUnitExponential scales would
// overflow to ±Inf. Either way no finite double could stand for the answer.
const (
	MinScale = 0x1p-1022
	MaxScale = math.MaxFloat64 / 64
)

// Laplace is the zero-mean Laplace distribution with density
// exp(−|x|/b)/(2b), the noise of the Laplace mechanism with b = Δ/ε.
// The zero value is the unit distribution, b = 1.
type Laplace struct{ scale float64 }

// NewLaplace returns the Laplace distribution with scale b, which must lie
// in [MinScale, MaxScale] so that every draw is a finite double.
func NewLaplace(scale float64) (Laplace, error) {
	if err := CheckScale("scale", scale); err != nil {
		return Laplace{}, err
	}
	return Laplace{scale: scale}, nil
}

// CheckScale reports whether b is a scale that NewLaplace accepts, naming
// it param in the message.
func CheckScale(param string, b float64) error {
	if err := validate.Positive(param, b); err != nil {
		return err
	}
	if b < MinScale {
		return validate.Errorf(param, "is %v, below the smallest normal double %v, where it loses precision", b, float64(MinScale))
	}
	if b > MaxScale {
		return validate.Errorf(param, "is %v, above %.3g: a draw (up to 36.7 scales) would overflow", b, float64(MaxScale))
	}
	return nil
}

// Scale returns b, the scale of Lap(b) (1 for the zero value).
func (l Laplace) Scale() float64 {
	if l.scale == 0 {
		return 1
	}
	return l.scale
}

// Sample draws b·S·E, with S a fair sign and E a unit exponential. Taking the
// sign from a separate bit keeps the two tails exactly symmetric. Since
// E ≤ MaxUnitExponential and b ≤ MaxScale, the draw is finite.
//
// This is the textbook floating-point sampler. Its output leaks the true
// value through which doubles it can produce (mech.NaiveLaplaceCouldOutput);
// use the discrete
// Laplace sampler when that matters.
func (l Laplace) Sample(r *mrand.Rand) float64 {
	e := l.Scale() * Exponential(r)
	if r.Uint64()&1 == 0 {
		return -e
	}
	return e
}
