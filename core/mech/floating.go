package mech

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// NaiveLaplaceCouldOutput reports whether the textbook floating-point Laplace
// mechanism, q + b·S·E with E = −ln U and U one of the 2^53 − 1 doubles
// k·2^−53 (the sampler in rng.Laplace), can return exactly x when the true
// answer is q. It inverts the sampler: for each sign it finds the k nearest
// to exp(−|x − q|/b)·2^53 and tries every k close enough to land on x.
//
// Mironov (2012) showed that the sets of reachable outputs for neighbouring
// q differ, so one output can rule out a true answer with certainty.
func NaiveLaplaceCouldOutput(x, q, scale float64) (bool, error) {
	for _, v := range []struct {
		name string
		x    float64
	}{{"output", x}, {"q(x)", q}} {
		if err := validate.Finite(v.name, v.x); err != nil {
			return false, err
		}
	}
	if err := validate.Positive("scale", scale); err != nil {
		return false, err
	}
	const grid = 1 << 53
	for _, sign := range []float64{1, -1} {
		e := sign * (x - q) / scale // the exponential draw this output needs
		if e < 0 {
			continue
		}
		// x is q + noise rounded to ulp(x), and the noise itself is rounded
		// to its own ulp (≤ 2·max(ulp x, ulp q)); k = 2^53·exp(−E) moves by
		// k·ΔE, so a window of 4 such ulps (in units of b) plus a few steps
		// holds every k that could land on x.
		center := grid * math.Exp(-e)
		spread := center*4*(ulp(x)+ulp(q))/scale + 4
		if spread > 4096 {
			// So many k land near x that some surely hits it: count it as
			// reachable, which only makes the attack look weaker.
			return true, nil
		}
		lo := math.Max(1, math.Floor(center-spread))
		hi := math.Min(grid-1, math.Ceil(center+spread))
		for k := lo; k <= hi; k++ {
			if q+sign*(scale*-math.Log(k/grid)) == x {
				return true, nil
			}
		}
	}
	return false, nil
}

func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// FloatingPointAttack runs the naive Laplace mechanism draws times on the
// true answer q and counts the outputs that the neighbouring answer q′ could
// never have produced: each such output proves the answer was q, whatever
// ε promised.
func FloatingPointAttack(q, qNeighbour, sensitivity, epsilon float64, draws int, r *mrand.Rand) (ruledOut int, err error) {
	l, err := NewLaplace(q, sensitivity, epsilon)
	if err != nil {
		return 0, err
	}
	if err := validate.Finite("q′", qNeighbour); err != nil {
		return 0, err
	}
	if draws < 0 || draws > 10_000_000 {
		return 0, validate.Errorf("draws", "must be between 0 and 10,000,000, got %d", draws)
	}
	for i := 0; i < draws; i++ {
		ok, err := NaiveLaplaceCouldOutput(l.Sample(r), qNeighbour, l.Scale())
		if err != nil {
			return 0, err
		}
		if !ok {
			ruledOut++
		}
	}
	return ruledOut, nil
}

// DiscreteLaplace is the Laplace mechanism without the floating-point leak
// that NaiveLaplaceCouldOutput exposes: the answer is an integer (a count,
// or a value in units of a chosen granularity) and the noise is an exact
// discrete Laplace sample, Pr[output = y] = tanh(1/(2σ))·exp(−|y − q|/σ)
// with σ = Δ/ε. Every integer is a possible output for every input, so no
// output can rule an input out, and the log-ratio for neighbours is at most
// Δ/σ = ε exactly.
//
// The zero value is the mechanism for q = 0 with Δ = 1 and σ = 1 (so ε = 1).
type DiscreteLaplace struct {
	value, sensitivity int64
	noise              rng.DiscreteLaplace
}

// NewDiscreteLaplace returns the mechanism for an integer answer with integer
// sensitivity Δ ≥ 1. The scale σ = Δ/ε is rounded up to a multiple of
// 1/4096 and must be at most rng.MaxDiscreteScale = 2^28, so ε ≥ Δ/2^28;
// Epsilon reports the ε actually achieved, never above the one asked.
func NewDiscreteLaplace(value, sensitivity int64, epsilon float64) (*DiscreteLaplace, error) {
	if sensitivity < 1 {
		return nil, validate.Errorf("Δ (sensitivity)", "must be a whole number ≥ 1, got %d", sensitivity)
	}
	if value > 1<<52 || value < -(1<<52) {
		return nil, validate.Errorf("q(x)", "must be within ±2^52, got %d", value)
	}
	if err := validate.Positive("ε (epsilon)", epsilon); err != nil {
		return nil, err
	}
	scale := float64(sensitivity) / epsilon
	if !(scale <= rng.MaxDiscreteScale) {
		// Name ε, which the student chose, rather than the derived scale.
		return nil, validate.Errorf("ε (epsilon)", "is %v: with Δ = %d the noise scale Δ/ε = %v is above the exact sampler's limit 2^28 = %d; use ε ≥ Δ/2^28 = %v",
			epsilon, sensitivity, scale, rng.MaxDiscreteScale, float64(sensitivity)/rng.MaxDiscreteScale)
	}
	noise, err := rng.NewDiscreteLaplace(scale)
	if err != nil {
		return nil, err
	}
	return &DiscreteLaplace{value: value, sensitivity: sensitivity, noise: noise}, nil
}

// delta returns Δ, 1 for the zero value.
func (m *DiscreteLaplace) delta() int64 {
	if m.sensitivity == 0 {
		return 1
	}
	return m.sensitivity
}

// Epsilon returns the privacy parameter achieved, Δ/σ, at most the ε asked
// for because σ is rounded up.
func (m *DiscreteLaplace) Epsilon() float64 { return float64(m.delta()) / m.noise.Scale() }

// Scale returns σ, the rounded-up scale of the exact sampler.
func (m *DiscreteLaplace) Scale() float64 { return m.noise.Scale() }

// LogPMF returns ln Pr[output = y] = ln tanh(1/(2σ)) − |y − q|/σ. The
// distance is taken in floating point when y − q would overflow int64.
func (m *DiscreteLaplace) LogPMF(y int64) float64 {
	d := y - m.value
	if (y >= 0) != (m.value >= 0) && (d >= 0) != (y >= 0) {
		s := m.noise.Scale()
		return m.noise.LogPMF(0) - math.Abs(float64(y)-float64(m.value))/s
	}
	return m.noise.LogPMF(d)
}

// Sample releases one noisy integer answer q + Y, Y an exact discrete
// Laplace draw of scale σ.
func (m *DiscreteLaplace) Sample(r *mrand.Rand) int64 { return m.value + m.noise.Sample(r) }
