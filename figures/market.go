package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/market"
	"github.com/dpplay/dpplay/app/widget"
)

// Figures of the market widgets: private pricing (pricing), approximate
// truthfulness (truthful) and billboard prices (billboard). Every number
// comes from app/market, the application layer
// of the market module the widgets call, with the widgets' own grid, so a
// figure shows what the page shows for the same state.

func init() {
	Register("pricing", pricingFigures)
	Register("truthful", truthfulUtility)
	Register("billboard", billboardPrices)
}

// usd writes dollars as the page's money() does: two decimals, a true minus.
func usd(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	s := "$" + strconv.FormatFloat(math.Abs(x), 'f', 2, 64)
	if x < 0 {
		return "−" + s
	}
	return s
}

// fmtSig writes x to d significant digits, as the page's fmt(x, d).
func fmtSig(x float64, d int) string { return strconv.FormatFloat(x, 'g', d, 64) }

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// buyersText names the buyers for a title: their values when few enough
// fit on a line, else just how many.
func buyersText(values []float64) string {
	if len(values) > 6 {
		lo, hi := rangeOf(values)
		return fmt.Sprintf("%d buyers valuing %s to %s", len(values), usd(lo), usd(hi))
	}
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = usd(v)
	}
	noun := "buyers"
	if len(values) == 1 {
		noun = "buyer"
	}
	return fmt.Sprintf("%d %s valuing %s", len(values), noun, strings.Join(vs, ", "))
}

// pricingFigures draws private pricing (McSherry–Talwar): on the
// grid R = {$0.01, …, $5.00} with Δ = $5, the exponential mechanism posts
// price p with probability ∝ exp(ε·rev(p)/(2Δ)), rev(p) = p·#{i : vᵢ ≥ p}.
// Three figures, as the widget's three charts: the revenue of every fixed
// price with the best one marked; the exact price distribution with the
// share of the seeded draws; and the exact E[rev] against ε beside OPT and
// the accuracy theorem's guarantee E[rev] ≥ OPT − 2Δ(ln|R| + 1)/ε.
func pricingFigures(v Values) ([]*Figure, error) {
	values, eps, seed, n := v.List("values"), v.Float("eps"), v.Seed("seed"), v.Int("draws")
	r, err := market.Pricing(values, widget.MaxPrice, widget.PriceStep, eps, seed, n)
	if err != nil {
		return nil, err
	}
	setting := fmt.Sprintf("%s; |R| = %d, Δ = %s", buyersText(values), len(r.Prices), usd(r.Sensitivity))

	// The cliff: the readout's "one cent more earns …".
	cliff := ""
	for j, p := range r.Prices {
		if p > r.OptimalPrice+1e-9 {
			cliff = fmt.Sprintf("; %s earns %s", usd(p), usd(r.Revenue[j]))
			break
		}
	}
	_, topRev := rangeOf(r.Revenue)
	revenue := &Figure{
		Name:   "revenue",
		Title:  fmt.Sprintf("Revenue p × #{buyers with value ≥ p} at each fixed price\n%s", buyersText(values)),
		XLabel: "Price p ($)",
		YLabel: "Revenue ($)",
		XMin:   0, XMax: widget.MaxPrice,
		YMin: 0, YMax: 1.1 * topRev,
		Series: []Series{
			{Name: "Revenue", Kind: Steps, Colour: 0, X: r.Prices, Y: r.Revenue},
			{Name: fmt.Sprintf("Best fixed price %s earns %s%s", usd(r.OptimalPrice), usd(r.OptimalRevenue), cliff), Kind: Rule, Colour: 7, X: []float64{r.OptimalPrice}},
		},
	}

	_, topP := rangeOf(r.Probabilities)
	dist := &Figure{
		Name:   "distribution",
		Title:  fmt.Sprintf("The private price: exact probability of each price, and draws\n%s; ε = %s", setting, Num(eps)),
		XLabel: "Price p ($)",
		YLabel: "Probability / share of draws",
		XMin:   0, XMax: widget.MaxPrice,
		YMin: 0,
	}
	if n > 0 {
		counts := make([]int, len(r.Counts))
		for i, c := range r.Counts {
			counts[i] = int(c)
		}
		sh := shares(counts, n)
		_, topS := rangeOf(sh)
		topP = math.Max(topP, topS)
		// The page's bins run from p − step/2 to p + step/2.
		dist.Series = append(dist.Series, Series{Name: fmt.Sprintf("Share of %s seeded draws (seed %d)", Thousands(n), seed),
			Kind: Bars, Colour: HistColour, Width: widget.PriceStep, X: r.Prices, Y: sh, Counts: counts, N: n})
	}
	dist.YMax = 1.1 * topP
	dist.Series = append(dist.Series, Series{Name: fmt.Sprintf("Exact probability, weights exp(ε·rev(p)/(2Δ)): E[revenue] = %s", usd(r.ExpectedRevenue)), Kind: Line, Colour: 0, X: r.Prices, Y: r.Probabilities})

	opt := make([]float64, len(r.Epsilons))
	guar := make([]float64, len(r.Epsilons))
	for i, g := range r.GuaranteeCurve {
		opt[i] = r.OptimalRevenue
		// A negative guarantee says nothing; the page draws it at 0.
		guar[i] = math.Max(0, g)
	}
	curve := &Figure{
		Name:   "curve",
		Title:  fmt.Sprintf("Private pricing: expected revenue against ε\n%s", setting),
		XLabel: "ε (log scale)",
		YLabel: "Revenue ($)",
		LogX:   true,
		// A hair below 0.1 so that the axis labels its first decade.
		XMin: 0.099, XMax: r.Epsilons[len(r.Epsilons)-1],
		YMin: 0, YMax: 1.15 * r.OptimalRevenue,
		Series: []Series{
			{Name: fmt.Sprintf("Best fixed price %s (not private): OPT = %s", usd(r.OptimalPrice), usd(r.OptimalRevenue)), Kind: Line, Colour: 0, Dashed: true, X: r.Epsilons, Y: opt},
			{Name: "Private price: exact expected revenue", Kind: Line, Colour: 3, X: r.Epsilons, Y: r.RevenueCurve},
			{Name: "Guarantee OPT − 2Δ(ln|R| + 1)/ε (0: says nothing)", Kind: Line, Colour: 2, Dashed: true, X: r.Epsilons, Y: guar},
			{Name: fmt.Sprintf("ε = %s on the page: E[revenue] = %s", Num(eps), usd(r.ExpectedRevenue)), Kind: Rule, Colour: 7, X: []float64{eps}},
		},
	}
	if curve.YMax <= 0 { // every buyer values the good below the lowest price
		curve.YMax = 1
	}
	if revenue.YMax <= 0 {
		revenue.YMax = 1
	}
	return []*Figure{revenue, dist, curve}, nil
}

