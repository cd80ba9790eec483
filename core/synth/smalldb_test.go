package synth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// bruteCandidate is one multiset found by the brute-force enumeration.
type bruteCandidate struct {
	key    string // sorted points, e.g. "0,0,3"
	points []int
	err    float64
}

// bruteForce lists every multiset of size m the slow way: all |X|^m ordered
// tuples, deduplicated by their sorted form, each scored from the raw rows
// with floating-point fractions. It shares no code with the enumerator.
func bruteForce(t *testing.T, d *Data, qs *QuerySet, m int) []bruteCandidate {
	t.Helper()
	rows := d.Rows()
	truth := make([]float64, qs.Len())
	for qi := range truth {
		q, _ := qs.Query(qi)
		hits := 0
		for _, row := range rows {
			x := 0
			for _, b := range row {
				x = 2*x + b
			}
			if q.Member[x] {
				hits++
			}
		}
		truth[qi] = float64(hits) / float64(len(rows))
	}
	size := d.UniverseSize()
	seen := map[string]bool{}
	var out []bruteCandidate
	tuple := make([]int, m)
	total := 1
	for i := 0; i < m; i++ {
		total *= size
	}
	for code := 0; code < total; code++ {
		c := code
		for i := range tuple {
			tuple[i] = c % size
			c /= size
		}
		pts := append([]int(nil), tuple...)
		sort.Ints(pts)
		key := fmt.Sprint(pts)
		if seen[key] {
			continue
		}
		seen[key] = true
		worst := 0.0
		for qi := range truth {
			q, _ := qs.Query(qi)
			hits := 0
			for _, p := range pts {
				if q.Member[p] {
					hits++
				}
			}
			worst = math.Max(worst, math.Abs(float64(hits)/float64(m)-truth[qi]))
		}
		out = append(out, bruteCandidate{key: key, points: pts, err: worst})
	}
	return out
}

