// Package mech implements the selection mechanisms that dpplay teaches, each
// with exact output probabilities (computed in the log domain) and a sampler:
// the exponential mechanism, report noisy max with Laplace, Gumbel or
// exponential noise (the last is permute-and-flip), the Laplace mechanism and
// the Laplace mechanism recovered as an exponential mechanism.
//
// Parametrisation. Every mechanism here takes the privacy parameter ε of the
// notebook's form: the exponential mechanism picks r with probability
// proportional to μ(r)·exp(ε·u(r)/(2Δ)) and is ε-differentially private. The
// article writes exp(ε_a·q) and proves 2·ε_a·Δq-differential privacy; that is
// the same mechanism with ε = 2·ε_a·Δ (see FromArticle and ToArticle).
package mech

import (
	"errors"
	"math"
	mrand "math/rand/v2"
	"strings"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/validate"
)

// Config describes a selection problem: one score u(r) per candidate r, the
// privacy parameter ε, the sensitivity Δ of the scores (how far one person
// can move any score) and an optional base measure μ (nil means uniform).
type Config struct {
	Scores      []float64
	Epsilon     float64
	Sensitivity float64
	Measure     []float64
}

func (c Config) validate() error {
	if err := validate.Scores("scores", c.Scores); err != nil {
		return err
	}
	if err := checkEpsilonDelta(c.Epsilon, c.Sensitivity); err != nil {
		return err
	}
	return validate.Measure("measure μ", c.Measure, len(c.Scores))
}

// checkEpsilonDelta checks that ε and Δ are finite and positive, the two
// numbers every mechanism here is given (ε first when both are wrong).
func checkEpsilonDelta(epsilon, sensitivity float64) error {
	if err := validate.Positive("ε (epsilon)", epsilon); err != nil {
		return err
	}
	return validate.Positive("Δ (sensitivity)", sensitivity)
}

// A Selector is a mechanism that outputs the index of one candidate: the
// exponential mechanism, report noisy max or permute-and-flip (New).
// PrivacyLoss compares one on neighbours, ExpectedLoss scores its accuracy.
type Selector interface {
	// Probabilities returns the exact probability of each output.
	Probabilities() []float64
	// LogProbabilities returns their natural logarithms; an impossible output
	// has numeric.LogZero.
	LogProbabilities() []float64
	// Sample runs the mechanism once.
	Sample(r *mrand.Rand) int
}

// Mechanism names accepted by New, as used by the command line and the page:
// the exponential mechanism, report noisy max
// with Laplace noise of scale Δ/ε or Gumbel noise of scale 2Δ/ε, and
// permute-and-flip, report
// noisy max with exponential noise of scale 2Δ/ε.
const (
	NameExponential           = "exponential"
	NameReportNoisyMaxLaplace = "report-noisy-max-laplace"
	NameReportNoisyMaxGumbel  = "report-noisy-max-gumbel"
	NamePermuteAndFlip        = "permute-and-flip"
)

// Names lists the selection mechanisms New knows, in teaching order: the
// exponential mechanism, report noisy max with Laplace and with Gumbel
// noise, and permute-and-flip.
func Names() []string {
	return []string{NameExponential, NameReportNoisyMaxLaplace, NameReportNoisyMaxGumbel, NamePermuteAndFlip}
}

// New returns the named selection mechanism for c (one of Names).
func New(name string, c Config) (Selector, error) {
	switch name {
	case NameExponential:
		return NewExponential(c)
	case NameReportNoisyMaxLaplace:
		return NewReportNoisyMax(c, LaplaceNoise)
	case NameReportNoisyMaxGumbel:
		return NewReportNoisyMax(c, GumbelNoise)
	case NamePermuteAndFlip:
		return NewReportNoisyMax(c, ExponentialNoise)
	}
	// Joined with commas rather than printed as a Go slice: the student types
	// one of these words after -mechanism or picks it on the page.
	return nil, validate.Errorf("mechanism", "unknown mechanism %q; choose one of %s", name, strings.Join(Names(), ", "))
}

// Draw runs s n times and returns how often each candidate was chosen, in one
// batch (the alias table's Fill) when s has one.
func Draw(s Selector, r *mrand.Rand, n int) ([]int, error) {
	if n < 0 {
		return nil, validate.Errorf("draws", "must be ≥ 0, got %d", n)
	}
	counts := make([]int, len(s.LogProbabilities()))
	if f, ok := s.(interface {
		Fill(*mrand.Rand, []int, int) error
	}); ok {
		return counts, f.Fill(r, counts, n)
	}
	for i := 0; i < n; i++ {
		counts[s.Sample(r)]++
	}
	return counts, nil
}

