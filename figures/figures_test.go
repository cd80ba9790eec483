package figures

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/market"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/wasm/bridge"
)

// pFalse is the false-failure probability every statistical test here allows.
const pFalse = 1e-6

func mustSpec(t *testing.T, hash string) Spec {
	t.Helper()
	s, err := ParseSpec(hash)
	if err != nil {
		t.Fatalf("ParseSpec(%q): %v", hash, err)
	}
	return s
}

func one(t *testing.T, hash string) *Figure {
	t.Helper()
	figs, err := Build(mustSpec(t, hash))
	if err != nil {
		t.Fatalf("Build(%q): %v", hash, err)
	}
	if len(figs) != 1 {
		t.Fatalf("Build(%q) gave %d figures, want 1", hash, len(figs))
	}
	return figs[0]
}

func series(t *testing.T, f *Figure, kind Kind, i int) Series {
	t.Helper()
	k := 0
	for _, s := range f.Series {
		if s.Kind == kind {
			if k == i {
				return s
			}
			k++
		}
	}
	t.Fatalf("%s has no series %d of kind %d", f.Name, i, kind)
	return Series{}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		hash string
		ok   bool
		want func(Spec) bool
	}{
		{"#lesson=1&eps=0.5&seed=7&draws=10000", true, func(s Spec) bool {
			return s.Lesson == 1 && s.Epsilon == 0.5 && s.Seed == 7 && s.Draws == 10000
		}},
		// The page's form: widget-prefixed keys, draws = step × batch.
		{"#/exponential-mechanism?lesson=1&em.eps=2&em.seed=9&em.step=3&em.batch=1000&em.data=meeting&em.form=article", true, func(s Spec) bool {
			return s.Lesson == 1 && s.Epsilon == 2 && s.Seed == 9 && s.Draws == 3000 && s.Data == "meeting" && s.Article
		}},
		{"#lesson=4&q=3&lo=-5&hi=10&bins=40", true, func(s Spec) bool { return s.Value == 3 && s.Lo == -5 && s.Hi == 10 && s.Bins == 40 }},
		{"#lesson=1&u=1,2,3,4,5,6,7&other.key=ignored", true, func(s Spec) bool { return len(s.Scores) == 7 && s.Scores[6] == 7 }},
		{"", true, func(s Spec) bool { return s.Lesson == 0 && s.Epsilon == 1 && s.Seed == 1 }},
		{"#lesson=7", false, nil},
		{"#lesson=1&fig=density", false, nil},
		{"#eps=0", false, nil},
		{"#eps=-1", false, nil},
		{"#eps=NaN", false, nil},
		{"#eps=abc", false, nil},
		{"#seed=-3", false, nil},
		{"#draws=100000000", false, nil},
		{"#step=100000&batch=10000", false, nil},
		{"#data=nope", false, nil},
		{"#lo=5&hi=1", false, nil},
		{"#width=1000", false, nil},
		{"#form=weird", false, nil},
		{"#u=1,x,3", false, nil},
	} {
		s, err := ParseSpec(tc.hash)
		if (err == nil) != tc.ok {
			t.Errorf("ParseSpec(%q) error = %v, want ok = %v", tc.hash, err, tc.ok)
			continue
		}
		if tc.ok && !tc.want(s) {
			t.Errorf("ParseSpec(%q) = %+v", tc.hash, s)
		}
	}
}

func TestHashRoundTrip(t *testing.T) {
	for _, h := range []string{
		"#lesson=1&eps=0.3&seed=42&draws=5000&data=meeting&u=1,2,3,4,5",
		"#lesson=3&broken=1&who=2&delta=2",
		"#lesson=4&q=2.5&lo=-1&hi=9&bins=30&width=20&height=12",
		"#lesson=9&values=1,2,3&prices=0.5:3:0.5&epsmin=0.1&epsmax=50",
	} {
		s := mustSpec(t, h)
		back := mustSpec(t, s.Hash())
		if s.Hash() != back.Hash() {
			t.Errorf("%q: Hash %q re-parses to %q", h, s.Hash(), back.Hash())
		}
	}
}

// The lesson 1 histogram's exact marks are core's probabilities, and its
// bars are seeded draws that pass a chi-square test against them; the
// broken scale ε/Δ (probabilities of 2ε) fails the same test.
func TestLesson1Histogram(t *testing.T) {
	f := one(t, "#lesson=1&data=meeting&eps=0.5&seed=3&draws=200000")
	bars, marks := series(t, f, Bars, 0), series(t, f, Marks, 0)
	m, err := mech.NewExponential(mech.Config{Scores: dataSets["meeting"].Scores, Epsilon: 0.5, Sensitivity: 1})
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
	broken, _ := mech.NewExponential(mech.Config{Scores: dataSets["meeting"].Scores, Epsilon: 1, Sensitivity: 1})
	if r, _ := stats.ChiSquare(bars.Counts, broken.Probabilities()); r.PValue >= pFalse {
		t.Errorf("draws vs the broken scale's probabilities passed: p = %g", r.PValue)
	}
}

