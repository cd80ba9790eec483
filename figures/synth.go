package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/number"
	synthapp "github.com/dpplay/dpplay/app/synth"
	"github.com/dpplay/dpplay/core/synth"
	"github.com/dpplay/dpplay/core/validate"
)

// Figures of the synthetic-data widgets: smalldb (SmallDB stage by
// stage, web/widgets/smalldb.js) and mwem (MWEM round by round beside
// SmallDB's exact error, web/widgets/mwem.js). Both compute through
// app/synth, the application layer of the synth module the page loads, so
// a figure shows the page's numbers and the page's seeded draw.

// synthQuerySets are the widgets' query classes (QUERY_SETS in smalldb.js)
// with a short label for titles.
var synthQuerySets = [][2]string{
	{"marginals:1", "1-way marginals"},
	{"marginals:2", "2-way marginals"},
	{"marginals:3", "3-way marginals"},
	{"halfspaces", "halfspaces"},
}

func synthLabel(pairs [][2]string, key string) string {
	for _, p := range pairs {
		if p[0] == key {
			return p[1]
		}
	}
	return key
}

// smallDBStages maps the stages a SmallDB run can stop at (the smalldb
// widget's stage values) to the stepper's stages.
var smallDBStages = map[string]synth.Stage{
	"data": synth.StageData, "queries": synth.StageQueries, "count": synth.StageCount,
	"levels": synth.StageLevels, "draw": synth.StageDraw, "compare": synth.StageCompare,
}

func init() {
	Register("smalldb", smallDB)
	Register("mwem", mwemRounds)
}

// synthNum formats x as the page's fmt does: three significant digits,
// String(+x.toPrecision(3)).
func synthNum(x float64) string { return strconv.FormatFloat(number.RoundSig(x, 3), 'g', -1, 64) }

// synthNiceQuery spells a query's name as the page does (niceQuery in
// smalldb.js).
func synthNiceQuery(s string) string {
	s = strings.NewReplacer("lung_cancer", "lung cancer", "over_150lb", "over 150 lb", "over_50", "over 50").Replace(s)
	for _, r := range [][2]string{{"sex=1", "male"}, {"sex=0", "female"}} {
		// \bsex=…: only where "sex" starts a word.
		var b strings.Builder
		for {
			i := strings.Index(s, r[0])
			if i < 0 {
				b.WriteString(s)
				break
			}
			if i > 0 && synthWordByte(s[i-1]) {
				b.WriteString(s[:i+len(r[0])])
			} else {
				b.WriteString(s[:i] + r[1])
			}
			s = s[i+len(r[0]):]
		}
		s = b.String()
	}
	return s
}

// synthQuery is synthNiceQuery with "and" for ∧, which the figures' font lacks.
func synthQuery(s string) string { return strings.ReplaceAll(synthNiceQuery(s), "∧", "and") }

func synthWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// smallDBRun runs SmallDB through the page's bridge (synthapp.Runs) to
// stage target and returns the plan and the view there. The seeded source
// is consumed only by the scoring pass's reservoirs and by the draw, and the
// bridge's tests show that neither the chunking of the scoring nor a later
// change of ε alters it, so this is the page's draw for the same seed. The
// time prediction's throwaway run (Spec.Probe) has its own source and is
// skipped. An instance the page refuses to score (more than
// synthapp.MaxCandidates candidates) is an error: the widget stops at
// the count and draws no chart.
func smallDBRun(k int, kind string, m int, eps float64, seed uint64, target synth.Stage) (synthapp.Plan, synthapp.View, error) {
	rs := synthapp.NewRuns()
	h, plan, err := rs.Start(synthapp.Spec{K: k, Kind: kind, Size: m, Epsilon: eps, Seed: seed})
	if err != nil {
		return plan, synthapp.View{}, err
	}
	if h == 0 {
		return plan, synthapp.View{}, validate.Errorf("m", "SmallDB with %d attributes and m = %d has %.3g candidates, more than the page scores (%s): the widget stops at the count, so there is no figure; lower m or use fewer attributes",
			k, m, plan.Candidates, Thousands(synthapp.MaxCandidates))
	}
	defer rs.Close(h)
	var v synthapp.View
	for v.Stage < int(target) {
		// The page scores in slices of 40 ms; here one call may take as
		// long as it needs (1e9 ms), with the page's chunk of 8192.
		if v, err = rs.Advance(h, int(target), 8192, 1e9); err != nil {
			return plan, v, err
		}
	}
	return plan, v, nil
}

