package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/app/widget"
)

// Figures of the privacy-loss band on two neighbouring polls (epsilon-band),
// the Laplace mechanism as an exponential mechanism
// (laplace-from-exponential) and the exact discrete Laplace mechanism
// (discrete-laplace). Each calls the application-layer
// function its widget calls, with the widget's arguments, so the figure
// shows the page's numbers and the page's draws.

func init() {
	Register("epsilon-band", neighbourFigures)
	Register("laplace-from-exponential", laplaceEMDensity)
	Register("discrete-laplace", discreteLaplacePMF)
}

// minus writes a number with a typographic minus sign, for titles and
// labels.
func minus(s string) string { return strings.ReplaceAll(s, "-", "−") }

// The ε band on neighbours (web/widgets/epsilon-band.js).

// pollScores adds Ana's answer to the others' counts; like the widget, any
// non-zero entry of her list counts as "free".
func pollScores(ana []float64) []float64 {
	s := make([]float64, len(widget.PollOthers))
	for i, c := range widget.PollOthers {
		s[i] = c
		if ana[i] != 0 {
			s[i]++
		}
	}
	return s
}

// anaDays names the days Ana can make, abbreviated.
func anaDays(ana []float64) string {
	var d []string
	for i, a := range ana {
		if a != 0 {
			d = append(d, widget.PollDays[i][:3])
		}
	}
	if len(d) == 0 {
		return "no day"
	}
	return strings.Join(d, ", ")
}

func joinNums(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = Num(x)
	}
	return strings.Join(s, ", ")
}

