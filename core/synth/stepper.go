package synth

import (
	"context"
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// Stage is a step of SmallDB, in the order
// data → queries → count → scoring → levels → draw → compare.
type Stage int

// The stages in order, numbered 1 to 7. A
// stepper's Stage is the last one whose results are available; Step moves to
// the next.
const (
	StageData    Stage = iota // the histogram of the true data
	StageQueries              // the query set and the true answers f(x)
	StageCount                // the number of candidates, C(|X|+m−1, m)
	StageScoring              // scoring candidates (several steps, with progress)
	StageLevels               // the exact distribution over error levels
	StageDraw                 // the drawn level and the synthetic database
	StageCompare              // f(y) against f(x) per query: the run is finished
)

var stageNames = [...]string{"data", "queries", "count", "scoring", "levels", "draw", "compare"}

// String returns the stage's name ("data", …, "compare"), the form a URL
// carries.
func (s Stage) String() string {
	if s >= 0 && int(s) < len(stageNames) {
		return stageNames[s]
	}
	return validate.Sprintf("Stage(%d)", int(s))
}

// DefaultChunk is how many candidates Run scores between checks of its
// context and calls of its progress function.
const DefaultChunk = 1 << 15

// SmallDBStepper runs SmallDB, Pr[y] ∝ exp(−ε·n·max_q abs(f(x) − f(y))/2),
// one stage at a time, and the scoring stage a chunk of candidates at a time,
// so that a page can show each stage and a Web Worker can yield
// between chunks. With the same seed it produces exactly the draw SmallDB
// does, whatever the chunk sizes.
type SmallDBStepper struct {
	cfg    SmallDBConfig
	e      *enumerator
	lambda float64 // exponent factor: 1/2 for the exponential mechanism
	stage  Stage

	trueAnswers []float64
	levels      []Level
	levelIndex  []int
	result      *SmallDBResult
}

// NewSmallDBStepper validates cfg and prepares the enumeration of all
// C(|X|+m−1, m) candidates for the exponential mechanism with
// u(x, y) = −max_q abs(f(x) − f(y)) and Δu = 1/n. r supplies all
// randomness (the reservoir draws during scoring and the final level draw).
func NewSmallDBStepper(cfg SmallDBConfig, r *mrand.Rand) (*SmallDBStepper, error) {
	return newSmallDBStepper(cfg, r, 0.5)
}

func newSmallDBStepper(cfg SmallDBConfig, r *mrand.Rand, lambda float64) (*SmallDBStepper, error) {
	e, err := newEnumerator(cfg, r)
	if err != nil {
		return nil, err
	}
	ans, err := cfg.Queries.Answers(cfg.Data)
	if err != nil {
		return nil, err
	}
	return &SmallDBStepper{cfg: cfg, e: e, lambda: lambda, stage: StageData, trueAnswers: ans}, nil
}

// check reports whether s was made by NewSmallDBStepper: a nil or zero
// stepper has nothing to enumerate, and the methods that return an error
// refuse it; the others report zero values.
func (s *SmallDBStepper) check() error {
	if s == nil || s.e == nil || s.cfg.Data == nil || s.cfg.Queries == nil {
		return validate.Errorf("stepper", "is not set up; make it with NewSmallDBStepper")
	}
	return nil
}

// Stage returns the last stage whose results are available (StageData for a
// nil or zero stepper).
func (s *SmallDBStepper) Stage() Stage {
	if s == nil {
		return StageData
	}
	return s.stage
}

// Done reports whether the run has reached its last stage, StageCompare.
func (s *SmallDBStepper) Done() bool { return s.check() == nil && s.stage == StageCompare }

// Candidates returns the total number of candidates, C(|X|+m−1, m) (0 for a
// nil or zero stepper).
func (s *SmallDBStepper) Candidates() uint64 {
	if s.check() != nil {
		return 0
	}
	return s.e.total
}

// Scored returns how many candidates have been scored so far (0 for a nil or
// zero stepper).
func (s *SmallDBStepper) Scored() uint64 {
	if s.check() != nil {
		return 0
	}
	return s.e.scored
}

// Step moves to the next stage. In the scoring stage it scores at least
// budget more candidates (whole runs of the last element, so a little more)
// and stays there until every candidate is scored. Stepping a finished run
// does nothing.
func (s *SmallDBStepper) Step(budget uint64) error {
	if err := s.check(); err != nil {
		return err
	}
	if budget == 0 {
		return validate.Errorf("budget", "must be at least 1")
	}
	switch s.stage {
	case StageData, StageQueries:
		s.stage++
	case StageCount:
		s.stage = StageScoring
		s.e.advance(budget)
	case StageScoring:
		if s.e.advance(budget) {
			levels, index, err := s.e.levels(s.cfg.Data.N(), s.cfg.Epsilon, s.lambda)
			if err != nil {
				return err
			}
			s.levels, s.levelIndex = levels, index
			s.stage = StageLevels
		}
	case StageLevels:
		s.draw()
		s.stage = StageDraw
	case StageDraw:
		s.stage = StageCompare
	}
	return nil
}

func (s *SmallDBStepper) draw() {
	lv := drawLevel(s.levels, s.e.r)
	kept := s.e.keep[s.levelIndex[lv]]
	syn := make([]int, len(kept))
	counts := make([]int, s.e.universe)
	for i, p := range kept {
		syn[i] = int(p)
		counts[p]++
	}
	// A level with candidates always holds a kept member, and the columns
	// were validated with the data, so NewData cannot fail here.
	sd, _ := NewData(s.cfg.Data.columns, counts)
	sa, _ := s.cfg.Queries.Answers(sd)
	s.result = &SmallDBResult{
		Candidates:       s.e.total,
		Synthetic:        syn,
		SyntheticData:    sd,
		MaxError:         s.levels[lv].MaxError,
		Level:            lv,
		Levels:           append([]Level(nil), s.levels...),
		TrueAnswers:      append([]float64(nil), s.trueAnswers...),
		SyntheticAnswers: sa,
	}
}

// SmallDBSampler draws from SmallDB, Pr[y] ∝ exp(ε·u(x, y)/(2Δu)),
// repeatedly on one configuration. Every
// draw scores all candidates afresh (the reservoir that makes one pass exact
// cannot be reused), but the tables are built only once.
type SmallDBSampler struct {
	s *SmallDBStepper
}

// NewSmallDBSampler validates cfg and builds the tables for repeated exact
// draws from SmallDB.
func NewSmallDBSampler(cfg SmallDBConfig) (*SmallDBSampler, error) {
	return newSmallDBSampler(cfg, 0.5)
}

func newSmallDBSampler(cfg SmallDBConfig, lambda float64) (*SmallDBSampler, error) {
	// The seed is a placeholder: every Sample resets the source.
	s, err := newSmallDBStepper(cfg, rng.Seeded(0), lambda)
	if err != nil {
		return nil, err
	}
	return &SmallDBSampler{s: s}, nil
}

// Sample draws one synthetic database y with probability
// ∝ exp(−ε·n·max_q abs(f(x) − f(y))/2), with randomness from r.
func (sm *SmallDBSampler) Sample(ctx context.Context, r *mrand.Rand) (*SmallDBResult, error) {
	if sm == nil || sm.s.check() != nil {
		return nil, validate.Errorf("sampler", "is not set up; make it with NewSmallDBSampler")
	}
	if r == nil {
		return nil, validate.Errorf("rng", "is missing")
	}
	if ctx == nil {
		return nil, validate.Errorf("context", "is nil; pass context.Background()")
	}
	s := sm.s
	s.e.reset(r)
	s.stage, s.levels, s.levelIndex, s.result = StageData, nil, nil, nil
	return s.Run(ctx, nil)
}

// Run steps to the last stage, scoring DefaultChunk candidates at a
// time, checking ctx and calling progress (if not nil) between chunks.
func (s *SmallDBStepper) Run(ctx context.Context, progress func(scored, total uint64)) (*SmallDBResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, validate.Errorf("context", "is nil; pass context.Background()")
	}
	for !s.Done() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.Step(DefaultChunk); err != nil {
			return nil, err
		}
		if progress != nil && (s.stage == StageScoring || s.stage == StageLevels) {
			progress(s.e.scored, s.e.total)
		}
	}
	return s.Result()
}

