package figures

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	synthapp "github.com/dpplay/dpplay/app/synth"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/synth"
)

// synthPageRun drives a SmallDB run as web/widgets/smalldb.js does: start with
// a time prediction, one step to the data, then the page's 8192-candidate
// chunks in 40 ms slices until the target stage.
func synthPageRun(t *testing.T, k int, kind string, m int, eps float64, seed uint64, target synth.Stage) (synthapp.Plan, synthapp.View, *synthapp.Runs, int) {
	t.Helper()
	rs := synthapp.NewRuns()
	h, plan, err := rs.Start(synthapp.Spec{K: k, Kind: kind, Size: m, Epsilon: eps, Seed: seed, Probe: 1024})
	if err != nil || h == 0 {
		t.Fatalf("start k=%d %s m=%d: handle %d, %v", k, kind, m, h, err)
	}
	v, err := rs.Advance(h, 0, 1, 1)
	for err == nil && v.Stage < int(target) {
		v, err = rs.Advance(h, int(target), 8192, 40)
	}
	if err != nil {
		t.Fatal(err)
	}
	return plan, v, rs, h
}

// smallDBCase is a SmallDB instance as the page sets it: k attributes of
// the medical table, the query family kind, m rows and ε.
type smallDBCase struct {
	k    int
	kind string
	m    int
	eps  float64
}

func (c smallDBCase) String() string { return fmt.Sprintf("k%d/%s/m%d/ε%v", c.k, c.kind, c.m, c.eps) }

func smallDBHash(k int, kind string, m int, eps float64, seed uint64, stage string) string {
	return fmt.Sprintf("k=%d&q=%s&m=%d&eps=%v&seed=%d&stage=%s", k, kind, m, eps, seed, stage)
}

