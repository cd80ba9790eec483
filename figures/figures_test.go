package figures

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/stats"
)

// pFalse is the false-failure probability every statistical test here allows.
const pFalse = 1e-6

// one builds a widget's figure from a hash of its params
// ("eps=0.5&seed=3"); with several figures, the one named fig.
func one(t *testing.T, widget, params string, fig ...string) *Figure {
	t.Helper()
	if len(fig) > 0 {
		params += "&fig=" + fig[0]
	}
	figs := figsOf(t, widget, params)
	if len(figs) != 1 {
		t.Fatalf("%s %q gave %d figures, want 1", widget, params, len(figs))
	}
	for _, f := range figs {
		return f
	}
	return nil
}

// series returns the figure's i-th series of one kind.
func series(t *testing.T, f *Figure, kind Kind, i int) Series {
	t.Helper()
	s := f.Of(kind)
	if i >= len(s) {
		t.Fatalf("%s has no series %d of kind %d", f.Name, i, kind)
	}
	return s[i]
}

// A figure request that names a widget by the abbreviation it had before
// draws the same figures as one that names it as it is now.
func TestParseRequestReadsFormerWidgetNames(t *testing.T) {
	for old, now := range map[string]string{"expmech": "exponential-mechanism", "rnm": "report-noisy-max", "epsband": "epsilon-band",
		"laplaceem": "laplace-from-exponential", "pfloss": "permute-and-flip-loss", "dlaplace": "discrete-laplace"} {
		req, _, _, err := ParseRequest("#lesson=2&widget=" + old + "&id=x")
		if err != nil || req.Widget != now {
			t.Fatalf("widget=%s read as %q (%v), want %q", old, req.Widget, err, now)
		}
		figs, err := Build(req)
		if err != nil || len(figs) == 0 {
			t.Errorf("widget=%s: %d figures, %v", old, len(figs), err)
		}
	}
}

func TestParseRequest(t *testing.T) {
	req, w, h, err := ParseRequest("#lesson=3&widget=epsilon-band&id=band&fig=logratio&eps=2&scale=broken&width=20&height=12")
	if err != nil {
		t.Fatal(err)
	}
	if req.Lesson != 3 || req.Widget != "epsilon-band" || req.ID != "band" || req.Figure != "logratio" || w != 20 || h != 12 ||
		len(req.Params) != 2 || req.Params["eps"] != "2" || req.Params["scale"] != "broken" {
		t.Errorf("got %+v, %v × %v", req, w, h)
	}
	if _, w, h, _ := ParseRequest(""); w != DefaultWidthCM || h != DefaultHeightCM {
		t.Errorf("default size %v × %v", w, h)
	}
	for _, bad := range []string{"#lesson=0", "#lesson=x", "#width=1000", "#height=1", "#%zz"} {
		if _, _, _, err := ParseRequest(bad); err == nil {
			t.Errorf("ParseRequest(%q) accepted", bad)
		}
	}
}

// Every param is checked against its range, and a bad value is an error
// naming the key; unknown keys are ignored.
func TestBuildChecksParams(t *testing.T) {
	for _, tc := range []struct {
		widget, params string
		ok             bool
	}{
		{"exponential-mechanism", "eps=0.5&other.key=ignored&zzz=1", true},
		{"exponential-mechanism", "u=1,2,3,4,5,6,7", true},
		{"exponential-mechanism", "eps=0", false},
		{"exponential-mechanism", "eps=NaN", false},
		{"exponential-mechanism", "eps=abc", false},
		{"exponential-mechanism", "seed=-3", false},
		{"exponential-mechanism", "seed=1.5", false},
		{"exponential-mechanism", "step=100000", false},
		{"exponential-mechanism", "batch=7", false},
		{"exponential-mechanism", "data=nope", false},
		{"exponential-mechanism", "form=weird", false},
		{"exponential-mechanism", "u=1,x,3", false},
		{"nowidget", "", false},
	} {
		req, _, _, err := ParseRequest("#widget=" + tc.widget + "&" + tc.params)
		if err == nil {
			_, err = Build(req)
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s %q: error %v, want ok = %v", tc.widget, tc.params, err, tc.ok)
		}
	}
	if _, err := Build(Request{Widget: "exponential-mechanism", Figure: "nope"}); err == nil {
		t.Error("an unknown figure name was accepted")
	}
}

