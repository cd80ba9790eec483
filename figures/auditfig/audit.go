// Package auditfig adds the exact privacy auditor's figures
// (web/widgets/audit.js) to package figures. They run the audit the widget
// runs (app/audit, over the whole universe at once; chunks merged in order
// give the same worst pair) and draw the worst pair as the widget does.
//
// They live apart because only the auditor's lesson needs the audit: the
// page's figures module (wasm/figures) leaves them out, and that lesson
// loads wasm/auditfigures, which imports this package. Importing it
// registers the "audit" chart.
package auditfig

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	appaudit "github.com/dpplay/dpplay/app/audit"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/audit"
	"github.com/dpplay/dpplay/core/validate"
	"github.com/dpplay/dpplay/figures"
)

func init() {
	figures.Register("audit", auditFigures)
}

// auditConfig is the widget's audit of a state.
func auditConfig(v figures.Values) audit.Config {
	return audit.Config{
		Mechanism: v.Str("mech"), Score: v.Str("score"), Sensitivity: v.Str("sens"), Epsilon: v.Float("eps"),
		Candidates: v.Int("k"), MaxCount: v.Int("m"), Neighbours: v.Str("nb"),
	}
}

// ellipsis cuts s to at most n runes, marking a cut with "…".
func ellipsis(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// vector writes a data set as the widget does: (c₀, c₁, …).
func vector(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// auditFigures draws the worst pair of neighbouring data sets x, x′
// the exact audit finds on the universe of k candidates with counts 0..m.
// "worst-pair" shows the two output distributions P(o | x) and P(o | x′)
// side by side; "logratio" shows ln P(o | x) − ln P(o | x′) for each output
// o against the band [−ε, ε] that an ε-DP mechanism never leaves, the
// outputs that leave it in the alarm colour. Only a selection mechanism
// has per-output probabilities; for a continuous output the widget draws
// no chart, and Build returns an error saying so.
func auditFigures(v figures.Values) ([]*figures.Figure, error) {
	c := auditConfig(v)
	var s appaudit.Session
	r, err := s.Run(c, 0, audit.MaxDataSets)
	if err != nil {
		return nil, err
	}
	if r.P == nil {
		return nil, validate.Errorf("mech", "%s releases a continuous output: the worst pair has no output distributions to draw", c.Mechanism)
	}
	label := c.Mechanism
	for _, m := range widget.AuditMechanismChoices() {
		if m.Value == c.Mechanism {
			label = m.Label
		}
	}
	loss := figures.Num(r.Loss)
	if r.Unbounded {
		loss = "∞ (unbounded)"
	}
	verdict := fmt.Sprintf("holds: loss %s ≤ ε", loss)
	if !r.Holds {
		verdict = fmt.Sprintf("fails: loss %s > ε", loss)
	}
	// Three short title lines and the verdict under the axis, so that the
	// longest state still fits a 16 cm figure.
	claim := fmt.Sprintf("%s, Δ = %s, ε = %s\nu(x, r) = %s", label, ellipsis(c.Sensitivity, 16), figures.Num(c.Epsilon), ellipsis(c.Score, 56))
	pair := fmt.Sprintf("x = %s, x′ = %s", vector(r.Worst.Data), vector(r.Worst.Neighbour))
	xlabel := fmt.Sprintf("Output o · %s on %s %s pairs, %s data sets", verdict, figures.Thousands(int(r.Pairs)), c.Neighbours, figures.Thousands(r.Total))
	k := len(r.P)
	outputs := figures.Indices(k)
	cats := make([]string, k)
	for i := range cats {
		cats[i] = "option " + strconv.Itoa(i)
		if i == r.Worst.Output {
			cats[i] += " (worst)"
		}
	}

	const w = 0.38
	dist := &figures.Figure{
		Name:       "worst-pair",
		Title:      fmt.Sprintf("The auditor's worst pair: %s\n%s", pair, claim),
		XLabel:     xlabel,
		YLabel:     "Probability P(o | ·)",
		Categories: cats,
		YMin:       0,
	}
	top := 0.0
	for _, side := range []struct {
		name   string
		data   []int
		p      []float64
		shift  float64
		colour int // the widget's: x in the site's bar colour, x′ in its mark colour
	}{{"x", r.Worst.Data, r.P, -w / 2, figures.BarColour}, {"x′", r.Worst.Neighbour, r.Q, w / 2, figures.MarkColour}} {
		xs := make([]float64, k)
		for i := range xs {
			xs[i] = outputs[i] + side.shift
			top = math.Max(top, side.p[i])
		}
		dist.Series = append(dist.Series, figures.Series{
			Name: fmt.Sprintf("P(o | %s), %s = %s", side.name, side.name, vector(side.data)),
			Kind: figures.Bars, Colour: side.colour, Width: w * 0.94, X: xs, Y: side.p,
		})
	}
	dist.YMax = 1.12 * top

	eps := c.Epsilon
	lr := &figures.Figure{
		Name:       "logratio",
		Title:      fmt.Sprintf("Log-ratio per output, worst pair %s\n%s", pair, claim),
		XLabel:     xlabel,
		YLabel:     "ln P(o | x) − ln P(o | x′)  (nats)",
		Categories: cats,
		Series: []figures.Series{{
			Name: fmt.Sprintf("Allowed band ±ε = ±%s", figures.Num(eps)), Kind: figures.Band, Colour: 5,
			X: []float64{-0.5, float64(k) - 0.5}, Lo: []float64{-eps, -eps}, Hi: []float64{eps, eps},
		}},
	}
	// As in the widget, an output whose |log-ratio| exceeds ε is drawn in
	// the alarm colour; the y range is symmetric, 1.2 × the largest of ε
	// and the finite |log-ratios|.
	in := figures.Series{Name: "Exact log-ratio (inside the band)", Kind: figures.Marks, Colour: 7, Width: 0.5}
	out := figures.Series{Name: "Exact log-ratio outside the band: a breach of ε-DP", Kind: figures.Marks, Colour: 3, Width: 0.5}
	span := eps
	for i, l := range r.LogRatio {
		if math.IsInf(l, 0) || math.IsNaN(l) {
			continue // an output possible on one side only: the title says ∞
		}
		s := &in
		if !audit.Holds(math.Abs(l), eps) {
			s = &out
		}
		s.X, s.Y = append(s.X, outputs[i]), append(s.Y, l)
		span = math.Max(span, math.Abs(l))
	}
	for _, s := range []figures.Series{in, out} {
		if len(s.X) > 0 {
			lr.Series = append(lr.Series, s)
		}
	}
	lr.YMin, lr.YMax = -1.2*span, 1.2*span
	return []*figures.Figure{dist, lr}, nil
}