// halfGaps returns (uᵢ − u*)/2 for each candidate, where u* is the largest
// score among candidates with positive measure. Halving before subtracting
// keeps the difference finite even for scores near ±1e308.
func halfGaps(c Config) []float64 {
	best := math.Inf(-1)
	for i, u := range c.Scores {
		if c.Measure == nil || c.Measure[i] > 0 {
			best = math.Max(best, u)
		}
	}
	d := make([]float64, len(c.Scores))
	for i, u := range c.Scores {
		d[i] = u/2 - best/2
	}
	return d
}

// standardScores returns (uᵢ − u*)/scale for each candidate (see halfGaps);
// an overflow to −Inf means "infinitely far below the best" and is kept.
func standardScores(c Config, scale float64) []float64 {
	s := halfGaps(c)
	for i, d := range s {
		if d != 0 {
			s[i] = 2 * (d / scale)
		}
	}
	return s
}

// ErrUnboundedLoss reports that an output is possible on one input and
// impossible on the other, so no finite ε covers the pair: |ln(Pa/Pb)| = ∞.
// PrivacyLoss returns it. The exponential mechanism, whose outputs all have
// positive probability, never reaches it; the floating-point attack
// exploits it.
var ErrUnboundedLoss = errors.New("an output is possible on one input and impossible on the other: the privacy loss is unbounded")

// PrivacyLoss returns the largest absolute log-ratio of output probabilities,
// maxᵣ |ln Pa(r) − ln Pb(r)|, of two runs of a mechanism on neighbouring
// inputs. An ε-differentially private mechanism gives at most ε on every
// neighbouring pair.
func PrivacyLoss(a, b Selector) (float64, error) {
	la, lb := a.LogProbabilities(), b.LogProbabilities()
	if len(la) != len(lb) {
		return 0, validate.Errorf("mechanisms", "have %d and %d outputs", len(la), len(lb))
	}
	worst := 0.0
	for i := range la {
		za, zb := la[i] <= numeric.LogZero, lb[i] <= numeric.LogZero
		switch {
		case za && zb:
		case za || zb:
			return 0, ErrUnboundedLoss
		default:
			worst = math.Max(worst, math.Abs(la[i]-lb[i]))
		}
	}
	return worst, nil
}

// CheckNeighbours reports whether two score vectors could come from
// neighbouring data sets: the same candidates, each score moved by at most Δ,
// |uᵢ − vᵢ| ≤ Δ.
func CheckNeighbours(u, v []float64, sensitivity float64) error {
	if err := validate.Scores("scores", u); err != nil {
		return err
	}
	if err := validate.Scores("neighbour's scores", v); err != nil {
		return err
	}
	if err := validate.Positive("Δ (sensitivity)", sensitivity); err != nil {
		return err
	}
	if len(u) != len(v) {
		return validate.Errorf("neighbour's scores", "has %d candidates, not %d", len(v), len(u))
	}
	for i := range u {
		if d := math.Abs(u[i]/2-v[i]/2) * 2; d > sensitivity*(1+1e-12) {
			return validate.Errorf(validate.Index("neighbour's scores", i), "moves by %v, more than Δ = %v", d, sensitivity)
		}
	}
	return nil
}

// FromArticle converts the article's parameter ε_a in exp(ε_a·q) to the ε of
// Config: the article's mechanism is 2·ε_a·Δ-differentially private and equals
// the exponential mechanism here with ε = 2·ε_a·Δ.
func FromArticle(epsArticle, sensitivity float64) (float64, error) {
	if err := validate.Positive("ε_a (article)", epsArticle); err != nil {
		return 0, err
	}
	if err := validate.Positive("Δ (sensitivity)", sensitivity); err != nil {
		return 0, err
	}
	eps := 2 * epsArticle * sensitivity
	if err := validate.Positive("ε = 2·ε_a·Δ", eps); err != nil {
		return 0, err
	}
	return eps, nil
}

// ToArticle converts ε to the article's ε_a = ε/(2Δ).
func ToArticle(epsilon, sensitivity float64) (float64, error) {
	if err := checkEpsilonDelta(epsilon, sensitivity); err != nil {
		return 0, err
	}
	ea := epsilon / (2 * sensitivity)
	if err := validate.Positive("ε_a = ε/(2Δ)", ea); err != nil {
		return 0, err
	}
	return ea, nil
}

func clone(xs []float64) []float64 { return append([]float64(nil), xs...) }
