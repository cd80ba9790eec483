package auditfig

import (
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"

	appaudit "github.com/dpplay/dpplay/app/audit"
	"github.com/dpplay/dpplay/app/audit/sparse"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/audit"
	"github.com/dpplay/dpplay/figures"
)

// auditHash writes an audit widget state as a page link's keys.
func auditHash(kv ...string) string {
	q := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q.Encode()
}

// figsOf builds the audit widget's figures for a state, by name.
func figsOf(t *testing.T, hash string) map[string]*figures.Figure {
	t.Helper()
	req, _, _, err := figures.ParseRequest("#lesson=11&widget=audit&" + hash)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := figures.Build(req)
	if err != nil {
		t.Fatalf("%s: %v", hash, err)
	}
	out := map[string]*figures.Figure{}
	for _, f := range figs {
		out[f.Name] = f
	}
	return out
}

// With the auditor's chart registered, the charts are exactly the widgets
// package widget lists with figures: what the site builder gives an
// "Export figure" control, and what `dpplay figures` draws. The auditor's
// figures are the ones it declares, each with the widget's full state.
func TestAllChartsRegistered(t *testing.T) {
	if got, want := figures.Widgets(), widget.WithFigures(); !slices.Equal(got, want) {
		t.Errorf("charts for %v; package widget lists %v", got, want)
	}
	var names []string
	for _, f := range figsOf(t, "") {
		names = append(names, f.Name)
		if len(f.State) != len(widget.Schema("audit")) || f.Widget != "audit" || f.Lesson != 11 {
			t.Errorf("%s: state %v, widget %q, lesson %d", f.Name, f.State, f.Widget, f.Lesson)
		}
		if b, err := figures.Render(f, "svg", 16, 11); err != nil || !strings.HasPrefix(string(b), "<?xml") {
			t.Errorf("%s: svg %.20q, error %v", f.Name, b, err)
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(figures.Names("audit")))
	if !slices.Equal(names, want) {
		t.Errorf("builds %v, declares %v", names, want)
	}
}

// The audit widget's opening state: the lead score with Δ = 1 fails at 1.372 (the
// lesson quotes it) on the pair (0, 1, 2), (0, 0, 3). The figure's bars are
// the exact output distributions core/audit gives for that pair, its marks
// their log-ratios, and the one outside ±ε is the worst output, at the loss.
// The same audit run in the page's chunks finds the same pair.
func TestAuditFigureShowsTheWorstPair(t *testing.T) {
	figs := figsOf(t, "")
	dist, lr := figs["worst-pair"], figs["logratio"]
	if dist == nil || lr == nil {
		t.Fatalf("figures %v", figs)
	}
	c := audit.Config{Mechanism: "exponential", Score: "count[r] - count[(r+1)%k]", Sensitivity: "1", Epsilon: 1,
		Candidates: 3, MaxCount: 3, Neighbours: audit.ChangeOne}
	var s appaudit.Session
	var v appaudit.View
	var err error
	for from := 0; from == 0 || from < v.Total; from = v.Next {
		if v, err = s.Run(c, from, 7); err != nil {
			t.Fatal(err)
		}
	}
	if got := figures.Num(v.Loss); got != "1.372" || v.Holds {
		t.Fatalf("loss %v holds %v", v.Loss, v.Holds)
	}
	if vector(v.Worst.Data) != "(0, 1, 2)" || vector(v.Worst.Neighbour) != "(0, 0, 3)" ||
		!strings.Contains(dist.Title, "x = (0, 1, 2), x′ = (0, 0, 3)") {
		t.Errorf("chunked worst pair %v %v; title %q", v.Worst.Data, v.Worst.Neighbour, dist.Title)
	}
	a, err := audit.New(c)
	if err != nil {
		t.Fatal(err)
	}
	bars := dist.Of(figures.Bars)
	if len(bars) != 2 {
		t.Fatalf("%d bar series", len(bars))
	}
	for j, data := range [][]int{{0, 1, 2}, {0, 0, 3}} {
		lp, err := a.LogProbabilities(data)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for i, l := range lp {
			if math.Abs(bars[j].Y[i]-math.Exp(l)) > 1e-15 {
				t.Errorf("side %d output %d: bar %v, exact %v", j, i, bars[j].Y[i], math.Exp(l))
			}
			sum += bars[j].Y[i]
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("side %d sums to %v", j, sum)
		}
	}
	marks := lr.Of(figures.Marks)
	if len(marks) != 2 || !strings.Contains(marks[1].Name, "outside") {
		t.Fatalf("marks %+v", marks)
	}
	in, out := marks[0], marks[1]
	if len(out.X) != 1 || out.X[0] != float64(v.Worst.Output) || math.Abs(math.Abs(out.Y[0])-v.Loss) > 1e-12 {
		t.Errorf("outside the band: %v %v, want output %d at ±%v", out.X, out.Y, v.Worst.Output, v.Loss)
	}
	for i, y := range in.Y {
		if math.Abs(y) > 1 || math.Abs(y-(math.Log(bars[0].Y[int(in.X[i])])-math.Log(bars[1].Y[int(in.X[i])]))) > 1e-12 {
			t.Errorf("inside mark %d: %v", i, y)
		}
	}
	if !strings.Contains(lr.XLabel, "fails: loss 1.372 > ε on 108 change-one pairs, 64 data sets") {
		t.Errorf("x label %q", lr.XLabel)
	}
}

// The fix (Δ = 2, the score's true sensitivity) holds: every log-ratio of
// the worst pair lies inside the band and the figure says so. A continuous
// mechanism has no per-output distributions, and an expression with
// characters the widget refuses is refused.
func TestAuditFixHoldsAndBadInputsAreRefused(t *testing.T) {
	lr := figsOf(t, auditHash("sens", "2"))["logratio"]
	if len(lr.Of(figures.Marks)) != 1 || !strings.Contains(lr.XLabel, "holds") {
		t.Errorf("Δ = 2: series %+v, x label %q", lr.Series, lr.XLabel)
	}
	for _, y := range lr.Of(figures.Marks)[0].Y {
		if math.Abs(y) > 1*(1+1e-9) {
			t.Errorf("Δ = 2: log-ratio %v outside ±1", y)
		}
	}
	for _, hash := range []string{auditHash("mech", "laplace"), auditHash("score", "count[r]; alert(1)"), auditHash("score", "COUNT[r]")} {
		req, _, _, err := figures.ParseRequest("#widget=audit&" + hash)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := figures.Build(req); err == nil {
			t.Errorf("%s: no error", hash)
		}
	}
}

// The sparse vector charts draw what the lesson's widgets show: the
// stream's exact probabilities, and the variant's outputs with its loss.
func TestSVTFigures(t *testing.T) {
	figs, err := figures.Build(figures.Request{Widget: "svtstream"})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sparse.NewStream([]float64{3, 6, 2, 9, 4, 12, 5, 8, 2, 11}, 1, 1, 8)
	if f := figs[0]; len(f.Series) != 3 || f.Series[0].Y[3] != s.Above[3] || f.Series[2].Y[9] != s.Halted[9] {
		t.Errorf("stream figure %+v", f.Series)
	}
	figs, err = figures.Build(figures.Request{Widget: "svtaudit"})
	if err != nil {
		t.Fatal(err)
	}
	if f := figs[0]; !strings.Contains(f.Title, "loss 0.964") || strings.ContainsAny(f.Title+strings.Join(f.Categories, ""), "⊤⊥") {
		t.Errorf("variant figure title %q, categories %v", f.Title, f.Categories)
	}
}