// The charts are those of the widgets package widget lists with figures,
// which is what the site builder gives an "Export figure" control, but the
// auditor's and the sparse vector lesson's, which package auditfig adds
// (its test checks the whole list).
func TestChartsAreWidgetsWithFigures(t *testing.T) {
	want := slices.DeleteFunc(widget.WithFigures(), func(w string) bool { return w == "audit" || w == "svtstream" || w == "svtaudit" })
	if got := Widgets(); !slices.Equal(got, want) {
		t.Errorf("charts for %v; package widget lists %v and the auditor's", got, want)
	}
}

// Every chart's figures are the ones it declares, drawn from its defaults,
// and every figure records the full state it was drawn from.
func TestEveryChartBuildsItsNames(t *testing.T) {
	for _, w := range Widgets() {
		figs, err := Build(Request{Lesson: 1, Widget: w})
		if err != nil {
			t.Errorf("%s: %v", w, err)
			continue
		}
		var names []string
		for _, f := range figs {
			names = append(names, f.Name)
			if len(f.State) != len(charts[w].params) || f.Widget != w || f.Lesson != 1 {
				t.Errorf("%s/%s: state %v, widget %q, lesson %d", w, f.Name, f.State, f.Widget, f.Lesson)
			}
		}
		if strings.Join(names, ",") != strings.Join(Names(w), ",") {
			t.Errorf("%s builds %v, declares %v", w, names, Names(w))
		}
	}
}

