// Package synth is the application layer of the synthetic-data widgets
// (SmallDB and MWEM on the medical table), called by the lazily loaded synth
// module (wasm/synth) and by `dpplay figures`. It is apart from package
// selection because core/synth links fmt, which the first-load module must
// not (see internal/deps).
//
// All modules share one Web Worker, and a call there runs to completion, so
// SmallDB's scoring is handed out in chunks: Start prepares a run and returns
// a handle, Advance scores for a few milliseconds (or moves one stage) and
// returns where the run stands, and the page calls it again until the stage
// it wants. Cancelling is not calling again; Close frees the run.
package synth

import (
	"math"
	mrand "math/rand/v2"
	"strconv"
	"time"

	"github.com/dpplay/dpplay/app/number"
	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/synth"
	"github.com/dpplay/dpplay/core/validate"
)

// Beta is the failure probability β of the accuracy bounds and of the
// measured error quantile.
const Beta = 0.05

// MaxCandidates is the largest SmallDB instance the page will score: about
// 10 to 30 s in a browser. Larger ones are refused with a pointer to MWEM.
const MaxCandidates = 200_000_000

// MaxRuns is how many SmallDB runs stay open; starting another closes the
// oldest, so a page that forgets to Close cannot fill the worker's memory.
const MaxRuns = 4

// DefaultProbe is how many candidates Start scores per chunk of its
// throwaway run that measures the scoring rate for the time prediction.
const DefaultProbe = 1 << 14

// MaxProbe bounds the time that measurement may take.
const MaxProbe = 250 * time.Millisecond

// columnSets are the medical table's columns for k = 3, 4 and 5 attributes:
// the notes' example uses all five; fewer make the universe small enough to
// enumerate at larger m.
var columnSets = map[int][]string{
	3: {"smoker", "lung_cancer", "over_50"},
	4: {"sex", "smoker", "lung_cancer", "over_50"},
	5: {"sex", "smoker", "lung_cancer", "over_150lb", "over_50"},
}

// Setup is the data and query class a lesson-8 widget works on.
type Setup struct {
	Data    *synth.Data
	Queries *synth.QuerySet
	// Kind is the query class: "marginals:1", "marginals:2", "marginals:3" or
	// "halfspaces".
	Kind string
}

// NewSetup projects the medical table onto k of its columns and builds the
// query class kind.
func NewSetup(k int, kind string) (*Setup, error) {
	cols, ok := columnSets[k]
	if !ok {
		return nil, validate.Errorf("k", "must be 3, 4 or 5 attributes, got %d", k)
	}
	full, err := synth.Medical()
	if err != nil {
		return nil, err
	}
	d, err := full.Project(cols)
	if err != nil {
		return nil, err
	}
	return setupOf(d, kind)
}

// MaxOwnColumns is the most yes/no columns of a user's own table the
// widgets take, as for the medical table.
const MaxOwnColumns = 5

// NewSetupData builds the query class kind over a user's own table: counts
// is its histogram over {0,1}^k, k = len(columns) ≤ MaxOwnColumns, the
// first column the most significant bit (app/data.Table.Histogram).
func NewSetupData(columns []string, counts []int, kind string) (*Setup, error) {
	if len(columns) < 1 || len(columns) > MaxOwnColumns {
		return nil, validate.Errorf("columns", "choose between 1 and %d yes/no columns, not %d", MaxOwnColumns, len(columns))
	}
	d, err := synth.NewData(columns, counts)
	if err != nil {
		return nil, err
	}
	return setupOf(d, kind)
}

func setupOf(d *synth.Data, kind string) (*Setup, error) {
	cols := d.Columns()
	var qs *synth.QuerySet
	var err error
	switch kind {
	case "marginals:1":
		qs, err = synth.Marginals(cols, 1)
	case "marginals:2":
		qs, err = synth.Marginals(cols, 2)
	case "marginals:3":
		qs, err = synth.Marginals(cols, 3)
	case "halfspaces":
		qs, err = synth.Halfspaces(cols)
	default:
		return nil, validate.Errorf("queries", "must be marginals:1, marginals:2, marginals:3 or halfspaces, got %q", kind)
	}
	if err != nil {
		return nil, err
	}
	return &Setup{Data: d, Queries: qs, Kind: kind}, nil
}

