package figures

import (
	"fmt"
	"math"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/mech"
)

// Figures of the finite selection widgets: exponential-mechanism,
// report-noisy-max, accuracy and permute-and-flip-loss.

func init() {
	Register("exponential-mechanism", histogram)
	Register("report-noisy-max", noisyMaxHistogram)
	Register("accuracy", accuracyCDF)
	Register("permute-and-flip-loss", loss)
}

// scoresOf returns the data set's scores, or the edited ones when they fit.
func scoresOf(d widget.DataSet, edited []float64) []float64 {
	if len(edited) == len(d.Scores) {
		return edited
	}
	return d.Scores
}

// histogram draws the exponential mechanism's seeded draws against
// its exact probabilities exp(ε·u(r)/(2Δ))/Z. In the article's form the
// slider's ε is ε_a in exp(ε_a·u), which is the same mechanism at ε = 2ε_aΔ.
func histogram(v Values) ([]*Figure, error) {
	d, _ := widget.Find(widget.DataSets(), v.Str("data"))
	scores := scoresOf(d, v.List("u"))
	eps, delta := v.Float("eps"), v.Float("delta")
	form := fmt.Sprintf("ε = %s, Δ = %s", Num(eps), Num(delta))
	if v.Str("form") == "article" {
		e, err := mech.FromArticle(eps, delta)
		if err != nil {
			return nil, err
		}
		form = fmt.Sprintf("article's ε_a = %s, i.e. ε = 2ε_aΔ = %s, Δ = %s", Num(eps), Num(e), Num(delta))
		eps = e
	}
	measure := v.List("mu")
	weights := "exp(ε·u/(2Δ))"
	if len(measure) != len(scores) {
		measure = nil
	} else {
		weights += "·μ"
	}
	n := v.Draws()
	q := selection.Request{Mechanism: mech.NameExponential, Scores: scores, Measure: measure, Epsilon: eps, Sensitivity: delta}
	counts, probs, err := pageDraws(q, v.Seed("seed"), n)
	if err != nil {
		return nil, err
	}
	x := Indices(len(scores))
	return []*Figure{{
		Name:       "histogram",
		Title:      fmt.Sprintf("The exponential mechanism\n%s; %s", d.Title, form),
		XLabel:     "Candidate",
		YLabel:     "Probability / share of draws",
		Categories: d.Candidates,
		Horizontal: true,
		Series: []Series{
			{Name: fmt.Sprintf("Share of %s seeded draws (seed %d)", Thousands(n), v.Seed("seed")), Kind: Bars, Colour: BarColour, Width: barWidth,
				X: x, Y: shares(counts, n), Counts: counts, N: n},
			{Name: "Exact probability, weights " + weights, Kind: Marks, Colour: MarkColour, Width: barWidth, X: x, Y: probs},
		},
	}}, nil
}

// pageDraws returns the counts of the first n draws of q's mechanism from
// seed, and its exact probabilities: the page's draw stream for the same
// state (selection.Streams, which the first-load module keeps).
func pageDraws(q selection.Request, seed uint64, n int) (counts []int, probs []float64, err error) {
	s := selection.New()
	if probs, err = s.Probabilities(q); err != nil {
		return nil, nil, err
	}
	c, err := s.Draws("figure", q, seed, n)
	if err != nil {
		return nil, nil, err
	}
	counts = make([]int, len(c))
	for i, x := range c {
		counts[i] = int(x)
	}
	return counts, probs, nil
}

// barWidth is the thickness of a bar in a horizontal chart, in rows: the
// page's bar height over its row height (web/charts/bars.js).
const barWidth = 0.56

// noisyMaxMechanisms are the report-noisy-max widget's panels, in the
// page's order, with its titles (web/widgets/report-noisy-max.js).
var noisyMaxMechanisms = []struct{ name, label string }{
	{mech.NameExponential, "Exponential mechanism\nweights exp(ε·u/(2Δ))"},
	{mech.NameReportNoisyMaxLaplace, "Report noisy max, Laplace noise\nnoise scale Δ/ε"},
	{mech.NameReportNoisyMaxGumbel, "Report noisy max, Gumbel noise\nnoise scale 2Δ/ε"},
	{mech.NamePermuteAndFlip, "Report noisy max, exponential noise\nnoise scale 2Δ/ε: permute-and-flip"},
}