// The figure's draws are the page's: the first n draws of rng.Seeded(seed),
// so a longer run extends a shorter one and the article form converts ε.
func TestHistogramMatchesPageStream(t *testing.T) {
	a := series(t, one(t, "#lesson=1&seed=5&draws=1000"), Bars, 0)
	b := series(t, one(t, "#lesson=1&seed=5&draws=1000"), Bars, 0)
	c := series(t, one(t, "#lesson=1&seed=6&draws=1000"), Bars, 0)
	if !equalInts(a.Counts, b.Counts) || equalInts(a.Counts, c.Counts) {
		t.Errorf("seeded counts: same seed %v vs %v, other seed %v", a.Counts, b.Counts, c.Counts)
	}
	art := series(t, one(t, "#lesson=1&form=article&eps=0.25&delta=2"), Marks, 0)
	dp := series(t, one(t, "#lesson=1&eps=1&delta=2"), Marks, 0)
	for i := range art.Y {
		if art.Y[i] != dp.Y[i] {
			t.Fatalf("article ε_a = 0.25, Δ = 2 should equal ε = 1: %v vs %v", art.Y, dp.Y)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Lesson 2: each mechanism's bars pass chi-square against its own exact
// marks, and fail against the exponential mechanism's when they differ.
func TestLesson2Histogram(t *testing.T) {
	f := one(t, "#lesson=2&eps=1&draws=100000&seed=11")
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

// Lesson 3: the exact log-ratio stays inside ±ε, touches close to it, and
// the broken scale leaves the band; the estimates' intervals cover the
// exact values.
func TestLesson3LogRatio(t *testing.T) {
	for _, tc := range []struct {
		hash   string
		broken bool
	}{{"#lesson=3&eps=1", false}, {"#lesson=3&eps=1&broken=1", true}, {"#lesson=3&eps=0.3&data=adult&who=1", false}} {
		f := one(t, tc.hash)
		band, exact := series(t, f, Band, 0), series(t, f, Marks, 0)
		eps := band.Hi[0]
		worst := 0.0
		for _, v := range exact.Y {
			worst = math.Max(worst, math.Abs(v))
		}
		if tc.broken && worst <= eps {
			t.Errorf("%s: broken scale stays inside the band: %v ≤ %v", tc.hash, worst, eps)
		}
		if !tc.broken && (worst > eps*(1+1e-12) || worst < 0.5*eps) {
			t.Errorf("%s: worst exact log-ratio %v, want in [ε/2, ε] with ε = %v", tc.hash, worst, eps)
		}
	}
	f := one(t, "#lesson=3&eps=1&draws=200000")
	exact, est := series(t, f, Marks, 0), series(t, f, ErrorBars, 0)
	for k := range est.X {
		i := int(math.Round(est.X[k] - 0.15))
		// 95% intervals: with 5 outcomes a miss is possible but not 5σ.
		half := (est.Hi[k] - est.Lo[k]) / 2
		if math.Abs(est.Y[k]-exact.Y[i]) > 5*half/1.96 {
			t.Errorf("outcome %d: estimate %v ± %v far from exact %v", i, est.Y[k], half, exact.Y[i])
		}
	}
}

// Lesson 4: the density lines are core's densities, the Laplace one is the
// exponential mechanism's at half the scale, and the histogram's bin counts
// pass chi-square against the exact bin masses from the CDF.
func TestLesson4Density(t *testing.T) {
	f := one(t, "#lesson=4&eps=0.8&q=2&draws=100000&bins=40&seed=4")
	hist, em, lap := series(t, f, Bars, 0), series(t, f, Line, 0), series(t, f, Line, 1)
	m, _ := mech.NewLaplaceAsExponential(2, 1, 0.8, math.Inf(-1), math.Inf(1))
	l, _ := mech.NewLaplace(2, 1, 0.8)
	for i, x := range em.X {
		if em.Y[i] != m.Density(x) || lap.Y[i] != l.Density(x) {
			t.Fatalf("density at %v: %v, %v; want %v, %v", x, em.Y[i], lap.Y[i], m.Density(x), l.Density(x))
		}
	}
	// Peak heights: ε/(4Δ) and ε/(2Δ), the factor 2 of lesson 4.
	if _, top := rangeOf(em.Y); math.Abs(top-0.2) > 1e-3 {
		t.Errorf("exponential mechanism peak %v, want ε/(4Δ) = 0.2", top)
	}
	if _, top := rangeOf(lap.Y); math.Abs(top-0.4) > 1e-3 {
		t.Errorf("Laplace peak %v, want ε/(2Δ) = 0.4", top)
	}
	counts := append([]int(nil), hist.Counts...)
	probs := make([]float64, len(counts)+1)
	inside := 0
	for k, x := range hist.X {
		probs[k] = m.CDF(x+hist.Width/2) - m.CDF(x-hist.Width/2)
		inside += counts[k]
	}
	lo, hi := hist.X[0]-hist.Width/2, hist.X[len(hist.X)-1]+hist.Width/2
	probs[len(counts)] = m.CDF(lo) + 1 - m.CDF(hi)
	counts = append(counts, hist.N-inside)
	if r, err := stats.ChiSquare(counts, probs); err != nil || r.PValue < pFalse {
		t.Errorf("histogram vs exact bin masses: p = %g, %v", r.PValue, err)
	}
	// The Laplace mechanism's bin masses (the wrong scale) must fail.
	wrong := make([]float64, len(probs))
	for k, x := range hist.X {
		wrong[k] = l.CDF(x+hist.Width/2) - l.CDF(x-hist.Width/2)
	}
	wrong[len(counts)-1] = l.CDF(lo) + 1 - l.CDF(hi)
	if r, _ := stats.ChiSquare(counts, wrong); r.PValue >= pFalse {
		t.Errorf("histogram passed against the Laplace mechanism's scale: p = %g", r.PValue)
	}
}

// Lesson 5: the exact tail never exceeds e^−t (the theorem) and the share of
// draws below the threshold is close to it.
func TestLesson5Tail(t *testing.T) {
	for _, h := range []string{"#lesson=5", "#lesson=5&eps=0.2&data=adult", "#lesson=5&eps=3&data=adult-raw"} {
		f := one(t, h+"&draws=50000")
		bound, exact, emp := series(t, f, Line, 0), series(t, f, Line, 1), series(t, f, Line, 2)
		for i := range bound.X {
			if exact.Y[i] > bound.Y[i]+1e-12 {
				t.Errorf("%s: t = %v: exact %v above the bound %v", h, bound.X[i], exact.Y[i], bound.Y[i])
			}
			// 6 standard errors of a proportion from 50,000 draws.
			se := math.Sqrt(math.Max(exact.Y[i]*(1-exact.Y[i]), 1e-6) / 50000)
			if math.Abs(emp.Y[i]-exact.Y[i]) > 6*se+1e-4 {
				t.Errorf("%s: t = %v: empirical %v vs exact %v", h, bound.X[i], emp.Y[i], exact.Y[i])
			}
		}
	}
}

// Lesson 6: the curves are core's ExpectedLoss; permute-and-flip is never
// worse than the exponential mechanism; the loss falls as ε grows.
func TestLesson6Loss(t *testing.T) {
	f := one(t, "#lesson=6&data=adult")
	em, pf, rnm := series(t, f, Line, 0), series(t, f, Line, 1), series(t, f, Line, 2)
	scores := dataSets["adult"].Scores
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

// Lesson 9: expected revenue is core's, never above OPT, and approaches OPT
// as ε grows.
func TestLesson9Revenue(t *testing.T) {
	f := one(t, "#lesson=9&epsmax=500")
	opt, exp, guar := series(t, f, Line, 0), series(t, f, Line, 1), series(t, f, Line, 2)
	prices, _ := market.Grid(0.01, 5, 0.01)
	for i, e := range exp.X {
		p, _ := market.NewPricing([]float64{1, 1, 1, 4.01}, prices, e)
		if exp.Y[i] != p.ExpectedRevenue() {
			t.Errorf("ε = %v: %v, want %v", e, exp.Y[i], p.ExpectedRevenue())
		}
		if exp.Y[i] > opt.Y[i] || guar.Y[i] > exp.Y[i]+1e-9 {
			t.Errorf("ε = %v: guarantee %v ≤ E[rev] %v ≤ OPT %v fails", e, guar.Y[i], exp.Y[i], opt.Y[i])
		}
	}
	if last := len(exp.Y) - 1; exp.Y[last] < 0.9*opt.Y[last] {
		t.Errorf("at ε = 500 the revenue %v is still far from OPT %v", exp.Y[last], opt.Y[last])
	}
}

// Rendering twice gives identical bytes in every format, and the outputs
// look like what they claim to be.
func TestRenderReproducible(t *testing.T) {
	figs, err := Build(mustSpec(t, "#draws=2000"))
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != len(Lessons()) {
		t.Fatalf("%d figures for %d lessons", len(figs), len(Lessons()))
	}
	magic := map[string]string{"svg": "<?xml", "png": "\x89PNG", "pdf": "%PDF"}
	for _, f := range figs {
		for _, format := range Formats() {
			// Rasterising is slow under -race: every figure as SVG, two
			// figures (bars and lines) in every format.
			if format != "svg" && f.Lesson != 1 && f.Lesson != 4 {
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

// A figure drawn from a page's state shows the page's histogram: the same
// counts as the browser bridge's seeded stream.
func TestHistogramEqualsBridge(t *testing.T) {
	f := one(t, "#lesson=2&seed=77&draws=3000")
	b := bridge.New()
	for j, nm := range noisyMaxMechanisms {
		got, err := b.Draws(nm.name, bridge.Request{Mechanism: nm.name, Scores: dataSets["meeting"].Scores, Epsilon: 1, Sensitivity: 1}, 77, 3000)
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