// Plan is what the page shows before scoring: the data, the queries with
// their true answers, the candidate count and the bounds.
type Plan struct {
	Columns     []string
	Counts      []float64 // the true histogram over {0,1}^k
	N           int
	Queries     []string
	TrueAnswers []float64
	Universe    int
	// Candidates is C(|X|+m−1, m) (as a float64 when it does not fit the
	// enumeration: then Refused says why).
	Candidates float64
	Refused    string
	// ProbeRate is candidates scored per second in a throwaway run of
	// ProbeCandidates candidates of this very instance, measured where the
	// code runs (see probeRate); PredictedMs is Candidates/ProbeRate.
	ProbeRate, PredictedMs float64
	ProbeCandidates        uint64
	// Alpha = √(ln|Q|/m) and Prop44 is Proposition 4.4 at β = Beta for
	// this run's m: the bound the page sets beside the measured error.
	Alpha, Prop44 float64
	// Thm45 is Theorem 4.5's bound at β = Beta, which covers SmallDB run
	// with Thm45Size rows (⌈4·ln|Q|/Thm45²⌉), not with this run's m unless
	// the two agree; the page shows it as that, with its m.
	Thm45     float64
	Thm45Size int
}

func newPlan(s *Setup, m int, epsilon float64) (Plan, error) {
	d, qs := s.Data, s.Queries
	ans, err := qs.Answers(d)
	if err != nil {
		return Plan{}, err
	}
	counts := d.Counts()
	p := Plan{
		Columns: d.Columns(), Counts: make([]float64, len(counts)), N: d.N(),
		Queries: qs.Names(), TrueAnswers: ans, Universe: d.UniverseSize(),
	}
	for i, c := range counts {
		p.Counts[i] = float64(c)
	}
	if err := validate.Positive("ε", epsilon); err != nil {
		return p, err
	}
	lc, err := synth.LogCandidateCount(d.UniverseSize(), m)
	if err != nil {
		return p, err
	}
	if c, err := synth.CandidateCount(d.UniverseSize(), m); err == nil {
		p.Candidates = float64(c)
	} else {
		p.Candidates = math.Exp(lc)
	}
	if p.Candidates > MaxCandidates {
		p.Refused = "too many candidates to score in a browser; lower m, use fewer attributes, or run MWEM"
	}
	b, err := bounds(d, qs, m, epsilon)
	if err != nil {
		return p, err
	}
	p.Alpha, p.Prop44, p.Thm45, p.Thm45Size = b.alpha, b.prop44, b.thm45, b.thm45Size
	return p, nil
}

// run is one open SmallDB run. src is the stepper's random source, saved
// when scoring ends so that a change of ε redraws exactly as a fresh run
// with the same seed would.
type run struct {
	setup   *Setup
	stepper *synth.SmallDBStepper
	src     *mrand.ChaCha8
	saved   []byte
	m       int
	scoring time.Duration
}

// Runs holds the open SmallDB runs of one worker, by handle.
type Runs struct {
	runs  map[int]*run
	order []int
	next  int
}

// NewRuns returns an empty set of runs.
func NewRuns() *Runs { return &Runs{runs: map[int]*run{}, next: 1} }

// Spec is one SmallDB run's parameters.
type Spec struct {
	K       int
	Kind    string
	Size    int
	Epsilon float64
	Seed    uint64
	// Probe is how many candidates each chunk of the throwaway run that
	// predicts the time scores (0: no prediction).
	Probe uint64
	// Columns and Counts, when Columns is set, are a user's own table
	// (NewSetupData) instead of the medical table's K columns.
	Columns []string
	Counts  []int
}

func (s Spec) setup() (*Setup, error) { return setupFor(s.K, s.Kind, s.Columns, s.Counts) }

// setupFor is NewSetupData(columns, counts, kind) for a user's own table
// (columns set), else NewSetup(k, kind).
func setupFor(k int, kind string, columns []string, counts []int) (*Setup, error) {
	if columns != nil {
		return NewSetupData(columns, counts, kind)
	}
	return NewSetup(k, kind)
}