// The exponential mechanism's histogram: its exact marks are core's probabilities, and its
// bars are seeded draws that pass a chi-square test against them; the
// broken scale ε/Δ (probabilities of 2ε) fails the same test.
func TestExponentialHistogramPassesChiSquare(t *testing.T) {
	f := one(t, "exponential-mechanism", "data=meeting&eps=0.5&seed=3&step=200&batch=1000")
	bars, marks := series(t, f, Bars, 0), series(t, f, Marks, 0)
	m, err := mech.NewExponential(mech.Config{Scores: dataSetNamed("meeting").Scores, Epsilon: 0.5, Sensitivity: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range m.Probabilities() {
		if marks.Y[i] != p {
			t.Errorf("mark %d = %v, want core's %v", i, marks.Y[i], p)
		}
		if bars.Y[i] != float64(bars.Counts[i])/float64(bars.N) {
			t.Errorf("bar %d = %v is not its count share", i, bars.Y[i])
		}
	}
	if r, _ := stats.ChiSquare(bars.Counts, marks.Y); r.PValue < pFalse {
		t.Errorf("draws vs exact: p = %g", r.PValue)
	}
	broken, _ := mech.NewExponential(mech.Config{Scores: dataSetNamed("meeting").Scores, Epsilon: 1, Sensitivity: 1})
	if r, _ := stats.ChiSquare(bars.Counts, broken.Probabilities()); r.PValue >= pFalse {
		t.Errorf("draws vs the broken scale's probabilities passed: p = %g", r.PValue)
	}
}

// The figure's draws are the page's: the first n draws of rng.Seeded(seed),
// so a longer run extends a shorter one and the article form converts ε.
func TestHistogramMatchesPageStream(t *testing.T) {
	a := series(t, one(t, "exponential-mechanism", "seed=5&step=1&batch=1000"), Bars, 0)
	b := series(t, one(t, "exponential-mechanism", "seed=5&step=1&batch=1000"), Bars, 0)
	c := series(t, one(t, "exponential-mechanism", "seed=6&step=1&batch=1000"), Bars, 0)
	if !slices.Equal(a.Counts, b.Counts) || slices.Equal(a.Counts, c.Counts) {
		t.Errorf("seeded counts: same seed %v vs %v, other seed %v", a.Counts, b.Counts, c.Counts)
	}
	art := series(t, one(t, "exponential-mechanism", "form=article&eps=0.25&delta=2"), Marks, 0)
	dp := series(t, one(t, "exponential-mechanism", "eps=1&delta=2"), Marks, 0)
	for i := range art.Y {
		if art.Y[i] != dp.Y[i] {
			t.Fatalf("article ε_a = 0.25, Δ = 2 should equal ε = 1: %v vs %v", art.Y, dp.Y)
		}
	}
}

// Report noisy max: each mechanism's bars pass chi-square against its own exact
// marks, and fail against the exponential mechanism's when they differ.
func TestNoisyMaxHistogramsPassChiSquare(t *testing.T) {
	f := one(t, "report-noisy-max", "eps=1&step=100&batch=1000&seed=11")
	em := series(t, f, Marks, 0)
	for j := range noisyMaxMechanisms {
		b, m := series(t, f, Bars, j), series(t, f, Marks, j)
		if r, _ := stats.ChiSquare(b.Counts, m.Y); r.PValue < pFalse {
			t.Errorf("%s: draws vs exact p = %g", noisyMaxMechanisms[j].name, r.PValue)
		}
		if j == 1 { // Laplace noise is not the exponential mechanism
			if r, _ := stats.ChiSquare(b.Counts, em.Y); r.PValue >= pFalse {
				t.Errorf("Laplace report noisy max passed against the exponential mechanism: p = %g", r.PValue)
			}
		}
	}
}

// Accuracy: the exact tail never exceeds e^−t (the theorem) and the share of
// draws below the threshold is close to it.
func TestAccuracyTailStaysBelowTheTheorem(t *testing.T) {
	const n = 50_000
	// DKW: Pr[sup |F_n − F| > d] ≤ 2·exp(−2n·d²) = pFalse.
	d := math.Sqrt(math.Log(2/pFalse) / (2 * n))
	for _, tc := range []struct {
		eps, t float64
		cands  int
	}{{1, 1, 50}, {0.2, 3, 7}, {4, 0.5, 400}} {
		f := one(t, "accuracy", fmt.Sprintf("eps=%v&t=%v&n=%d&step=50&batch=1000&seed=4", tc.eps, tc.t, tc.cands))
		exact, draws, thr := series(t, f, Steps, 0), series(t, f, Steps, 1), series(t, f, Rule, 0)
		scores := spreadScores(tc.cands)
		m, _ := mech.NewExponential(mech.Config{Scores: scores, Epsilon: tc.eps, Sensitivity: 1})
		broken, _ := mech.NewExponential(mech.Config{Scores: scores, Epsilon: 2 * tc.eps, Sensitivity: 1})
		worstOK, worstBroken := 0.0, 0.0
		for i, x := range exact.X {
			want, _ := mech.TailProbability(m.Probabilities(), scores, x)
			if math.Abs(exact.Y[i]-want) > 1e-12 {
				t.Errorf("ε = %v: exact CDF at %v is %v, core says %v", tc.eps, x, exact.Y[i], want)
			}
			wrong, _ := mech.TailProbability(broken.Probabilities(), scores, x)
			worstOK = math.Max(worstOK, math.Abs(draws.Y[i]-want))
			worstBroken = math.Max(worstBroken, math.Abs(draws.Y[i]-wrong))
		}
		if worstOK > d {
			t.Errorf("ε = %v: draws are %v from the exact CDF (DKW allows %v)", tc.eps, worstOK, d)
		}
		if tc.eps < 4 && worstBroken <= d {
			t.Errorf("ε = %v: draws pass against the broken scale's CDF (%v ≤ %v)", tc.eps, worstBroken, d)
		}
		below, _ := mech.TailProbability(m.Probabilities(), scores, thr.X[0])
		if below > math.Exp(-tc.t)+1e-12 {
			t.Errorf("ε = %v: Pr[u ≤ threshold] = %v above e^−t", tc.eps, below)
		}
		opt, nopt, _ := mech.OptimalCount(scores)
		want, _ := mech.AccuracyThreshold(opt, tc.eps, 1, tc.cands, nopt, tc.t)
		if thr.X[0] != want {
			t.Errorf("threshold %v, want %v", thr.X[0], want)
		}
	}
}

// Expected loss: the curves are core's ExpectedLoss; permute-and-flip is never
// worse than the exponential mechanism; the loss falls as ε grows.
func TestPermuteAndFlipLossNeverAboveExponential(t *testing.T) {
	f := one(t, "permute-and-flip-loss", "data=adult")
	em, pf, rnm := series(t, f, Line, 0), series(t, f, Line, 1), series(t, f, Line, 2)
	scores := dataSetNamed("adult").Scores
	for i, e := range em.X {
		if pf.Y[i] > em.Y[i]*(1+1e-9)+1e-12 {
			t.Errorf("ε = %v: permute-and-flip %v worse than exponential %v", e, pf.Y[i], em.Y[i])
		}
		if i > 0 && em.Y[i] > em.Y[i-1]*(1+1e-9) {
			t.Errorf("ε = %v: exponential mechanism's loss rose", e)
		}
	}
	i := len(em.X) / 2
	sel, _ := mech.New(mech.NameReportNoisyMaxLaplace, mech.Config{Scores: scores, Epsilon: em.X[i], Sensitivity: 1})
	want, _ := mech.ExpectedLoss(sel, scores)
	if rnm.Y[i] != want {
		t.Errorf("report noisy max at ε = %v: %v, want %v", em.X[i], rnm.Y[i], want)
	}
}

// Rendering twice gives identical bytes in every format, and the outputs
// look like what they claim to be.
func TestRenderReproducible(t *testing.T) {
	var figs []*Figure
	for _, w := range Widgets() {
		fs, err := Build(Request{Lesson: 1, Widget: w})
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, fs...)
	}
	magic := map[string]string{"svg": "<?xml", "png": "\x89PNG", "pdf": "%PDF"}
	for _, f := range figs {
		for _, format := range Formats() {
			// Rasterising is slow under -race: every figure as SVG, two
			// figures (bars and lines) in every format.
			if format != "svg" && f.Widget != "exponential-mechanism" && f.Widget != "permute-and-flip-loss" {
				continue
			}
			a, err := Render(f, format, 16, 11)
			if err != nil {
				t.Fatalf("%s: %v", f.FileName(format), err)
			}
			b, _ := Render(f, format, 16, 11)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: two renders differ", f.FileName(format))
			}
			if !strings.HasPrefix(string(a), magic[format]) {
				t.Errorf("%s does not start with %q", f.FileName(format), magic[format])
			}
		}
	}
	if _, err := Render(figs[0], "gif", 16, 11); err == nil {
		t.Error("gif was accepted")
	}
	if _, err := Render(figs[0], "svg", 1, 11); err == nil {
		t.Error("a 1 cm figure was accepted")
	}
}