// Result returns the finished run: the draw y, its max-error and the exact
// level distribution.
func (s *SmallDBStepper) Result() (*SmallDBResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if s.result == nil || !s.Done() {
		return nil, validate.Errorf("stepper", "has not finished (stage %v)", s.stage)
	}
	r := *s.result
	r.Synthetic = append([]int(nil), r.Synthetic...)
	r.Levels = append([]Level(nil), r.Levels...)
	r.TrueAnswers = append([]float64(nil), r.TrueAnswers...)
	r.SyntheticAnswers = append([]float64(nil), r.SyntheticAnswers...)
	return &r, nil
}

// LevelsAt returns the exact error-level distribution at another ε once
// scoring has finished. The counts per level do not depend on ε, so no
// candidate is scored again.
func (s *SmallDBStepper) LevelsAt(epsilon float64) ([]Level, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if s.stage < StageLevels {
		return nil, validate.Errorf("stepper", "has not finished scoring (stage %v)", s.stage)
	}
	if err := validate.Positive("ε", epsilon); err != nil {
		return nil, err
	}
	levels, _, err := s.e.levels(s.cfg.Data.N(), epsilon, s.lambda)
	return levels, err
}

// SmallDBSnapshot is what is known at a stage of a run. Fields belonging
// to later stages are zero.
type SmallDBSnapshot struct {
	Stage       Stage
	Columns     []string
	Counts      []int // the true histogram
	N           int
	Queries     []string
	TrueAnswers []float64
	Candidates  uint64
	Scored      uint64
	// Levels during scoring holds the counts so far (probabilities zero);
	// from StageLevels on it is the exact distribution.
	Levels           []Level
	Level            int
	Synthetic        []int
	MaxError         float64
	SyntheticAnswers []float64
}