// Start validates spec and opens a run at its first stage, the data. A
// refused instance (Plan.Refused) gets handle 0 and no error, so that the
// page can still show the data, the queries and the count.
func (rs *Runs) Start(spec Spec) (int, Plan, error) {
	setup, err := spec.setup()
	if err != nil {
		return 0, Plan{}, err
	}
	if spec.Size < 1 || spec.Size > synth.MaxSize {
		return 0, Plan{}, validate.Errorf("m", "must be between 1 and %d, got %d", synth.MaxSize, spec.Size)
	}
	plan, err := newPlan(setup, spec.Size, spec.Epsilon)
	if err != nil || plan.Refused != "" {
		return 0, plan, err
	}
	cfg := synth.SmallDBConfig{Data: setup.Data, Queries: setup.Queries, Size: spec.Size, Epsilon: spec.Epsilon, MaxCandidates: MaxCandidates}
	if spec.Probe > 0 {
		probe, err := synth.NewSmallDBStepper(cfg, rng.Seeded(0))
		if err != nil {
			return 0, plan, err
		}
		for probe.Stage() < synth.StageCount {
			_ = probe.Step(1)
		}
		plan.ProbeRate, plan.ProbeCandidates = probeRate(probe, spec.Probe)
		if plan.ProbeRate > 0 {
			plan.PredictedMs = 1000 * plan.Candidates / plan.ProbeRate
		}
	}
	src := rng.NewSeededSource(spec.Seed)
	st, err := synth.NewSmallDBStepper(cfg, mrand.New(src))
	if err != nil {
		return 0, plan, err
	}
	h := rs.next
	rs.next++
	rs.runs[h] = &run{setup: setup, stepper: st, src: src, m: spec.Size}
	rs.order = append(rs.order, h)
	for len(rs.order) > MaxRuns {
		delete(rs.runs, rs.order[0])
		rs.order = rs.order[1:]
	}
	return h, plan, nil
}

// Close forgets run h (closing an unknown handle does nothing).
func (rs *Runs) Close(h int) {
	delete(rs.runs, h)
	for i, o := range rs.order {
		if o == h {
			rs.order = append(rs.order[:i], rs.order[i+1:]...)
			break
		}
	}
}

func (rs *Runs) get(h int) (*run, error) {
	r, ok := rs.runs[h]
	if !ok {
		return nil, validate.Errorf("handle", "%d is not an open run (runs close when %d newer ones start)", h, MaxRuns)
	}
	return r, nil
}

// View is where a run stands: the page draws the stage from it.
type View struct {
	Stage      int // synth.StageData … synth.StageCompare
	StageName  string
	Scored     uint64
	Candidates uint64
	// ScoringMs is the time spent scoring so far, and Rate the candidates
	// per second it achieved.
	ScoringMs, Rate float64
	Epsilon         float64
	// From StageLevels on: the exact distribution over error levels, the
	// expected max-error, its (1−β)-quantile, Proposition 4.4 at this run's
	// m and the exact probability of exceeding it, and Theorem 4.5's bound
	// with the m it is about (Thm45Size; compare with the run's m before
	// reading it as a bound on this run).
	LevelErrors, LevelCounts, LevelProbs []float64
	// The charts of the levels, computed here once for the page and the
	// figures: LevelCDF is P(max-error ≤ level) (LevelProbs cumulated),
	// LevelShare the share of all candidates at or below each level (the
	// draw as ε → 0), and the histogram behind them groups LevelProbs into
	// about LevelBands bands of width BandWidth (Bands).
	LevelCDF, LevelShare   []float64
	BandEdges, BandHeights []float64
	BandWidth              float64
	Expected, Quantile     float64
	Prop44, TailProp44     float64
	Thm45                  float64
	Thm45Size              int
	// From StageDraw on: the drawn level (index into the level lists), the
	// synthetic database as m point indices, and its max-error.
	Level     int
	Synthetic []float64
	MaxError  float64
	// At StageCompare: f(y) per query, and for halfspaces the article's use
	// case (Learned == "" otherwise).
	SyntheticAnswers                        []float64
	Learned, Best                           string
	LearnedSynthetic, LearnedReal, BestReal float64
}