// noisyMaxHistogram draws each mechanism's draws (the noisy scores
// really drawn, one stream per mechanism from the same seed) with its exact
// probabilities as a mark across its bar, one panel per mechanism as on
// the page.
func noisyMaxHistogram(v Values) ([]*Figure, error) {
	d, _ := widget.Find(widget.DataSets(), v.Str("data"))
	eps, seed, n := v.Float("eps"), v.Seed("seed"), v.Draws()
	f := &Figure{
		Name:  "histogram",
		Title: fmt.Sprintf("Report noisy max vs the exponential mechanism\n%s; ε = %s, Δ = %s, %s seeded draws each (seed %d)", d.Title, Num(eps), Num(d.Delta), Thousands(n), seed),
	}
	for _, nm := range noisyMaxMechanisms {
		counts, probs, err := pageDraws(selection.Request{Mechanism: nm.name, Scores: d.Scores, Epsilon: eps, Sensitivity: d.Delta}, seed, n)
		if err != nil {
			return nil, err
		}
		x := Indices(len(d.Scores))
		f.Panels = append(f.Panels, &Figure{
			Title:      nm.label,
			XLabel:     "Candidate",
			YLabel:     "Probability / share of draws",
			Categories: d.Candidates,
			Horizontal: true,
			Series: []Series{
				{Name: fmt.Sprintf("Share of %s seeded draws", Thousands(n)), Kind: Bars, Colour: BarColour, Width: barWidth, X: x, Y: shares(counts, n), Counts: counts, N: n},
				{Name: "Exact probability", Kind: Marks, Colour: MarkColour, Width: barWidth, X: x, Y: probs},
			},
		})
	}
	return []*Figure{f}, nil
}

// spreadScores gives the accuracy widget's n candidates, scores 10, …, 0 evenly spaced
// (web/widgets/accuracy.js).
func spreadScores(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 10 * (1 - float64(i)/float64(n-1))
	}
	return s
}

// accuracyCDF draws the distribution of the achieved score,
// Pr[u(output) ≤ x], exact and from seeded draws, with the accuracy
// theorem's threshold OPT − (2Δ/ε)(ln(|R|/|R_OPT|) + t), below which the
// exact probability is at most e^−t.
func accuracyCDF(v Values) ([]*Figure, error) {
	scores := spreadScores(v.Int("n"))
	eps, t, seed, n := v.Float("eps"), v.Float("t"), v.Seed("seed"), v.Draws()
	var counts []float64
	if n > 0 {
		var err error
		if counts, err = selection.New().Draws("accuracy", selection.Request{Mechanism: mech.NameExponential, Scores: scores, Epsilon: eps, Sensitivity: 1}, seed, n); err != nil {
			return nil, err
		}
	}
	r, err := selection.AccuracyReport(scores, eps, 1, t, counts)
	if err != nil {
		return nil, err
	}
	f := &Figure{
		Name:   "cdf",
		Title:  fmt.Sprintf("How accurate is the exponential mechanism?\n|R| = %d (scores 10 … 0), ε = %s, Δ = 1, t = %s: Pr[u ≤ threshold] = %.2g ≤ e^−t = %.2g", len(scores), Num(eps), Num(t), r.Exact, r.Bound),
		XLabel: "Score x",
		YLabel: "Pr[ u(output) ≤ x ]",
		XMin:   math.Min(r.Levels[0], r.Threshold), XMax: r.Opt,
		YMin: 0, YMax: 1.05,
		Series: []Series{{Name: "Exact (core)", Kind: Steps, Colour: 0, X: r.Levels, Y: r.ExactCDF}},
	}
	if r.DrawCDF != nil {
		f.Series = append(f.Series, Series{Name: fmt.Sprintf("Share of %s draws (seed %d)", Thousands(n), seed), Kind: Steps, Colour: 1, Dashed: true, X: r.Levels, Y: r.DrawCDF, N: n})
	}
	f.Series = append(f.Series, Series{Name: fmt.Sprintf("Threshold OPT − (2Δ/ε)(ln(|R|/|R_OPT|) + t) = %.4g", r.Threshold), Kind: Rule, Colour: 3, X: []float64{r.Threshold}})
	return []*Figure{f}, nil
}

// loss draws each mechanism's exact expected loss OPT − E[u(output)]
// against ε, with the slider's ε marked.
func loss(v Values) ([]*Figure, error) {
	d, _ := widget.Find(widget.LossSets(), v.Str("data"))
	grid := widget.LossGrid()
	f := &Figure{
		Name:   "loss",
		Title:  fmt.Sprintf("Expected loss against ε\n%s; Δ = %s", d.Title, Num(d.Delta)),
		XLabel: "ε (log scale)",
		YLabel: fmt.Sprintf("OPT − E[u(output)]  (%s)", d.Unit),
		LogX:   true,
	}
	for j, c := range widget.LossCurves() {
		eps := make([]float64, len(grid))
		for i, e := range grid {
			eps[i] = e * c.Factor
		}
		y, err := selection.LossCurve(d.Scores, d.Delta, []string{c.Mechanism}, eps)
		if err != nil {
			return nil, err
		}
		f.Series = append(f.Series, Series{Name: c.Label + ": " + c.Claim, Kind: Line, Colour: j, Dashed: j >= 2, X: grid, Y: y})
		_, top := rangeOf(y)
		f.YMax = math.Max(f.YMax, 1.05*top)
	}
	f.Series = append(f.Series, Series{Name: fmt.Sprintf("ε = %s on the page", Num(v.Float("eps"))), Kind: Rule, Colour: 7, X: []float64{v.Float("eps")}})
	return []*Figure{f}, nil
}