// reportIndex is the row the truthfulness widget shows for a report: row 0
// is a report of $0, row j the j-th grid price, so round(report/step), kept
// in the table (web/widgets/truthful.js).
func reportIndex(report float64, m int) int {
	return min(max(int(math.Round(report/widget.PriceStep)), 0), m-1)
}

// truthfulUtility draws approximate truthfulness: buyer i's exact
// expected utility E[(vᵢ − p̂)·1[vᵢ ≥ p̂]] when they report x and the others
// report truthfully, for every grid report x, beside the truthful utility
// and the report the page shows. The widget's readout bounds every lie's
// gain by ε-DP: by min((e^ε − 1)·E_v[u], B·tanh(ε/2)), and the slides' ε·B,
// B = max_p u(p); the figure draws the first as truthful + bound, and marks
// the best lie, so the gap between the two is in view.
func truthfulUtility(v Values) ([]*Figure, error) {
	values, eps := v.List("values"), v.Float("eps")
	b := min(v.Int("buyer"), len(values))
	t, err := market.Truth(values, widget.MaxPrice, widget.PriceStep, eps, b-1)
	if err != nil {
		return nil, err
	}
	k := reportIndex(v.Float("report"), len(t.Reports))
	gain := t.Utilities[k] - t.TruthfulUtility
	change := "no change"
	if gain > 1e-12 {
		change = "a gain of " + fmtSig(gain, 3)
	} else if gain < -1e-12 {
		change = "a loss of " + fmtSig(-gain, 3)
	}
	flat := func(y float64) []float64 {
		ys := make([]float64, len(t.Reports))
		for i := range ys {
			ys[i] = y
		}
		return ys
	}
	best := 0
	for best < len(t.Reports)-1 && t.Reports[best] != t.BestReport {
		best++
	}
	_, top := rangeOf(t.Utilities, []float64{t.TruthfulUtility + t.TightBound})
	f := &Figure{
		Name: "utility",
		Title: fmt.Sprintf("Buyer %d (value %s): exact expected utility for every report\nε = %s; %s; B = max utility = %s",
			b, usd(t.Value), Num(eps), buyersText(values), usd(t.MaxUtility)),
		XLabel: "Report x ($)",
		YLabel: "Expected utility ($)",
		XMin:   0, XMax: widget.MaxPrice,
		YMin: 0, YMax: 1.15 * top,
		Series: []Series{
			{Name: "Expected utility when reporting x", Kind: Line, Colour: 0, X: t.Reports, Y: t.Utilities},
			{Name: fmt.Sprintf("Telling the truth: %s", fmtSig(t.TruthfulUtility, 4)), Kind: Line, Colour: 3, Dashed: true, X: t.Reports, Y: flat(t.TruthfulUtility)},
			{Name: fmt.Sprintf("Truth + privacy cap min((e^ε − 1)·E[u], B·tanh(ε/2)) = %s; slides' εB = %s", fmtSig(t.TightBound, 3), fmtSig(t.SlidesBound, 3)), Kind: Line, Colour: 2, Dashed: true,
				X: t.Reports, Y: flat(t.TruthfulUtility + t.TightBound)},
			{Name: fmt.Sprintf("Best lie %s: gain %s", usd(t.BestReport), fmtSig(t.MaxGain, 3)), Kind: Points, Colour: 7, X: []float64{t.Reports[best]}, Y: []float64{t.Utilities[best]}},
			{Name: fmt.Sprintf("Report shown %s: %s (%s)", usd(t.Reports[k]), fmtSig(t.Utilities[k], 4), change), Kind: Rule, Colour: 7, X: []float64{t.Reports[k]}},
		},
	}
	if f.YMax <= 0 { // a buyer who can never gain: utility 0 everywhere
		f.YMax = 1
	}
	return []*Figure{f}, nil
}

