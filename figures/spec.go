package figures

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// Spec says which figures to draw and with which numbers. The zero value of
// an optional field means "the lesson's default" (see DefaultSpec); ParseSpec
// reads it from a URL hash so that a link and `dpplay figures -state` render
// the same picture. The keys are documented in docs/figures.md.
type Spec struct {
	Lesson int    // 1–6 or 9; 0 means every lesson
	Figure string // one figure name, or "" for all of the lesson's figures

	Data        string    // candidate set: adult, adult-raw or meeting ("" = lesson default)
	Scores      []float64 // edited scores (key u), replacing the data set's; same length
	Epsilon     float64   // ε of the ε/(2Δ) form (after converting an article-form ε)
	Article     bool      // the ε given was the article's ε_a in exp(ε_a·q) (key form=article)
	Sensitivity float64   // Δ; 0 = the data set's
	Seed        uint64
	Draws       int // −1 = lesson default

	Broken bool // lesson 3: use the wrong scale ε/Δ instead of ε/(2Δ)
	Who    int  // lesson 3: candidate the replaced person favours; −1 = the lowest-scoring

	Value  float64 // lesson 4: the query's true value q(x)
	Lo, Hi float64 // lesson 4: the output range (±Inf = the whole line)
	Bins   int     // lesson 4: histogram bins

	EpsMin, EpsMax float64 // lessons 5, 6, 9: the ε axis of sweeps

	Values []float64 // lesson 9: the buyers' values
	Prices string    // lesson 9: price grid lo:hi:step

	Width, Height float64 // centimetres
}

// DefaultSpec returns the settings the lessons open with.
func DefaultSpec() Spec {
	return Spec{
		Epsilon: 1, Seed: 1, Draws: -1, Who: -1,
		Lo: math.Inf(-1), Hi: math.Inf(1), Bins: 60,
		EpsMin: 0.05, EpsMax: 20,
		Values: []float64{1, 1, 1, 4.01}, Prices: "0.01:5:0.01",
		Width: 16, Height: 11,
	}
}

// Lessons lists the lessons that have figures, in order.
func Lessons() []int { return []int{1, 2, 3, 4, 5, 6, 9} }

// Limits on what a hand-edited link may ask for.
const (
	MaxDraws   = 10_000_000
	MaxBins    = 500
	MaxSizeCM  = 60
	MinSizeCM  = 4
	maxEpsilon = 1000
)

// ParseSpec reads a spec from a URL hash. Two forms are accepted:
//
//	#lesson=1&eps=1&seed=7&draws=10000            (this package's own form)
//	#/exponential-mechanism?w1.eps=1&w1.seed=7&w1.step=3&w1.batch=1000&lesson=1
//
// The second is the page's: a key "widget.name" counts as "name", and
// step × batch gives draws. Unknown keys are ignored, so a page link with
// other widgets' settings still works; a known key with a bad value is an
// error naming the key.
func ParseSpec(hash string) (Spec, error) {
	s := DefaultSpec()
	h := strings.TrimPrefix(strings.TrimSpace(hash), "#")
	if strings.HasPrefix(h, "/") {
		if i := strings.IndexByte(h, '?'); i >= 0 {
			h = h[i+1:]
		} else {
			h = ""
		}
	}
	q, err := url.ParseQuery(h)
	if err != nil {
		return s, validate.Errorf("state", "is not a URL hash of key=value pairs: %v", err)
	}
	// Keys in a stable order so that errors are reproducible too.
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var step, batch = -1, -1
	for _, k := range keys {
		v := q[k][len(q[k])-1]
		name := k
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			name = k[i+1:]
		}
		if err := s.set(name, v, &step, &batch); err != nil {
			return s, err
		}
	}
	if s.Draws < 0 && step >= 0 && batch >= 0 {
		if step > 0 && batch > MaxDraws/step {
			return s, validate.Errorf("step", "× batch is more than %d draws", MaxDraws)
		}
		s.Draws = step * batch
	}
	return s, s.Validate()
}

func (s *Spec) set(name, v string, step, batch *int) error {
	num := func() (float64, error) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) {
			return 0, validate.Errorf(name, "is not a number: %q", v)
		}
		return x, nil
	}
	integer := func(lo, hi int) (int, error) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x != math.Trunc(x) || x < float64(lo) || x > float64(hi) {
			return 0, validate.Errorf(name, "must be a whole number in [%d, %d], got %q", lo, hi, v)
		}
		return int(x), nil
	}
	list := func() ([]float64, error) {
		parts := strings.Split(v, ",")
		if len(parts) > 10_000 {
			return nil, validate.Errorf(name, "has %d entries; at most 10000 are allowed", len(parts))
		}
		xs := make([]float64, len(parts))
		for i, p := range parts {
			x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, validate.Errorf(fmt.Sprintf("%s[%d]", name, i), "is not a finite number: %q", p)
			}
			xs[i] = x
		}
		return xs, nil
	}
	var err error
	switch name {
	case "lesson":
		s.Lesson, err = integer(0, 99)
	case "fig", "figure":
		s.Figure = v
	case "data":
		s.Data = v
	case "u", "scores":
		if v != "" {
			s.Scores, err = list()
		}
	case "eps", "epsilon":
		s.Epsilon, err = num()
	case "form":
		if v != "dp" && v != "article" {
			return validate.Errorf("form", "must be dp or article, got %q", v)
		}
		s.Article = v == "article"
	case "delta":
		s.Sensitivity, err = num()
	case "seed":
		x, perr := strconv.ParseUint(v, 10, 64)
		if perr != nil {
			return validate.Errorf("seed", "must be a whole number ≥ 0, got %q", v)
		}
		s.Seed = x
	case "draws":
		s.Draws, err = integer(0, MaxDraws)
	case "step":
		*step, err = integer(0, MaxDraws)
	case "batch":
		*batch, err = integer(0, MaxDraws)
	case "broken":
		s.Broken = v == "1" || v == "true" || v == "on"
	case "who":
		s.Who, err = integer(-1, 10_000)
	case "q", "value":
		s.Value, err = num()
	case "lo":
		s.Lo, err = num()
	case "hi":
		s.Hi, err = num()
	case "bins":
		s.Bins, err = integer(1, MaxBins)
	case "epsmin":
		s.EpsMin, err = num()
	case "epsmax":
		s.EpsMax, err = num()
	case "values":
		s.Values, err = list()
	case "prices":
		s.Prices = v
	case "width":
		s.Width, err = num()
	case "height":
		s.Height, err = num()
	}
	return err
}