// smallDB draws the SmallDB widget's charts. "levels" is stage 5's chart: the
// exact distribution of the max-error max_q |f_q(x) − f_q(y)| of SmallDB's
// output y, P(level) = count·exp(−ε·n·err/2) / Z over the error levels of
// all C(|X|+m−1, m) candidates, drawn as its CDF with the page's binned
// probabilities behind it, the CDF of a uniformly random candidate (ε → 0),
// and rules at the expected max-error Σ P·err and the 95% quantile; from
// the draw stage on, also the drawn candidate's error, as on the page.
// Theorem 4.5's curve is left out. "draw" is stage 7: the seeded draw's
// answers f(y) beside the true answers f(x), query by query.
func smallDB(v Values) ([]*Figure, error) {
	k, kind, m, eps, seed := v.Int("k"), v.Str("q"), v.Int("m"), v.Float("eps"), v.Seed("seed")
	plan, view, err := smallDBRun(k, kind, m, eps, seed, synth.StageCompare)
	if err != nil {
		return nil, err
	}
	setting := fmt.Sprintf("%d attributes, %s (%d queries), m = %d, ε = %s", k, synthLabel(synthQuerySets, kind), len(plan.Queries), m, Num(eps))
	return []*Figure{smallDBLevels(plan, view, setting, seed, smallDBStages[v.Str("stage")]), smallDBDraw(plan, view, setting, seed)}, nil
}

func smallDBLevels(plan synthapp.Plan, view synthapp.View, setting string, seed uint64, stage synth.Stage) *Figure {
	errs, cdf, share := view.LevelErrors, view.LevelCDF, view.LevelShare
	edges, heights, w := view.BandEdges, view.BandHeights, view.BandWidth
	top := edges[len(edges)-1]
	centres := make([]float64, len(heights))
	for i := range centres {
		centres[i] = (edges[i] + edges[i+1]) / 2
	}
	// Each CDF starts at 0 from x = 0 (no candidate has a smaller error)
	// and, as on the page, runs on to the end of the axis after its last
	// level: the first and last points are these two ends.
	x := append(append([]float64{0}, errs...), top)
	ends := func(ys []float64) []float64 { return append(append([]float64{0}, ys...), ys[len(ys)-1]) }
	eps := strconv.FormatFloat(view.Epsilon, 'g', -1, 64)
	f := &Figure{
		Name:   "levels",
		Title:  fmt.Sprintf("SmallDB: the exact distribution of the max-error over its %d levels\n%s", len(errs), setting),
		XLabel: fmt.Sprintf("max-error x over the queries (fraction of the %d patients)", plan.N),
		YLabel: "probability",
		XMin:   0, XMax: top,
		YMin: 0, YMax: 1,
		Series: []Series{
			{Name: fmt.Sprintf("SmallDB: probability per band of %s", synthNum(w)), Kind: Bars, Colour: HistColour, Width: 0.9 * w, X: centres, Y: heights},
			{Name: fmt.Sprintf("SmallDB, ε = %s: P(max-error ≤ x), exact over %s candidates", eps, Thousands(int(view.Candidates))), Kind: Steps, Colour: 0,
				X: x, Y: ends(cdf)},
			{Name: "A uniformly random candidate (ε → 0): share with max-error ≤ x", Kind: Steps, Colour: 3, Dashed: true,
				X: x, Y: ends(share)},
			{Name: fmt.Sprintf("Expected max-error %s", synthNum(view.Expected)), Kind: Rule, Colour: 2, X: []float64{view.Expected}},
			{Name: fmt.Sprintf("With probability %s at most %s", Num(1-synthapp.Beta), synthNum(view.Quantile)), Kind: Rule, Colour: 4, X: []float64{view.Quantile}},
		},
	}
	if stage >= synth.StageDraw {
		f.Series = append(f.Series, Series{Name: fmt.Sprintf("Drawn (seed %d): %s", seed, synthNum(view.MaxError)), Kind: Rule, Colour: 7, X: []float64{view.MaxError}})
	}
	return f
}

// synthMaxCategories is the most queries the draw figure names on its x axis;
// beyond it the queries are numbered in the page's table order.
const synthMaxCategories = 12