// billboardPrices draws the billboard algorithm on the 300-buyer tea
// market: round t posts prices pⱼᵗ = min(1, max(0, η·(Ĉⱼ(t−1) − (t−1)·sⱼ)))
// from the private running demand count Ĉ, so prices rise on over-demanded
// goods. The figure is the widget's chart, each good's price over rounds
// 1 … T and the final prices at T + 1, with the round shown ruled; past the
// last round the title gives the allocation's welfare against the optimum
// and the ε spent, as the widget's readout does.
func billboardPrices(v Values) ([]*Figure, error) {
	eps, T, s, seed := v.Float("eps"), v.Int("rounds"), v.Int("supply"), v.Seed("seed")
	run, goods, err := market.Billboard([]int{s, s, s}, T, eps, v.Str("counter"), seed)
	if err != nil {
		return nil, err
	}
	t := min(v.Int("t"), T+1)
	x := make([]float64, T+1)
	for i := range x {
		x[i] = float64(i + 1)
	}
	title := fmt.Sprintf("Billboard prices: the posted price of each good in each round\n%d buyers; ε = %s, T = %d, %d copies of each good, %s counter, seed %d",
		run.Buyers, Num(eps), T, s, run.Counter, seed)
	shown := fmt.Sprintf("Round %d of %d", t, T)
	if t > T {
		opt := "the best is not known"
		if run.OptimalKnown && run.OptimalWelfare > 0 {
			opt = fmt.Sprintf("%.0f%% of the best %s", 100*run.FeasibleWelfare/run.OptimalWelfare, fmtSig(run.OptimalWelfare, 4))
		}
		title += fmt.Sprintf("\nWelfare %s = %s after turning away excess (not private); jointly private allocation %s, over the supply; ε spent %s",
			fmtSig(run.FeasibleWelfare, 4), opt, fmtSig(run.Welfare, 4), fmtSig(run.EpsilonSpent, 4))
		n := len(run.Ledger)
		shown = fmt.Sprintf("Final prices (after round %d); ε spent in %d release%s of %s", T, n, pluralS(n), fmtSig(run.EpsilonSpent/float64(n), 4))
	}
	f := &Figure{
		Name:   "prices",
		Title:  title,
		XLabel: "Round",
		YLabel: "Price (value units, values in [0, 1])",
		// From 0, so that the axis ticks fall on round numbers, and a little
		// past T + 1, so that the final prices' rule stands clear of the edge.
		XMin: 0, XMax: 1.02 * float64(T+1),
		YMin: 0,
	}
	// The page's line colours for its first three series.
	colours := []int{0, 3, 2}
	top := 0.0
	for j, g := range goods {
		y := make([]float64, T+1)
		for i := range y {
			y[i] = run.Prices[i][j]
			top = math.Max(top, y[i])
		}
		f.Series = append(f.Series, Series{Name: g, Kind: Line, Colour: colours[j%len(colours)], Dashed: j > 0, X: x, Y: y})
	}
	f.YMax = 1.1 * top
	if f.YMax <= 0 {
		f.YMax = 1
	}
	f.Series = append(f.Series, Series{Name: shown, Kind: Rule, Colour: 7, X: []float64{float64(t)}})
	return []*Figure{f}, nil
}
