package mech

import (
	"math"
	mrand "math/rand/v2"
	"sort"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// Noise is the distribution report noisy max adds to every score.
type Noise int

const (
	// LaplaceNoise of scale Δ/ε, as in the notebook. Releasing only the
	// argmax costs ε when the scores are counts that one person moves in the
	// same direction (Dwork–Roth, Claim 3.9); for arbitrary scores the same
	// scale guarantees only 2ε, and Lap(2Δ/ε) is needed for ε.
	LaplaceNoise Noise = iota
	// GumbelNoise of scale 2Δ/ε: report noisy max then has exactly the
	// exponential mechanism's distribution, and is ε-DP.
	GumbelNoise
	// ExponentialNoise of scale 2Δ/ε: this is permute-and-flip (McKenna and
	// Sheldon 2020), ε-DP and never less accurate than the exponential
	// mechanism.
	ExponentialNoise
)

func (n Noise) String() string {
	switch n {
	case LaplaceNoise:
		return "Laplace"
	case GumbelNoise:
		return "Gumbel"
	case ExponentialNoise:
		return "exponential"
	}
	return "unknown"
}

// MaxExactCandidates bounds the candidates for which report noisy max
// computes exact probabilities: each costs a numerical integral over a
// product of all the others' CDFs, O(n²) in all.
const MaxExactCandidates = 4096

// ReportNoisyMax adds independent noise to every score and outputs the index
// of the largest noisy score, never the score itself (lesson 2). Its exact
// distribution is
//
//	Pr[i] = ∫ fᵢ(x) ∏_{j≠i} Fⱼ(x) dx,
//
// with fⱼ, Fⱼ the density and CDF of score j plus noise. Gumbel noise gives
// the softmax in closed form; exponential noise reduces to a polynomial
// integral on [0, 1]; Laplace noise has no closed form and is integrated
// numerically, in the log domain, to about 1e-12.
type ReportNoisyMax struct {
	noise   Noise
	s       []float64 // standardised scores (u − u*)/scale, ≤ 0
	laplace rng.Laplace
	logp, p []float64
}

// NewReportNoisyMax validates c (which must have no base measure) and
// computes the exact output distribution for the given noise.
func NewReportNoisyMax(c Config, noise Noise) (*ReportNoisyMax, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if c.Measure != nil {
		return nil, validate.Errorf("measure μ", "report noisy max has no base measure; use the exponential mechanism")
	}
	if len(c.Scores) > MaxExactCandidates {
		return nil, validate.Errorf("scores", "has %d candidates; exact report-noisy-max probabilities support at most %d", len(c.Scores), MaxExactCandidates)
	}
	// Work in units of the noise scale: b = Δ/ε for Laplace, 2Δ/ε otherwise.
	// Computed as Δ/ε·factor; ε, Δ finite and > 0, so only overflow to +Inf
	// is possible, and then every standardised score is 0: pure noise.
	scale := c.Sensitivity / c.Epsilon
	if noise != LaplaceNoise {
		scale *= 2
	}
	m := &ReportNoisyMax{noise: noise, s: standardScores(c, scale)}
	m.laplace, _ = rng.NewLaplace(1)
	var logp []float64
	var err error
	switch noise {
	case LaplaceNoise:
		logp = laplaceMaxLogProbabilities(m.s)
	case GumbelNoise:
		logp = clone(m.s)
	case ExponentialNoise:
		logp, err = exponentialMaxLogProbabilities(m.s)
	default:
		return nil, validate.Errorf("noise", "unknown noise %d", int(noise))
	}
	if err != nil {
		return nil, err
	}
	for i := range logp {
		logp[i] = math.Max(logp[i], numeric.LogZero)
	}
	if m.logp, m.p, err = numeric.Normalize(logp); err != nil {
		return nil, err
	}
	return m, nil
}

// Noise returns the noise distribution.
func (m *ReportNoisyMax) Noise() Noise { return m.noise }

// Probabilities returns the exact output distribution.
func (m *ReportNoisyMax) Probabilities() []float64 { return clone(m.p) }

// LogProbabilities returns the natural logs of the output probabilities.
func (m *ReportNoisyMax) LogProbabilities() []float64 { return clone(m.logp) }

// Sample adds fresh noise to every score and returns the argmax. It runs the
// mechanism itself rather than drawing from the exact distribution, so tests
// comparing the two check the integrals too.
func (m *ReportNoisyMax) Sample(r *mrand.Rand) int {
	best, bestKey := 0, math.Inf(-1)
	for i, s := range m.s {
		var z float64
		switch m.noise {
		case LaplaceNoise:
			z = m.laplace.Sample(r)
		case GumbelNoise:
			z = rng.Gumbel(r)
		default:
			z = rng.Exponential(r)
		}
		if key := s + z; key > bestKey {
			best, bestKey = i, key
		}
	}
	return best
}

// exponentialMaxLogProbabilities gives permute-and-flip's distribution. With
// pⱼ = exp(sⱼ) ≤ 1 and the substitution y = exp(−(x − u*)/scale),
//
//	Pr[i] = pᵢ ∫₀¹ ∏_{j≠i} (1 − pⱼ·y) dy,
//	ln Pr[i] = sᵢ + ln ∫₀¹ ∏_{j≠i} (1 − pⱼ·y) dy,
//
// a smooth integrand on [0, 1] between 0 and 1 (lessons 2 and 6). The factor
// pᵢ stays in the log domain: on raw counts it is like e^−2147, which is 0
// as a double, while its logarithm sᵢ is exact. Inside the integral an
// underflowed pⱼ = 0 is harmless, since then 1 − pⱼ·y is 1 to the last bit.
// The integral is at least ∫₀¹ (1 − y)^(n−1) dy = 1/n, so its logarithm is
// finite.
func exponentialMaxLogProbabilities(s []float64) ([]float64, error) {
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
		v, err := numeric.Integrate(integrand, 0, 1, quadTolerance)
		if err != nil {
			return nil, err
		}
		logp[i] = s[i] + math.Log(v)
	}
	return logp, nil
}

