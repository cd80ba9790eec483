package figures

import (
	"encoding/json"
	"math"
)

// jsonFigure and jsonSeries are a figure's numbers and labels as JSON: the
// data a chart draws, for a reader who wants the numbers rather than the
// picture, and for tests that compare a figure with what the page draws.
type jsonFigure struct {
	Name       string        `json:"name,omitempty"`
	Title      string        `json:"title"`
	XLabel     string        `json:"xLabel,omitempty"`
	YLabel     string        `json:"yLabel,omitempty"`
	Categories []string      `json:"categories,omitempty"`
	Series     []jsonSeries  `json:"series,omitempty"`
	Panels     []*jsonFigure `json:"panels,omitempty"`
}

type jsonSeries struct {
	Name   string     `json:"name"`
	Kind   string     `json:"kind"`
	X      []*float64 `json:"x,omitempty"`
	Y      []*float64 `json:"y,omitempty"`
	Lo     []*float64 `json:"lo,omitempty"`
	Hi     []*float64 `json:"hi,omitempty"`
	Counts []int      `json:"counts,omitempty"`
	Width  float64    `json:"width,omitempty"`
}

var kindNames = [...]string{Bars: "bars", Marks: "marks", Line: "line", Steps: "steps", Points: "points", ErrorBars: "errorbars", Band: "band", Rule: "rule"}

// finite lists xs with null for NaN and ±Inf, which JSON has no number for.
func finite(xs []float64) []*float64 {
	if xs == nil {
		return nil
	}
	out := make([]*float64, len(xs))
	for i := range xs {
		if !math.IsNaN(xs[i]) && !math.IsInf(xs[i], 0) {
			out[i] = &xs[i]
		}
	}
	return out
}

func toJSON(f *Figure) *jsonFigure {
	j := &jsonFigure{Name: f.Name, Title: f.Title, XLabel: f.XLabel, YLabel: f.YLabel, Categories: f.Categories}
	for _, s := range f.Series {
		w := s.Width
		if math.IsNaN(w) || math.IsInf(w, 0) {
			w = 0
		}
		j.Series = append(j.Series, jsonSeries{Name: s.Name, Kind: kindNames[s.Kind], X: finite(s.X), Y: finite(s.Y),
			Lo: finite(s.Lo), Hi: finite(s.Hi), Counts: s.Counts, Width: w})
	}
	for _, p := range f.Panels {
		j.Panels = append(j.Panels, toJSON(p))
	}
	return j
}

func renderJSON(f *Figure) ([]byte, error) {
	b, err := json.MarshalIndent(toJSON(f), "", " ")
	return append(b, '\n'), err
}
