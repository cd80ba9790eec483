package figures

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
)

// figsOf builds every figure of a widget from a hash of its params, by name.
func figsOf(t *testing.T, widget, params string) map[string]*Figure {
	t.Helper()
	req, _, _, err := ParseRequest("#widget=" + widget + "&" + params)
	if err != nil {
		t.Fatalf("ParseRequest(%q): %v", params, err)
	}
	figs, err := Build(req)
	if err != nil {
		t.Fatalf("%s %q: %v", widget, params, err)
	}
	out := map[string]*Figure{}
	for _, f := range figs {
		out[f.Name] = f
	}
	return out
}

// zTwoSided is the z with Pr[|Z| > z] = p for a standard normal Z.
func zTwoSided(p float64) float64 { return math.Sqrt2 * math.Erfcinv(p) }

// Neighbours. For each state: the figures hold CompareNeighbours' numbers
// (the page's call: scores OTHERS + Ana's days, Δ = 1, n = step × batch);
// each side's draws pass chi-square against its exact probabilities and
// fail against the other scale's; the exact log-ratios stay within ±ε
// with the right weights and leave the band with the broken ones; every
// estimate lies within the pFalse normal quantile of its exact value and
// its drawn interval covers it; breaches are drawn apart, in the alarm
// colour.
func TestNeighboursFigureHoldsTheExactNumbers(t *testing.T) {
	for _, tc := range []struct {
		params string
		eps    float64
		ax, ay []float64
		broken bool
	}{
		{"step=5", 1, []float64{0, 0, 0, 1, 0}, []float64{1, 1, 1, 0, 1}, false},
		{"scale=broken&step=5", 1, []float64{0, 0, 0, 1, 0}, []float64{1, 1, 1, 0, 1}, true},
		{"eps=2&ax=1,0,0,0,1&ay=0,0,0,0,1&seed=9&batch=1000&step=40", 2, []float64{1, 0, 0, 0, 1}, []float64{0, 0, 0, 0, 1}, false},
		{"eps=0.5&ax=0,1,1,0,0&ay=1,0,0,1,1&scale=broken&batch=100000&step=1&seed=0", 0.5, []float64{0, 1, 1, 0, 0}, []float64{1, 0, 0, 1, 1}, true},
	} {
		figs := figsOf(t, "epsilon-band", tc.params)
		dist, lr := figs["distributions"], figs["logratio"]
		x, y := pollScores(tc.ax), pollScores(tc.ay)
		v := mustResolve(t, "epsilon-band", tc.params)
		seed, n := v.Seed("seed"), v.Draws()
		r, err := selection.New().CompareNeighbours("band", x, y, tc.eps, 1, tc.broken, seed, n)
		if err != nil {
			t.Fatal(err)
		}
		// Distributions: marks are PX and PY, bars the bridge's counts.
		bars, marks := dist.Of(Bars), dist.Of(Marks)
		if len(bars) != 2 || len(marks) != 2 {
			t.Fatalf("%s: %d bar and %d mark series", tc.params, len(bars), len(marks))
		}
		run := tc.eps
		if !tc.broken {
			run = 2 * tc.eps // the other scale, for the broken test below
		}
		for j, side := range []struct {
			p, counts []float64
			scores    []float64
		}{{r.PX, r.CountX, x}, {r.PY, r.CountY, y}} {
			if bars[j].N != n {
				t.Errorf("%s side %d: N = %d, want %d", tc.params, j, bars[j].N, n)
			}
			for i := range side.p {
				if marks[j].Y[i] != side.p[i] || float64(bars[j].Counts[i]) != side.counts[i] ||
					bars[j].Y[i] != side.counts[i]/float64(n) {
					t.Fatalf("%s side %d day %d: mark %v count %d share %v; bridge %v, %v", tc.params, j, i,
						marks[j].Y[i], bars[j].Counts[i], bars[j].Y[i], side.p[i], side.counts[i])
				}
			}
			if res, _ := stats.ChiSquare(bars[j].Counts, marks[j].Y); res.PValue < pFalse {
				t.Errorf("%s side %d: draws vs exact p = %g", tc.params, j, res.PValue)
			}
			other, _ := mech.NewExponential(mech.Config{Scores: side.scores, Epsilon: run, Sensitivity: 1})
			if res, _ := stats.ChiSquare(bars[j].Counts, other.Probabilities()); res.PValue >= pFalse {
				t.Errorf("%s side %d: draws pass against the other scale: p = %g", tc.params, j, res.PValue)
			}
		}

		// Log-ratio: exact marks are LogRatio, split at ±ε.
		band := lr.Of(Band)[0]
		if band.Lo[0] != -tc.eps || band.Hi[0] != tc.eps {
			t.Errorf("%s: band [%v, %v], want ±%v", tc.params, band.Lo[0], band.Hi[0], tc.eps)
		}
		exact := map[int]float64{}
		worst := 0.0
		for _, s := range lr.Of(Marks) {
			for k, xv := range s.X {
				i := int(math.Round(xv))
				exact[i] = s.Y[k]
				worst = math.Max(worst, math.Abs(s.Y[k]))
				if out := math.Abs(s.Y[k]) > tc.eps*(1+1e-9); out != (s.Colour == 3) {
					t.Errorf("%s day %d: log-ratio %v drawn in colour %d", tc.params, i, s.Y[k], s.Colour)
				}
			}
		}
		for i, l := range r.LogRatio {
			if v, ok := exact[i]; !ok || v != l {
				t.Errorf("%s day %d: exact log-ratio %v, bridge %v", tc.params, i, v, l)
			}
		}
		if worst != r.Loss {
			t.Errorf("%s: largest |log-ratio| %v, bridge's loss %v", tc.params, worst, r.Loss)
		}
		if !tc.broken && worst > tc.eps*(1+1e-12) {
			t.Errorf("%s: right weights leave the band: %v > %v", tc.params, worst, tc.eps)
		}
		if tc.broken && worst <= tc.eps {
			t.Errorf("%s: broken weights stay inside the band: %v ≤ %v", tc.params, worst, tc.eps)
		}
		// Estimates: within the pFalse quantile (Bonferroni over the days)
		// of the exact value, the drawn ±IntervalZ interval covering it.
		z := zTwoSided(pFalse / float64(len(x)))
		breaches, drawn := 0, 0
		for _, s := range lr.Of(ErrorBars) {
			for k, xv := range s.X {
				i := int(math.Round(xv))
				drawn++
				se := (s.Hi[k] - s.Lo[k]) / (2 * selection.IntervalZ)
				if math.Abs(s.Y[k]-r.LogRatio[i]) > z*se {
					t.Errorf("%s day %d: estimate %v is %.1f standard errors from %v", tc.params, i, s.Y[k], math.Abs(s.Y[k]-r.LogRatio[i])/se, r.LogRatio[i])
				}
				if r.LogRatio[i] < s.Lo[k] || r.LogRatio[i] > s.Hi[k] {
					t.Errorf("%s day %d: interval [%v, %v] misses %v", tc.params, i, s.Lo[k], s.Hi[k], r.LogRatio[i])
				}
				out := s.Lo[k] > tc.eps || s.Hi[k] < -tc.eps
				if out != (s.Colour == 3) {
					t.Errorf("%s day %d: interval [%v, %v] drawn in colour %d", tc.params, i, s.Lo[k], s.Hi[k], s.Colour)
				}
				if out {
					breaches++
				}
				if s.Y[k] != r.Estimate[i] || s.Lo[k] != r.Low[i] || s.Hi[k] != r.High[i] {
					t.Errorf("%s day %d: estimate %v [%v, %v], bridge %v [%v, %v]", tc.params, i, s.Y[k], s.Lo[k], s.Hi[k], r.Estimate[i], r.Low[i], r.High[i])
				}
			}
		}
		if drawn != len(x) || breaches != r.Breaches {
			t.Errorf("%s: %d estimates with %d breaches, bridge %d", tc.params, drawn, breaches, r.Breaches)
		}
		// Enough draws on a broken mechanism prove the breach.
		if tc.broken && breaches == 0 {
			t.Errorf("%s: the draws show no breach", tc.params)
		}
		if !tc.broken && breaches > 0 {
			t.Errorf("%s: the right weights show a breach", tc.params)
		}
		if lr.YMin != -lr.YMax || lr.YMax < 1.15*worst || lr.YMax < 1.15*tc.eps {
			t.Errorf("%s: y range [%v, %v]", tc.params, lr.YMin, lr.YMax)
		}
	}
}

