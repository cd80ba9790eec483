package lecture

import (
	"encoding/json"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dpplay/dpplay/core/market"
	"github.com/dpplay/dpplay/core/mech"
)

// Activity kinds.
const (
	KindMeetingDay = "meeting-day"
	KindHistogram  = "histogram"
	KindPricing    = "pricing"
)

// Limits on an activity's definition.
const (
	MaxOptions   = 31
	MaxOptionLen = 40
	MaxPromptLen = 200
	MaxBins      = 50
	MaxPrices    = 500
	MaxMagnitude = 1e9 // bound on histogram ranges, prices and values
)

// Spec is an activity's definition as the instructor posts it. Only the
// fields of its kind may be set:
//
//	meeting-day: options (2–31 labels); answer {"available": [i, …]}
//	histogram:   min < max, bins (1–50); answer {"value": x}, min ≤ x ≤ max
//	pricing:     prices (increasing, > 0); answer {"value": v}, 0 ≤ v ≤ 1e9
type Spec struct {
	Kind    string    `json:"kind"`
	Prompt  string    `json:"prompt,omitempty"`
	Options []string  `json:"options,omitempty"`
	Min     *float64  `json:"min,omitempty"`
	Max     *float64  `json:"max,omitempty"`
	Bins    int       `json:"bins,omitempty"`
	Prices  []float64 `json:"prices,omitempty"`
}

func bad(format string, args ...any) *apiError {
	return errorf(http.StatusUnprocessableEntity, format, args...)
}

// MinBinWidth is the narrowest histogram range: the page shows edges to
// three decimals, and narrower ranges would show as [0, 0).
const MinBinWidth = 0.001

// Clean is text a person typed as it is kept: control characters
// (including tabs and line breaks) and the invisible marks that reorder text
// (bidirectional overrides and isolates) removed, and spaces trimmed.
func Clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' || r == '\ufeff' || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// check validates s and puts it in canonical form (text cleaned, Clean).
func (s *Spec) check() error {
	s.Prompt = Clean(s.Prompt)
	if utf8.RuneCountInString(s.Prompt) > MaxPromptLen {
		return bad("prompt: at most %d characters", MaxPromptLen)
	}
	meeting := s.Options != nil
	hist := s.Min != nil || s.Max != nil || s.Bins != 0
	pricing := s.Prices != nil
	switch s.Kind {
	case KindMeetingDay:
		if hist || pricing {
			return bad("meeting-day takes only kind, prompt and options")
		}
		if len(s.Options) < 2 || len(s.Options) > MaxOptions {
			return bad("options: need 2 to %d labels", MaxOptions)
		}
		seen := map[string]bool{}
		for i, o := range s.Options {
			o = Clean(o)
			if o == "" || utf8.RuneCountInString(o) > MaxOptionLen {
				return bad("options[%d]: need 1 to %d characters", i, MaxOptionLen)
			}
			if seen[o] {
				return bad("options[%d]: repeats an earlier label", i)
			}
			seen[o] = true
			s.Options[i] = o
		}
	case KindHistogram:
		if meeting || pricing {
			return bad("histogram takes only kind, prompt, min, max and bins")
		}
		if s.Min == nil || s.Max == nil {
			return bad("min and max are required")
		}
		if !(math.Abs(*s.Min) <= MaxMagnitude && math.Abs(*s.Max) <= MaxMagnitude && *s.Min < *s.Max) {
			return bad("need min < max, both within ±%g", MaxMagnitude)
		}
		if s.Bins < 1 || s.Bins > MaxBins {
			return bad("bins: need 1 to %d", MaxBins)
		}
		if !((*s.Max-*s.Min)/float64(s.Bins) >= MinBinWidth) {
			return bad("each range must be at least %g wide: (max − min)/bins", MinBinWidth)
		}
	case KindPricing:
		if meeting || hist {
			return bad("pricing takes only kind, prompt and prices")
		}
		if len(s.Prices) < 1 || len(s.Prices) > MaxPrices {
			return bad("prices: need 1 to %d prices", MaxPrices)
		}
		for i, p := range s.Prices {
			if !(p > 0 && p <= MaxMagnitude) || (i > 0 && p <= s.Prices[i-1]) {
				return bad("prices[%d]: prices must increase and lie in (0, %g]", i, MaxMagnitude)
			}
		}
	case "":
		return bad("kind is required (%s, %s or %s)", KindMeetingDay, KindHistogram, KindPricing)
	default:
		return bad("kind must be %s, %s or %s", KindMeetingDay, KindHistogram, KindPricing)
	}
	return nil
}

// Answer is a student's submission. Available is for meeting-day, Value for
// histogram and pricing.
type Answer struct {
	Available []int    `json:"available,omitempty"`
	Value     *float64 `json:"value,omitempty"`
}

