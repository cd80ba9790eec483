package mech

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
)

// Exponential is the exponential mechanism over a finite candidate set:
//
//	Pr[r] = μ(r)·exp(ε·u(r)/(2Δ)) / Σₛ μ(s)·exp(ε·u(s)/(2Δ)).
//
// It is ε-differentially private: one person moves every u by at most Δ,
// which moves the numerator by at most a factor e^(ε/2) and the normaliser by
// at most another e^(ε/2). Probabilities are computed in the log domain, so
// raw counts such as the Adult data's 14,976 with ε = 1 are exact, not NaN.
//
// The zero value has no candidates: Sample returns 0 and Fill an error. Use
// NewExponential.
type Exponential struct {
	logp, p []float64
	table   *rng.Alias
}

// NewExponential validates c and builds the mechanism's exact distribution
// and an alias table for O(1) draws.
func NewExponential(c Config) (*Exponential, error) {
	logw, err := exponentialLogWeights(c)
	if err != nil {
		return nil, err
	}
	logp, p, err := numeric.Normalize(logw)
	if err != nil {
		return nil, err
	}
	table, err := rng.NewAlias(p)
	if err != nil {
		return nil, err
	}
	return &Exponential{logp: logp, p: p, table: table}, nil
}

// ExponentialLogProbabilities returns the exponential mechanism's exact
// ln Pr[r] (see LogProbabilities) without building a sampler: the privacy
// auditor computes one distribution per data set of a universe and never
// draws from it.
func ExponentialLogProbabilities(c Config) ([]float64, error) {
	logw, err := exponentialLogWeights(c)
	if err != nil {
		return nil, err
	}
	logp, _, err := numeric.Normalize(logw)
	return logp, err
}

// exponentialLogWeights returns ln μ(r) + ε·(u(r) − u*)/(2Δ) for each r.
func exponentialLogWeights(c Config) ([]float64, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	logw := halfGaps(c)
	for i, d := range logw {
		logw[i] = scaledGap(d, c.Epsilon, c.Sensitivity)
		if c.Measure != nil {
			if c.Measure[i] == 0 {
				logw[i] = numeric.LogZero
				continue
			}
			logw[i] += math.Log(c.Measure[i])
		}
		if logw[i] < numeric.LogZero {
			logw[i] = numeric.LogZero
		}
	}
	return logw, nil
}

// scaledGap returns d·ε/Δ, which for d = (u − u*)/2 is the exponent
// ε·(u − u*)/(2Δ), computed from the three mantissas with the exponents
// applied last: no intermediate overflows or underflows, so (u − u*)/Δ =
// −1e608 with ε/2 = 0 (ε = 5e-324) gives the finite product, not
// −Inf·0 = NaN, and a finite exponent is never reported as −Inf.
func scaledGap(d, epsilon, sensitivity float64) float64 {
	if d == 0 {
		return 0
	}
	fd, ed := math.Frexp(d)
	fe, ee := math.Frexp(epsilon)
	fs, es := math.Frexp(sensitivity)
	return math.Ldexp(fd*fe/fs, ed+ee-es)
}

// Probabilities returns the exact output distribution
// Pr[r] = μ(r)·exp(ε·u(r)/(2Δ)) / Σₛ μ(s)·exp(ε·u(s)/(2Δ)).
func (m *Exponential) Probabilities() []float64 { return clone(m.p) }

// LogProbabilities returns ln Pr[r] = ln μ(r) + ε·u(r)/(2Δ) − ln Σₛ μ(s)·
// exp(ε·u(s)/(2Δ)), exact even where Pr[r] underflows, so that PrivacyLoss
// can compare them.
func (m *Exponential) LogProbabilities() []float64 { return clone(m.logp) }

// Sample draws one candidate in O(1) from the alias table.
func (m *Exponential) Sample(r *mrand.Rand) int { return m.table.Draw(r) }

// Fill adds n draws to counts (one entry per candidate) in a tight loop
// that runs near the source's rate; Draw uses it.
func (m *Exponential) Fill(r *mrand.Rand, counts []int, n int) error {
	return m.table.Fill(r, counts, n)
}

// SampleExponentialOnce draws one candidate of the exponential mechanism in a
// single pass with no alias table: argmaxᵣ (ln μ(r) + ε·u(r)/(2Δ) + Gᵣ) with Gᵣ
// independent standard Gumbel draws (the Gumbel-max trick). Use it for one
// draw over a huge candidate set; use NewExponential for batches. Its output
// has the same distribution as NewExponential's.
func SampleExponentialOnce(c Config, r *mrand.Rand) (int, error) {
	logw, err := exponentialLogWeights(c)
	if err != nil {
		return 0, err
	}
	best, bestKey := -1, math.Inf(-1)
	for i, w := range logw {
		if w <= numeric.LogZero {
			continue
		}
		if key := w + rng.Gumbel(r); best < 0 || key > bestKey {
			best, bestKey = i, key
		}
	}
	return best, nil
}