// The levels figure is the bridge's exact distribution: its CDF is the
// bridge's level probabilities cumulated (from 0 at x = 0 to 1 at the end of
// the axis), the bars are those probabilities summed per band of the page's
// binning, the random candidate's curve is the cumulated level counts over
// C(|X|+m−1, m), and the rules are the bridge's expected max-error and 95%
// quantile; the drawn candidate's rule appears from the draw stage on.
func TestSmallDBLevelsFigureIsTheExactDistribution(t *testing.T) {
	for _, tc := range []struct {
		smallDBCase
		stage string
	}{
		{smallDBCase{3, "marginals:1", 4, 0.5}, "levels"},
		{smallDBCase{3, "halfspaces", 3, 10}, "compare"},
		{smallDBCase{4, "marginals:2", 3, 0.1}, "draw"},
		{smallDBCase{4, "marginals:2", 6, 1}, "data"}, // the default state
	} {
		name := tc.String()
		f := one(t, "smalldb", smallDBHash(tc.k, tc.kind, tc.m, tc.eps, 2, tc.stage), "levels")
		_, v, _, _ := synthPageRun(t, tc.k, tc.kind, tc.m, tc.eps, 2, synth.StageDraw)
		cdf, share, bars := series(t, f, Steps, 0), series(t, f, Steps, 1), series(t, f, Bars, 0)
		nl := len(v.LevelProbs)
		if len(cdf.X) != nl+2 || cdf.X[0] != 0 || cdf.Y[0] != 0 || cdf.X[nl+1] != f.XMax || cdf.Y[nl+1] != cdf.Y[nl] {
			t.Fatalf("%s: CDF has %d points (%d levels), ends (%v, %v) and (%v, %v), axis to %v", name, len(cdf.X), nl, cdf.X[0], cdf.Y[0], cdf.X[len(cdf.X)-1], cdf.Y[len(cdf.Y)-1], f.XMax)
		}
		p, c, total := 0.0, 0.0, 0.0
		for _, n := range v.LevelCounts {
			total += n
		}
		for i := range v.LevelProbs {
			p += v.LevelProbs[i]
			c += v.LevelCounts[i]
			if cdf.X[i+1] != v.LevelErrors[i] || cdf.Y[i+1] != p || share.X[i+1] != v.LevelErrors[i] || share.Y[i+1] != c/total {
				t.Fatalf("%s: level %d: CDF (%v, %v), share %v; bridge error %v, cumulated P %v, share %v", name, i, cdf.X[i+1], cdf.Y[i+1], share.Y[i+1], v.LevelErrors[i], p, c/total)
			}
		}
		if math.Abs(cdf.Y[nl]-1) > 1e-12 || share.Y[nl] != 1 || total != float64(v.Candidates) {
			t.Errorf("%s: CDF ends at %v, share at %v; %v of %d candidates", name, cdf.Y[nl], share.Y[nl], total, v.Candidates)
		}
		// The bars, recomputed: each band [a, a+w) holds the levels in it,
		// the last band also those past its end.
		w := bars.X[1] - bars.X[0]
		sum := 0.0
		for b, x := range bars.X {
			lo, hi := x-w/2, x+w/2
			want := 0.0
			for i, e := range v.LevelErrors {
				if e >= lo-1e-9 && (e < hi-1e-9 || b == len(bars.X)-1) {
					want += v.LevelProbs[i]
				}
			}
			if math.Abs(bars.Y[b]-want) > 1e-12 {
				t.Errorf("%s: band [%v, %v): %v, levels in it sum to %v", name, lo, hi, bars.Y[b], want)
			}
			sum += bars.Y[b]
		}
		if n := len(bars.X); math.Abs(sum-1) > 1e-12 || n < 10 || n > 31 || f.XMax < v.LevelErrors[nl-1] || f.XMax-w > v.LevelErrors[nl-1]+1e-9 {
			t.Errorf("%s: %d bands of %v sum to %v; axis to %v, last level %v", name, n, w, sum, f.XMax, v.LevelErrors[nl-1])
		}
		if e, q := series(t, f, Rule, 0), series(t, f, Rule, 1); e.X[0] != v.Expected || q.X[0] != v.Quantile {
			t.Errorf("%s: rules at %v and %v, bridge expected %v, quantile %v", name, e.X[0], q.X[0], v.Expected, v.Quantile)
		}
		rules := 0
		for _, s := range f.Series {
			if s.Kind == Rule {
				rules++
			}
		}
		drawn := tc.stage == "draw" || tc.stage == "compare"
		if want := map[bool]int{false: 2, true: 3}[drawn]; rules != want {
			t.Errorf("%s at stage %s: %d rules, want %d", name, tc.stage, rules, want)
		} else if drawn && series(t, f, Rule, 2).X[0] != v.MaxError {
			t.Errorf("%s: drawn rule at %v, the page drew %v", name, series(t, f, Rule, 2).X[0], v.MaxError)
		}
	}
}

// synthMultisets lists every multiset of m points of {0, …, size−1} as
// non-decreasing sequences, by plain recursion.
func synthMultisets(size, m int) [][]int {
	if m == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, rest := range synthMultisets(size, m-1) {
		from := 0
		if len(rest) > 0 {
			from = rest[len(rest)-1]
		}
		for p := from; p < size; p++ {
			out = append(out, append(append([]int(nil), rest...), p))
		}
	}
	return out
}