// Advance moves run h towards stage target (synth.StageCompare to finish).
// In the scoring stage it scores for about maxMs milliseconds (at least one
// chunk of chunk candidates) and returns, so the page can show progress
// and the worker can answer other calls; other stages take one step each.
// It returns as soon as target is reached or the time is up.
func (rs *Runs) Advance(h int, target int, chunk uint64, maxMs float64) (View, error) {
	r, err := rs.get(h)
	if err != nil {
		return View{}, err
	}
	if target < int(synth.StageData) || target > int(synth.StageCompare) {
		return View{}, validate.Errorf("stage", "must be between 0 and %d, got %d", int(synth.StageCompare), target)
	}
	if chunk == 0 {
		chunk = synth.DefaultChunk
	}
	if err := validate.Positive("maxMs", maxMs); err != nil {
		return View{}, err
	}
	st := r.stepper
	t0 := time.Now()
	deadline := time.Duration(maxMs * float64(time.Millisecond))
	for int(st.Stage()) < target {
		scoring := st.Stage() == synth.StageCount || st.Stage() == synth.StageScoring
		s0 := time.Now()
		if err := st.Step(chunk); err != nil {
			return View{}, err
		}
		if scoring {
			r.scoring += time.Since(s0)
			if st.Stage() == synth.StageLevels {
				if r.saved, err = r.src.MarshalBinary(); err != nil {
					return View{}, err
				}
			}
		}
		if time.Since(t0) >= deadline {
			break
		}
	}
	return r.view()
}

// Reweight changes run h's ε once scoring has finished: the level
// distribution is recomputed and, if the run is to draw, it draws again from
// the source as it stood after scoring, so the result is the one a fresh run
// at the new ε with the same seed gives. The run ends at stage (between
// synth.StageLevels and synth.StageCompare; −1 keeps the stage it was at),
// which is also how the page steps back without scoring again.
func (rs *Runs) Reweight(h int, epsilon float64, stage int) (View, error) {
	r, err := rs.get(h)
	if err != nil {
		return View{}, err
	}
	st := r.stepper
	target := st.Stage()
	if stage >= 0 {
		if stage < int(synth.StageLevels) || stage > int(synth.StageCompare) {
			return View{}, validate.Errorf("stage", "must be between %d and %d (or −1), got %d", int(synth.StageLevels), int(synth.StageCompare), stage)
		}
		target = synth.Stage(stage)
	}
	if err := st.Reweight(epsilon); err != nil {
		return View{}, err
	}
	if err := r.src.UnmarshalBinary(r.saved); err != nil {
		return View{}, err
	}
	for st.Stage() < target {
		if err := st.Step(1); err != nil {
			return View{}, err
		}
	}
	return r.view()
}

func (r *run) view() (View, error) {
	st := r.stepper
	snap := st.Snapshot()
	v := View{
		Stage: int(snap.Stage), StageName: snap.Stage.String(), Scored: st.Scored(), Candidates: st.Candidates(),
		ScoringMs: float64(r.scoring) / float64(time.Millisecond), Epsilon: st.Epsilon(),
	}
	if r.scoring > 0 {
		v.Rate = float64(st.Scored()) / r.scoring.Seconds()
	}
	if snap.Stage < synth.StageLevels {
		return v, nil
	}
	d, qs := r.setup.Data, r.setup.Queries
	b, err := bounds(d, qs, r.m, st.Epsilon())
	if err != nil {
		return v, err
	}
	v.Prop44, v.Thm45, v.Thm45Size = b.prop44, b.thm45, b.thm45Size
	sum := summarise(snap.Levels)
	v.LevelErrors, v.LevelCounts, v.LevelProbs = sum.errors, sum.counts, sum.probs
	v.LevelCDF, v.LevelShare = cumulated(sum.probs, false), cumulated(sum.counts, true)
	v.BandEdges, v.BandHeights, v.BandWidth = Bands(sum.errors, sum.probs)
	v.Expected, v.Quantile = sum.expected, sum.quantile
	// The measured error is compared with Proposition 4.4 at the run's own
	// m only: it holds for any m, and Theorem 4.5 holds for one m.
	if v.TailProp44, err = synth.TailProbability(snap.Levels, v.Prop44); err != nil {
		return v, err
	}
	if snap.Stage < synth.StageDraw {
		return v, nil
	}
	v.Level, v.MaxError = snap.Level, snap.MaxError
	for _, p := range snap.Synthetic {
		v.Synthetic = append(v.Synthetic, float64(p))
	}
	if snap.Stage < synth.StageCompare {
		return v, nil
	}
	v.SyntheticAnswers = snap.SyntheticAnswers
	if r.setup.Kind == "halfspaces" {
		w := make([]float64, d.UniverseSize())
		for _, p := range snap.Synthetic {
			w[p]++
		}
		fit, err := synth.LearnHalfspace(w, d)
		if err != nil {
			return v, err
		}
		v.Learned, v.Best = fit.Name, fit.BestName
		v.LearnedSynthetic, v.LearnedReal, v.BestReal = fit.SyntheticAgreement, fit.RealAgreement, fit.BestAgreement
	}
	return v, nil
}

