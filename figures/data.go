// Package figures draws each lesson's key figures for slides and print, from
// the same core numbers the page shows: histograms of seeded draws against
// exact probabilities (lessons 1, 2), log-ratio bands (lesson 3), density
// overlays (lesson 4), accuracy tails (lesson 5), expected loss against ε
// (lesson 6) and expected revenue against ε (lesson 9).
//
// Building a figure (Build) computes its numbers as plain series; rendering
// (Render) draws them with gonum.org/v1/plot as SVG, PNG or PDF. Tests check
// the series, and that rendering twice gives the same bytes. The package
// links gonum/plot's fonts (about 5 MB), so it is never part of the page's
// first load: the page loads it on demand as wasm/figures.
package figures

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/market"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// Kind says how a series is drawn.
type Kind int

const (
	Bars      Kind = iota // a filled bar of width Width centred on each X, from 0 to Y
	Marks                 // a short horizontal line of width Width at Y over each X, with a dot: an exact value
	Line                  // a polyline through (X, Y)
	Points                // dots at (X, Y)
	ErrorBars             // dots at (X, Y) with vertical bars from Lo to Hi
	Band                  // a shaded region between Lo and Hi over X
)

// Series is one data series of a figure, in the figure's units.
type Series struct {
	Name   string // legend entry
	Kind   Kind
	Colour int // palette index
	Dashed bool
	Width  float64 // bar or mark width in x units
	X, Y   []float64
	Lo, Hi []float64 // ErrorBars and Band
	Counts []int     // the raw counts behind a histogram's Y, for tests and data tables
	N      int       // the number of draws behind Counts
}

// Figure is one figure's numbers and labels.
type Figure struct {
	Lesson     int
	Name       string // file name part: lesson1-histogram.svg
	Title      string
	XLabel     string
	YLabel     string
	Categories []string // non-nil: the x axis is nominal, X holds 0, 1, …
	LogX       bool
	YMin, YMax float64 // fixed y range when YMax > YMin
	Series     []Series
}

// FileName returns lessonN-name.ext.
func (f *Figure) FileName(ext string) string {
	return fmt.Sprintf("lesson%d-%s.%s", f.Lesson, f.Name, ext)
}

// dataSet is a candidate set shared with the page (web/widgets/datasets.js).
type dataSet struct {
	Label      string
	Candidates []string
	Scores     []float64
	Delta      float64
	Unit       string
}

var adultCounts = []float64{14976, 10683, 4443, 1025, 993, 418, 23}

var dataSets = map[string]dataSet{
	"adult": {
		Label:      "Adult data, marital status",
		Candidates: []string{"Married-civ-spouse", "Never-married", "Divorced", "Separated", "Widowed", "Married-spouse-absent", "Married-AF-spouse"},
		Scores:     scaled(adultCounts, 1e-3),
		Delta:      1, Unit: "thousand people",
	},
	"adult-raw": {
		Label:      "Adult data, marital status (raw counts)",
		Candidates: []string{"Married-civ-spouse", "Never-married", "Divorced", "Separated", "Widowed", "Married-spouse-absent", "Married-AF-spouse"},
		Scores:     adultCounts,
		Delta:      1, Unit: "people",
	},
	"meeting": {
		Label:      "Meeting dates",
		Candidates: []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"},
		Scores:     []float64{21, 27, 25, 12, 18},
		Delta:      1, Unit: "people free",
	},
}

func scaled(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}