func smallDBDraw(plan synthapp.Plan, view synthapp.View, setting string, seed uint64) *Figure {
	nq := len(plan.Queries)
	worst := 0
	for i, a := range view.SyntheticAnswers {
		if math.Abs(a-plan.TrueAnswers[i]) > math.Abs(view.SyntheticAnswers[worst]-plan.TrueAnswers[worst]) {
			worst = i
		}
	}
	f := &Figure{
		Name: "draw",
		Title: fmt.Sprintf("SmallDB's synthetic database against the data, query by query\n%s, seed %d: max-error %s",
			setting, seed, synthNum(view.MaxError)),
		YLabel: "answer (fraction of rows)",
		YMin:   0,
	}
	// Always nominal, so the ticks sit on the queries: by name when they
	// fit, else by number in the page's table order, every fifth labelled.
	x := Indices(nq)
	named := nq <= synthMaxCategories
	f.XLabel = "query"
	if !named {
		f.XLabel = "query (numbered as in the page's table)"
	}
	for i, q := range plan.Queries {
		switch {
		case named:
			f.Categories = append(f.Categories, synthQuery(q))
		case i == 0 || (i+1)%5 == 0 || nq <= 30:
			f.Categories = append(f.Categories, strconv.Itoa(i+1))
		default:
			f.Categories = append(f.Categories, "")
		}
	}
	const w = 0.4
	xt, xs := make([]float64, nq), make([]float64, nq)
	for i := range x {
		xt[i], xs[i] = x[i]-w/2, x[i]+w/2
	}
	_, hi := rangeOf(plan.TrueAnswers, view.SyntheticAnswers)
	f.YMax = math.Min(1, math.Ceil(hi*10+0.5)/10)
	f.Series = []Series{
		{Name: fmt.Sprintf("True answer f(x) on the %d patients", plan.N), Kind: Bars, Colour: 0, Width: 0.95 * w, X: xt, Y: plan.TrueAnswers},
		{Name: fmt.Sprintf("Synthetic answer f(y) on the %d drawn rows", len(view.Synthetic)), Kind: Bars, Colour: 1, Width: 0.95 * w, X: xs, Y: view.SyntheticAnswers},
		{Name: fmt.Sprintf("Worst query: %s, true %.3f, synthetic %.3f", synthQuery(plan.Queries[worst]), plan.TrueAnswers[worst], view.SyntheticAnswers[worst]),
			Kind: Rule, Colour: 7, X: []float64{x[worst]}},
	}
	return f
}

// mwemRounds draws the MWEM widget's chart: after each of the first t of T
// rounds (each spends ε/(2T) choosing the worst-answered query with the
// exponential mechanism and ε/(2T) measuring it with Laplace noise of scale
// 2T/(εn)), the max-error of the running average Ā_t = (A_1 + … + A_t)/t,
// which is MWEM's output; round 0 is the uniform A_0. Flat lines give
// SmallDB's exact expected max-error and 95% quantile at the same ε and the
// widget's m, from synthapp.Reference, left out, as on the page, when
// that instance is too large to score in one call.
func mwemRounds(v Values) ([]*Figure, error) {
	k, kind, eps, rounds, m := v.Int("k"), v.Str("q"), v.Float("eps"), v.Int("rounds"), v.Int("m")
	upto := min(v.Int("t"), rounds)
	r, err := synthapp.MWEM(synthapp.MWEMSpec{K: k, Kind: kind, Rounds: rounds, Upto: upto,
		Replays: v.Int("replays"), Epsilon: eps, Seed: v.Seed("seed")})
	if err != nil {
		return nil, err
	}
	xs := Indices(upto + 1)
	mw := append([]float64{r.InitialError}, r.RoundError...)
	replays := "no replays"
	if v.Int("replays") > 0 {
		replays = v.Str("replays") + " replays a round"
	}
	f := &Figure{
		Name: "rounds",
		Title: fmt.Sprintf("MWEM round by round, against SmallDB's exact error at the same ε\n%d attributes, %s, ε = %s, T = %d, %s, seed %d",
			k, synthLabel(synthQuerySets, kind), Num(eps), rounds, replays, v.Seed("seed")),
		XLabel: "round",
		YLabel: "max-error over the queries",
		XMin:   0, XMax: float64(rounds),
		YMin: 0,
		Series: []Series{
			{Name: fmt.Sprintf("MWEM: max-error of the average so far (%s after %d of %d rounds)", synthNum(mw[upto]), upto, rounds), Kind: Line, Colour: 0, X: xs, Y: mw},
			// Dots on every round, so round 0 alone still shows.
			{Kind: Points, Colour: 0, X: xs, Y: mw},
		},
	}
	top := 0.0
	for _, e := range mw {
		top = math.Max(top, e)
	}
	var ref synthapp.Reference
	if e, q, _, err := ref.Expected(k, kind, m, eps); err == nil {
		// Flat across every round, not only those run: they do not depend
		// on the round.
		ends := []float64{0, float64(rounds)}
		f.Series = append(f.Series,
			// Solid under dashed, so both show where they coincide (large ε).
			Series{Name: fmt.Sprintf("SmallDB (m = %d), exact expected max-error %s", m, synthNum(e)), Kind: Line, Colour: 3, X: ends, Y: []float64{e, e}},
			Series{Name: fmt.Sprintf("SmallDB (m = %d), exceeded with probability at most 5%% above %s", m, synthNum(q)), Kind: Line, Colour: 2, Dashed: true, X: ends, Y: []float64{q, q}},
		)
		top = math.Max(top, q)
	} else {
		f.Title = strings.Replace(f.Title, ", against SmallDB's exact error at the same ε",
			fmt.Sprintf(" (SmallDB at m = %d: too large to score here)", m), 1)
	}
	// The page's y range: up to the next tenth above everything, at most 1.
	f.YMax = math.Min(1, math.Ceil(top*10+0.5)/10)
	return []*Figure{f}, nil
}