// Neighbours before any draw: no bars or estimates, and the exact marks take
// the sides' colours; lists that are not five numbers in [0, 1] are refused.
func TestNeighboursBeforeAnyDraw(t *testing.T) {
	figs := figsOf(t, "epsilon-band", "step=0")
	if len(figs["distributions"].Of(Bars)) != 0 || len(figs["logratio"].Of(ErrorBars)) != 0 {
		t.Error("step = 0 still draws bars or estimates")
	}
	if m := figs["distributions"].Of(Marks); len(m) != 2 || m[0].Colour == m[1].Colour || m[0].Name == "" || m[1].Name == "" {
		t.Errorf("without draws the two sides' marks are not told apart: %+v", m)
	}
	for _, bad := range []string{"ax=0,0,1", "ay=0,0,0,2,0", "ax=0,0,0,0,0,1", "scale=wrong", "eps=6", "batch=500"} {
		req, _, _, _ := ParseRequest("#widget=epsilon-band&" + bad)
		if _, err := Build(req); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

// laplaceBinMasses returns the exact probability of each histogram bin of a
// laplaceEMDensity figure and, last, of the draws outside them. On the continuous
// range it integrates the density by the CDF; on a grid it adds up the grid
// points' probabilities the way the bridge bins them: one bin per grid point
// when they are few, else by int((x − lo)/width) over 60 equal bins.
func laplaceBinMasses(f *Figure, q selection.LaplaceEMRequest, eps float64) []float64 {
	hist := f.Of(Bars)[0]
	k := len(hist.X)
	edges := make([]float64, k+1)
	for i, x := range hist.X {
		edges[i] = x - hist.Width/2
	}
	edges[k] = hist.X[k-1] + hist.Width/2
	masses := make([]float64, k+1)
	inside := 0.0
	if q.Spacing == 0 {
		m, _ := mech.NewLaplaceAsExponential(q.Value, q.Sensitivity, eps, q.Lo, q.Hi)
		for i := 0; i < k; i++ {
			masses[i] = m.CDF(edges[i+1]) - m.CDF(edges[i])
			inside += masses[i]
		}
	} else {
		// Each grid point's mass goes to the bar whose edges hold it.
		points, m, _ := mech.LaplaceOnGrid(q.Value, q.Sensitivity, eps, q.Lo, q.Hi, q.Spacing)
		p := m.Probabilities()
		for j, x := range points {
			if i := sort.SearchFloat64s(edges, x) - 1; i >= 0 && i < k && x < edges[i+1] {
				masses[i] += p[j]
				inside += p[j]
			}
		}
	}
	masses[k] = math.Max(0, 1-inside)
	return masses
}

// Laplace from exponential. The curves are the bridge's (the widget's call), the Laplace one
// is core's Laplace density, the grid curve is probability ÷ h; the
// histogram is count ÷ (draws × width) and passes chi-square against the
// exact bin masses, and fails against a mis-scaled mechanism: the general
// run against the Laplace mechanism's scale (or the other way round when
// tight), a 10% error in the rate, and, on the bounded range, the
// mechanism that ignores the range.
func TestLaplaceFromExponentialDensity(t *testing.T) {
	for _, tc := range []struct {
		params string
		wrong  []float64 // ε_run of mis-scaled mechanisms that must fail
	}{
		{"draws=100000&seed=4", []float64{2, 1.1}},
		{"draws=100000&seed=5&run=tight&eps=0.5&dq=2&q=10", []float64{0.5, 1.1}},
		{"draws=100000&seed=6&range=bounded&q=3&eps=0.2&dq=2", []float64{0.4, 0.22}},
		{"draws=10000&seed=7&mode=grid&h=2&range=bounded", []float64{2, 1.25}},
		{"draws=10000&seed=8&mode=grid&h=0.1&eps=0.5", []float64{1, 0.6}},
		{"draws=10000&seed=9&mode=grid&h=7&range=bounded&q=96&eps=0.05&dq=3&run=tight", []float64{0.05, 0.13}},
	} {
		f := figsOf(t, "laplace-from-exponential", tc.params)["density"]
		q, err := laplaceEMRequest(mustResolve(t, "laplace-from-exponential", tc.params))
		if err != nil {
			t.Fatal(err)
		}
		r, err := selection.LaplaceFromExponential(q)
		if err != nil {
			t.Fatal(err)
		}
		lines, hist := f.Of(Line), f.Of(Bars)[0]
		em, lap := lines[0], lines[1]
		l, _ := mech.NewLaplace(q.Value, q.Sensitivity, q.Epsilon)
		for i, x := range em.X {
			if x != r.X[i] || em.Y[i] != r.EM[i] || lap.Y[i] != r.Laplace[i] || lap.Y[i] != l.Density(x) {
				t.Fatalf("%s at %v: em %v lap %v; bridge %v %v, core's Laplace %v", tc.params, x, em.Y[i], lap.Y[i], r.EM[i], r.Laplace[i], l.Density(x))
			}
		}
		if f.XMin != r.X[0] || f.XMax != r.X[len(r.X)-1] {
			t.Errorf("%s: x range [%v, %v], the widget's [%v, %v]", tc.params, f.XMin, f.XMax, r.X[0], r.X[len(r.X)-1])
		}
		if q.Spacing > 0 {
			points, m, _ := mech.LaplaceOnGrid(q.Value, q.Sensitivity, r.Run, q.Lo, q.Hi, q.Spacing)
			p := m.Probabilities()
			for i, x := range em.X {
				k := int(math.Round((x - q.Lo) / q.Spacing))
				if k >= 0 && k < len(points) && em.Y[i] != p[k]/q.Spacing {
					t.Fatalf("%s at %v: grid curve %v, want p/h = %v", tc.params, x, em.Y[i], p[k]/q.Spacing)
				}
			}
		}
		inside := 0
		for i, c := range hist.Counts {
			w := r.Edges[i+1] - r.Edges[i]
			if hist.Y[i] != r.Density[i] || math.Abs(float64(c)/(float64(hist.N)*w)-hist.Y[i]) > 1e-12*hist.Y[i] ||
				math.Abs(hist.X[i]-(r.Edges[i]+r.Edges[i+1])/2) > 1e-9 || math.Abs(hist.Width-w) > 1e-9*w {
				t.Fatalf("%s bin %d: %v (count %d, x %v, width %v); bridge %v on [%v, %v]", tc.params, i, hist.Y[i], c, hist.X[i], hist.Width, r.Density[i], r.Edges[i], r.Edges[i+1])
			}
			inside += c
		}
		counts := append(append([]int(nil), hist.Counts...), hist.N-inside)
		if res, err := stats.ChiSquare(counts, laplaceBinMasses(f, q, r.Run)); err != nil || res.PValue < pFalse {
			t.Errorf("%s: histogram vs exact bin masses: p = %g, %v", tc.params, res.PValue, err)
		}
		for _, wrong := range tc.wrong {
			if res, _ := stats.ChiSquare(counts, laplaceBinMasses(f, q, wrong)); res.PValue >= pFalse {
				t.Errorf("%s: histogram passes against ε_run = %v: p = %g", tc.params, wrong, res.PValue)
			}
		}
		if q.Lo == 0 && q.Spacing == 0 {
			whole := q
			whole.Lo, whole.Hi = math.Inf(-1), math.Inf(1)
			if res, _ := stats.ChiSquare(counts, laplaceBinMasses(f, whole, r.Run)); res.PValue >= pFalse {
				t.Errorf("%s: histogram passes against the mechanism on the whole line: p = %g", tc.params, res.PValue)
			}
		}
	}
}

// Run at 2ε on the wide range, the exponential mechanism
// is the Laplace mechanism (the two curves agree), and its exact loss is
// ε; at ε it has half the Laplace mechanism's peak and loss ε/2.
func TestExponentialAtTwiceEpsilonIsLaplace(t *testing.T) {
	tight := figsOf(t, "laplace-from-exponential", "run=tight&eps=0.7&draws=0")["density"].Of(Line)
	for i := range tight[0].Y {
		if math.Abs(tight[0].Y[i]-tight[1].Y[i]) > 1e-12*tight[1].Y[i] {
			t.Fatalf("tight run at %v: %v, Laplace %v", tight[0].X[i], tight[0].Y[i], tight[1].Y[i])
		}
	}
	f := figsOf(t, "laplace-from-exponential", "eps=0.7&draws=0")["density"]
	general := f.Of(Line)
	if _, top := rangeOf(general[0].Y); math.Abs(top-0.7/4) > 1e-9 {
		t.Errorf("general run's peak %v, want ε/(4Δq) = %v", top, 0.7/4)
	}
	if len(f.Of(Bars)) != 0 {
		t.Error("draws = 0 still has a histogram")
	}
	q, err := laplaceEMRequest(mustResolve(t, "laplace-from-exponential", "eps=0.7&draws=0"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := selection.LaplaceFromExponential(q)
	if math.Abs(r.Loss-0.35) > 1e-9 || !strings.Contains(general[0].Name, "exact loss 0.35") {
		t.Errorf("general run's loss %v (legend %q), want ε/2", r.Loss, general[0].Name)
	}
}

func mustResolve(t *testing.T, widget, params string) Values {
	t.Helper()
	req, _, _, err := ParseRequest("#" + params)
	if err != nil {
		t.Fatal(err)
	}
	v, err := resolve(charts[widget].params, req.Params)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Discrete Laplace. The window is the widget's, the marks are core's exact PMF,
// the bars the bridge's seeded counts; with the draws outside the window as
// one more cell they pass chi-square against the exact law and fail
// against a discrete Laplace 10% wider.
func TestDiscreteLaplacePMFPassesChiSquare(t *testing.T) {
	for _, tc := range []struct {
		params     string
		value      int64
		eps        float64
		half, n    int
		seed       uint64
		wantLabels []string
	}{
		{"step=5&batch=10000", 0, 1, 4, 50000, 1, []string{"−4", "−3", "−2", "−1", "0", "1", "2", "3", "4"}},
		{"value=-1000000&eps=0.2&step=5&batch=10000&seed=7", -1000000, 0.2, 12, 50000, 7, nil},
		{"value=37&eps=0.3&step=50&batch=1000&seed=3", 37, 0.3, 10, 50000, 3, nil},
		{"value=5&eps=5&step=2&batch=10000&seed=11", 5, 5, 4, 20000, 11, nil},
	} {
		f := figsOf(t, "discrete-laplace", tc.params)["pmf"]
		bars, marks := f.Of(Bars)[0], f.Of(Marks)[0]
		lo, hi, half := discreteLaplaceWindow(tc.value, tc.eps)
		if half != tc.half || len(marks.Y) != 2*half+1 || len(f.Categories) != 2*half+1 {
			t.Fatalf("%s: half-width %d, %d marks, want %d", tc.params, half, len(marks.Y), tc.half)
		}
		if f.Categories[half] != minus(strconv.FormatInt(tc.value, 10)) {
			t.Errorf("%s: the true count's label is %q", tc.params, f.Categories[half])
		}
		if tc.wantLabels != nil && strings.Join(f.Categories, " ") != strings.Join(tc.wantLabels, " ") {
			t.Errorf("%s: labels %q", tc.params, f.Categories)
		}
		m, _ := mech.NewDiscreteLaplace(tc.value, 1, tc.eps)
		_, fc, outside, _, err := selection.DiscreteLaplaceHistogram(tc.value, 1, tc.eps, tc.n, tc.seed, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		inside := 0
		for i := range marks.Y {
			if want := math.Exp(m.LogPMF(lo + int64(i))); marks.Y[i] != want {
				t.Errorf("%s: pmf at %d is %v, core %v", tc.params, lo+int64(i), marks.Y[i], want)
			}
			if float64(bars.Counts[i]) != fc[i] || bars.Y[i] != fc[i]/float64(tc.n) {
				t.Fatalf("%s at %d: count %d share %v, bridge %v", tc.params, lo+int64(i), bars.Counts[i], bars.Y[i], fc[i])
			}
			inside += bars.Counts[i]
		}
		if bars.N != tc.n || inside+outside != tc.n {
			t.Errorf("%s: %d draws, %d inside + %d outside", tc.params, bars.N, inside, outside)
		}
		counts := append(append([]int(nil), bars.Counts...), outside)
		law := func(scale float64) []float64 {
			d, _ := rng.NewDiscreteLaplace(scale)
			p := make([]float64, len(counts))
			in := 0.0
			for i := range marks.Y {
				p[i] = math.Exp(d.LogPMF(lo + int64(i) - tc.value))
				in += p[i]
			}
			p[len(p)-1] = 1 - in
			return p
		}
		if res, _ := stats.ChiSquare(counts, law(m.Scale())); res.PValue < pFalse {
			t.Errorf("%s: draws vs exact p = %g", tc.params, res.PValue)
		}
		if res, _ := stats.ChiSquare(counts, law(1.1*m.Scale())); res.PValue >= pFalse {
			t.Errorf("%s: draws pass against a discrete Laplace 10%% wider: p = %g", tc.params, res.PValue)
		}
	}
}

// Long labels are thinned to every step-th integer from the true count, the
// true count always labelled; short ones are all kept.
func TestSparseLabels(t *testing.T) {
	for _, tc := range []struct {
		value int64
		eps   float64
		step  int
	}{{0, 1, 1}, {0, 0.2, 1}, {1000, 0.2, 2}, {-1000000, 0.2, 3}, {999999, 1, 1}} {
		lo, hi, half := discreteLaplaceWindow(tc.value, tc.eps)
		cats := make([]string, hi-lo+1)
		for i := range cats {
			cats[i] = minus(strconv.FormatInt(lo+int64(i), 10))
		}
		sparseLabels(cats, half)
		var kept []int
		for i, c := range cats {
			if c != "" {
				kept = append(kept, i-half)
			}
		}
		if !sort.IntsAreSorted(kept) || cats[half] == "" {
			t.Fatalf("value %d: true count unlabelled: %q", tc.value, cats)
		}
		for _, k := range kept {
			if k%tc.step != 0 {
				t.Errorf("value %d, ε %v: labels at offsets %v, want every %d", tc.value, tc.eps, kept, tc.step)
				break
			}
		}
		if len(kept) != 2*(half/tc.step)+1 {
			t.Errorf("value %d, ε %v: %d labels, want every %d: %q", tc.value, tc.eps, len(kept), tc.step, cats)
		}
	}
}