// quadTolerance is the absolute error allowed per integral of an integrand
// whose peak is 1.
const quadTolerance = 1e-14

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

// laplaceMaxLogProbabilities gives report noisy max's distribution under unit
// Laplace noise for standardised scores s (lesson 2). For candidate i the
// log-integrand
//
//	g(x) = −|x − sᵢ| − ln 2 + Σ_{j≠i} ln F(x − sⱼ)
//
// is concave (every term is), so it has one peak x*. We find x* by
// bisection on g′, integrate exp(g − g(x*)) between the points where it has
// fallen by e^60, splitting at every kink sⱼ, and add g(x*) back: tiny
// probabilities such as e^−4000 keep their exact logarithm.
func laplaceMaxLogProbabilities(s []float64) []float64 {
	n := len(s)
	logp := make([]float64, n)
	for i := range s {
		if math.IsInf(s[i], -1) {
			logp[i] = numeric.LogZero
			continue
		}
		g := func(x float64) float64 {
			v := -math.Abs(x-s[i]) - math.Ln2
			for j, sj := range s {
				if j != i && !math.IsInf(sj, -1) {
					v += laplaceLogCDF(x - sj)
				}
			}
			return v
		}
		slope := func(x float64) float64 {
			d := -1.0
			if x < s[i] {
				d = 1
			}
			for j, sj := range s {
				if j != i && !math.IsInf(sj, -1) {
					d += laplaceLogCDFSlope(x - sj)
				}
			}
			return d
		}
		// g rises below sᵢ and falls beyond max s + ln n + 2 = ln n + 2.
		peak := bisectDecreasing(slope, s[i], math.Log(float64(n))+2)
		top := g(peak)
		const drop = 60
		lo := outward(g, peak, top-drop, -1)
		hi := outward(g, peak, top-drop, +1)
		cuts := []float64{lo, peak, hi}
		for _, sj := range s {
			if sj > lo && sj < hi {
				cuts = append(cuts, sj)
			}
		}
		sort.Float64s(cuts)
		f := func(x float64) float64 { return math.Exp(g(x) - top) }
		total := 0.0
		for k := 1; k < len(cuts); k++ {
			if cuts[k] > cuts[k-1] {
				v, _ := numeric.Integrate(f, cuts[k-1], cuts[k], quadTolerance)
				total += v
			}
		}
		logp[i] = top + math.Log(total)
	}
	return logp
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
// concave g drops below level, and returns that point.
func outward(g func(float64) float64, x, level, dir float64) float64 {
	for step := 1.0; ; step *= 2 {
		y := x + dir*step
		if g(y) < level || math.IsInf(y, 0) {
			return y
		}
	}
}