// boundSet holds the accuracy bounds at one ε: Proposition 4.4 at the run's m
// (α = √(ln|Q|/m)), and Theorem 4.5's bound with the m it is about.
type boundSet struct {
	alpha, prop44, thm45 float64
	thm45Size            int
}

// bounds returns the accuracy bounds at β = Beta. Every query class the page
// offers has |Q| ≥ 3, so the bounds always exist.
func bounds(d *synth.Data, qs *synth.QuerySet, m int, epsilon float64) (boundSet, error) {
	var b boundSet
	var err error
	if b.alpha, err = synth.AlphaForSize(qs.Len(), m); err != nil {
		return b, err
	}
	if b.prop44, err = synth.Prop44Bound(d.UniverseSize(), qs.Len(), d.N(), epsilon, b.alpha, Beta); err != nil {
		return b, err
	}
	if b.thm45, err = synth.Thm45Bound(d.UniverseSize(), qs.Len(), d.N(), epsilon, Beta); err != nil {
		return b, err
	}
	b.thm45Size, err = synth.Thm45Size(qs.Len(), b.thm45)
	return b, err
}

type summary struct {
	errors, counts, probs []float64
	expected, quantile    float64
}

// summarise lists the levels as three columns, with the expected max-error
// Σ P·err and its (1−β)-quantile, the smallest level t with P(err > t) ≤ β.
func summarise(levels []synth.Level) summary {
	var s summary
	tail := 1.0
	s.quantile = math.NaN()
	for _, l := range levels {
		s.errors = append(s.errors, l.MaxError)
		s.counts = append(s.counts, float64(l.Candidates))
		s.probs = append(s.probs, l.Probability)
		s.expected += l.Probability * l.MaxError
		tail -= l.Probability
		if math.IsNaN(s.quantile) && tail <= Beta {
			s.quantile = l.MaxError
		}
	}
	if math.IsNaN(s.quantile) && len(levels) > 0 {
		s.quantile = levels[len(levels)-1].MaxError
	}
	return s
}

// Curve is the bound against the measured error over a grid of ε, from one
// scoring: the counts per level do not depend on ε. Prop44 is Proposition
// 4.4 at the run's m, the bound that covers the measured curves. Thm45 and
// Thm45Size are Theorem 4.5's bound at each ε and the m it needs there: a
// different run at every ε, so the page does not draw it against this run.
type Curve struct {
	Epsilons, Expected, Quantile, Prop44, Thm45 []float64
	Thm45Size                                   []int
}

// CurveEpsilons returns the ε grid of the bound-against-error chart.
func CurveEpsilons() []float64 {
	return []float64{0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30, 50}
}

// Curve computes, for every ε of CurveEpsilons, SmallDB's exact expected
// max-error and (1−β)-quantile at run h's m, beside Proposition 4.4's bound
// at the same m and β, and Theorem 4.5's bound with its own m.
func (rs *Runs) Curve(h int) (Curve, error) {
	r, err := rs.get(h)
	if err != nil {
		return Curve{}, err
	}
	c := Curve{Epsilons: CurveEpsilons()}
	for _, eps := range c.Epsilons {
		levels, err := r.stepper.LevelsAt(eps)
		if err != nil {
			return Curve{}, err
		}
		s := summarise(levels)
		b, err := bounds(r.setup.Data, r.setup.Queries, r.m, eps)
		if err != nil {
			return Curve{}, err
		}
		c.Expected = append(c.Expected, s.expected)
		c.Quantile = append(c.Quantile, s.quantile)
		c.Prop44 = append(c.Prop44, b.prop44)
		c.Thm45 = append(c.Thm45, b.thm45)
		c.Thm45Size = append(c.Thm45Size, b.thm45Size)
	}
	return c, nil
}

// MWEMSpec is one MWEM run's parameters: T rounds, of which the first Upto
// are run (the page's stepper), with Replays extra passes per round.
type MWEMSpec struct {
	K            int
	Kind         string
	Rounds, Upto int
	Replays      int
	Epsilon      float64
	Seed         uint64
	// Columns and Counts, when Columns is set, are a user's own table, as in Spec.
	Columns []string
	Counts  []int
}