// bruteProbabilities returns each candidate's probability under weights
// exp(−λ·ε·n·err), i.e. exp(ε·u/(2Δu)) for λ = 1/2.
func bruteProbabilities(cands []bruteCandidate, n int, eps, lambda float64) []float64 {
	best := math.Inf(1)
	for _, c := range cands {
		best = math.Min(best, c.err)
	}
	p := make([]float64, len(cands))
	sum := 0.0
	for i, c := range cands {
		p[i] = math.Exp(-lambda * eps * float64(n) * (c.err - best))
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

func mustData(t testing.TB, columns []string, counts []int) *Data {
	t.Helper()
	d, err := NewData(columns, counts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type tinyCase struct {
	name    string
	data    *Data
	queries func(cols []string) (*QuerySet, error)
	m       int
	eps     float64
}

func tinyCases(t *testing.T) []tinyCase {
	two := []string{"a", "b"}
	three := []string{"a", "b", "c"}
	return []tinyCase{
		{"k2 1-way m1", mustData(t, two, []int{3, 1, 0, 2}), func(c []string) (*QuerySet, error) { return Marginals(c, 1) }, 1, 1},
		{"k2 2-way m3", mustData(t, two, []int{3, 1, 0, 2}), func(c []string) (*QuerySet, error) { return Marginals(c, 2) }, 3, 2},
		{"k2 2-way m5", mustData(t, two, []int{5, 2, 2, 4}), func(c []string) (*QuerySet, error) { return Marginals(c, 2) }, 5, 0.5},
		{"k3 2-way m3", mustData(t, three, []int{4, 0, 1, 3, 2, 2, 0, 5}), func(c []string) (*QuerySet, error) { return Marginals(c, 2) }, 3, 3},
		{"k3 halfspaces m3", mustData(t, three, []int{4, 0, 1, 3, 2, 2, 0, 5}), Halfspaces, 3, 1},
		{"k3 list m4", mustData(t, three, []int{1, 1, 1, 1, 1, 1, 1, 9}), func(c []string) (*QuerySet, error) {
			return ParseQueries(c, "a=1&b=1; c=0; a=0&b=1&c=1")
		}, 4, 2},
		{"k3 3-way m2", mustData(t, three, []int{7, 0, 0, 0, 0, 0, 0, 1}), func(c []string) (*QuerySet, error) { return Marginals(c, 3) }, 2, 4},
	}
}

func TestSmallDBMatchesBruteForce(t *testing.T) {
	for _, tc := range tinyCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := tc.queries(tc.data.Columns())
			if err != nil {
				t.Fatal(err)
			}
			cands := bruteForce(t, tc.data, qs, tc.m)
			want, err := CandidateCount(tc.data.UniverseSize(), tc.m)
			if err != nil {
				t.Fatal(err)
			}
			if uint64(len(cands)) != want {
				t.Fatalf("brute force found %d multisets, CandidateCount says %d", len(cands), want)
			}
			res, err := SmallDB(context.Background(), SmallDBConfig{Data: tc.data, Queries: qs, Size: tc.m, Epsilon: tc.eps}, rng.Seeded(1), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Candidates != want {
				t.Errorf("candidates = %d, want %d", res.Candidates, want)
			}
			// Group the brute-force candidates by error level.
			probs := bruteProbabilities(cands, tc.data.N(), tc.eps, 0.5)
			type agg struct {
				count int
				prob  float64
			}
			groups := map[int]*agg{}
			for i, c := range cands {
				matched := false
				for li, l := range res.Levels {
					if math.Abs(l.MaxError-c.err) < 1e-12 {
						if groups[li] == nil {
							groups[li] = &agg{}
						}
						groups[li].count++
						groups[li].prob += probs[i]
						matched = true
					}
				}
				if !matched {
					t.Fatalf("candidate %s with error %v is in no level", c.key, c.err)
				}
			}
			sum := 0.0
			for li, l := range res.Levels {
				g := groups[li]
				if g == nil {
					t.Fatalf("level %v has no brute-force candidate", l.MaxError)
				}
				if uint64(g.count) != l.Candidates {
					t.Errorf("level %v: %d candidates, brute force %d", l.MaxError, l.Candidates, g.count)
				}
				if math.Abs(g.prob-l.Probability) > 1e-12 {
					t.Errorf("level %v: probability %v, brute force %v", l.MaxError, l.Probability, g.prob)
				}
				if math.Abs(math.Exp(l.LogProbability)-l.Probability) > 1e-15 {
					t.Errorf("level %v: exp(log P) = %v ≠ P = %v", l.MaxError, math.Exp(l.LogProbability), l.Probability)
				}
				if i := li; i > 0 && res.Levels[i-1].Scaled >= l.Scaled {
					t.Errorf("levels not in increasing order at %d", i)
				}
				sum += l.Probability
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("level probabilities sum to %v", sum)
			}
			// The draw is consistent with itself.
			got, err := qs.MaxError(tc.data, res.SyntheticData)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-res.MaxError) > 1e-12 || res.Levels[res.Level].MaxError != res.MaxError {
				t.Errorf("drawn max error %v, recomputed %v", res.MaxError, got)
			}
			if len(res.Synthetic) != tc.m || !sort.IntsAreSorted(res.Synthetic) {
				t.Errorf("synthetic %v is not %d sorted points", res.Synthetic, tc.m)
			}
		})
	}
}

// drawCounts runs SmallDB draws times from one seed (each draw a full
// enumeration) and counts how often each brute-force candidate came out.
func drawCounts(t *testing.T, d *Data, qs *QuerySet, m int, eps, lambda float64, firstOnly bool, cands []bruteCandidate, draws int, seed uint64) []int {
	t.Helper()
	index := map[string]int{}
	for i, c := range cands {
		index[c.key] = i
	}
	counts := make([]int, len(cands))
	r := rng.Seeded(seed)
	s, err := newSmallDBSampler(SmallDBConfig{Data: d, Queries: qs, Size: m, Epsilon: eps}, lambda)
	if err != nil {
		t.Fatal(err)
	}
	s.s.e.firstOnly = firstOnly
	for i := 0; i < draws; i++ {
		res, err := s.Sample(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		j, ok := index[fmt.Sprint(res.Synthetic)]
		if !ok {
			t.Fatalf("draw %v is not a candidate", res.Synthetic)
		}
		counts[j]++
	}
	return counts
}

// TestSmallDBSamplerChiSquare compares single candidates (not only levels,
// so the uniform choice within a level is tested too) with their exact
// probabilities. A correct sampler fails with probability below 1e-6; a
// variant that uses exp(ε·u/Δu) (the article's scale mistaken for the
// notes') and one whose reservoir is not uniform must both fail.
func TestSmallDBSamplerChiSquare(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  *Data
		width int
		m     int
		eps   float64
		draws int
	}{
		{"k2 m4", mustData(t, []string{"a", "b"}, []int{5, 2, 1, 4}), 2, 4, 0.6, 20000},
		{"k3 m3", mustData(t, []string{"a", "b", "c"}, []int{4, 1, 2, 0, 3, 1, 0, 5}), 2, 3, 1.5, 40000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			draws := tc.draws
			if testing.Short() {
				// A fifth of the draws still gives the broken samplers
				// p below 1e-190; the full run (make test, natively)
				// takes them all.
				draws /= 5
			}
			qs, err := Marginals(tc.data.Columns(), tc.width)
			if err != nil {
				t.Fatal(err)
			}
			cands := bruteForce(t, tc.data, qs, tc.m)
			want := bruteProbabilities(cands, tc.data.N(), tc.eps, 0.5)

			counts := drawCounts(t, tc.data, qs, tc.m, tc.eps, 0.5, false, cands, draws, 42)
			res, err := stats.ChiSquare(counts, want)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("correct sampler: chi-square %.1f on %d df, p = %.3g", res.Statistic, res.DF, res.PValue)
			if res.PValue < 1e-6 {
				t.Errorf("correct sampler: chi-square %v on %d df, p = %v", res.Statistic, res.DF, res.PValue)
			}
			for _, broken := range []struct {
				name      string
				lambda    float64
				firstOnly bool
			}{
				{"exp(ε·u/Δu) instead of exp(ε·u/(2Δu))", 1, false},
				{"first candidate of each level instead of a uniform one", 0.5, true},
			} {
				counts := drawCounts(t, tc.data, qs, tc.m, tc.eps, broken.lambda, broken.firstOnly, cands, draws, 42)
				res, err = stats.ChiSquare(counts, want)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("broken sampler (%s): chi-square %.1f on %d df, p = %.3g", broken.name, res.Statistic, res.DF, res.PValue)
				if res.PValue >= 1e-6 {
					t.Errorf("broken sampler (%s) passed: chi-square %v on %d df, p = %v", broken.name, res.Statistic, res.DF, res.PValue)
				}
			}
		})
	}
}

