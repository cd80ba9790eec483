package mech

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// noiseScale returns the noise scale factor·Δ/ε of a Laplace-type mechanism
// after checking ε and Δ. The scale must be a normal double no larger than
// rng.MaxScale: a subnormal one has lost its precision (and 1/scale in the
// density overflows), a larger one lets a draw overflow to ±Inf. The
// message names ε and Δ, the two numbers the student chose.
func noiseScale(name string, sensitivity, epsilon, factor float64) (float64, error) {
	if err := checkEpsilonDelta(epsilon, sensitivity); err != nil {
		return 0, err
	}
	// Doubling is exact, so factor 2 after the division loses nothing.
	b := factor * (sensitivity / epsilon)
	switch {
	case !(b >= rng.MinScale):
		return 0, validate.Errorf(name, "ε = %v and Δ = %v give a noise scale %s = %v, below the smallest normal double %v; use a larger Δ or a smaller ε",
			epsilon, sensitivity, name, b, float64(rng.MinScale))
	case !(b <= rng.MaxScale):
		return 0, validate.Errorf(name, "ε = %v and Δ = %v give a noise scale %s = %v, above %.3g, where a draw could overflow; use a larger ε or a smaller Δ",
			epsilon, sensitivity, name, b, float64(rng.MaxScale))
	}
	return b, nil
}

// checkReach reports whether every draw start ± MaxUnitExponential·b is a
// finite double, naming the start point's parameter otherwise.
func checkReach(param string, start, b float64) error {
	if reach := math.Abs(start) + rng.MaxUnitExponential*b; !(reach <= math.MaxFloat64) {
		return validate.Errorf(param, "is %v with noise scale %v: a draw could land %v away, beyond the largest double", start, b, rng.MaxUnitExponential*b)
	}
	return nil
}

// Laplace is the Laplace mechanism for a numeric query: it
// releases q(x) + Lap(Δq/ε), with density
//
//	p(r) = ε/(2Δq) · exp(−ε·|r − q(x)|/Δq).
//
// The zero value is the mechanism for q(x) = 0 with scale b = 1.
type Laplace struct {
	center float64
	noise  rng.Laplace
}

// NewLaplace returns the Laplace mechanism for the true answer value, the
// query's sensitivity Δq and ε. The scale Δq/ε must lie in
// [rng.MinScale, rng.MaxScale] and q(x) ± 36.7·Δq/ε (the farthest a draw
// can land) within the doubles, so that every output is finite.
func NewLaplace(value, sensitivity, epsilon float64) (*Laplace, error) {
	if err := validate.Finite("q(x)", value); err != nil {
		return nil, err
	}
	b, err := noiseScale("Δ/ε", sensitivity, epsilon, 1)
	if err != nil {
		return nil, err
	}
	if err := checkReach("q(x)", value, b); err != nil {
		return nil, err
	}
	noise, err := rng.NewLaplace(b)
	if err != nil {
		return nil, err
	}
	return &Laplace{center: value, noise: noise}, nil
}

// Scale returns the noise scale b = Δq/ε.
func (l *Laplace) Scale() float64 { return l.noise.Scale() }

// LogDensity returns ln p(r) = ln(1/(2b)) − |r − q(x)|/b. Where p
// underflows (far tails, r = ±Inf) it returns numeric.LogZero, the most
// negative double, as for every impossible event in core; NaN is not an
// output, so LogDensity(NaN) is LogZero too.
func (l *Laplace) LogDensity(r float64) float64 {
	if math.IsNaN(r) {
		return numeric.LogZero
	}
	b := l.noise.Scale()
	return math.Max(numeric.LogZero, numeric.Log(0.5/b)-math.Abs(r-l.center)/b)
}

// Density returns p(r) = exp(−|r − q(x)|/b)/(2b), the density of
// q(x) + Lap(Δq/ε), and 0 where LogDensity is LogZero.
func (l *Laplace) Density(r float64) float64 { return math.Exp(l.LogDensity(r)) }

// CDF returns Pr[output ≤ r]: ½·e^z below q(x) and 1 − ½·e^−z above, with
// z = (r − q(x))/b. CDF(−Inf) = 0, CDF(+Inf) = 1, and CDF(NaN) = 0, since
// no output is ≤ NaN.
func (l *Laplace) CDF(r float64) float64 {
	if math.IsNaN(r) {
		return 0
	}
	z := (r - l.center) / l.noise.Scale()
	if z < 0 {
		return 0.5 * math.Exp(z)
	}
	return 1 - 0.5*math.Exp(-z)
}

