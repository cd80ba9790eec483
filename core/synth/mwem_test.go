package synth

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// medical is the Medical table, projected on columns if any.
func medical(t testing.TB, columns ...string) *Data {
	t.Helper()
	d, err := Medical()
	if err != nil {
		t.Fatal(err)
	}
	if len(columns) == 0 {
		return d
	}
	p, err := d.Project(columns)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMWEMFirstRound checks both of MWEM's random steps in round 1 against
// their exact laws: the chosen query by chi-square against the exponential
// mechanism from the uniform start, the measurement's noise by KS against
// Laplace(2T/(ε·n)). Variants that spend ε/T (forgetting the split) on one
// step must fail the corresponding test.
func TestMWEMFirstRound(t *testing.T) {
	d := medical(t)
	qs, err := Marginals(d.Columns(), 1)
	if err != nil {
		t.Fatal(err)
	}
	const T, eps = 2, 1.0
	draws := 20000
	if testing.Short() {
		// A fifth of the draws still rejects both broken rounds with p
		// below 1e-60; the full run (make test, natively) takes them all.
		draws = 4000
	}
	n := float64(d.N())
	// Exact selection law, computed here from the rows.
	truth, _ := qs.Answers(d)
	want := make([]float64, qs.Len())
	sum := 0.0
	for i := range want {
		q, _ := qs.Query(i)
		in := 0
		for _, m := range q.Member {
			if m {
				in++
			}
		}
		score := math.Abs(float64(in)/float64(len(q.Member)) - truth[i])
		want[i] = math.Exp(eps / (2 * T) * score / (2 / n))
		sum += want[i]
	}
	for i := range want {
		want[i] /= sum
	}
	noise, err := mech.NewLaplace(0, 1/n, eps/(2*T))
	if err != nil {
		t.Fatal(err)
	}
	run := func(selectScale, noiseScale float64) (counts []int, noises []float64) {
		counts = make([]int, qs.Len())
		r := rng.Seeded(11)
		for i := 0; i < draws; i++ {
			s, err := newMWEMStepper(MWEMConfig{Data: d, Queries: qs, Rounds: T, Epsilon: eps}, r, selectScale, noiseScale)
			if err != nil {
				t.Fatal(err)
			}
			round, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			counts[round.Query]++
			noises = append(noises, round.Measurement-round.TrueAnswer)
		}
		return counts, noises
	}
	counts, noises := run(1, 1)
	cs, err := stats.ChiSquare(counts, want)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := stats.KS(noises, noise.CDF)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("correct: selection p = %.3g, noise p = %.3g", cs.PValue, ks.PValue)
	if cs.PValue < 1e-6 || ks.PValue < 1e-6 {
		t.Errorf("correct MWEM round: selection p = %v, noise p = %v", cs.PValue, ks.PValue)
	}

	counts, _ = run(2, 1)
	if cs, _ := stats.ChiSquare(counts, want); cs.PValue >= 1e-6 {
		t.Errorf("selection with ε/T passed the chi-square test: p = %v", cs.PValue)
	}
	_, noises = run(1, 2)
	if ks, _ := stats.KS(noises, noise.CDF); ks.PValue >= 1e-6 {
		t.Errorf("measurement with ε/T passed the KS test: p = %v", ks.PValue)
	}
}

func TestMWEMBudget(t *testing.T) {
	d := medical(t)
	qs, _ := Marginals(d.Columns(), 2)
	for _, tc := range []struct {
		rounds int
		eps    float64
	}{{1, 1}, {7, 0.3}, {10, 1}, {33, 2.5}} {
		res, err := MWEM(context.Background(), MWEMConfig{Data: d, Queries: qs, Rounds: tc.rounds, Epsilon: tc.eps}, rng.Seeded(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Ledger) != 2*tc.rounds {
			t.Errorf("T = %d: %d charges, want %d", tc.rounds, len(res.Ledger), 2*tc.rounds)
		}
		total := 0.0
		for _, c := range res.Ledger {
			if math.Abs(c.Epsilon-tc.eps/float64(2*tc.rounds)) > 1e-15 {
				t.Errorf("charge %q of ε = %v, want ε/(2T) = %v", c.Label, c.Epsilon, tc.eps/float64(2*tc.rounds))
			}
			total += c.Epsilon
		}
		if math.Abs(total-tc.eps) > 1e-12 || math.Abs(res.EpsilonSpent-tc.eps) > 1e-12 {
			t.Errorf("T = %d: charges add up to %v (reported %v), want ε = %v", tc.rounds, total, res.EpsilonSpent, tc.eps)
		}
	}
	// A shared accountant: MWEM charges it and reports only its own charges.
	acct, _ := account.New(3, 0)
	if err := acct.Spend("earlier release", 1, 0); err != nil {
		t.Fatal(err)
	}
	res, err := MWEM(context.Background(), MWEMConfig{Data: d, Queries: qs, Rounds: 5, Epsilon: 2, Accountant: acct}, rng.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	if spent, _ := acct.Spent(); math.Abs(spent-3) > 1e-12 || len(res.Ledger) != 10 || math.Abs(res.EpsilonSpent-2) > 1e-12 {
		t.Errorf("shared accountant spent %v, run ledger %d charges, run spent %v", spent, len(res.Ledger), res.EpsilonSpent)
	}
	// Not enough left: refused before anything is released.
	_, err = MWEM(context.Background(), MWEMConfig{Data: d, Queries: qs, Rounds: 5, Epsilon: 0.5, Accountant: acct}, rng.Seeded(1))
	var ve *validate.Error
	if !errors.As(err, &ve) || len(acct.Ledger()) != 11 {
		t.Errorf("over budget: err = %v, ledger has %d charges", err, len(acct.Ledger()))
	}
}

func TestMWEMStepperMatchesRun(t *testing.T) {
	d := medical(t)
	qs, _ := Marginals(d.Columns(), 2)
	cfg := MWEMConfig{Data: d, Queries: qs, Rounds: 12, Epsilon: 1}
	direct, err := MWEM(context.Background(), cfg, rng.Seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewMWEMStepper(cfg, rng.Seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	prev := s.Distribution()
	for i := 0; !s.Done(); i++ {
		round, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		want := direct.Rounds[i]
		if round.Query != want.Query || round.Measurement != want.Measurement || round.MaxError != want.MaxError {
			t.Errorf("round %d: stepper %d/%v/%v, direct %d/%v/%v", i+1, round.Query, round.Measurement, round.MaxError, want.Query, want.Measurement, want.MaxError)
		}
		// The update moves the chosen query's estimate toward the measurement
		// and keeps A a distribution.
		sum := 0.0
		for _, v := range round.Distribution {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("round %d: A sums to %v", i+1, sum)
		}
		before, _ := qs.AnswersOn(prev)
		if before[round.Query] != round.Estimate {
			t.Errorf("round %d: estimate %v, recomputed %v", i+1, round.Estimate, before[round.Query])
		}
		if (round.Measurement-round.Estimate)*(round.Updated-round.Estimate) < 0 {
			t.Errorf("round %d: update moved %v → %v away from measurement %v", i+1, round.Estimate, round.Updated, round.Measurement)
		}
		prev = round.Distribution
	}
	if _, err := s.Step(); err == nil {
		t.Error("a finished stepper ran another round")
	}
	got, err := s.Result()
	if err != nil {
		t.Fatal(err)
	}
	for p := range got.Distribution {
		if got.Distribution[p] != direct.Distribution[p] {
			t.Fatalf("output distributions differ at point %d", p)
		}
	}
	other, _ := MWEM(context.Background(), cfg, rng.Seeded(6))
	if other.Rounds[0].Measurement == direct.Rounds[0].Measurement {
		t.Error("different seeds gave the same measurement")
	}
}

// TestMWEMLearns: with a huge budget the noise vanishes, and MWEM's output
// must answer the queries far better than its uniform start.
func TestMWEMLearns(t *testing.T) {
	d := medical(t)
	qs, _ := Marginals(d.Columns(), 2)
	truth, _ := qs.Answers(d)
	uniform := make([]float64, d.UniverseSize())
	for i := range uniform {
		uniform[i] = 1 / float64(len(uniform))
	}
	u, _ := qs.AnswersOn(uniform)
	start := maxAbsDiff(u, truth)
	res, err := MWEM(context.Background(), MWEMConfig{Data: d, Queries: qs, Rounds: 60, Epsilon: 1e5}, rng.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxError > start/3 {
		t.Errorf("MWEM max error %v after 60 noiseless rounds; uniform start had %v", res.MaxError, start)
	}
}

// TestMWEMReplays: replaying past measurements is post-processing. It must
// not change the charges or the first round's random choices, and without
// noise it must fit the queries better than the textbook update.
func TestMWEMReplays(t *testing.T) {
	d := medical(t)
	qs, _ := Marginals(d.Columns(), 2)
	run := func(eps float64, replays int) *MWEMResult {
		res, err := MWEM(context.Background(), MWEMConfig{Data: d, Queries: qs, Rounds: 15, Epsilon: eps, Replays: replays}, rng.Seeded(4))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	plain, replayed := run(1, 0), run(1, 10)
	if len(replayed.Ledger) != len(plain.Ledger) || replayed.EpsilonSpent != plain.EpsilonSpent {
		t.Errorf("replays changed the charges: %v vs %v", replayed.Ledger, plain.Ledger)
	}
	if replayed.Rounds[0].Query != plain.Rounds[0].Query || replayed.Rounds[0].Measurement != plain.Rounds[0].Measurement {
		t.Error("replays changed round 1's draws")
	}
	if a, b := run(1e5, 10).MaxError, run(1e5, 0).MaxError; a >= b {
		t.Errorf("noiseless MWEM: max error %v with replays, %v without", a, b)
	}
}

func TestMWEMRejects(t *testing.T) {
	d := medical(t)
	qs, _ := Marginals(d.Columns(), 1)
	for _, cfg := range []MWEMConfig{
		{Queries: qs, Rounds: 1, Epsilon: 1},
		{Data: d, Rounds: 1, Epsilon: 1},
		{Data: d, Queries: qs, Rounds: 0, Epsilon: 1},
		{Data: d, Queries: qs, Rounds: 1, Epsilon: -1},
		{Data: d, Queries: qs, Rounds: 1, Epsilon: math.Inf(1)},
		{Data: d, Queries: qs, Rounds: 1, Epsilon: 1, Replays: -1},
	} {
		var ve *validate.Error
		if _, err := MWEM(context.Background(), cfg, rng.Seeded(1)); !errors.As(err, &ve) {
			t.Errorf("%+v: err = %v", cfg, err)
		}
	}
}

// mwemLogLikelihood returns ln P_x[transcript] for the rounds a run released:
// the chosen query and the noisy measurement of every round, under data x
// and the calibration of s (ε/(2T) for each step, unless a test broke it).
// Given the transcript, every distribution A_t is fixed (the update and the
// replays use only released numbers), so the likelihood is a product over
// rounds of the exponential mechanism's probability of the chosen query,
// with scores abs(q(A_{t−1}) − q(x)) and Δ = 1/n, and the Laplace density
// of the measurement around q(x) with scale 1/(n·ε_noise).
func mwemLogLikelihood(t *testing.T, s *MWEMStepper, rounds []MWEMRound, x *Data, qs *QuerySet) float64 {
	t.Helper()
	truth, err := qs.Answers(x)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(x.N())
	b := 1 / (n * s.noiseEps)
	prev := make([]float64, x.UniverseSize())
	for i := range prev {
		prev[i] = 1 / float64(len(prev))
	}
	ll := 0.0
	for _, round := range rounds {
		est, err := qs.AnswersOn(prev)
		if err != nil {
			t.Fatal(err)
		}
		scores := make([]float64, len(est))
		for q := range est {
			scores[q] = math.Abs(est[q] - truth[q])
		}
		sel, err := mech.NewExponential(mech.Config{Scores: scores, Epsilon: s.selectEps, Sensitivity: 1 / n})
		if err != nil {
			t.Fatal(err)
		}
		ll += sel.LogProbabilities()[round.Query]
		ll += -math.Log(2*b) - math.Abs(round.Measurement-truth[round.Query])/b
		prev = round.Distribution
	}
	return ll
}

// neighbours lists every data set that moves one of d's rows to another
// point of the universe (n stays public, as SmallDB and MWEM assume).
func neighbours(t *testing.T, d *Data) []*Data {
	t.Helper()
	var out []*Data
	counts := d.Counts()
	for from, c := range counts {
		if c == 0 {
			continue
		}
		for to := range counts {
			if to == from {
				continue
			}
			moved := append([]int(nil), counts...)
			moved[from]--
			moved[to]++
			nd, err := NewData(d.Columns(), moved)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, nd)
		}
	}
	return out
}

// TestMWEMPrivacyOnNeighbours is the empirical privacy check for MWEM: for
// realised transcripts at fixed seeds, the exact log-likelihood ratio
// between the data and every neighbouring data set stays within ε. The
// bound is a theorem (each round costs at most ε/(2T) + ε/(2T)), so a correct
// MWEM never fails it; the 1e-9 only absorbs rounding. Two broken
// calibrations, Laplace noise of scale T/(ε·n) instead of 2T/(ε·n) and
// selection at ε/T instead of ε/(2T), must exceed it on the same data.
func TestMWEMPrivacyOnNeighbours(t *testing.T) {
	d := medical(t, "sex", "smoker", "lung_cancer", "over_50")
	near := neighbours(t, d)
	worst := func(selectScale, noiseScale float64, width, rounds, replays int, eps float64, seed uint64) float64 {
		qs, err := Marginals(d.Columns(), width)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newMWEMStepper(MWEMConfig{Data: d, Queries: qs, Rounds: rounds, Epsilon: eps, Replays: replays}, rng.Seeded(seed), selectScale, noiseScale)
		if err != nil {
			t.Fatal(err)
		}
		for !s.Done() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		base := mwemLogLikelihood(t, s, s.rounds, d, qs)
		w := 0.0
		for _, x := range near {
			w = math.Max(w, math.Abs(base-mwemLogLikelihood(t, s, s.rounds, x, qs)))
		}
		return w
	}
	type setting struct {
		width, rounds, replays int
		eps                    float64
	}
	settings := []setting{{1, 1, 0, 1}, {1, 3, 0, 0.5}, {2, 5, 0, 1}, {2, 4, 5, 2}, {1, 2, 0, 5}}
	for _, c := range settings {
		most := 0.0
		for seed := uint64(1); seed <= 6; seed++ {
			w := worst(1, 1, c.width, c.rounds, c.replays, c.eps, seed)
			if w > c.eps+1e-9 {
				t.Errorf("%+v seed %d: log-likelihood ratio %v on a neighbour exceeds ε = %v", c, seed, w, c.eps)
			}
			most = math.Max(most, w)
		}
		t.Logf("%+v: largest ratio over seeds and %d neighbours %.4f (ε = %v)", c, len(near), most, c.eps)
	}
	for _, broken := range []struct {
		name                    string
		selectScale, noiseScale float64
	}{{"noise scale T/(ε·n)", 1, 2}, {"selection at ε/T", 2, 1}} {
		most, eps := 0.0, 0.0
		for _, c := range settings {
			for seed := uint64(1); seed <= 6; seed++ {
				if w := worst(broken.selectScale, broken.noiseScale, c.width, c.rounds, c.replays, c.eps, seed); w/c.eps > most {
					most, eps = w/c.eps, c.eps
				}
			}
		}
		t.Logf("%s: largest ratio %.4f·ε (at ε = %v)", broken.name, most, eps)
		if most <= 1+1e-9 {
			t.Errorf("%s: the largest log-likelihood ratio is %v·ε, within the bound", broken.name, most)
		}
	}
}
