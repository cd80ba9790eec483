package auditfig

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/audit/sparse"
	"github.com/dpplay/dpplay/figures"
)

// The sparse vector lesson's charts (web/widgets/svtstream.js and
// svtaudit.js). They need no expression library, but they go with the
// auditor's figures, in the module the page loads for its export.
func init() {
	figures.Register("svtstream", streamFigures)
	figures.Register("svtaudit", variantFigures)
}

// streamFigures draws, for each query of the stream, the exact
// probabilities that AboveThreshold (Lyu et al.'s Algorithm 1 for c > 1)
// answers it ⊤, answers it ⊥, or never reaches it, as the widget does.
func streamFigures(v figures.Values) ([]*figures.Figure, error) {
	answers, eps, c, t := v.List("answers"), v.Float("eps"), v.Int("c"), v.Float("t")
	s, err := sparse.NewStream(answers, eps, c, t)
	if err != nil {
		return nil, err
	}
	n := len(answers)
	cats := make([]string, n)
	for i, a := range answers {
		cats[i] = fmt.Sprintf("%d: %s", i+1, figures.Num(a))
	}
	xs := figures.Indices(n)
	const w = 0.27
	f := &figures.Figure{
		Name:       "stream",
		Title:      fmt.Sprintf("The sparse vector technique on %d queries: ε = %s, c = %d, T = %s\nthreshold noise Lap(%s), query noise Lap(%s)", n, figures.Num(eps), c, figures.Num(t), figures.Num(s.ThresholdScale), figures.Num(s.QueryScale)),
		XLabel:     fmt.Sprintf("Query: answer · expected answers above: %s", figures.Num(s.ExpectedTops)),
		YLabel:     "Exact probability",
		Categories: cats,
		YMin:       0, YMax: 1,
	}
	for k, p := range []struct {
		name   string
		y      []float64
		colour int
	}{{"answered above", s.Above, figures.BarColour}, {"answered below", s.Below, 5}, {"not reached (halted)", s.Halted, figures.MarkColour}} {
		x := make([]float64, n)
		for i := range x {
			x[i] = xs[i] + float64(k-1)*w
		}
		f.Series = append(f.Series, figures.Series{Name: p.name, Kind: figures.Bars, Colour: p.colour, Width: w * 0.94, X: x, Y: p.y})
	}
	return []*figures.Figure{f}, nil
}

// glyphs writes ⊤ and ⊥ as Y and n: the figures' fonts have neither.
var glyphs = strings.NewReplacer("⊤", "Y", "⊥", "n")

// variantFigures draws the outputs whose probabilities differ most between
// the pair, P(o | x) beside P(o | x′), with the variant's exact loss, as
// the widget's table lists them.
func variantFigures(v figures.Values) ([]*figures.Figure, error) {
	k, err := strconv.Atoi(v.Str("alg"))
	if err != nil {
		return nil, err
	}
	x, y := v.List("x"), v.List("y")
	a, err := sparse.NewAudit(k, v.Float("eps"), v.Int("c"), v.Float("t"), x, y)
	if err != nil {
		return nil, err
	}
	loss := figures.Num(a.Loss)
	if a.Unbounded {
		loss = "∞"
	}
	verdict := "holds"
	if !a.Holds {
		verdict = "fails"
	}
	n := len(a.Rows)
	cats := make([]string, n)
	px, py := make([]float64, n), make([]float64, n)
	top := 0.0
	for i, r := range a.Rows {
		cats[i], px[i], py[i] = glyphs.Replace(r.Output), r.P, r.Q
		top = max(top, r.P, r.Q)
	}
	xs := figures.Indices(n)
	const w = 0.38
	left, right := make([]float64, n), make([]float64, n)
	for i := range xs {
		left[i], right[i] = xs[i]-w/2, xs[i]+w/2
	}
	f := &figures.Figure{
		Name:   "outputs",
		Title:  fmt.Sprintf("Algorithm %d, %s, ε = %s: loss %s, %s\nworst output %s", k, a.Variant.Source, figures.Num(v.Float("eps")), loss, verdict, glyphs.Replace(a.Worst.Text)),
		XLabel: fmt.Sprintf("Output (Y above, n below) · x = %s, x′ = %s", list(x), list(y)),
		YLabel: "Probability", Categories: cats, YMin: 0, YMax: 1.12 * top,
		Series: []figures.Series{
			{Name: "P(o | x)", Kind: figures.Bars, Colour: figures.BarColour, Width: w * 0.94, X: left, Y: px},
			{Name: "P(o | x′)", Kind: figures.Bars, Colour: figures.MarkColour, Width: w * 0.94, X: right, Y: py},
		},
	}
	return []*figures.Figure{f}, nil
}

func list(xs []float64) string {
	s := "("
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += figures.Num(x)
	}
	return s + ")"
}