// Sample releases one noisy answer q(x) + Lap(b), finite by the constructor's
// checks.
func (l *Laplace) Sample(r *mrand.Rand) float64 { return l.center + l.noise.Sample(r) }

// LaplaceAsExponential is the exponential mechanism on a continuous range
// [lo, hi] (infinite ends allowed) with the score u(x, r) = −2·|q(x) − r|.
// That score has sensitivity Δu = 2Δq, so the density is
//
//	p(r) ∝ exp(ε·u/(2Δu)) = exp(−ε·|r − q(x)|/(2Δq)),  r ∈ [lo, hi]:
//
// on the whole line a Laplace of scale 2Δq/ε, twice the Laplace mechanism's
// noise. The general proof pays ε/2 for the normaliser, which here does not
// depend on x at all on the whole line, so the same output is in fact
// ε/2-DP: the general analysis is loose by a factor of 2. On a bounded range
// the normaliser does move with q(x), and the factor 2 is needed.
//
// The zero value has the empty range [0, 0]: density 0 (LogZero)
// everywhere and Sample returning 0. Use NewLaplaceAsExponential.
type LaplaceAsExponential struct {
	center, rate float64 // rate λ = ε/(2Δq)
	lo, hi       float64
	logMass      float64 // ln of the unit Laplace(λ) mass on [lo, hi]
	logLeftShare float64 // ln Pr[r < center | r ∈ [lo, hi]]
}

// NewLaplaceAsExponential returns the continuous exponential mechanism above.
// Its scale 2Δq/ε must lie in [rng.MinScale, rng.MaxScale], and on an
// unbounded side the farthest draw, 36.7·2Δq/ε beyond q(x) or the nearer
// end, must be a finite double.
func NewLaplaceAsExponential(value, sensitivity, epsilon, lo, hi float64) (*LaplaceAsExponential, error) {
	if err := validate.Finite("q(x)", value); err != nil {
		return nil, err
	}
	scale, err := noiseScale("2Δ/ε", sensitivity, epsilon, 2)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || !(lo < hi) {
		return nil, validate.Errorf("range", "needs lo < hi, got [%v, %v]", lo, hi)
	}
	if math.IsInf(lo, -1) {
		if err := checkReach("q(x)", math.Min(hi, value), scale); err != nil {
			return nil, err
		}
	}
	if math.IsInf(hi, 1) {
		if err := checkReach("q(x)", math.Max(lo, value), scale); err != nil {
			return nil, err
		}
	}
	// ε/Δ is finite because the scale is normal; halving it is exact, so
	// this is ε/(2Δ) to the last bit without overflowing 2Δ.
	rate := epsilon / sensitivity / 2
	m := &LaplaceAsExponential{center: value, rate: rate, lo: lo, hi: hi}
	left := m.logSideMass(lo, math.Min(hi, value))
	right := m.logSideMass(math.Max(lo, value), hi)
	total, _ := numeric.LogSumExp([]float64{left, right})
	if total <= numeric.LogZero {
		return nil, validate.Errorf("range", "[%v, %v] is so far from q(x) = %v that its probability underflows", lo, hi, value)
	}
	m.logMass = total
	m.logLeftShare = left - total
	return m, nil
}

// logSideMass returns ln ∫ₐᵇ (λ/2)·e^(−λ|r−c|) dr for [a, b] on one side of
// the centre c, or LogZero for an empty interval. On one side the integral
// is ½·e^(−λ·near)·(1 − e^(−λ·width)), with near the distance from c to the
// nearer end: written this way it neither overflows nor cancels.
func (m *LaplaceAsExponential) logSideMass(a, b float64) float64 {
	if !(a < b) {
		return numeric.LogZero
	}
	near := math.Min(math.Abs(a-m.center), math.Abs(b-m.center))
	return numeric.Log(0.5) - m.rate*near + numeric.Log(-math.Expm1(-m.rate*(b-a)))
}