// TestSmallDBPrivacy checks ε-differential privacy exactly: for data sets
// that differ in one row, every candidate's output probability changes by a
// factor of at most e^ε. The variant with exp(ε·u/Δu) must exceed it.
func TestSmallDBPrivacy(t *testing.T) {
	cols := []string{"a", "b", "c"}
	base := []int{3, 1, 0, 2, 1, 0, 2, 3}
	qs, err := Marginals(cols, 2)
	if err != nil {
		t.Fatal(err)
	}
	const m, eps = 3, 1.0
	worst := func(lambda float64) float64 {
		x := mustData(t, cols, base)
		cands := bruteForce(t, x, qs, m)
		sx, err := newSmallDBStepper(SmallDBConfig{Data: x, Queries: qs, Size: m, Epsilon: eps}, rng.Seeded(1), lambda)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sx.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		most := 0.0
		for _, y := range neighbours(t, x) {
			sy, err := newSmallDBStepper(SmallDBConfig{Data: y, Queries: qs, Size: m, Epsilon: eps}, rng.Seeded(1), lambda)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sy.Run(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			for _, cand := range cands {
				lx, err := sx.CandidateLogProbability(cand.points)
				if err != nil {
					t.Fatal(err)
				}
				ly, err := sy.CandidateLogProbability(cand.points)
				if err != nil {
					t.Fatal(err)
				}
				most = math.Max(most, math.Abs(lx-ly))
			}
		}
		return most
	}
	if got := worst(0.5); got > eps+1e-9 {
		t.Errorf("largest log-ratio over neighbours %v exceeds ε = %v", got, eps)
	}
	if got := worst(1); got <= eps+1e-9 {
		t.Errorf("variant exp(ε·u/Δu) stayed within ε: largest log-ratio %v", got)
	}
}

// TestStepperMatchesRun steps with irregular chunk sizes and checks every
// stage against a direct run with the same seed.
func TestStepperMatchesRun(t *testing.T) {
	d := medical(t, "sex", "smoker", "lung_cancer", "over_50")
	qs, err := Marginals(d.Columns(), 2)
	if err != nil {
		t.Fatal(err)
	}
	cfg := SmallDBConfig{Data: d, Queries: qs, Size: 4, Epsilon: 2}
	direct, err := SmallDB(context.Background(), cfg, rng.Seeded(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSmallDBStepper(cfg, rng.Seeded(7))
	if err != nil {
		t.Fatal(err)
	}
	budgets := []uint64{1, 7, 100, 3, 1000}
	var seenStages []Stage
	var scoredSteps int
	for i := 0; !s.Done(); i++ {
		snap := s.Snapshot()
		if len(seenStages) == 0 || seenStages[len(seenStages)-1] != snap.Stage {
			seenStages = append(seenStages, snap.Stage)
		}
		switch snap.Stage {
		case StageData:
			if snap.N != d.N() || len(snap.Counts) != 16 || snap.Queries != nil {
				t.Errorf("data stage snapshot %+v", snap)
			}
		case StageQueries:
			for q := range snap.TrueAnswers {
				if snap.TrueAnswers[q] != direct.TrueAnswers[q] {
					t.Errorf("true answer %d: %v vs %v", q, snap.TrueAnswers[q], direct.TrueAnswers[q])
				}
			}
		case StageCount:
			if snap.Candidates != direct.Candidates {
				t.Errorf("count stage: %d candidates, direct %d", snap.Candidates, direct.Candidates)
			}
		case StageScoring:
			scoredSteps++
			var sum uint64
			for _, l := range snap.Levels {
				sum += l.Candidates
			}
			if sum != snap.Scored || snap.Scored > snap.Candidates {
				t.Errorf("scoring: levels hold %d candidates, scored %d of %d", sum, snap.Scored, snap.Candidates)
			}
		}
		if err := s.Step(budgets[i%len(budgets)]); err != nil {
			t.Fatal(err)
		}
	}
	if scoredSteps < 3 {
		t.Errorf("scoring took only %d steps; the chunks did not split it", scoredSteps)
	}
	want := []Stage{StageData, StageQueries, StageCount, StageScoring, StageLevels, StageDraw}
	if fmt.Sprint(seenStages) != fmt.Sprint(want) {
		t.Errorf("stages %v, want %v", seenStages, want)
	}
	got, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Synthetic) != fmt.Sprint(direct.Synthetic) || got.Level != direct.Level {
		t.Errorf("stepper drew %v (level %d), direct run %v (level %d)", got.Synthetic, got.Level, direct.Synthetic, direct.Level)
	}
	if fmt.Sprint(got.Levels) != fmt.Sprint(direct.Levels) {
		t.Errorf("levels differ:\n%v\n%v", got.Levels, direct.Levels)
	}
	same, err := s.LevelsAt(cfg.Epsilon)
	if err != nil || fmt.Sprint(same) != fmt.Sprint(direct.Levels) {
		t.Errorf("LevelsAt(ε) differs from the run's levels (%v)", err)
	}
	// A larger ε puts more mass on the best level and less on the worst.
	sharp, _ := s.LevelsAt(4 * cfg.Epsilon)
	if sharp[0].Probability <= same[0].Probability || sharp[len(sharp)-1].Probability >= same[len(same)-1].Probability {
		t.Errorf("ε×4 did not sharpen: best %v → %v, worst %v → %v", same[0].Probability, sharp[0].Probability, same[len(same)-1].Probability, sharp[len(sharp)-1].Probability)
	}
	snap := s.Snapshot()
	if snap.Stage != StageCompare || len(snap.SyntheticAnswers) != qs.Len() || snap.MaxError != direct.MaxError {
		t.Errorf("final snapshot %+v", snap)
	}
}

func TestSmallDBCancel(t *testing.T) {
	d := mustData(t, []string{"a", "b", "c", "d"}, []int{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8})
	qs, _ := Marginals(d.Columns(), 2)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := SmallDB(ctx, SmallDBConfig{Data: d, Queries: qs, Size: 8, Epsilon: 1}, rng.Seeded(1), func(done, total uint64) {
		calls++
		if done >= total/4 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if calls < 2 {
		t.Errorf("progress called %d times", calls)
	}
}

func TestSmallDBRejects(t *testing.T) {
	d := mustData(t, []string{"a", "b"}, []int{1, 2, 3, 4})
	qs, _ := Marginals(d.Columns(), 1)
	other, _ := Marginals([]string{"x", "y"}, 1)
	big := mustData(t, []string{"a", "b", "c", "d", "e", "f", "g", "h"}, make256())
	bigQ, _ := Marginals(big.Columns(), 1)
	for _, tc := range []struct {
		name string
		cfg  SmallDBConfig
	}{
		{"no data", SmallDBConfig{Queries: qs, Size: 2, Epsilon: 1}},
		{"no queries", SmallDBConfig{Data: d, Size: 2, Epsilon: 1}},
		{"other columns", SmallDBConfig{Data: d, Queries: other, Size: 2, Epsilon: 1}},
		{"m = 0", SmallDBConfig{Data: d, Queries: qs, Size: 0, Epsilon: 1}},
		{"ε = 0", SmallDBConfig{Data: d, Queries: qs, Size: 2, Epsilon: 0}},
		{"ε NaN", SmallDBConfig{Data: d, Queries: qs, Size: 2, Epsilon: math.NaN()}},
		{"too many candidates", SmallDBConfig{Data: big, Queries: bigQ, Size: 20, Epsilon: 1}},
		{"over limit", SmallDBConfig{Data: d, Queries: qs, Size: 10, Epsilon: 1, MaxCandidates: 100}},
	} {
		_, err := SmallDB(context.Background(), tc.cfg, rng.Seeded(1), nil)
		var ve *validate.Error
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a validation error", tc.name, err)
		}
	}
}

func make256() []int {
	c := make([]int, 256)
	for i := range c {
		c[i] = 1
	}
	return c
}

func TestCandidateCount(t *testing.T) {
	for _, tc := range []struct {
		size, m int
		want    uint64
	}{
		{16, 8, 490314}, {1, 5, 1}, {4, 3, 20}, {32, 5, 376992}, {2, 10, 11},
	} {
		got, err := CandidateCount(tc.size, tc.m)
		if err != nil || got != tc.want {
			t.Errorf("CandidateCount(%d, %d) = %d, %v; want %d", tc.size, tc.m, got, err, tc.want)
		}
		lg, err := LogCandidateCount(tc.size, tc.m)
		if err != nil || math.Abs(lg-math.Log(float64(tc.want))) > 1e-9 {
			t.Errorf("LogCandidateCount(%d, %d) = %v, want ln %d", tc.size, tc.m, lg, tc.want)
		}
	}
	if _, err := CandidateCount(1<<20, 64); err == nil {
		t.Error("C(2^20+63, 64) fitted in 64 bits")
	}
}

func TestReadCSV(t *testing.T) {
	d, err := ReadCSV(strings.NewReader("a, b ,c\n1,0,1\n\n0,0,0\n1,0,1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 3 || d.Counts()[5] != 2 || d.Counts()[0] != 1 || fmt.Sprint(d.Columns()) != "[a b c]" {
		t.Errorf("got columns %v counts %v", d.Columns(), d.Counts())
	}
	for _, bad := range []string{"", "a,b\n", "a,b\n1,2\n", "a,a\n1,0\n", "a,b\n1\n"} {
		if _, err := ReadCSV(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadCSV(%q) accepted", bad)
		}
	}
}

func TestQuerySets(t *testing.T) {
	cols := []string{"sex", "smoker", "lung_cancer", "over_150lb", "over_50"}
	for w, want := range map[int]int{1: 10, 2: 40, 3: 80, 5: 32} {
		qs, err := Marginals(cols, w)
		if err != nil || qs.Len() != want {
			t.Errorf("Marginals(width %d): %d queries, %v; want %d", w, qs.Len(), err, want)
		}
	}
	// Every point satisfies exactly one query per column set.
	qs, _ := Marginals(cols, 2)
	for x := 0; x < 32; x++ {
		n := 0
		for i := 0; i < qs.Len(); i++ {
			q, _ := qs.Query(i)
			if q.Member[x] {
				n++
			}
		}
		if n != 10 {
			t.Errorf("point %d satisfies %d 2-way marginals, want 10", x, n)
		}
	}
	hs, err := Halfspaces(cols)
	if err != nil {
		t.Fatal(err)
	}
	if hs.Len() < 2 || hs.Len() > 81 {
		t.Errorf("%d halfspaces", hs.Len())
	}
	// No two halfspace queries agree on every point.
	for i := 0; i < hs.Len(); i++ {
		for j := 0; j < i; j++ {
			a, _ := hs.Query(i)
			b, _ := hs.Query(j)
			if fmt.Sprint(a.Member) == fmt.Sprint(b.Member) {
				t.Errorf("halfspaces %q and %q are the same predicate", a.Name, b.Name)
			}
		}
	}
	// smoker − sex ≥ over_50 on the row sex=0, smoker=1, over_50=1: 1 ≥ 1.
	h := Halfspace{Pi: []int{-1, 1, 0, 0}}
	if !h.Holds(0b01001, 5) || h.Holds(0b11001, 5) {
		t.Error("Halfspace.Holds is wrong on hand-checked rows")
	}
	if _, err := ParseQueries(cols, "smoker=1&nope=1"); err == nil {
		t.Error("ParseQueries accepted an unknown column")
	}
	for _, bad := range []int{0, 6} {
		if _, err := Marginals(cols, bad); err == nil {
			t.Errorf("Marginals(width %d) accepted", bad)
		}
	}
}