// synthBruteLevels is SmallDB's level distribution the slow way, sharing no code
// with the enumerator: every multiset y of m rows, its max-error over the
// queries from the raw rows in floating point, weights exp(−ε·n·err/2)
// (exp(ε·u/(2Δu)) with u = −err and Δu = 1/n), grouped by error.
func synthBruteLevels(t *testing.T, k int, kind string, m int, eps float64) (errs, probs []float64, candidates int) {
	t.Helper()
	s, err := synthapp.NewSetup(k, kind)
	if err != nil {
		t.Fatal(err)
	}
	rows := s.Data.Rows()
	n, size := len(rows), s.Data.UniverseSize()
	var qs []synth.Query
	for i := 0; i < s.Queries.Len(); i++ {
		q, _ := s.Queries.Query(i)
		qs = append(qs, q)
	}
	truth := make([]float64, len(qs))
	for i, q := range qs {
		for _, row := range rows {
			x := 0
			for _, b := range row {
				x = 2*x + b
			}
			if q.Member[x] {
				truth[i]++
			}
		}
		truth[i] /= float64(n)
	}
	weight, exact := map[float64]float64{}, map[float64]float64{}
	all := synthMultisets(size, m)
	for _, y := range all {
		worst := 0.0
		for i, q := range qs {
			hits := 0
			for _, p := range y {
				if q.Member[p] {
					hits++
				}
			}
			worst = math.Max(worst, math.Abs(float64(hits)/float64(m)-truth[i]))
		}
		// Errors equal up to rounding are one level.
		key := math.Round(worst*1e9) / 1e9
		weight[key] += math.Exp(-eps * float64(n) * worst / 2)
		exact[key] = worst
	}
	z := 0.0
	for e := range weight {
		errs = append(errs, e)
		z += weight[e]
	}
	sort.Float64s(errs)
	for i, e := range errs {
		probs = append(probs, weight[e]/z)
		errs[i] = exact[e]
	}
	return errs, probs, len(all)
}

// On tiny instances the figure's CDF, expected error and 95% quantile agree
// with a brute-force enumeration of every candidate.
func TestSmallDBLevelsAgreeWithBruteForce(t *testing.T) {
	for _, tc := range []smallDBCase{
		{3, "marginals:1", 3, 1},
		{3, "marginals:1", 5, 0.1},
		{3, "marginals:2", 4, 10},
		{3, "halfspaces", 3, 2},
	} {
		name := tc.String()
		errs, probs, count := synthBruteLevels(t, tc.k, tc.kind, tc.m, tc.eps)
		f := one(t, "smalldb", smallDBHash(tc.k, tc.kind, tc.m, tc.eps, 1, "levels"), "levels")
		cdf := series(t, f, Steps, 0)
		if len(cdf.X) != len(errs)+2 || !strings.Contains(series(t, f, Steps, 0).Name, Thousands(count)+" candidates") {
			t.Fatalf("%s: %d levels (%q), brute force %d levels of %d candidates", name, len(cdf.X)-2, cdf.Name, len(errs), count)
		}
		p, exp, q := 0.0, 0.0, math.NaN()
		for i, e := range errs {
			p += probs[i]
			exp += probs[i] * e
			if math.IsNaN(q) && 1-p <= synthapp.Beta+1e-12 {
				q = e
			}
			if math.Abs(cdf.X[i+1]-e) > 1e-9 || math.Abs(cdf.Y[i+1]-p) > 1e-12 {
				t.Errorf("%s: level %d: figure (%v, %v), brute force (%v, %v)", name, i, cdf.X[i+1], cdf.Y[i+1], e, p)
			}
		}
		if e, qr := series(t, f, Rule, 0).X[0], series(t, f, Rule, 1).X[0]; math.Abs(e-exp) > 1e-12 || math.Abs(qr-q) > 1e-9 {
			t.Errorf("%s: expected %v and quantile %v, brute force %v and %v", name, e, qr, exp, q)
		}
		// The check has teeth: the mechanism at 2ε (weights exp(−ε·n·err),
		// of a wrong sensitivity) is far from the figure.
		_, wrong, _ := synthBruteLevels(t, tc.k, tc.kind, tc.m, 2*tc.eps)
		worst, pw := 0.0, 0.0
		for i := range wrong {
			pw += wrong[i]
			worst = math.Max(worst, math.Abs(cdf.Y[i+1]-pw))
		}
		if tc.eps <= 2 && worst < 1e-3 { // at ε = 10 both put almost all mass on the best level
			t.Errorf("%s: the CDF at 2ε is within %v of the figure's", name, worst)
		}
	}
}