// LogDensity returns ln p(r) = ln(λ/2) − λ·|r − q(x)| − ln Z, with λ = ε/(2Δq)
// and Z the unit Laplace(λ) mass on [lo, hi]; numeric.LogZero outside
// [lo, hi], where p underflows, and at NaN, which is never an output. The
// privacy loss on neighbours is the largest difference of two of these.
func (m *LaplaceAsExponential) LogDensity(r float64) float64 {
	if r < m.lo || r > m.hi || math.IsNaN(r) {
		return numeric.LogZero
	}
	return math.Max(numeric.LogZero, numeric.Log(m.rate/2)-m.rate*math.Abs(r-m.center)-m.logMass)
}

// Density returns p(r) = exp(LogDensity(r)) ∝ exp(−ε·|r − q(x)|/(2Δq)) on
// [lo, hi].
func (m *LaplaceAsExponential) Density(r float64) float64 { return math.Exp(m.LogDensity(r)) }

// CDF returns Pr[output ≤ r] = ∫_lo^r p: 0 up to lo, 1 from hi on, and 0 at
// NaN, since no output is ≤ NaN.
func (m *LaplaceAsExponential) CDF(r float64) float64 {
	switch {
	case math.IsNaN(r) || r <= m.lo:
		return 0
	case r >= m.hi:
		return 1
	}
	leftEnd := math.Min(m.hi, m.center)
	if r <= leftEnd {
		return math.Exp(m.logSideMass(m.lo, r) - m.logMass)
	}
	return math.Exp(m.logLeftShare) + math.Exp(m.logSideMass(math.Max(m.lo, m.center), r)-m.logMass)
}

// Sample draws exactly: pick the side of q(x) by its mass, then draw a
// truncated exponential distance on that side by inverting its CDF. The
// result is clamped to [lo, hi] against rounding at the far end. The zero
// value, whose range [0, 0] holds no mass, always returns 0.
func (m *LaplaceAsExponential) Sample(r *mrand.Rand) float64 {
	if !(m.rate > 0) {
		return m.lo
	}
	var x float64
	if math.Log(rng.OpenUnit(r)) < m.logLeftShare {
		a, b := m.lo, math.Min(m.hi, m.center)
		x = b - m.truncatedExponential(r, b-a)
	} else {
		a, b := math.Max(m.lo, m.center), m.hi
		x = a + m.truncatedExponential(r, b-a)
	}
	return math.Max(m.lo, math.Min(m.hi, x))
}

// truncatedExponential draws a distance from the density ∝ e^(−λd) on
// [0, width]: on either side of q(x) the density falls off this way from the
// end nearest q(x).
func (m *LaplaceAsExponential) truncatedExponential(r *mrand.Rand, width float64) float64 {
	u := rng.OpenUnit(r)
	d := -math.Log1p(u*math.Expm1(-m.rate*width)) / m.rate
	return math.Min(d, width)
}

// LaplaceOnGrid is the finite version of LaplaceAsExponential: the
// exponential mechanism with scores −2·|q(x) − r| over the grid points
// lo, lo+h, lo+2h, … ≤ hi, sensitivity 2Δq. It returns the grid
// and the mechanism.
func LaplaceOnGrid(value, sensitivity, epsilon, lo, hi, spacing float64) ([]float64, *Exponential, error) {
	if err := validate.Finite("q(x)", value); err != nil {
		return nil, nil, err
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"lo", lo}, {"hi", hi}} {
		if err := validate.Finite(v.name, v.x); err != nil {
			return nil, nil, err
		}
	}
	if err := validate.Positive("grid spacing", spacing); err != nil {
		return nil, nil, err
	}
	if !(lo <= hi) {
		return nil, nil, validate.Errorf("range", "needs lo ≤ hi, got [%v, %v]", lo, hi)
	}
	const maxPoints = 1 << 20
	count := math.Floor((hi-lo)/spacing*(1+1e-12)) + 1
	if !(count <= maxPoints) {
		return nil, nil, validate.Errorf("grid spacing", "gives %.0f points; at most %d are supported", count, maxPoints)
	}
	grid := make([]float64, int(count))
	scores := make([]float64, len(grid))
	for k := range grid {
		grid[k] = lo + float64(k)*spacing
		scores[k] = -2 * math.Abs(value-grid[k])
	}
	if err := validate.Positive("Δ (sensitivity)", sensitivity); err != nil {
		return nil, nil, err
	}
	m, err := NewExponential(Config{Scores: scores, Epsilon: epsilon, Sensitivity: 2 * sensitivity})
	if err != nil {
		return nil, nil, err
	}
	return grid, m, nil
}
