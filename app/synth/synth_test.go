package synth

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/synth"
)

func direct(t *testing.T, k int, kind string, m int, eps float64, seed uint64) *synth.SmallDBResult {
	t.Helper()
	s, err := NewSetup(k, kind)
	if err != nil {
		t.Fatal(err)
	}
	res, err := synth.SmallDB(context.Background(), synth.SmallDBConfig{Data: s.Data, Queries: s.Queries, Size: m, Epsilon: eps}, rng.Seeded(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ints(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// TestChunkedRunMatchesDirectRun drives runs the way the page does, in tiny
// chunks, and compares every stage's outcome with one direct SmallDB call.
func TestChunkedRunMatchesDirectRun(t *testing.T) {
	cases := []struct {
		k    int
		kind string
		m    int
		eps  float64
		seed uint64
	}{
		{4, "marginals:2", 5, 1, 1},
		{3, "marginals:1", 6, 0.5, 2},
		{5, "marginals:2", 3, 4, 3},
		{4, "halfspaces", 4, 2, 4},
		{3, "marginals:3", 4, 10, 5},
	}
	for _, c := range cases {
		name := fmt.Sprintf("k%d/%s/m%d", c.k, c.kind, c.m)
		want := direct(t, c.k, c.kind, c.m, c.eps, c.seed)
		rs := NewRuns()
		h, plan, err := rs.Start(Spec{K: c.k, Kind: c.kind, Size: c.m, Epsilon: c.eps, Seed: c.seed, Probe: 1000})
		if err != nil || h == 0 {
			t.Fatalf("%s: start: %v (handle %d, refused %q)", name, err, h, plan.Refused)
		}
		if plan.Candidates != float64(want.Candidates) || len(plan.Queries) != len(want.TrueAnswers) || plan.N != 120 {
			t.Errorf("%s: plan %v candidates, %d queries, n = %d", name, plan.Candidates, len(plan.Queries), plan.N)
		}
		for q := range want.TrueAnswers {
			if plan.TrueAnswers[q] != want.TrueAnswers[q] {
				t.Errorf("%s: true answer %d: %v, want %v", name, q, plan.TrueAnswers[q], want.TrueAnswers[q])
			}
		}
		if !(plan.ProbeRate > 0) || plan.ProbeCandidates < min(1000, want.Candidates) || !(plan.PredictedMs > 0) {
			t.Errorf("%s: probe %v candidates/s over %d, predicted %v ms", name, plan.ProbeRate, plan.ProbeCandidates, plan.PredictedMs)
		}
		// One stage per call up to the count, then scoring 50 candidates a
		// call (maxMs tiny: one chunk per call), then on to the end.
		var v View
		for stage := 1; stage <= int(synth.StageCount); stage++ {
			if v, err = rs.Advance(h, stage, 50, 1e-9); err != nil || v.Stage != stage {
				t.Fatalf("%s: advance to %d: stage %d, %v", name, stage, v.Stage, err)
			}
		}
		calls, last := 0, uint64(0)
		for v.Stage < int(synth.StageLevels) {
			if v, err = rs.Advance(h, int(synth.StageCompare), 50, 1e-9); err != nil {
				t.Fatal(err)
			}
			calls++
			if v.Scored < last || v.Scored > v.Candidates {
				t.Fatalf("%s: progress went from %d to %d of %d", name, last, v.Scored, v.Candidates)
			}
			last = v.Scored
		}
		if want.Candidates > 200 && calls < 3 {
			t.Errorf("%s: scoring %d candidates took %d calls: not chunked", name, want.Candidates, calls)
		}
		if v.Scored != want.Candidates || v.LevelProbs == nil || v.Synthetic != nil {
			t.Errorf("%s: at levels: scored %d of %d, %d levels, synthetic %v", name, v.Scored, want.Candidates, len(v.LevelProbs), v.Synthetic)
		}
		for v.Stage < int(synth.StageCompare) {
			if v, err = rs.Advance(h, int(synth.StageCompare), 50, 1e-9); err != nil {
				t.Fatal(err)
			}
		}
		if fmt.Sprint(ints(v.Synthetic)) != fmt.Sprint(want.Synthetic) || v.Level != want.Level || v.MaxError != want.MaxError {
			t.Errorf("%s: drew %v (level %d), direct %v (level %d)", name, v.Synthetic, v.Level, want.Synthetic, want.Level)
		}
		psum, csum, exp := 0.0, 0.0, 0.0
		for i, l := range want.Levels {
			if v.LevelErrors[i] != l.MaxError || v.LevelCounts[i] != float64(l.Candidates) || v.LevelProbs[i] != l.Probability {
				t.Fatalf("%s: level %d differs: %v %v %v vs %+v", name, i, v.LevelErrors[i], v.LevelCounts[i], v.LevelProbs[i], l)
			}
			psum += l.Probability
			csum += float64(l.Candidates)
			exp += l.Probability * l.MaxError
		}
		if math.Abs(psum-1) > 1e-12 || csum != float64(want.Candidates) || math.Abs(exp-v.Expected) > 1e-12 {
			t.Errorf("%s: probabilities sum to %v, counts to %v; expected error %v vs %v", name, psum, csum, v.Expected, exp)
		}
		tail, _ := synth.TailProbability(want.Levels, v.Quantile)
		below, _ := synth.TailProbability(want.Levels, v.Quantile-1e-12)
		if tail > Beta || below <= Beta {
			t.Errorf("%s: quantile %v has tail %v, just below it %v (β = %v)", name, v.Quantile, tail, below, Beta)
		}
		if fmt.Sprint(v.SyntheticAnswers) != fmt.Sprint(want.SyntheticAnswers) {
			t.Errorf("%s: synthetic answers %v, direct %v", name, v.SyntheticAnswers, want.SyntheticAnswers)
		}
		if (c.kind == "halfspaces") != (v.Learned != "") || v.LearnedReal > v.BestReal+1e-12 {
			t.Errorf("%s: learned %q (%v on real data, best %v)", name, v.Learned, v.LearnedReal, v.BestReal)
		}
		if v.Rate <= 0 || v.ScoringMs <= 0 {
			t.Errorf("%s: rate %v over %v ms", name, v.Rate, v.ScoringMs)
		}
		// Stepping a finished run changes nothing.
		again, err := rs.Advance(h, int(synth.StageCompare), 50, 1)
		if err != nil || fmt.Sprint(again.Synthetic) != fmt.Sprint(v.Synthetic) {
			t.Errorf("%s: advancing a finished run: %v, %v", name, again.Synthetic, err)
		}
	}
}

// TestReweightRedrawsAsAFreshRun moves ε after a finished run and after a
// run stopped at the levels, and compares with direct runs at the new ε.
func TestReweightRedrawsAsAFreshRun(t *testing.T) {
	rs, h, _ := start(t, Spec{K: 4, Kind: "marginals:2", Size: 5, Epsilon: 1, Seed: 11})
	if _, err := rs.Reweight(h, 2, -1); err == nil {
		t.Error("Reweight before scoring was accepted")
	}
	v, err := rs.Advance(h, int(synth.StageCompare), 0, 1e6)
	if err != nil || v.Stage != int(synth.StageCompare) {
		t.Fatalf("stage %d, %v", v.Stage, err)
	}
	for _, eps := range []float64{3, 0.2, 1, 30} {
		got, err := rs.Reweight(h, eps, -1)
		if err != nil {
			t.Fatal(err)
		}
		want := direct(t, 4, "marginals:2", 5, eps, 11)
		if got.Stage != int(synth.StageCompare) || fmt.Sprint(ints(got.Synthetic)) != fmt.Sprint(want.Synthetic) || got.Epsilon != eps {
			t.Errorf("ε = %v: stage %d, drew %v, fresh run %v", eps, got.Stage, got.Synthetic, want.Synthetic)
		}
		if got.LevelProbs[0] != want.Levels[0].Probability {
			t.Errorf("ε = %v: best level P %v, fresh run %v", eps, got.LevelProbs[0], want.Levels[0].Probability)
		}
	}
	// A run stopped at the levels stays there.
	h2, _, _ := rs.Start(Spec{K: 3, Kind: "marginals:2", Size: 4, Epsilon: 1, Seed: 1})
	if _, err := rs.Advance(h2, int(synth.StageLevels), 0, 1e6); err != nil {
		t.Fatal(err)
	}
	if v, err := rs.Reweight(h2, 5, -1); err != nil || v.Stage != int(synth.StageLevels) || v.Synthetic != nil {
		t.Errorf("reweight at the levels: stage %d, synthetic %v, %v", v.Stage, v.Synthetic, err)
	}
	if _, err := rs.Reweight(h2, -1, -1); err == nil {
		t.Error("ε = −1 accepted")
	}
	// Stepping back from the end to the draw and to the levels, and forward
	// again, keeps the scores and gives the same draw.
	end, err := rs.Reweight(h2, 5, int(synth.StageCompare))
	if err != nil || end.Stage != int(synth.StageCompare) {
		t.Fatalf("reweight to the end: stage %d, %v", end.Stage, err)
	}
	for _, st := range []synth.Stage{synth.StageDraw, synth.StageLevels, synth.StageCompare} {
		v, err := rs.Reweight(h2, 5, int(st))
		if err != nil || v.Stage != int(st) || v.Scored != end.Scored {
			t.Errorf("reweight to %v: stage %d, %v", st, v.Stage, err)
		}
		if st >= synth.StageDraw && fmt.Sprint(v.Synthetic) != fmt.Sprint(end.Synthetic) {
			t.Errorf("reweight to %v drew %v, before %v", st, v.Synthetic, end.Synthetic)
		}
	}
	for _, bad := range []int{int(synth.StageCount), 7} {
		if _, err := rs.Reweight(h2, 5, bad); err == nil {
			t.Errorf("stage %d accepted", bad)
		}
	}
}

func TestRefusalsAndHandles(t *testing.T) {
	rs := NewRuns()
	// k = 5, m = 12: C(43, 12) ≈ 1.5e10 candidates.
	h, plan, err := rs.Start(Spec{K: 5, Kind: "marginals:2", Size: 12, Epsilon: 1, Seed: 1, Probe: 100})
	if err != nil || h != 0 || plan.Refused == "" || plan.Candidates < 1e10 || len(plan.Queries) != 40 {
		t.Errorf("huge instance: handle %d, refused %q, %v candidates, %v", h, plan.Refused, plan.Candidates, err)
	}
	for _, bad := range []Spec{
		{K: 6, Kind: "marginals:2", Size: 3, Epsilon: 1},
		{K: 4, Kind: "marginals:9", Size: 3, Epsilon: 1},
		{K: 4, Kind: "marginals:2", Size: 0, Epsilon: 1},
		{K: 4, Kind: "marginals:2", Size: 3, Epsilon: 0},
		{K: 4, Kind: "marginals:2", Size: 3, Epsilon: math.NaN()},
	} {
		if h, _, err := rs.Start(bad); err == nil || h != 0 {
			t.Errorf("%+v accepted (handle %d)", bad, h)
		}
	}
	var hs []int
	for i := 0; i < MaxRuns+2; i++ {
		h, _, err := rs.Start(Spec{K: 3, Kind: "marginals:1", Size: 2, Epsilon: 1, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	if _, err := rs.Advance(hs[0], 1, 0, 1); err == nil {
		t.Error("the oldest run was not closed")
	}
	if _, err := rs.Advance(hs[len(hs)-1], 1, 0, 1); err != nil {
		t.Errorf("the newest run: %v", err)
	}
	rs.Close(hs[len(hs)-1])
	if _, err := rs.Advance(hs[len(hs)-1], 1, 0, 1); err == nil {
		t.Error("a closed run still answers")
	}
	if _, err := rs.Advance(hs[len(hs)-2], 99, 0, 1); err == nil {
		t.Error("stage 99 accepted")
	}
	if _, err := rs.Advance(hs[len(hs)-2], 1, 0, 0); err == nil {
		t.Error("maxMs = 0 accepted")
	}
}

// start starts spec on fresh Runs and fails the test if it is refused.
func start(t *testing.T, spec Spec) (*Runs, int, Plan) {
	t.Helper()
	rs := NewRuns()
	h, plan, err := rs.Start(spec)
	if err != nil || h == 0 {
		t.Fatalf("start %+v: %v (handle %d, refused %q)", spec, err, h, plan.Refused)
	}
	return rs, h, plan
}

func TestCurve(t *testing.T) {
	rs, h, _ := start(t, Spec{K: 4, Kind: "marginals:2", Size: 5, Epsilon: 1, Seed: 1})
	if _, err := rs.Curve(h); err == nil {
		t.Error("a curve before scoring")
	}
	if _, err := rs.Advance(h, int(synth.StageLevels), 0, 1e6); err != nil {
		t.Fatal(err)
	}
	c, err := rs.Curve(h)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSetup(4, "marginals:2")
	alpha, _ := synth.AlphaForSize(24, 5)
	for i, eps := range c.Epsilons {
		// Proposition 4.4 at the run's own m is the bound on the curves;
		// Theorem 4.5 comes with the m it is about.
		p44, _ := synth.Prop44Bound(16, 24, 120, eps, alpha, Beta)
		t45, _ := synth.Thm45Bound(16, 24, 120, eps, Beta)
		m45, _ := synth.Thm45Size(24, t45)
		if c.Prop44[i] != p44 || c.Thm45[i] != t45 || c.Thm45Size[i] != m45 || c.Quantile[i] < c.Expected[i]*0.5 {
			t.Errorf("ε = %v: Prop 4.4 %v (want %v), Thm 4.5 %v at m = %d (want %v at %d), quantile %v, expected %v",
				eps, c.Prop44[i], p44, c.Thm45[i], c.Thm45Size[i], t45, m45, c.Quantile[i], c.Expected[i])
		}
		if c.Quantile[i] > c.Prop44[i] {
			t.Errorf("ε = %v: the exact %v-quantile %v is above Proposition 4.4's %v", eps, 1-Beta, c.Quantile[i], c.Prop44[i])
		}
		if i > 0 && c.Expected[i] > c.Expected[i-1]+1e-12 {
			t.Errorf("expected error rose from %v to %v as ε grew to %v", c.Expected[i-1], c.Expected[i], eps)
		}
	}
	if c.Epsilons[0] != 0.05 || c.Epsilons[len(c.Epsilons)-1] != 50 || s.Queries.Len() != 24 {
		t.Errorf("grid %v…%v", c.Epsilons[0], c.Epsilons[len(c.Epsilons)-1])
	}
}

func TestMWEMMatchesDirectRunAndCharges(t *testing.T) {
	s, _ := NewSetup(5, "marginals:2")
	for _, c := range []struct {
		rounds, replays int
		eps             float64
	}{{10, 0, 1}, {6, 10, 2}, {1, 0, 0.5}} {
		spec := MWEMSpec{K: 5, Kind: "marginals:2", Rounds: c.rounds, Replays: c.replays, Epsilon: c.eps, Seed: 4}
		want, err := synth.MWEM(context.Background(), synth.MWEMConfig{Data: s.Data, Queries: s.Queries, Rounds: c.rounds,
			Replays: c.replays, Epsilon: c.eps}, rng.Seeded(4))
		if err != nil {
			t.Fatal(err)
		}
		for upto := 0; upto <= c.rounds; upto++ {
			spec.Upto = upto
			v, err := MWEM(spec)
			if err != nil {
				t.Fatal(err)
			}
			if v.Charges != 2*upto || math.Abs(v.Spent-c.eps*float64(upto)/float64(c.rounds)) > 1e-12 || v.Done != (upto == c.rounds) {
				t.Errorf("%+v: %d charges, spent %v of %v, done %v", spec, v.Charges, v.Spent, v.Budget, v.Done)
			}
			if len(v.Query) != upto || math.Abs(v.NoiseScale-2*float64(c.rounds)/(c.eps*120)) > 1e-15 {
				t.Errorf("%+v: %d rounds listed, noise scale %v", spec, len(v.Query), v.NoiseScale)
			}
			for i := 0; i < upto; i++ {
				r := want.Rounds[i]
				if int(v.Query[i]) != r.Query || v.Measurement[i] != r.Measurement || v.RoundError[i] != r.MaxError || v.Chosen[i] != r.Selection[r.Query] {
					t.Errorf("%+v: round %d differs from the direct run", spec, i+1)
				}
			}
			if upto == 0 && v.InitialError != v.MaxError {
				t.Errorf("%+v: initial error %v, max error before any round %v", spec, v.InitialError, v.MaxError)
			}
			if upto == 0 {
				for _, p := range v.Distribution {
					if p != 1.0/32 {
						t.Fatalf("before any round the estimate is not uniform: %v", v.Distribution)
					}
				}
			}
		}
		if v, _ := MWEM(spec); math.Abs(v.MaxError-want.MaxError) > 1e-12 || math.Abs(v.Spent-want.EpsilonSpent) > 1e-12 {
			t.Errorf("%+v: max error %v, direct %v; spent %v, direct %v", spec, v.MaxError, want.MaxError, v.Spent, want.EpsilonSpent)
		}
	}
	if _, err := MWEM(MWEMSpec{K: 4, Kind: "marginals:2", Rounds: 5, Upto: 6, Epsilon: 1}); err == nil {
		t.Error("upto > rounds accepted")
	}
	if _, err := MWEM(MWEMSpec{K: 4, Kind: "marginals:2", Rounds: 5, Upto: 1, Epsilon: -1}); err == nil {
		t.Error("ε < 0 accepted")
	}
}

func TestReference(t *testing.T) {
	var ref Reference
	for _, eps := range []float64{1, 4, 1} {
		got, q, n, err := ref.Expected(4, "marginals:2", 5, eps)
		if err != nil {
			t.Fatal(err)
		}
		want := direct(t, 4, "marginals:2", 5, eps, 1)
		exp := 0.0
		for _, l := range want.Levels {
			exp += l.Probability * l.MaxError
		}
		if math.Abs(got-exp) > 1e-12 || n != want.Candidates || q < got {
			t.Errorf("ε = %v: expected %v, want %v; quantile %v; %d candidates", eps, got, exp, q, n)
		}
	}
	if _, _, _, err := ref.Expected(5, "marginals:2", 8, 1); err == nil {
		t.Error("61.5 million candidates accepted for the reference")
	}
}

// TestTheoremSizeIsNamed is the case that Theorem 4.5 must not be read as a
// bound on: three attributes, 1-way marginals, ε = 50 and m = 1. The
// theorem's α = 0.229 is about SmallDB with its own m (138 rows), while this
// run errs by 0.433 with probability 1. The view names that m and compares
// the run only with Proposition 4.4 at m = 1, which holds.
func TestTheoremSizeIsNamed(t *testing.T) {
	rs, h, plan := start(t, Spec{K: 3, Kind: "marginals:1", Size: 1, Epsilon: 50, Seed: 1})
	v, err := rs.Advance(h, int(synth.StageCompare), 0, 1e6)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v.Thm45-0.2285) > 1e-3 || v.Thm45Size != 138 || plan.Thm45Size != 138 || plan.Thm45 != v.Thm45 {
		t.Errorf("Theorem 4.5: %v at m = %d (plan %v at %d); want 0.229 at m = 138", v.Thm45, v.Thm45Size, plan.Thm45, plan.Thm45Size)
	}
	if math.Abs(v.MaxError-0.4333) > 1e-3 || v.MaxError <= v.Thm45 {
		t.Errorf("the m = 1 run erred by %v", v.MaxError)
	}
	if v.TailProp44 > Beta || v.Prop44 < v.MaxError {
		t.Errorf("Proposition 4.4 at m = 1: %v, exceeded with probability %v", v.Prop44, v.TailProp44)
	}
}

// TestOwnData runs a user's own table: the medical table's own histogram,
// given as data, gives the same plan and the same draw as K = 4; bad
// tables are refused.
func TestOwnData(t *testing.T) {
	s, err := NewSetup(4, "marginals:2")
	if err != nil {
		t.Fatal(err)
	}
	rs := NewRuns()
	spec := Spec{K: 4, Kind: "marginals:2", Size: 3, Epsilon: 1, Seed: 5}
	h1, p1, err := rs.Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.K, spec.Columns, spec.Counts = 0, s.Data.Columns(), s.Data.Counts()
	h2, p2, err := rs.Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p1, p2) {
		t.Fatalf("plans differ:\n%+v\n%+v", p1, p2)
	}
	v1, err1 := rs.Advance(h1, 6, 1<<20, 1e9)
	v2, err2 := rs.Advance(h2, 6, 1<<20, 1e9)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(v1.Synthetic, v2.Synthetic) || v1.MaxError != v2.MaxError {
		t.Fatalf("draws differ: %v %v / %v %v", v1.Synthetic, err1, v2.Synthetic, err2)
	}
	for _, bad := range []Spec{
		{Kind: "marginals:1", Size: 2, Epsilon: 1, Columns: []string{}, Counts: []int{}},
		{Kind: "marginals:1", Size: 2, Epsilon: 1, Columns: []string{"a", "b", "c", "d", "e", "f"}, Counts: make([]int, 64)},
		{Kind: "marginals:1", Size: 2, Epsilon: 1, Columns: []string{"a", "b"}, Counts: []int{1, 2}},
		{Kind: "marginals:3", Size: 2, Epsilon: 1, Columns: []string{"a", "b"}, Counts: []int{1, 2, 3, 4}},
		{Kind: "marginals:1", Size: 2, Epsilon: 1, Columns: []string{"a"}, Counts: []int{0, 0}},
	} {
		if _, _, err := rs.Start(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestOwnDataMWEM: MWEM and SmallDB's reference on the medical histogram
// given as data agree with K = 4.
func TestOwnDataMWEM(t *testing.T) {
	s, err := NewSetup(4, "marginals:2")
	if err != nil {
		t.Fatal(err)
	}
	spec := MWEMSpec{K: 4, Kind: "marginals:2", Rounds: 5, Upto: 5, Replays: 10, Epsilon: 1, Seed: 3}
	a, err := MWEM(spec)
	if err != nil {
		t.Fatal(err)
	}
	spec.K, spec.Columns, spec.Counts = 0, s.Data.Columns(), s.Data.Counts()
	b, err := MWEM(spec)
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("MWEM on own data differs: %v", err)
	}
	var r1, r2 Reference
	e1, q1, n1, err1 := r1.Expected(4, "marginals:2", 3, 1)
	e2, q2, n2, err2 := r2.ExpectedData(0, s.Data.Columns(), s.Data.Counts(), "marginals:2", 3, 1)
	if err1 != nil || err2 != nil || e1 != e2 || q1 != q2 || n1 != n2 {
		t.Fatalf("reference differs: %v %v %v / %v %v %v (%v %v)", e1, q1, n1, e2, q2, n2, err1, err2)
	}
	if _, err := MWEM(MWEMSpec{Kind: "marginals:1", Rounds: 1, Upto: 1, Epsilon: 1, Columns: []string{"a"}, Counts: []int{1}}); err == nil {
		t.Fatal("a histogram of the wrong length: no error")
	}
}

// Bands: a round width at or above top/30, bands from 0 past the largest
// error, each level's probability in the band that holds its error.
func TestBands(t *testing.T) {
	edges, heights, w := Bands([]float64{0.05, 0.1, 0.3}, []float64{0.2, 0.3, 0.5})
	if w != 0.01 || len(heights) != 31 || len(edges) != 32 || edges[31] != 0.31 || edges[3] != 0.03 {
		t.Fatalf("width %v, %d bands, edges %v", w, len(heights), edges)
	}
	for i, h := range heights {
		want := map[int]float64{5: 0.2, 10: 0.3, 30: 0.5}[i]
		if h != want {
			t.Errorf("band %d holds %v, want %v", i, h, want)
		}
	}
	if _, _, w := Bands([]float64{0, 0.7}, []float64{0.5, 0.5}); w != 0.025 {
		t.Errorf("top 0.7: width %v, want 0.025 (0.7/30 rounded up to 2.5 × 10⁻²)", w)
	}
	if edges, heights, w := Bands([]float64{0}, []float64{1}); w != 0.0005 || heights[0] != 1 || edges[1] != 0.0005 {
		t.Errorf("every error 0: width %v, heights %v", w, heights)
	}
}