// Snapshot returns the information available at the current stage
// (the zero snapshot for a nil or zero stepper).
func (s *SmallDBStepper) Snapshot() SmallDBSnapshot {
	if s.check() != nil {
		return SmallDBSnapshot{}
	}
	snap := SmallDBSnapshot{Stage: s.stage, Columns: s.cfg.Data.Columns(), Counts: s.cfg.Data.Counts(), N: s.cfg.Data.N()}
	if s.stage >= StageQueries {
		snap.Queries = s.cfg.Queries.Names()
		snap.TrueAnswers = append([]float64(nil), s.trueAnswers...)
	}
	if s.stage >= StageCount {
		snap.Candidates = s.e.total
	}
	if s.stage == StageScoring {
		snap.Scored = s.e.scored
		for i, c := range s.e.count {
			if c > 0 {
				snap.Levels = append(snap.Levels, Level{
					MaxError:   float64(s.e.values[i]) / (float64(s.cfg.Data.N()) * float64(s.e.m)),
					Scaled:     s.e.values[i],
					Candidates: c,
				})
			}
		}
	}
	if s.stage >= StageLevels {
		snap.Scored = s.e.scored
		snap.Levels = append([]Level(nil), s.levels...)
	}
	if s.stage >= StageDraw {
		snap.Level = s.result.Level
		snap.Synthetic = append([]int(nil), s.result.Synthetic...)
		snap.MaxError = s.result.MaxError
	}
	if s.stage >= StageCompare {
		snap.SyntheticAnswers = append([]float64(nil), s.result.SyntheticAnswers...)
	}
	return snap
}

// TailProbability returns the exact probability Σ_{levels with error > t} P
// that the max-error exceeds t under a level distribution: the
// measured counterpart of the β in Proposition 4.4, to be evaluated at the
// same m as the levels (Theorem 4.5's β is about its own m, Thm45Size).
func TailProbability(levels []Level, t float64) (float64, error) {
	if err := validate.Finite("t", t); err != nil {
		return 0, err
	}
	if len(levels) == 0 {
		return 0, validate.Errorf("levels", "are empty")
	}
	p := 0.0
	for _, l := range levels {
		if l.MaxError > t {
			p += l.Probability
		}
	}
	return min(p, 1), nil
}

// CandidateLogProbability returns ln P[SmallDB outputs y] for one candidate y
// (m point indices in any order) once scoring has finished: the probability
// of y's error level divided by the number of candidates sharing it. On a
// neighbouring data set it changes by at most ε.
func (s *SmallDBStepper) CandidateLogProbability(y []int) (float64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if s.stage < StageLevels {
		return 0, validate.Errorf("stepper", "has not finished scoring (stage %v)", s.stage)
	}
	if len(y) != s.e.m {
		return 0, validate.Errorf("candidate", "has %d points but m = %d", len(y), s.e.m)
	}
	counts := make([]int, s.e.universe)
	for i, p := range y {
		if p < 0 || p >= s.e.universe {
			return 0, validate.Errorf(validate.Index("candidate", i), "must be in [0, %d), got %d", s.e.universe, p)
		}
		counts[p]++
	}
	scaled := scaledError(s.cfg.Queries.queries, s.cfg.Queries.counts(s.cfg.Data), counts, s.cfg.Data.N(), s.e.m)
	for _, l := range s.levels {
		if l.Scaled == scaled {
			return l.LogProbability - math.Log(float64(l.Candidates)), nil
		}
	}
	// Every candidate was scored, so its level is listed.
	return 0, validate.Errorf("candidate", "has no level (internal error)")
}

// scaledError returns max_q abs(n·c_q − m·a_q) for a candidate histogram y of
// m rows against data counts a over n rows.
func scaledError(queries []Query, a, y []int, n, m int) int64 {
	var worst int64
	for q, query := range queries {
		c := 0
		for p, in := range query.Member {
			if in {
				c += y[p]
			}
		}
		v := int64(n)*int64(c) - int64(m)*int64(a[q])
		if v < 0 {
			v = -v
		}
		worst = max(worst, v)
	}
	return worst
}
