// Package figures draws the playground's charts for slides and print, from
// the same core numbers the page shows. Every widget with a chart
// (web/widgets/NAME.js) has a chart here with the same parameters: a
// widget's state from a page link gives the figure of exactly what that
// page shows, and "Export figure" in the page and `dpplay figures` share
// this code.
//
// Building a figure (Build) computes its numbers as plain series; rendering
// (Render) draws them with gonum.org/v1/plot as SVG, PNG or vector PDF, or
// writes their numbers as JSON. Tests check the series, and that rendering
// twice gives the same bytes. The package links gonum/plot with its fonts
// and PDF library (about 5 MB gzipped as wasm), so it is never part of the
// page's first load: the page loads it on demand as wasm/figures. The
// auditor's charts are in package auditfig.
package figures

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind says how a series is drawn.
type Kind int

const (
	Bars      Kind = iota // a filled bar of width Width centred on each X, from 0 to Y
	Marks                 // a short horizontal line of width Width at Y over each X, with a dot: an exact value
	Line                  // a polyline through (X, Y)
	Steps                 // a step function: Y[i] from X[i] up to X[i+1]
	Points                // dots at (X, Y)
	ErrorBars             // dots at (X, Y) with vertical bars from Lo to Hi
	Band                  // a shaded region between Lo and Hi over X
	Rule                  // a dashed vertical line at X[0] across the plot
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
	Widget     string // the widget's id in its lesson
	Name       string // the figure's name within the widget
	Heading    string // the widget's heading on the page, drawn above Title; "" draws "Lesson N ·" before it
	Title      string
	XLabel     string
	YLabel     string
	Categories []string // non-nil: the x axis is nominal, X holds 0, 1, …
	// Horizontal draws a chart with Categories as the page's bar charts
	// do (web/charts/bars.js): the categories down the y axis, the first at the
	// top, and the values, shares, along the x axis in percent, from 0 to
	// the page's rounded maximum, each row on a light track.
	Horizontal bool
	LogX       bool
	XMin, XMax float64 // fixed x range when XMax > XMin
	YMin, YMax float64 // fixed y range when YMax > YMin
	Series     []Series
	// Panels, when non-nil, are drawn instead of Series in a grid of two
	// columns under Title, as the page draws small multiples, each under
	// its own Title, with one legend: the first panel's.
	Panels []*Figure
	// State is the widget state the figure was drawn from, every key in
	// the order of the widget's params, defaults filled in.
	State [][2]string
}

// FileName returns lessonN-widget-name.ext.
func (f *Figure) FileName(ext string) string {
	return fmt.Sprintf("lesson%d-%s-%s.%s", f.Lesson, f.Widget, f.Name, ext)
}

// Of returns the figure's series of one kind, in order, then its panels'.
func (f *Figure) Of(kind Kind) []Series {
	var out []Series
	for _, s := range f.Series {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	for _, p := range f.Panels {
		out = append(out, p.Of(kind)...)
	}
	return out
}

// Indices returns 0, 1, …, n−1: the x positions of n categories.
func Indices(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}

// Num formats x with 4 significant digits, as figure labels write numbers.
func Num(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// Thousands writes n with commas between groups of three digits: 12,345.
func Thousands(n int) string {
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

func shares(counts []int, n int) []float64 {
	y := make([]float64, len(counts))
	for i, c := range counts {
		if n > 0 {
			y[i] = float64(c) / float64(n)
		}
	}
	return y
}