// MWEMView is an MWEM run after Upto of its T rounds. Each round list has
// one entry per round run.
type MWEMView struct {
	Queries     []string
	TrueAnswers []float64
	// Per round: the chosen query, the probability with which it was chosen,
	// q(A) before, the noisy measurement, q(A) after, and the max-error of
	// the running average.
	Query, Chosen, Estimate, Measurement, Updated, RoundError []float64
	// Answers are the running average's answers to every query, Distribution
	// the average itself over {0,1}^k, MaxError its max-error.
	Answers, Distribution []float64
	MaxError              float64
	// InitialError is the max-error of A_0, the uniform distribution.
	InitialError float64
	// Spent is the ε charged to the accountant so far, Budget the whole ε,
	// Charges the number of charges (2 per round) and NoiseScale the
	// Laplace scale on a fraction, 2T/(ε·n).
	Spent, Budget, NoiseScale float64
	Charges                   int
	// Done is true when all T rounds have run.
	Done bool
}

// MWEM runs the first spec.Upto rounds of MWEM on the medical table with a
// seeded source: every call replays from the start, so the page's round
// stepper is reproducible from its URL (a round costs microseconds here).
func MWEM(spec MWEMSpec) (MWEMView, error) {
	setup, err := setupFor(spec.K, spec.Kind, spec.Columns, spec.Counts)
	if err != nil {
		return MWEMView{}, err
	}
	if spec.Upto < 0 || spec.Upto > spec.Rounds {
		return MWEMView{}, validate.Errorf("upto", "must be between 0 and the %d rounds, got %d", spec.Rounds, spec.Upto)
	}
	acct, err := account.New(spec.Epsilon, 0)
	if err != nil {
		return MWEMView{}, err
	}
	st, err := synth.NewMWEMStepper(synth.MWEMConfig{
		Data: setup.Data, Queries: setup.Queries, Rounds: spec.Rounds, Epsilon: spec.Epsilon,
		Replays: spec.Replays, Accountant: acct,
	}, rng.Seeded(spec.Seed))
	if err != nil {
		return MWEMView{}, err
	}
	truth, err := setup.Queries.Answers(setup.Data)
	if err != nil {
		return MWEMView{}, err
	}
	v := MWEMView{Queries: setup.Queries.Names(), TrueAnswers: truth, Budget: spec.Epsilon,
		NoiseScale: 2 * float64(spec.Rounds) / (spec.Epsilon * float64(setup.Data.N()))}
	uniform, err := setup.Queries.AnswersOn(st.Distribution())
	if err != nil {
		return MWEMView{}, err
	}
	for q, a := range uniform {
		v.InitialError = math.Max(v.InitialError, math.Abs(a-truth[q]))
	}
	sum := make([]float64, setup.Data.UniverseSize())
	for t := 0; t < spec.Upto; t++ {
		round, err := st.Step()
		if err != nil {
			return MWEMView{}, err
		}
		v.Query = append(v.Query, float64(round.Query))
		v.Chosen = append(v.Chosen, round.Selection[round.Query])
		v.Estimate = append(v.Estimate, round.Estimate)
		v.Measurement = append(v.Measurement, round.Measurement)
		v.Updated = append(v.Updated, round.Updated)
		v.RoundError = append(v.RoundError, round.MaxError)
		for p, a := range round.Distribution {
			sum[p] += a
		}
	}
	// Before the first round MWEM's estimate is A_0, the uniform distribution.
	v.Distribution = st.Distribution()
	if spec.Upto > 0 {
		for p := range sum {
			v.Distribution[p] = sum[p] / float64(spec.Upto)
		}
	}
	if v.Answers, err = setup.Queries.AnswersOn(v.Distribution); err != nil {
		return MWEMView{}, err
	}
	for q, a := range v.Answers {
		v.MaxError = math.Max(v.MaxError, math.Abs(a-truth[q]))
	}
	v.Spent, _ = acct.Spent()
	v.Charges = len(acct.Ledger())
	v.Done = st.Done()
	return v, nil
}

// Reference is SmallDB's exact error distribution on a setup at one m,
// kept between calls so that MWEM's comparison follows ε without scoring
// again.
type Reference struct {
	key     string
	stepper *synth.SmallDBStepper
}

// MaxReferenceCandidates bounds the SmallDB run MWEM's widget compares with:
// it is scored in one call, which must stay short.
const MaxReferenceCandidates = 2_000_000

// Expected returns SmallDB's exact expected max-error and (1−β)-quantile at
// m and ε on the medical table projected to k columns with query class kind,
// scoring once per (k, kind, m).
func (ref *Reference) Expected(k int, kind string, m int, epsilon float64) (expected, quantile float64, candidates uint64, err error) {
	return ref.ExpectedData(k, nil, nil, kind, m, epsilon)
}

