package lecture

import (
	"context"
	"math"
	"net/http"
	"strconv"

	"github.com/dpplay/dpplay/core/mech"
)

// Noise says, before a release, what a chosen ε means for an activity. Its
// figures depend only on the activity's definition and ε, never on the
// answers, so anyone may see them and they cost no privacy. They come from
// the constructors the release itself calls (mech.NewDiscreteLaplace,
// mech.NewExponential), so the scale shown is the scale drawn from.
type Noise struct {
	Kind      string  `json:"kind"`
	Epsilon   float64 `json:"epsilon"`
	Mechanism string  `json:"mechanism"`

	// histogram: the discrete Laplace scale σ of every bin (2/ε rounded up
	// to a multiple of 1/4096), the noise's standard deviation, and the
	// smallest k with Pr[|noise| ≤ k] ≥ 0.9.
	Scale    float64 `json:"scale,omitempty"`
	SD       float64 `json:"sd,omitempty"`
	Within90 *int64  `json:"within_90,omitempty"`

	// meeting-day: the chance that an option wins when it leads every other
	// option by Lead students (the others tied), for a few leads; with no
	// lead every option has 1/len(options).
	Leads []Lead `json:"leads,omitempty"`

	// pricing: Δ (the largest price), and the revenue the posted price
	// falls short of the best price's by at most, with probability 0.9:
	// (2Δ/ε)·(ln m + ln 10) for m prices (the exponential mechanism's
	// accuracy bound, mech.AccuracyThreshold).
	Sensitivity float64 `json:"sensitivity,omitempty"`
	Shortfall90 float64 `json:"shortfall_90,omitempty"`
}

// Lead is one row of a meeting-day Noise.
type Lead struct {
	Lead int     `json:"lead"`
	Win  float64 `json:"win"`
}

// noiseLeads are the leads a meeting-day Noise reports.
var noiseLeads = []int{1, 3, 5, 10}

// NoiseOf computes the Noise of spec at ε.
func NoiseOf(spec *Spec, eps float64) (*Noise, error) {
	n := &Noise{Kind: spec.Kind, Epsilon: eps}
	switch spec.Kind {
	case KindHistogram:
		if eps < MinHistogramEpsilon {
			return nil, bad("epsilon: a histogram release needs ε ≥ %g (noise scale 2/ε at most 2^28)", MinHistogramEpsilon)
		}
		m, err := mech.NewDiscreteLaplace(0, HistogramSensitivity, eps)
		if err != nil {
			return nil, err
		}
		n.Mechanism = "discrete Laplace"
		n.Scale = m.Scale()
		// With p = e^{−1/σ}: Pr[|Y| > k] = 2p^{k+1}/(1+p), Var Y = 2p/(1−p)².
		p := math.Exp(-1 / n.Scale)
		n.SD = math.Sqrt(2*p) / -math.Expm1(-1/n.Scale)
		k := int64(math.Max(0, math.Ceil(math.Log(0.1*(1+p)/2)/math.Log(p)-1)))
		for k > 0 && tailAbove(p, k-1) <= 0.1 { // settle the rounding of the logs
			k--
		}
		for tailAbove(p, k) > 0.1 {
			k++
		}
		n.Within90 = &k
	case KindMeetingDay:
		n.Mechanism = "exponential"
		for _, g := range noiseLeads {
			scores := make([]float64, len(spec.Options))
			scores[0] = float64(g)
			m, err := mech.NewExponential(mech.Config{Scores: scores, Epsilon: eps, Sensitivity: 1})
			if err != nil {
				return nil, err
			}
			n.Leads = append(n.Leads, Lead{Lead: g, Win: m.Probabilities()[0]})
		}
	case KindPricing:
		n.Mechanism = "exponential"
		n.Sensitivity = spec.Prices[len(spec.Prices)-1]
		x, err := mech.AccuracyThreshold(0, eps, n.Sensitivity, len(spec.Prices), 1, math.Log(10))
		if err != nil {
			return nil, bad("epsilon: %v", err)
		}
		n.Shortfall90 = -x
	default:
		return nil, errorf(http.StatusInternalServerError, "internal error")
	}
	return n, nil
}

// tailAbove returns Pr[|Y| > k] = 2p^{k+1}/(1+p) for discrete Laplace noise
// Y with p = e^{−1/σ}.
func tailAbove(p float64, k int64) float64 {
	return 2 * math.Exp(float64(k+1)*math.Log(p)) / (1 + p)
}

// ParseEpsilon reads ε from a query string's value: a decimal number in
// (0, MaxEpsilon], at most 32 characters.
func ParseEpsilon(s string) (float64, error) {
	if s == "" {
		return 0, bad("epsilon is required (?epsilon=0.5)")
	}
	if len(s) > 32 {
		return 0, bad("epsilon: at most 32 characters")
	}
	eps, err := strconv.ParseFloat(s, 64)
	u, ok := Units(eps)
	if err != nil || !ok || eps > MaxEpsilon {
		return 0, bad("epsilon: must be a number in (0, %g], in steps of %g", MaxEpsilon, EpsilonUnit)
	}
	return Epsilon(u), nil
}

// GET /api/sessions/{code}/activities/{id}/noise?epsilon=ε → 200 Noise
func (h *Handler) noise(ctx context.Context, r *http.Request, rawCode, rawID string) (int, any, error) {
	_, _, spec, _, err := h.sessionActivity(ctx, r, rawCode, rawID)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	if len(q) > 1 || len(q["epsilon"]) > 1 {
		return 0, nil, bad("the only query parameter is epsilon")
	}
	eps, err := ParseEpsilon(q.Get("epsilon"))
	if err != nil {
		return 0, nil, err
	}
	n, err := NoiseOf(spec, eps)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, n, nil
}