// The draw figure is the page's draw: the same seed gives the synthetic
// answers of a direct synth.SmallDB run from rng.Seeded(seed), of the page's
// chunked run, and of the page's run started at another ε and moved to this
// one with the slider (Reweight); its worst-query rule sits on the query
// with the largest difference, which is the drawn max-error.
func TestSmallDBDrawIsThePagesDraw(t *testing.T) {
	for _, tc := range []struct {
		smallDBCase
		moved float64 // the ε the page's run starts at before the slider moves it
		seed  uint64
	}{
		{smallDBCase{3, "marginals:2", 4, 1}, 5, 7},
		{smallDBCase{4, "halfspaces", 3, 0.3}, 2, 8},
		{smallDBCase{3, "marginals:1", 6, 4}, 0.1, 9},
	} {
		name := fmt.Sprintf("%v/seed%d", tc.smallDBCase, tc.seed)
		hash := smallDBHash(tc.k, tc.kind, tc.m, tc.eps, tc.seed, "compare")
		f := one(t, "smalldb", hash, "draw")
		tr, syn := series(t, f, Bars, 0), series(t, f, Bars, 1)

		s, _ := synthapp.NewSetup(tc.k, tc.kind)
		direct, err := synth.SmallDB(context.Background(), synth.SmallDBConfig{Data: s.Data, Queries: s.Queries, Size: tc.m, Epsilon: tc.eps}, rng.Seeded(tc.seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		plan, page, _, _ := synthPageRun(t, tc.k, tc.kind, tc.m, tc.eps, tc.seed, synth.StageCompare)
		_, _, rs, h := synthPageRun(t, tc.k, tc.kind, tc.m, tc.moved, tc.seed, synth.StageCompare)
		slid, err := rs.Reweight(h, tc.eps, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range [][]float64{direct.SyntheticAnswers, page.SyntheticAnswers, slid.SyntheticAnswers} {
			if !reflect.DeepEqual(syn.Y, want) {
				t.Fatalf("%s: synthetic answers %v, want %v", name, syn.Y, want)
			}
		}
		if !reflect.DeepEqual(tr.Y, plan.TrueAnswers) || len(f.Categories) != len(plan.Queries) {
			t.Errorf("%s: true answers %v, bridge %v; %d categories", name, tr.Y, plan.TrueAnswers, len(f.Categories))
		}
		worst, gap := 0, 0.0
		for i := range tr.Y {
			if d := math.Abs(syn.Y[i] - tr.Y[i]); d > gap {
				worst, gap = i, d
			}
		}
		if r := series(t, f, Rule, 0); math.Abs(r.X[0]-float64(worst)) > 1e-12 || math.Abs(gap-direct.MaxError) > 1e-12 {
			t.Errorf("%s: worst-query rule at %v, largest difference %v at query %d; drawn max-error %v", name, r.X[0], gap, worst, direct.MaxError)
		}
		if again := one(t, "smalldb", hash, "draw"); !reflect.DeepEqual(f.Series, again.Series) {
			t.Errorf("%s: the same state gave two different figures", name)
		}
	}
	// Another seed draws another database (for one of a few seeds at small ε).
	base := series(t, one(t, "smalldb", smallDBHash(3, "marginals:2", 4, 0.1, 1, "compare"), "draw"), Bars, 1)
	differ := false
	for seed := uint64(2); seed < 6 && !differ; seed++ {
		differ = !reflect.DeepEqual(base.Y, series(t, one(t, "smalldb", smallDBHash(3, "marginals:2", 4, 0.1, seed, "compare"), "draw"), Bars, 1).Y)
	}
	if !differ {
		t.Error("seeds 1 to 5 all drew the same synthetic database")
	}
}

// An instance the page refuses to score has no figure, and says why.
func TestSmallDBRefusedInstanceHasNoFigure(t *testing.T) {
	req, _, _, _ := ParseRequest("#widget=smalldb&k=5&m=12")
	if _, err := Build(req); err == nil || !strings.Contains(err.Error(), "candidates") {
		t.Errorf("k = 5, m = 12: %v", err)
	}
}

// The rounds figure is the bridge's MWEM run (the max-error of A_0, then of
// the running average after each round run) beside synthapp.Reference's
// SmallDB expected error and quantile, left out when the reference refuses
// the instance; the same seed gives the same figure.
func TestMWEMRoundsEqualTheRun(t *testing.T) {
	for _, tc := range []struct {
		k                    int
		kind                 string
		eps                  float64
		rounds, replays, upT int
		m                    int
		seed                 uint64
	}{
		{3, "marginals:2", 0.5, 6, 0, 3, 3, 4},
		{4, "halfspaces", 5, 8, 10, 40, 2, 9}, // t beyond T runs all T rounds, as the page's min(t, T)
		{3, "marginals:1", 1, 5, 10, 0, 4, 1},
		{5, "marginals:2", 1, 4, 0, 4, 8, 2}, // SmallDB at m = 8: 61.5 million candidates, no reference
	} {
		hash := fmt.Sprintf("k=%d&q=%s&eps=%v&rounds=%d&replays=%d&t=%d&m=%d&seed=%d", tc.k, tc.kind, tc.eps, tc.rounds, tc.replays, tc.upT, tc.m, tc.seed)
		f := one(t, "mwem", hash)
		upto := min(tc.upT, tc.rounds)
		r, err := synthapp.MWEM(synthapp.MWEMSpec{K: tc.k, Kind: tc.kind, Rounds: tc.rounds, Upto: upto, Replays: tc.replays, Epsilon: tc.eps, Seed: tc.seed})
		if err != nil {
			t.Fatal(err)
		}
		mw := series(t, f, Line, 0)
		want := append([]float64{r.InitialError}, r.RoundError...)
		if !reflect.DeepEqual(mw.Y, want) || !reflect.DeepEqual(mw.X, Indices(upto+1)) || f.XMax != float64(tc.rounds) {
			t.Errorf("%s: MWEM (%v, %v) to %v, bridge %v", hash, mw.X, mw.Y, f.XMax, want)
		}
		if upto == tc.rounds && mw.Y[upto] != r.MaxError {
			t.Errorf("%s: last round %v, output's max-error %v", hash, mw.Y[upto], r.MaxError)
		}
		var ref synthapp.Reference
		e, q, _, err := ref.Expected(tc.k, tc.kind, tc.m, tc.eps)
		lines := 0
		for _, s := range f.Series {
			if s.Kind == Line {
				lines++
			}
		}
		if err != nil {
			if lines != 1 || !strings.Contains(f.Title, "too large") {
				t.Errorf("%s: the reference refused (%v) but the figure has %d lines", hash, err, lines)
			}
		} else if ex, qu := series(t, f, Line, 1), series(t, f, Line, 2); lines != 3 || ex.Y[0] != e || ex.Y[1] != e || qu.Y[0] != q || qu.Y[1] != q {
			t.Errorf("%s: SmallDB lines %v and %v, reference %v and %v", hash, ex.Y, qu.Y, e, q)
		}
		if top := math.Max(q, synthMax(want)); f.YMax < top || f.YMax > 1 {
			t.Errorf("%s: y axis to %v, data to %v", hash, f.YMax, top)
		}
		if again := one(t, "mwem", hash); !reflect.DeepEqual(f.Series, again.Series) {
			t.Errorf("%s: the same state gave two different figures", hash)
		}
	}
	a := series(t, one(t, "mwem", "k=3&t=5&rounds=5&seed=1"), Line, 0)
	b := series(t, one(t, "mwem", "k=3&t=5&rounds=5&seed=2"), Line, 0)
	if reflect.DeepEqual(a.Y, b.Y) {
		t.Error("seeds 1 and 2 gave the same MWEM run")
	}
}

func synthMax(xs []float64) float64 {
	_, hi := rangeOf(xs)
	return hi
}

// Query names read as on the page, with "and" for ∧.
func TestSynthQueryNamesReadAsOnThePage(t *testing.T) {
	for in, want := range map[string]string{
		"sex=0 ∧ over_50=1":                    "female and over 50=1",
		"sex=1 ∧ lung_cancer=0 ∧ over_150lb=1": "male and lung cancer=0 and over 150 lb=1",
		"−sex − smoker ≥ over_50":              "−sex − smoker ≥ over 50",
		"smoker=1":                             "smoker=1",
	} {
		if got := synthQuery(in); got != want {
			t.Errorf("%q reads %q, want %q", in, got, want)
		}
	}
}