// Validate checks the spec's ranges.
func (s Spec) Validate() error {
	if s.Lesson != 0 && figureNames(s.Lesson) == nil {
		return validate.Errorf("lesson", "has no figures; choose one of %v (or 0 for all)", Lessons())
	}
	if s.Figure != "" && s.Lesson != 0 {
		ok := false
		for _, n := range figureNames(s.Lesson) {
			ok = ok || n == s.Figure
		}
		if !ok {
			return validate.Errorf("fig", "lesson %d has no figure %q; it has %v", s.Lesson, s.Figure, figureNames(s.Lesson))
		}
	}
	if s.Data != "" {
		if _, ok := dataSets[s.Data]; !ok {
			return validate.Errorf("data", "unknown data set %q; choose one of %v", s.Data, dataSetNames())
		}
	}
	if err := validate.Positive("eps (ε)", s.Epsilon); err != nil {
		return err
	}
	if s.Epsilon > maxEpsilon {
		return validate.Errorf("eps (ε)", "must be at most %d, got %v", maxEpsilon, s.Epsilon)
	}
	if s.Sensitivity != 0 {
		if err := validate.Positive("delta (Δ)", s.Sensitivity); err != nil {
			return err
		}
	}
	if s.Draws < -1 || s.Draws > MaxDraws {
		return validate.Errorf("draws", "must be in [0, %d], got %d", MaxDraws, s.Draws)
	}
	if err := validate.Finite("q", s.Value); err != nil {
		return err
	}
	if math.IsNaN(s.Lo) || math.IsNaN(s.Hi) || !(s.Lo < s.Hi) {
		return validate.Errorf("lo", "needs lo < hi, got [%v, %v]", s.Lo, s.Hi)
	}
	if s.Bins < 1 || s.Bins > MaxBins {
		return validate.Errorf("bins", "must be in [1, %d], got %d", MaxBins, s.Bins)
	}
	if err := validate.Positive("epsmin", s.EpsMin); err != nil {
		return err
	}
	if !(s.EpsMax > s.EpsMin) || s.EpsMax > maxEpsilon {
		return validate.Errorf("epsmax", "must be in (epsmin, %d], got %v", maxEpsilon, s.EpsMax)
	}
	for _, d := range []struct {
		name string
		x    float64
	}{{"width", s.Width}, {"height", s.Height}} {
		if !(d.x >= MinSizeCM && d.x <= MaxSizeCM) {
			return validate.Errorf(d.name, "must be between %d and %d cm, got %v", MinSizeCM, MaxSizeCM, d.x)
		}
	}
	return nil
}

// Hash writes the spec back as a hash in this package's own form; ParseSpec
// of the result gives the same spec.
func (s Spec) Hash() string {
	var parts []string
	add := func(k, v string) { parts = append(parts, k+"="+url.QueryEscape(v)) }
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fs := func(xs []float64) string {
		ss := make([]string, len(xs))
		for i, x := range xs {
			ss[i] = f(x)
		}
		return strings.Join(ss, ",")
	}
	d := DefaultSpec()
	add("lesson", strconv.Itoa(s.Lesson))
	if s.Figure != "" {
		add("fig", s.Figure)
	}
	if s.Data != "" {
		add("data", s.Data)
	}
	if s.Scores != nil {
		add("u", fs(s.Scores))
	}
	add("eps", f(s.Epsilon))
	if s.Article {
		add("form", "article")
	}
	if s.Sensitivity != 0 {
		add("delta", f(s.Sensitivity))
	}
	add("seed", strconv.FormatUint(s.Seed, 10))
	if s.Draws >= 0 {
		add("draws", strconv.Itoa(s.Draws))
	}
	if s.Broken {
		add("broken", "1")
	}
	if s.Who != d.Who {
		add("who", strconv.Itoa(s.Who))
	}
	if s.Value != d.Value {
		add("q", f(s.Value))
	}
	if s.Lo != d.Lo {
		add("lo", f(s.Lo))
	}
	if s.Hi != d.Hi {
		add("hi", f(s.Hi))
	}
	if s.Bins != d.Bins {
		add("bins", strconv.Itoa(s.Bins))
	}
	if s.EpsMin != d.EpsMin {
		add("epsmin", f(s.EpsMin))
	}
	if s.EpsMax != d.EpsMax {
		add("epsmax", f(s.EpsMax))
	}
	if fs(s.Values) != fs(d.Values) {
		add("values", fs(s.Values))
	}
	if s.Prices != d.Prices {
		add("prices", s.Prices)
	}
	if s.Width != d.Width {
		add("width", f(s.Width))
	}
	if s.Height != d.Height {
		add("height", f(s.Height))
	}
	return "#" + strings.Join(parts, "&")
}