// encodeAnswer validates a against s and returns the text the database
// keeps: a JSON array of sorted indices, or a number. Messages name the
// field and never the value.
func encodeAnswer(s *Spec, a *Answer) (string, error) {
	switch s.Kind {
	case KindMeetingDay:
		if a.Value != nil {
			return "", bad("a meeting-day answer takes only available")
		}
		if a.Available == nil {
			return "", bad("available is required (a list of option indices, possibly empty)")
		}
		idx := slices.Clone(a.Available)
		slices.Sort(idx)
		for i, x := range idx {
			if x < 0 || x >= len(s.Options) {
				return "", bad("available: indices must lie in [0, %d)", len(s.Options))
			}
			if i > 0 && x == idx[i-1] {
				return "", bad("available: an index is repeated")
			}
		}
		b, _ := json.Marshal(idx)
		return string(b), nil
	case KindHistogram, KindPricing:
		if a.Available != nil {
			return "", bad("this activity's answer takes only value")
		}
		if a.Value == nil {
			return "", bad("value is required")
		}
		v := *a.Value
		lo, hi := 0.0, MaxMagnitude
		if s.Kind == KindHistogram {
			lo, hi = *s.Min, *s.Max
		}
		if !(v >= lo && v <= hi) {
			return "", bad("value: must lie in [%g, %g]", lo, hi)
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	}
	return "", errorf(http.StatusInternalServerError, "internal error")
}

// Scores turns the stored answers into the counts a mechanism works on:
// for meeting-day the number of students available on each day, for
// histogram the count in each bin (nil for pricing, which core/market
// scores itself). Answers that fail to parse are skipped (they cannot occur:
// every stored answer went through encodeAnswer).
func Scores(s *Spec, answers []string) []float64 {
	switch s.Kind {
	case KindMeetingDay:
		c := make([]float64, len(s.Options))
		for _, a := range answers {
			var idx []int
			if json.Unmarshal([]byte(a), &idx) != nil {
				continue
			}
			for _, i := range idx {
				if i >= 0 && i < len(c) {
					c[i]++
				}
			}
		}
		return c
	case KindHistogram:
		c := make([]float64, s.Bins)
		lo, hi := *s.Min, *s.Max
		for _, a := range answers {
			v, err := strconv.ParseFloat(a, 64)
			if err != nil || !(v >= lo && v <= hi) {
				continue
			}
			c[s.bin(v)]++
		}
		return c
	}
	return nil
}

// edge returns the i-th histogram bin edge, min + (max − min)·i/bins.
func (s *Spec) edge(i int) float64 {
	if i == s.Bins {
		return *s.Max
	}
	return *s.Min + (*s.Max-*s.Min)*float64(i)/float64(s.Bins)
}

// bin returns the bin [edge(b), edge(b+1)) holding v; max itself falls in
// the last bin. The division gives the bin up to rounding, and comparing
// with the published edges settles the rounding, so a value is always
// counted in the bin whose edges the release shows around it.
func (s *Spec) bin(v float64) int {
	b := int(float64(s.Bins) * (v - *s.Min) / (*s.Max - *s.Min))
	b = min(max(b, 0), s.Bins-1)
	for b > 0 && v < s.edge(b) {
		b--
	}
	for b < s.Bins-1 && v >= s.edge(b+1) {
		b++
	}
	return b
}

// Result is one release. Exactly one group of fields is set, by kind.
type Result struct {
	// meeting-day: the chosen option.
	Choice *int   `json:"choice,omitempty"`
	Option string `json:"option,omitempty"`
	// histogram: the noisy count of each bin (an integer, possibly
	// negative), and the bins' edges.
	Counts []float64 `json:"counts,omitempty"`
	Edges  []float64 `json:"edges,omitempty"`
	// pricing: the posted price. Each student's phone works out its own
	// outcome (bought if value ≥ price, utility value − price) from the
	// value it remembers: the server never sends a value back.
	Price *float64 `json:"price,omitempty"`
}

// Release mechanisms, so that tests can compare releases with them:
//
//   - meeting-day: the exponential mechanism on the availability counts,
//     Δ = 1 (one student changes each count by at most one), uniform base
//     measure: Pr[day d] ∝ exp(ε·count(d)/2).
//   - pricing: core/market's private pricing of a digital good, the
//     exponential mechanism on revenue p·#{v ≥ p} with Δ = the largest price
//     (McSherry and Talwar).
//   - histogram: independent discrete Laplace noise on each integer bin
//     count, Pr[noise = k] ∝ exp(−ε·|k|/2), drawn exactly with integer
//     arithmetic (core/rng). Neighbours are "one student's answer changes":
//     the participant count is public, so present/absent is not the right
//     notion, and a changed answer moves one student out of one bin and into
//     another, an L1 sensitivity of 2. The noise is discrete and
//     exact because the textbook floating-point Laplace sampler leaks through
//     which doubles it can output (Mironov's attack).

// HistogramSensitivity is the L1 sensitivity of the histogram's bin counts
// when one student's answer changes: one bin loses the student, another
// gains them.
const HistogramSensitivity = 2

// draw runs the release mechanism of s at ε on the answers (at least one).
func draw(s *Spec, answers []string, epsilon float64, r *mrand.Rand) (*Result, error) {
	switch s.Kind {
	case KindMeetingDay:
		m, err := mech.NewExponential(mech.Config{Scores: Scores(s, answers), Epsilon: epsilon, Sensitivity: 1})
		if err != nil {
			return nil, err
		}
		i := m.Sample(r)
		return &Result{Choice: &i, Option: s.Options[i]}, nil
	case KindPricing:
		values := make([]float64, 0, len(answers))
		for _, a := range answers {
			if v, err := strconv.ParseFloat(a, 64); err == nil {
				values = append(values, v)
			}
		}
		m, err := market.NewPricing(values, s.Prices, epsilon)
		if err != nil {
			return nil, err
		}
		j, err := m.Sample(r)
		if err != nil {
			return nil, err
		}
		p := s.Prices[j]
		return &Result{Price: &p}, nil
	case KindHistogram:
		scores := Scores(s, answers)
		out := &Result{Counts: make([]float64, len(scores)), Edges: make([]float64, len(scores)+1)}
		for i, c := range scores {
			l, err := mech.NewDiscreteLaplace(int64(c), HistogramSensitivity, epsilon)
			if err != nil {
				return nil, err
			}
			out.Counts[i] = float64(l.Sample(r))
		}
		for i := range out.Edges {
			out.Edges[i] = s.edge(i)
		}
		return out, nil
	}
	return nil, errorf(http.StatusInternalServerError, "internal error")
}