func toInts(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// neighbourFigures draws the exponential mechanism, weights
// exp(ε·u/(2Δ)) with Δ = 1 (or, broken, exp(ε·u/Δ) still claiming ε), on
// two polls x and x′ that differ only in Ana's days. "distributions" shows
// P[r | x] and P[r | x′] with the shares of n = step × batch seeded draws
// on each side; "logratio" shows ln(P[r | x]/P[r | x′]) for each day r
// against the band [−ε, ε], which ε-DP promises it never leaves, with the
// estimate ln(share on x / share on x′) ± IntervalZ standard errors. Both
// come from selection.CompareNeighbours, called as the widget calls it, so the
// draws are the page's (seed on x, seed ^ 0x5bd1e995 on x′).
func neighbourFigures(v Values) ([]*Figure, error) {
	ax, ay := v.List("ax"), v.List("ay")
	x, y := pollScores(ax), pollScores(ay)
	eps, seed, n := v.Float("eps"), v.Seed("seed"), v.Draws()
	broken := v.Str("scale") == "broken"
	// The slot only names the page's draw stream; a fresh bridge starts it
	// from the seed whatever its name.
	r, err := selection.New().CompareNeighbours("epsilon-band", x, y, eps, 1, broken, seed, n)
	if err != nil {
		return nil, err
	}
	weights := "weights exp(ε·u/(2Δ))"
	if broken {
		weights = "broken weights exp(ε·u/Δ), still claiming ε"
	}
	days := Indices(len(x))

	dist := &Figure{
		Name:       "distributions",
		Title:      fmt.Sprintf("The exponential mechanism on two neighbouring polls x and x′\nε = %s, Δ = 1, %s", Num(eps), weights),
		XLabel:     "Meeting day r",
		YLabel:     "Probability / share of draws",
		Categories: widget.PollDays,
		Horizontal: true,
	}
	const w = 0.38
	sides := []struct {
		name   string
		ana    []float64
		scores []float64
		p      []float64
		counts []float64
		shift  float64
	}{
		{"x", ax, x, r.PX, r.CountX, -w / 2},
		{"x′", ay, y, r.PY, r.CountY, w / 2},
	}
	var marks []Series
	top := 0.0
	for j, s := range sides {
		xs := make([]float64, len(days))
		for i, d := range days {
			xs[i] = d + s.shift
		}
		side := fmt.Sprintf("Poll %s (Ana free: %s; scores %s)", s.name, anaDays(s.ana), joinNums(s.scores))
		if n == 0 {
			// No draws yet: the exact marks take the sides' colours, so
			// the legend still says which is which.
			marks = append(marks, Series{Name: side + ": exact probability", Kind: Marks, Colour: j, Width: w * 0.94, X: xs, Y: s.p})
		} else {
			counts := toInts(s.counts)
			sh := shares(counts, n)
			dist.Series = append(dist.Series, Series{
				Name: fmt.Sprintf("%s: share of %s draws", side, Thousands(n)),
				Kind: Bars, Colour: j, Width: w * 0.94, X: xs, Y: sh, Counts: counts, N: n,
			})
			_, hi := rangeOf(sh)
			top = math.Max(top, hi)
			name := ""
			if j == 0 {
				name = fmt.Sprintf("Exact probability on each poll (draws: seed %d on x, seed ^ 0x5bd1e995 on x′)", seed)
			}
			marks = append(marks, Series{Name: name, Kind: Marks, Colour: MarkColour, Width: w * 0.94, X: xs, Y: s.p})
		}
		_, hi := rangeOf(s.p)
		top = math.Max(top, hi)
	}
	dist.Series = append(dist.Series, marks...)
	dist.YMax = 1.12 * top

	short := "weights exp(ε·u/(2Δ))"
	if broken {
		short = "broken weights exp(ε·u/Δ)"
	}
	claim := "≤ ε"
	if r.Loss > r.Claimed*(1+1e-9) {
		claim = "> ε: the claim is false"
	}
	lr := &Figure{
		Name:       "logratio",
		Title:      fmt.Sprintf("What ε promises: the log-ratio of each day's probability on x and x′\nε = %s, %s; privacy loss %s %s", Num(eps), short, Num(r.Loss), claim),
		XLabel:     "Meeting day r",
		YLabel:     "ln( P[r | x] / P[r | x′] )  (nats)",
		Categories: widget.PollDays,
		Series: []Series{{
			Name: fmt.Sprintf("Allowed band ±ε = ±%s", Num(eps)), Kind: Band, Colour: 5,
			X: []float64{-0.5, float64(len(days)) - 0.5}, Lo: []float64{-eps, -eps}, Hi: []float64{eps, eps},
		}},
	}
	// As on the page, a point outside the band is drawn in the alarm colour
	// and named so: an exact value whose |log-ratio| exceeds ε, an estimate
	// whose whole interval lies outside [−ε, ε].
	in := Series{Name: "Exact log-ratio (inside the band)", Kind: Marks, Colour: 7, Width: 0.3}
	out := Series{Name: "Exact log-ratio outside the band: a breach of ε-DP", Kind: Marks, Colour: 3, Width: 0.3}
	for i, l := range r.LogRatio {
		s := &in
		if math.Abs(l) > eps*(1+1e-9) {
			s = &out
		}
		s.X = append(s.X, days[i]-0.13)
		s.Y = append(s.Y, l)
	}
	est := Series{Name: fmt.Sprintf("Estimate from %s draws on each side, ±%d standard errors", Thousands(n), selection.IntervalZ), Kind: ErrorBars, Colour: 0}
	estOut := Series{Name: "Estimate whose whole interval lies outside the band: the draws prove a breach", Kind: ErrorBars, Colour: 3}
	for i := range r.Drawn {
		if r.Drawn[i] == 0 {
			continue // never drawn on one side: no finite estimate, as on the page
		}
		s := &est
		if r.Low[i] > eps || r.High[i] < -eps {
			s = &estOut
		}
		s.X = append(s.X, days[i]+0.15)
		s.Y = append(s.Y, r.Estimate[i])
		s.Lo = append(s.Lo, r.Low[i])
		s.Hi = append(s.Hi, r.High[i])
	}
	for _, s := range []Series{in, out, est, estOut} {
		if len(s.X) > 0 {
			lr.Series = append(lr.Series, s)
		}
	}
	// The page's symmetric y range: 1.15 × the largest of ε, |exact| and
	// the drawn intervals' ends.
	span := eps
	for i, l := range r.LogRatio {
		span = math.Max(span, math.Abs(l))
		if r.Drawn[i] != 0 {
			span = math.Max(span, math.Max(math.Abs(r.Low[i]), math.Abs(r.High[i])))
		}
	}
	lr.YMin, lr.YMax = -1.15*span, 1.15*span
	return []*Figure{dist, lr}, nil
}

// The Laplace mechanism as an exponential mechanism (web/widgets/laplace-from-exponential.js).

// laplaceEMRequest is the widget's call of selection.LaplaceFromExponential.
func laplaceEMRequest(v Values) (selection.LaplaceEMRequest, error) {
	lo, hi, err := selection.LaplaceEMRange(v.Str("range"), v.Float("dq"), v.Float("eps"))
	if err != nil {
		return selection.LaplaceEMRequest{}, err
	}
	spacing := 0.0
	if v.Str("mode") == "grid" {
		spacing = v.Float("h")
	}
	return selection.LaplaceEMRequest{
		Value: v.Float("q"), Sensitivity: v.Float("dq"), Epsilon: v.Float("eps"),
		Lo: lo, Hi: hi, Spacing: spacing, Tight: v.Str("run") == "tight",
		Seed: v.Seed("seed"), Draws: v.Int("draws"),
	}, nil
}

// laplaceEMDensity draws the exponential mechanism with score
// u(x, r) = −2·|q(x) − r| (sensitivity 2Δq) on the range, whose density is
// ∝ exp(−ε_run·|r − q(x)|/(2Δq)), against the Laplace mechanism's density
// (ε/(2Δq))·exp(−ε·|r − q(x)|/Δq), with a histogram of seeded draws as a
// density (count ÷ (draws × bin width)). On a grid of spacing h the
// exponential mechanism's curve is its probability ÷ h, so both share one
// axis. The window, q(x) ± 10·Δq/ε cut to the range, the 241 curve points
// and the bins are the bridge's, as on the page.
func laplaceEMDensity(v Values) ([]*Figure, error) {
	q, err := laplaceEMRequest(v)
	if err != nil {
		return nil, err
	}
	r, err := selection.LaplaceFromExponential(q)
	if err != nil {
		return nil, err
	}
	grid := q.Spacing > 0
	where := "every real r"
	emName := fmt.Sprintf("Exponential mechanism at ε_run = %s, noise scale 2Δq/ε_run = %s", Num(r.Run), Num(r.EMScale))
	if grid {
		where = "grid h = " + Num(q.Spacing)
		emName = fmt.Sprintf("Exponential mechanism on the grid at ε_run = %s, probability ÷ h", Num(r.Run))
	}
	// The general theorem certifies ε_run (r.Certified); the exact loss
	// against the neighbours q(x) ± Δq is what the mechanism really has.
	emName += fmt.Sprintf("; exact loss %s", Num(r.Loss))
	if r.Loss > q.Epsilon*(1+1e-9) {
		emName += fmt.Sprintf(" > ε = %s", Num(q.Epsilon))
	}
	run := "ε_run = ε (general)"
	if q.Tight {
		run = "ε_run = 2ε (tight)"
	}
	f := &Figure{
		Name: "density",
		Title: fmt.Sprintf("Laplace noise out of the exponential mechanism, score −2|q(x) − r|\nq(x) = %s, Δq = %s, ε = %s; range [%s, %s], %s; %s",
			Num(q.Value), Num(q.Sensitivity), Num(q.Epsilon), minus(Num(q.Lo)), minus(Num(q.Hi)), where, run),
		XLabel: "Output r",
		YLabel: "Density (per unit of r)",
		XMin:   r.X[0], XMax: r.X[len(r.X)-1],
		YMin: 0,
	}
	top := 0.0
	if q.Draws > 0 {
		k := len(r.Density)
		mid := make([]float64, k)
		counts := make([]int, k)
		for i := range mid {
			mid[i] = (r.Edges[i] + r.Edges[i+1]) / 2
			// The bridge returns count ÷ (draws × width); the counts are
			// whole numbers, recovered exactly by rounding.
			counts[i] = int(math.Round(r.Density[i] * float64(q.Draws) * (r.Edges[i+1] - r.Edges[i])))
		}
		f.Series = append(f.Series, Series{
			Name: fmt.Sprintf("Histogram of %s draws of the exponential mechanism (seed %d)", Thousands(q.Draws), q.Seed),
			Kind: Bars, Colour: HistColour, Width: r.Edges[1] - r.Edges[0], X: mid, Y: r.Density, Counts: counts, N: q.Draws,
		})
		_, top = rangeOf(r.Density)
	}
	// The rule at q(x) goes under the curves, so it never hides their peaks.
	f.Series = append(f.Series,
		Series{Name: fmt.Sprintf("q(x) = %s, the true answer", Num(q.Value)), Kind: Rule, Colour: 7, X: []float64{q.Value}},
		Series{Name: emName, Kind: Line, Colour: 0, X: r.X, Y: r.EM},
		Series{Name: fmt.Sprintf("Laplace mechanism, scale b = Δq/ε = %s", Num(r.Scale)), Kind: Line, Colour: 3, Dashed: true, X: r.X, Y: r.Laplace},
	)
	_, hi := rangeOf(r.EM, r.Laplace)
	f.YMax = 1.08 * math.Max(top, hi)
	return []*Figure{f}, nil
}

// The discrete Laplace mechanism (web/widgets/discrete-laplace.js).

// discreteLaplaceWindow is the widget's window: about ±3σ around the
// answer, between ±4 and ±12 integers.
func discreteLaplaceWindow(value int64, eps float64) (lo, hi int64, half int) {
	half = int(math.Min(12, math.Max(4, math.Ceil(3/eps))))
	return value - int64(half), value + int64(half), half
}

// discreteLaplacePMF draws the exact discrete Laplace mechanism
// (Canonne, Kamath and Steinke 2020) at sensitivity 1,
// Pr[output = y] = tanh(1/(2σ))·exp(−|y − value|/σ) with σ = 1/ε rounded up
// to a multiple of 1/4096, on the widget's window, and the shares of
// n = step × batch seeded draws (selection.DiscreteLaplaceHistogram).
func discreteLaplacePMF(v Values) ([]*Figure, error) {
	value, eps, seed, n := int64(v.Int("value")), v.Float("eps"), v.Seed("seed"), v.Draws()
	lo, hi, _ := discreteLaplaceWindow(value, eps)
	pmf, fc, outside, achieved, err := selection.DiscreteLaplaceHistogram(value, 1, eps, n, seed, lo, hi)
	if err != nil {
		return nil, err
	}
	cats := make([]string, len(pmf))
	inRange := 0.0
	for i := range cats {
		cats[i] = minus(strconv.FormatInt(lo+int64(i), 10))
		inRange += pmf[i]
	}
	sparseLabels(cats, int(value-lo))
	win := minus(fmt.Sprintf("%d…%d", lo, hi))
	x := Indices(len(pmf))
	f := &Figure{
		Name:       "pmf",
		Title:      fmt.Sprintf("The exact discrete Laplace mechanism: integer noise, integer arithmetic\ntrue count q = %s, Δ = 1, ε = %s (σ = Δ/ε rounded up to 1/4096: achieved ε = %s)", minus(strconv.FormatInt(value, 10)), Num(eps), strconv.FormatFloat(achieved, 'g', 6, 64)),
		XLabel:     "Output y",
		YLabel:     "Probability / share of draws",
		Categories: cats,
		Horizontal: true,
	}
	_, top := rangeOf(pmf)
	if n > 0 {
		counts := toInts(fc)
		sh := shares(counts, n)
		f.Series = append(f.Series, Series{
			Name: fmt.Sprintf("Share of %s seeded draws (seed %d); %s fell outside %s", Thousands(n), seed, Thousands(outside), win),
			Kind: Bars, Colour: BarColour, Width: barWidth, X: x, Y: sh, Counts: counts, N: n,
		})
		_, t := rangeOf(sh)
		top = math.Max(top, t)
	}
	f.Series = append(f.Series, Series{
		Name: fmt.Sprintf("Exact probability tanh(1/(2σ))·exp(−|y − q|/σ); %s of it lies outside %s", strconv.FormatFloat(1-inRange, 'g', 3, 64), win),
		Kind: Marks, Colour: MarkColour, Width: barWidth, X: x, Y: pmf,
	})
	f.YMax = 1.1 * top
	return []*Figure{f}, nil
}

// sparseLabels blanks category labels so that long ones (a count near a
// million) do not run into each other: it keeps every step-th label
// counted from the true answer at index centre, with the smallest step at
// which they fit, by the renderer's rule of thumb of 0.19 cm per character
// and 0.9 × 16 cm shared by the categories.
func sparseLabels(cats []string, centre int) {
	long := 0
	for _, c := range cats {
		long = max(long, len([]rune(c)))
	}
	step := 1
	for _, step = range []int{1, 2, 3, 4, 6, 12} {
		if float64(long)*0.19 <= 0.9*16/float64(len(cats))*float64(step) {
			break
		}
	}
	for i := range cats {
		if (i-centre)%step != 0 {
			cats[i] = ""
		}
	}
}