// ExpectedData is Expected on a user's own table (columns and its
// histogram counts, as Spec takes them) when columns is set.
func (ref *Reference) ExpectedData(k int, columns []string, counts []int, kind string, m int, epsilon float64) (expected, quantile float64, candidates uint64, err error) {
	key := strconv.Itoa(k) + " " + kind + " " + strconv.Itoa(m)
	for _, c := range columns {
		key += " " + strconv.Quote(c)
	}
	for _, c := range counts {
		key += " " + strconv.Itoa(c)
	}
	if ref.key != key || ref.stepper == nil {
		setup, err := setupFor(k, kind, columns, counts)
		if err != nil {
			return 0, 0, 0, err
		}
		st, err := synth.NewSmallDBStepper(synth.SmallDBConfig{Data: setup.Data, Queries: setup.Queries, Size: m,
			Epsilon: 1, MaxCandidates: MaxReferenceCandidates}, rng.Seeded(0))
		if err != nil {
			return 0, 0, 0, err
		}
		for st.Stage() < synth.StageLevels {
			if err := st.Step(synth.DefaultChunk); err != nil {
				return 0, 0, 0, err
			}
		}
		ref.key, ref.stepper = key, st
	}
	levels, err := ref.stepper.LevelsAt(epsilon)
	if err != nil {
		return 0, 0, 0, err
	}
	s := summarise(levels)
	return s.expected, s.quantile, ref.stepper.Candidates(), nil
}

// probeRate scores chunks of st until two chunks in a row agree on the rate
// within 15% (or MaxProbe has passed, or the candidates run out) and returns
// their mean rate and the candidates scored. One chunk is not enough in a
// browser: it compiles WebAssembly with a fast baseline compiler first and
// swaps in optimised code later, so for the first 100 ms or so after the
// module loads the rate jumps about and is up to five times too low.
func probeRate(st *synth.SmallDBStepper, chunk uint64) (float64, uint64) {
	start := time.Now()
	var last float64
	for {
		before := st.Scored()
		t0 := time.Now()
		if err := st.Step(chunk); err != nil {
			break
		}
		// A timer coarser than the chunk (browsers round to 0.1 ms or
		// 5 µs) may read 0: then assume one tick.
		r := float64(st.Scored()-before) / math.Max(time.Since(t0).Seconds(), 1e-4)
		if st.Stage() >= synth.StageLevels || time.Since(start) >= MaxProbe || (last > 0 && math.Abs(r-last) <= 0.15*max(r, last)) {
			if last > 0 {
				r = (r + last) / 2
			}
			return r, st.Scored()
		}
		last = r
	}
	return last, st.Scored()
}

// LevelBands is about how many bands Bands groups the levels into.
const LevelBands = 30

// Bands groups level probabilities into bands for the histogram behind the
// levels' CDF: the width is the smallest of 1, 2, 2.5, 5 or 10 times a power
// of ten at or above top/LevelBands, top the largest error (0.01 when it is
// 0), and there are ⌊top/width⌋ + 1 bands from 0, the last one holding top.
// Level i adds probs[i] to band ⌊errors[i]/width⌋. Edges are rounded to ten
// significant digits, so 3·0.1 is 0.3.
func Bands(errors, probs []float64) (edges, heights []float64, width float64) {
	top := 0.01
	if len(errors) > 0 && errors[len(errors)-1] != 0 {
		top = errors[len(errors)-1]
	}
	raw := top / LevelBands
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, x := range []float64{1, 2, 2.5, 5, 10} {
		if width = x * p; width >= raw {
			break
		}
	}
	nb := int(math.Floor(top/width)) + 1
	edges = make([]float64, nb+1)
	for i := range edges {
		edges[i] = number.RoundSig(float64(i)*width, 10)
	}
	heights = make([]float64, nb)
	for i, e := range errors {
		heights[min(nb-1, int(math.Floor(e/width+1e-9)))] += probs[i]
	}
	return edges, heights, width
}

// cumulated returns the running sums of xs, divided by their total when
// share is set.
func cumulated(xs []float64, share bool) []float64 {
	out := make([]float64, len(xs))
	s := 0.0
	for i, x := range xs {
		s += x
		out[i] = s
	}
	if share {
		for i := range out {
			out[i] /= s
		}
	}
	return out
}