// web/palette.css is PaletteCSS's output.
func TestPaletteCSS(t *testing.T) {
	b, err := os.ReadFile("../web/palette.css")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != PaletteCSS() {
		t.Errorf("web/palette.css differs from figures.PaletteCSS(); regenerate it:\n%s", PaletteCSS())
	}
}

// The figures draw in the page's colours: the bar charts' --bar, --track
// and --mark of the light theme, and the line charts' four series colours,
// which are palette entries 0, 3, 2 and 4 (web/styles.css).
func TestSiteColours(t *testing.T) {
	b, err := os.ReadFile("../web/styles.css")
	if err != nil {
		t.Fatal(err)
	}
	css := strings.ToLower(string(b))
	root := css[strings.Index(css, ":root {"):] // the first :root, the light theme's
	root = root[:strings.Index(root, "}")]
	hex := func(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
	for name, c := range map[string]color.RGBA{"bar": SiteBar, "track": SiteTrack, "mark": SiteMark} {
		if want := fmt.Sprintf("--%s: %s;", name, hex(c)); !strings.HasPrefix(root, ":root {") || !strings.Contains(root, want) {
			t.Errorf("web/styles.css :root lacks %q", want)
		}
	}
	if want := ".line-chart .hist-bar { fill: var(--bar); opacity: 0.35; }"; !strings.Contains(css, want) {
		t.Errorf("web/styles.css lacks %q", want)
	}
	mix := func(v uint8) uint8 { return uint8(math.Round(0.35*float64(v) + 0.65*255)) }
	if h := (color.RGBA{mix(SiteBar.R), mix(SiteBar.G), mix(SiteBar.B), 0xff}); h != SiteHist {
		t.Errorf("SiteHist %v, want SiteBar at 35%% over white, %v", SiteHist, h)
	}
	want := fmt.Sprintf(".line-chart { --line-0: %s; --line-1: %s; --line-2: %s; --line-3: %s; }", hex(Colour(0)), hex(Colour(3)), hex(Colour(2)), hex(Colour(4)))
	if !strings.Contains(css, want) {
		t.Errorf("web/styles.css lacks %q", want)
	}
}

// A figure drawn from a page's state shows the page's histogram: the same
// counts as the browser bridge's seeded stream.
func TestHistogramEqualsBridge(t *testing.T) {
	f := one(t, "report-noisy-max", "seed=77&step=3&batch=1000")
	b := selection.New()
	for j, nm := range noisyMaxMechanisms {
		got, err := b.Draws(nm.name, selection.Request{Mechanism: nm.name, Scores: dataSetNamed("meeting").Scores, Epsilon: 1, Sensitivity: 1}, 77, 3000)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range series(t, f, Bars, j).Counts {
			if float64(c) != got[i] {
				t.Fatalf("%s: figure counts %v, bridge %v", nm.name, series(t, f, Bars, j).Counts, got)
			}
		}
	}
}

func dataSetNamed(name string) widget.DataSet {
	d, _ := widget.Find(widget.DataSets(), name)
	return d
}

// A request's title is the widget's heading on the page: the figure draws
// it above its own title, in place of "Lesson N ·"; a title that is too
// long or holds control characters is refused.
func TestRequestTitle(t *testing.T) {
	req, _, _, err := ParseRequest("#lesson=2&widget=exponential-mechanism&id=meet&title=Choosing+a+day+%3Cb%3E")
	if err != nil || req.Title != "Choosing a day <b>" {
		t.Fatalf("title %q, error %v", req.Title, err)
	}
	figs, err := Build(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(figs[0], "svg", 16, 11)
	if err != nil {
		t.Fatal(err)
	}
	if svg := string(b); !strings.Contains(svg, "Choosing a day &lt;b&gt;") || strings.Contains(svg, "Lesson 2 ·") {
		t.Errorf("the heading is not the figure's title line")
	}
	for _, bad := range []string{"title=" + strings.Repeat("a", MaxTitle+1), "title=a%0Ab", "title=%E2%80%AE"} {
		if _, _, _, err := ParseRequest("#widget=exponential-mechanism&" + bad); err == nil {
			t.Errorf("%.40s: accepted", bad)
		}
	}
}

// ExportHash is the page's export: the bytes Render draws for the request,
// under the name dpplay figures writes, with the format's media type.
func TestExportHash(t *testing.T) {
	const hash = "#lesson=2&widget=exponential-mechanism&id=meet&eps=0.7&seed=42&step=3"
	e, err := ExportHash(hash, "svg")
	if err != nil {
		t.Fatal(err)
	}
	req, w, h, _ := ParseRequest(hash)
	figs, _ := Build(req)
	want, _ := Render(figs[0], "svg", w, h)
	if !bytes.Equal(e.Bytes, want) || e.Name != "lesson2-meet-histogram.svg" || e.MIME != "image/svg+xml" {
		t.Errorf("got %s (%s, %d bytes), want lesson2-meet-histogram.svg (%d bytes)", e.Name, e.MIME, len(e.Bytes), len(want))
	}
	for _, bad := range [][2]string{{hash, "gif"}, {hash, "<number: 3>"}, {"<undefined>", "svg"}} {
		if _, err := ExportHash(bad[0], bad[1]); err == nil {
			t.Errorf("ExportHash(%q, %q) accepted", bad[0], bad[1])
		}
	}
}