func dataSetNames() []string {
	names := make([]string, 0, len(dataSets))
	for n := range dataSets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// figureNames lists each lesson's figures; nil for a lesson without any.
func figureNames(lesson int) []string {
	switch lesson {
	case 1, 2:
		return []string{"histogram"}
	case 3:
		return []string{"logratio"}
	case 4:
		return []string{"density"}
	case 5:
		return []string{"tail"}
	case 6:
		return []string{"loss"}
	case 9:
		return []string{"revenue"}
	}
	return nil
}

// problem is a resolved selection problem: the data, scores and ε in use.
type problem struct {
	set    dataSet
	scores []float64
	eps    float64 // ε of the ε/(2Δ) form
	delta  float64
	draws  int
}

func (s Spec) problem(defaultData string, defaultDraws int) (problem, error) {
	name := s.Data
	if name == "" {
		name = defaultData
	}
	d := dataSets[name]
	p := problem{set: d, scores: d.Scores, eps: s.Epsilon, delta: d.Delta, draws: s.Draws}
	if s.Scores != nil {
		if len(s.Scores) != len(d.Scores) {
			return p, validate.Errorf("u", "has %d scores; data set %q has %d candidates", len(s.Scores), name, len(d.Scores))
		}
		p.scores = s.Scores
	}
	if s.Sensitivity != 0 {
		p.delta = s.Sensitivity
	}
	if s.Article {
		e, err := mech.FromArticle(s.Epsilon, p.delta)
		if err != nil {
			return p, err
		}
		p.eps = e
	}
	if p.draws < 0 {
		p.draws = defaultDraws
	}
	return p, nil
}

func (p problem) config() mech.Config {
	return mech.Config{Scores: p.scores, Epsilon: p.eps, Sensitivity: p.delta}
}

// Build computes every figure the spec asks for, in lesson order.
func Build(s Spec) ([]*Figure, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	lessons := []int{s.Lesson}
	if s.Lesson == 0 {
		lessons = Lessons()
	}
	var out []*Figure
	for _, l := range lessons {
		for _, name := range figureNames(l) {
			if s.Figure != "" && s.Figure != name {
				continue
			}
			f, err := build(l, name, s)
			if err != nil {
				return nil, fmt.Errorf("lesson %d %s: %w", l, name, err)
			}
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, validate.Errorf("fig", "no lesson has a figure %q", s.Figure)
	}
	return out, nil
}

func build(lesson int, name string, s Spec) (*Figure, error) {
	switch lesson {
	case 1:
		return histogram(s)
	case 2:
		return noisyMaxHistogram(s)
	case 3:
		return logRatio(s)
	case 4:
		return density(s)
	case 5:
		return tail(s)
	case 6:
		return loss(s)
	case 9:
		return revenue(s)
	}
	return nil, validate.Errorf("lesson", "has no figure %q", name)
}

func indices(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// drawCounts returns the counts of the first n draws of sel from
// rng.Seeded(seed), one Sample per draw: the same stream the page's bridge
// uses (wasm/bridge), so a figure matches the page's histogram bit for bit.
func drawCounts(sel mech.Selector, k int, seed uint64, n int) []int {
	r := rng.Seeded(seed)
	counts := make([]int, k)
	for i := 0; i < n; i++ {
		counts[sel.Sample(r)]++
	}
	return counts
}

func shares(counts []int, n int) []float64 {
	y := make([]float64, len(counts))
	for i, c := range counts {
		if n > 0 {
			y[i] = float64(c) / float64(n)
		}
	}
	return y
}

// histogram is lesson 1: the exponential mechanism's seeded draws against
// its exact probabilities μ(r)·exp(ε·u(r)/(2Δ))/Z.
func histogram(s Spec) (*Figure, error) {
	p, err := s.problem("adult", 1000)
	if err != nil {
		return nil, err
	}
	m, err := mech.NewExponential(p.config())
	if err != nil {
		return nil, err
	}
	counts := drawCounts(m, len(p.scores), s.Seed, p.draws)
	x := indices(len(p.scores))
	form := fmt.Sprintf("ε = %s, Δ = %s", num(p.eps), num(p.delta))
	if s.Article {
		form = fmt.Sprintf("article's ε_a = %s, i.e. ε = 2ε_aΔ = %s, Δ = %s", num(s.Epsilon), num(p.eps), num(p.delta))
	}
	return &Figure{
		Lesson: 1, Name: "histogram",
		Title:      fmt.Sprintf("The exponential mechanism\n%s; %s", p.set.Label, form),
		XLabel:     "Candidate",
		YLabel:     "Probability / share of draws",
		Categories: p.set.Candidates,
		YMin:       0, YMax: 1,
		Series: []Series{
			{Name: fmt.Sprintf("Share of %s seeded draws (seed %d)", thousands(p.draws), s.Seed), Kind: Bars, Colour: 0, Width: 0.7,
				X: x, Y: shares(counts, p.draws), Counts: counts, N: p.draws},
			{Name: "Exact probability, weights exp(ε·u/(2Δ))", Kind: Marks, Colour: 7, Width: 0.7, X: x, Y: m.Probabilities()},
		},
	}, nil
}

// noisyMaxMechanisms are lesson 2's panels, in the page's order.
var noisyMaxMechanisms = []struct{ name, label string }{
	{mech.NameExponential, "Exponential mechanism"},
	{mech.NameReportNoisyMaxLaplace, "Report noisy max, Laplace noise Δ/ε"},
	{mech.NameReportNoisyMaxGumbel, "Report noisy max, Gumbel noise 2Δ/ε"},
	{mech.NamePermuteAndFlip, "Report noisy max, exponential noise 2Δ/ε (permute-and-flip)"},
}

// noisyMaxHistogram is lesson 2: each mechanism's draws (the noisy scores
// really drawn, one stream per mechanism from the same seed) with its exact
// probabilities as a mark across its bar.
func noisyMaxHistogram(s Spec) (*Figure, error) {
	p, err := s.problem("meeting", 1000)
	if err != nil {
		return nil, err
	}
	f := &Figure{
		Lesson: 2, Name: "histogram",
		Title:      fmt.Sprintf("Report noisy max vs the exponential mechanism\n%s; ε = %s, Δ = %s, %s seeded draws each (seed %d)", p.set.Label, num(p.eps), num(p.delta), thousands(p.draws), s.Seed),
		XLabel:     "Candidate",
		YLabel:     "Probability / share of draws",
		Categories: p.set.Candidates,
		YMin:       0, YMax: 1,
	}
	k := len(noisyMaxMechanisms)
	w := 0.8 / float64(k)
	var marks []Series
	for j, nm := range noisyMaxMechanisms {
		sel, err := mech.New(nm.name, p.config())
		if err != nil {
			return nil, err
		}
		counts := drawCounts(sel, len(p.scores), s.Seed, p.draws)
		x := indices(len(p.scores))
		for i := range x {
			x[i] += (float64(j) - float64(k-1)/2) * w
		}
		f.Series = append(f.Series, Series{Name: nm.label, Kind: Bars, Colour: j, Width: w * 0.92, X: x, Y: shares(counts, p.draws), Counts: counts, N: p.draws})
		name := ""
		if j == 0 {
			name = "Exact probability of each mechanism"
		}
		marks = append(marks, Series{Name: name, Kind: Marks, Colour: 7, Width: w * 0.92, X: x, Y: sel.Probabilities()})
	}
	f.Series = append(f.Series, marks...)
	return f, nil
}

// Neighbour returns lesson 3's neighbouring scores: one person is replaced,
// the one leaving counted for every candidate but who, the one arriving only
// for who. Candidate who gains Δ and every other candidate loses Δ: the pair
// that pushes the exponential mechanism's log-ratio closest to ε.
func Neighbour(scores []float64, who int, delta float64) ([]float64, error) {
	if who < 0 || who >= len(scores) {
		return nil, validate.Errorf("who", "must be a candidate index in [0, %d), got %d", len(scores), who)
	}
	v := make([]float64, len(scores))
	for i, u := range scores {
		if i == who {
			v[i] = u + delta
		} else {
			v[i] = u - delta
		}
	}
	return v, nil
}

// logRatio is lesson 3: ln(P(r)/P′(r)) per outcome for neighbouring data
// sets, exact and estimated from draws with 95% intervals, against the ±ε
// band. With Broken the mechanism uses the scale ε/Δ, which is 2ε-DP, and
// the band is breached.
func logRatio(s Spec) (*Figure, error) {
	p, err := s.problem("meeting", 100_000)
	if err != nil {
		return nil, err
	}
	who := s.Who
	if who < 0 {
		who = 0
		for i, u := range p.scores {
			if u < p.scores[who] {
				who = i
			}
		}
	}
	other, err := Neighbour(p.scores, who, p.delta)
	if err != nil {
		return nil, err
	}
	run := p.eps
	scale := "ε/(2Δ))"
	if s.Broken {
		run = 2 * p.eps // exp(ε·u/Δ) is the ε/(2Δ) form with 2ε
		scale = "ε/Δ), BROKEN: 2ε-DP only"
	}
	a, err := mech.NewExponential(mech.Config{Scores: p.scores, Epsilon: run, Sensitivity: p.delta})
	if err != nil {
		return nil, err
	}
	b, err := mech.NewExponential(mech.Config{Scores: other, Epsilon: run, Sensitivity: p.delta})
	if err != nil {
		return nil, err
	}
	la, lb := a.LogProbabilities(), b.LogProbabilities()
	n := len(p.scores)
	x := indices(n)
	exact := make([]float64, n)
	for i := range exact {
		exact[i] = la[i] - lb[i]
	}
	// x uses the stream of seed, x′ that of seed+1: independent draws.
	ca := drawCounts(a, n, s.Seed, p.draws)
	cb := drawCounts(b, n, s.Seed+1, p.draws)
	est := Series{Name: fmt.Sprintf("Estimated from %s draws on each, 95%% interval", thousands(p.draws)), Kind: ErrorBars, Colour: 3}
	for i := range ca {
		e, lo, hi, err := stats.LogRatio(ca[i], p.draws, cb[i], p.draws, 1.96)
		if err != nil {
			continue // never drawn on one side: no finite estimate
		}
		est.X = append(est.X, float64(i)+0.15)
		est.Y = append(est.Y, e)
		est.Lo = append(est.Lo, lo)
		est.Hi = append(est.Hi, hi)
	}
	bandX := []float64{-0.5, float64(n) - 0.5}
	f := &Figure{
		Lesson: 3, Name: "logratio",
		Title:      fmt.Sprintf("What ε promises: privacy loss per outcome\n%s; ε = %s, weights exp(u·%s; x′ swaps one person (towards %s)", p.set.Label, num(p.eps), scale, p.set.Candidates[who]),
		XLabel:     "Outcome r",
		YLabel:     "ln( P[r | x] / P[r | x′] )  (nats)",
		Categories: p.set.Candidates,
		Series: []Series{
			{Name: fmt.Sprintf("Allowed band ±ε = ±%s", num(p.eps)), Kind: Band, Colour: 5, X: bandX, Lo: []float64{-p.eps, -p.eps}, Hi: []float64{p.eps, p.eps}},
			{Name: "Exact log-ratio", Kind: Marks, Colour: 0, Width: 0.5, X: x, Y: exact},
		},
	}
	if len(est.X) > 0 {
		f.Series = append(f.Series, est)
	}
	lim := 1.25 * p.eps
	for _, sr := range f.Series {
		for i := range sr.Y {
			lim = math.Max(lim, 1.1*math.Abs(sr.Y[i]))
		}
		for i := range sr.Hi {
			lim = math.Max(lim, 1.1*math.Max(math.Abs(sr.Lo[i]), math.Abs(sr.Hi[i])))
		}
	}
	f.YMin, f.YMax = -lim, lim
	return f, nil
}

// density is lesson 4: the continuous exponential mechanism with score
// −2·|q(x) − r| (density ∝ exp(−ε|r − q|/(2Δ)), scale 2Δ/ε), its sampled
// histogram, and the Laplace mechanism's density (scale Δ/ε) for contrast.
func density(s Spec) (*Figure, error) {
	delta := s.Sensitivity
	if delta == 0 {
		delta = 1
	}
	draws := s.Draws
	if draws < 0 {
		draws = 10_000
	}
	em, err := mech.NewLaplaceAsExponential(s.Value, delta, s.Epsilon, s.Lo, s.Hi)
	if err != nil {
		return nil, err
	}
	lap, err := mech.NewLaplace(s.Value, delta, s.Epsilon)
	if err != nil {
		return nil, err
	}
	// The window shows ±6 exponential-mechanism scales, cut to the range.
	w := 6 * 2 * delta / s.Epsilon
	lo, hi := math.Max(s.Lo, s.Value-w), math.Min(s.Hi, s.Value+w)
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil, validate.Errorf("range", "leaves no finite window to draw around q = %v", s.Value)
	}
	bins := s.Bins
	width := (hi - lo) / float64(bins)
	counts := make([]int, bins)
	r := rng.Seeded(s.Seed)
	for i := 0; i < draws; i++ {
		v := em.Sample(r)
		if v < lo || v >= hi {
			continue
		}
		k := int((v - lo) / width)
		counts[min(k, bins-1)]++
	}
	hx := make([]float64, bins)
	hy := make([]float64, bins)
	for k := range hx {
		hx[k] = lo + (float64(k)+0.5)*width
		if draws > 0 {
			hy[k] = float64(counts[k]) / (float64(draws) * width)
		}
	}
	const pts = 401
	gx := make([]float64, pts)
	ey := make([]float64, pts)
	ly := make([]float64, pts)
	for i := range gx {
		gx[i] = lo + (hi-lo)*float64(i)/(pts-1)
		ey[i] = em.Density(gx[i])
		ly[i] = lap.Density(gx[i])
	}
	rangeText := "whole line"
	if !math.IsInf(s.Lo, 0) || !math.IsInf(s.Hi, 0) {
		rangeText = fmt.Sprintf("range [%s, %s]", num(s.Lo), num(s.Hi))
	}
	return &Figure{
		Lesson: 4, Name: "density",
		Title:  fmt.Sprintf("The Laplace mechanism is an exponential mechanism\nq(x) = %s, Δq = %s, ε = %s, %s", num(s.Value), num(delta), num(s.Epsilon), rangeText),
		XLabel: "Output r (units of the query)",
		YLabel: "Density (per unit of r)",
		Series: []Series{
			{Name: fmt.Sprintf("Histogram of %s draws, score −2|q − r| (seed %d)", thousands(draws), s.Seed), Kind: Bars, Colour: 5, Width: width, X: hx, Y: hy, Counts: counts, N: draws},
			{Name: "Exponential mechanism density, scale 2Δq/ε", Kind: Line, Colour: 0, X: gx, Y: ey},
			{Name: "Laplace mechanism density, scale Δq/ε", Kind: Line, Colour: 3, Dashed: true, X: gx, Y: ly},
		},
	}, nil
}

// tail is lesson 5: the accuracy theorem
// Pr[u ≤ OPT − (2Δ/ε)(ln(|R|/|R_OPT|) + t)] ≤ e^−t, with the exact
// probability and the share of seeded draws under the threshold, for t in
// [0, 5].
func tail(s Spec) (*Figure, error) {
	p, err := s.problem("meeting", 10_000)
	if err != nil {
		return nil, err
	}
	m, err := mech.NewExponential(p.config())
	if err != nil {
		return nil, err
	}
	opt, nopt, err := mech.OptimalCount(p.scores)
	if err != nil {
		return nil, err
	}
	probs := m.Probabilities()
	counts := drawCounts(m, len(p.scores), s.Seed, p.draws)
	const pts = 201
	ts := make([]float64, pts)
	bound := make([]float64, pts)
	exact := make([]float64, pts)
	emp := make([]float64, pts)
	for i := range ts {
		t := 5 * float64(i) / (pts - 1)
		thr, err := mech.AccuracyThreshold(opt, p.eps, p.delta, len(p.scores), nopt, t)
		if err != nil {
			return nil, err
		}
		ts[i] = t
		bound[i] = math.Exp(-t)
		if exact[i], err = mech.TailProbability(probs, p.scores, thr); err != nil {
			return nil, err
		}
		below := 0
		for j, u := range p.scores {
			if u <= thr {
				below += counts[j]
			}
		}
		if p.draws > 0 {
			emp[i] = float64(below) / float64(p.draws)
		}
	}
	f := &Figure{
		Lesson: 5, Name: "tail",
		Title:  fmt.Sprintf("How accurate is the exponential mechanism?\n%s; ε = %s, Δ = %s", p.set.Label, num(p.eps), num(p.delta)),
		XLabel: "t in the threshold OPT − (2Δ/ε)(ln(|R|/|R_OPT|) + t)",
		YLabel: "Pr[ u(output) ≤ threshold ]",
		YMin:   0, YMax: 1.05,
		Series: []Series{
			{Name: "Bound e^−t", Kind: Line, Colour: 3, Dashed: true, X: ts, Y: bound},
			{Name: "Exact probability", Kind: Line, Colour: 0, X: ts, Y: exact},
		},
	}
	if p.draws > 0 {
		f.Series = append(f.Series, Series{Name: fmt.Sprintf("Share of %s draws (seed %d)", thousands(p.draws), s.Seed), Kind: Line, Colour: 1, Dashed: true, X: ts, Y: emp, Counts: counts, N: p.draws})
	}
	return f, nil
}

// epsGrid returns n ε values evenly spaced on a log scale.
func epsGrid(lo, hi float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	xs[n-1] = hi
	return xs
}

// lossMechanisms are lesson 6's three mechanisms.
var lossMechanisms = []struct{ name, label string }{
	{mech.NameExponential, "Exponential mechanism"},
	{mech.NamePermuteAndFlip, "Permute-and-flip"},
	{mech.NameReportNoisyMaxLaplace, "Report noisy max, Laplace noise Δ/ε (ε-DP only for monotone scores such as counts)"},
}

// loss is lesson 6: the exact expected loss OPT − E[u(output)] of each
// mechanism against ε.
func loss(s Spec) (*Figure, error) {
	p, err := s.problem("meeting", 0)
	if err != nil {
		return nil, err
	}
	eps := epsGrid(s.EpsMin, s.EpsMax, 41)
	f := &Figure{
		Lesson: 6, Name: "loss",
		Title:  fmt.Sprintf("Expected loss against ε\n%s; Δ = %s", p.set.Label, num(p.delta)),
		XLabel: "ε (log scale)",
		YLabel: fmt.Sprintf("OPT − E[u(output)]  (%s)", p.set.Unit),
		LogX:   true,
	}
	for j, lm := range lossMechanisms {
		y := make([]float64, len(eps))
		for i, e := range eps {
			cfg := p.config()
			cfg.Epsilon = e
			sel, err := mech.New(lm.name, cfg)
			if err != nil {
				return nil, err
			}
			if y[i], err = mech.ExpectedLoss(sel, p.scores); err != nil {
				return nil, err
			}
		}
		f.Series = append(f.Series, Series{Name: lm.label, Kind: Line, Colour: j, Dashed: j == 2, X: eps, Y: y})
		_, top := rangeOf(y)
		f.YMax = math.Max(f.YMax, 1.05*top)
	}
	return f, nil
}

// parsePrices reads lo:hi:step.
func parsePrices(v string) ([]float64, error) {
	parts := strings.Split(v, ":")
	if len(parts) != 3 {
		return nil, validate.Errorf("prices", "must be lo:hi:step, got %q", v)
	}
	var x [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return nil, validate.Errorf("prices", "must be lo:hi:step with numbers, got %q", v)
		}
		x[i] = f
	}
	return market.Grid(x[0], x[1], x[2])
}

// revenue is lesson 9: the exponential mechanism's exact expected revenue
// against ε, the optimal fixed price's revenue OPT, and the theorem's
// guarantee OPT − 2Δ(ln|R| + 1)/ε.
func revenue(s Spec) (*Figure, error) {
	prices, err := parsePrices(s.Prices)
	if err != nil {
		return nil, err
	}
	eps := epsGrid(s.EpsMin, s.EpsMax, 41)
	expRev := make([]float64, len(eps))
	opt := make([]float64, len(eps))
	guar := make([]float64, len(eps))
	var optPrice float64
	for i, e := range eps {
		pr, err := market.NewPricing(s.Values, prices, e)
		if err != nil {
			return nil, err
		}
		expRev[i] = pr.ExpectedRevenue()
		opt[i], optPrice = pr.Optimal()
		acc, err := pr.Accuracy(0.5)
		if err != nil {
			return nil, err
		}
		guar[i] = math.Max(0, opt[i]-acc.ExpectedGap)
	}
	return &Figure{
		Lesson: 9, Name: "revenue",
		Title:  fmt.Sprintf("Private pricing: expected revenue against ε\n%d buyers; %d prices from $%s to $%s", len(s.Values), len(prices), num(prices[0]), num(prices[len(prices)-1])),
		XLabel: "ε (log scale)",
		YLabel: "Revenue ($)",
		LogX:   true,
		YMin:   0, YMax: 1.1 * opt[0],
		Series: []Series{
			{Name: fmt.Sprintf("Best fixed price $%s (not private): OPT", num(optPrice)), Kind: Line, Colour: 7, Dashed: true, X: eps, Y: opt},
			{Name: "Exponential mechanism: exact E[revenue]", Kind: Line, Colour: 0, X: eps, Y: expRev},
			{Name: "Guarantee OPT − 2Δ(ln|R| + 1)/ε (floored at 0)", Kind: Line, Colour: 3, Dashed: true, X: eps, Y: guar},
		},
	}, nil
}
