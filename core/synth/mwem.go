package synth

import (
	"context"
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/validate"
)

// MaxRounds bounds T, the number of MWEM rounds.
const MaxRounds = 10000

// MaxReplays bounds MWEMConfig.Replays, the extra multiplicative-weights
// passes per round.
const MaxReplays = 1000

// MWEMConfig configures MWEM (Hardt, Ligett & McSherry 2012).
type MWEMConfig struct {
	Data    *Data
	Queries *QuerySet
	// Rounds is T. Each round spends ε/(2T) on choosing a query and ε/(2T) on
	// measuring it, so the whole run is ε-differentially private.
	Rounds  int
	Epsilon float64
	// Replays is how many extra passes of multiplicative-weights updates over
	// all measurements so far follow each round's own update (0 for the
	// textbook algorithm). Hardt, Ligett and McSherry suggest it to get more
	// out of each measurement; it only post-processes released values, so
	// it costs no privacy.
	Replays int
	// Accountant, if not nil, is charged for every round; it must have at
	// least ε left before the run starts. If nil, a fresh accountant with
	// budget ε is used.
	Accountant *account.Accountant
}

// MWEMRound records one round of MWEM: the query chosen, its measurement and
// the errors after the update.
type MWEMRound struct {
	Round int // 1-based
	// Query is the index of the chosen query and Selection the exact
	// probabilities with which the exponential mechanism chose it.
	Query     int
	Selection []float64
	// Estimate is q(A) before the update, Measurement the noisy answer
	// q(x) + Laplace(2T/(ε·n)), and Updated q(A) after the update.
	Estimate, Measurement, Updated float64
	// TrueAnswer is q(x): private, shown only because this is a classroom.
	TrueAnswer float64
	// Distribution is A after this round's update.
	Distribution []float64
	// MaxError is max_q abs(q(x) − q(Ā)) for the running average Ā of the
	// distributions so far, which is what MWEM outputs.
	MaxError float64
}

// MWEMResult is a finished run of MWEM: the output Ā = (1/T)·Σ_t A_t,
// its answers, max_q abs(q(Ā) − q(x)), and the ledger of 2T charges of ε/(2T).
type MWEMResult struct {
	Rounds []MWEMRound
	// Distribution is the output: the average of A_1, …, A_T over the
	// universe (it sums to 1; multiply by n for synthetic counts).
	Distribution         []float64
	TrueAnswers, Answers []float64
	MaxError             float64
	// Ledger holds this run's charges (2T of them) and EpsilonSpent their
	// sum, which equals EpsilonBudget = ε up to rounding.
	Ledger                      []account.Charge
	EpsilonSpent, EpsilonBudget float64
}

type measurement struct {
	query int
	value float64
}

// MWEMStepper runs MWEM one round per Step: select with
// exp(ε/(2T)·abs(q(A) − q(x))/(2/n)), measure with
// Laplace(2T/(ε·n)), update A(p) ∝ A(p)·exp(φ(p)·(measurement − q(A))/2).
type MWEMStepper struct {
	cfg  MWEMConfig
	r    *mrand.Rand
	acct *account.Accountant
	// chargeEps = ε/(2T) is what each step costs on the ledger; selectEps
	// and noiseEps are the ε the selection and the noise are calibrated
	// to, also ε/(2T) unless a test breaks the calibration (and then the
	// ledger still says ε/(2T), as a buggy mechanism's would).
	chargeEps, selectEps, noiseEps float64
	truth                          []float64
	logA                           []float64 // ln A up to a constant: the update is additive here
	a                              []float64 // current distribution A
	sum                            []float64 // Σ of A_1..A_t
	rounds                         []MWEMRound
	charges                        []account.Charge // this run's charges, in order
	measured                       []measurement    // every (query, noisy answer) released so far
}

// NewMWEMStepper validates cfg and prepares MWEM (Hardt, Ligett and McSherry
// 2012): A_0 uniform over
// {0,1}^k, then T rounds at ε/(2T) + ε/(2T) each, checked against the
// accountant before anything is released. r supplies all randomness.
func NewMWEMStepper(cfg MWEMConfig, r *mrand.Rand) (*MWEMStepper, error) {
	return newMWEMStepper(cfg, r, 1, 1)
}

// newMWEMStepper lets tests scale the selection's and the measurement's ε
// to build deliberately wrong variants.
func newMWEMStepper(cfg MWEMConfig, r *mrand.Rand, selectScale, noiseScale float64) (*MWEMStepper, error) {
	if err := checkRun(cfg.Data, cfg.Queries, cfg.Epsilon, r); err != nil {
		return nil, err
	}
	if cfg.Rounds < 1 || cfg.Rounds > MaxRounds {
		return nil, validate.Errorf("rounds", "must be between 1 and %d, got %d", MaxRounds, cfg.Rounds)
	}
	if cfg.Replays < 0 || cfg.Replays > MaxReplays {
		return nil, validate.Errorf("replays", "must be between 0 and %d, got %d", MaxReplays, cfg.Replays)
	}
	acct := cfg.Accountant
	if acct == nil {
		var err error
		if acct, err = account.New(cfg.Epsilon, 0); err != nil {
			return nil, err
		}
	}
	// Refuse up front rather than stop half way with rounds released: the
	// accountant checks the run's 2T charges by the very rule its Spend
	// applies, so a run that starts can pay for every round.
	charge := cfg.Epsilon / (2 * float64(cfg.Rounds))
	plan := make([]account.Charge, 2*cfg.Rounds)
	for i := range plan {
		plan[i] = account.Charge{Label: "MWEM", Epsilon: charge}
	}
	if err := acct.CanSpendAll(plan); err != nil {
		left, _ := acct.Remaining()
		return nil, validate.Errorf("accountant", "has ε = %g left but MWEM needs ε = %g (%v)", left, cfg.Epsilon, err)
	}
	truth, err := cfg.Queries.Answers(cfg.Data)
	if err != nil {
		return nil, err
	}
	size := cfg.Data.UniverseSize()
	s := &MWEMStepper{
		cfg: cfg, r: r, acct: acct, truth: truth, chargeEps: charge,
		selectEps: selectScale * cfg.Epsilon / (2 * float64(cfg.Rounds)),
		noiseEps:  noiseScale * cfg.Epsilon / (2 * float64(cfg.Rounds)),
		logA:      make([]float64, size),
		a:         make([]float64, size),
		sum:       make([]float64, size),
	}
	// A_0 is uniform over the universe: the prior that knows nothing.
	for i := range s.a {
		s.a[i] = 1 / float64(size)
	}
	return s, nil
}

// check reports whether s was made by NewMWEMStepper; a nil or zero stepper
// has no data, queries or accountant, and is refused.
func (s *MWEMStepper) check() error {
	if s == nil || s.acct == nil || s.r == nil || s.cfg.Data == nil || s.cfg.Queries == nil || s.cfg.Rounds < 1 {
		return validate.Errorf("stepper", "is not set up; make it with NewMWEMStepper")
	}
	return nil
}

// Done reports whether all T rounds have run (false for a nil or zero
// stepper, whose Step returns an error).
func (s *MWEMStepper) Done() bool { return s.check() == nil && len(s.rounds) == s.cfg.Rounds }

// Distribution returns the current A, a distribution over {0,1}^k that
// starts uniform, A_0(p) = 1/|X|, and is updated each round by
// A(p) ∝ A(p)·exp(φ(p)·(measurement − q(A))/2) (nil for a nil or zero
// stepper).
func (s *MWEMStepper) Distribution() []float64 {
	if s.check() != nil {
		return nil
	}
	return append([]float64(nil), s.a...)
}

// Step runs one round of MWEM: choose the worst-answered
// query with the exponential mechanism (score abs(q(A) − q(x)), sensitivity
// 1/n, ε/(2T)), measure it with the Laplace mechanism (sensitivity 1/n,
// ε/(2T)), and apply the multiplicative-weights update
// A(p) ∝ A(p)·exp(φ(p)·(m − q(A))/2).
func (s *MWEMStepper) Step() (MWEMRound, error) {
	if err := s.check(); err != nil {
		return MWEMRound{}, err
	}
	if s.Done() {
		return MWEMRound{}, validate.Errorf("stepper", "has already run all %d rounds", s.cfg.Rounds)
	}
	t := len(s.rounds) + 1
	n := float64(s.cfg.Data.N())
	est := s.cfg.Queries.answersOf(s.a)
	scores := make([]float64, len(est))
	for q := range est {
		scores[q] = math.Abs(est[q] - s.truth[q])
	}
	sel, err := mech.NewExponential(mech.Config{Scores: scores, Epsilon: s.selectEps, Sensitivity: 1 / n})
	if err != nil {
		return MWEMRound{}, err
	}
	if err := s.spend(validate.Sprintf("MWEM round %d: choose a query (exponential mechanism)", t), s.chargeEps); err != nil {
		return MWEMRound{}, err
	}
	q := sel.Sample(s.r)
	lap, err := mech.NewLaplace(s.truth[q], 1/n, s.noiseEps)
	if err != nil {
		return MWEMRound{}, err
	}
	if err := s.spend(validate.Sprintf("MWEM round %d: measure %q (Laplace)", t, s.cfg.Queries.queries[q].Name), s.chargeEps); err != nil {
		return MWEMRound{}, err
	}
	meas := lap.Sample(s.r)

	// Multiplicative weights. Kept as logarithms, the update only adds
	// (m − q(A))/2 to the members of q, so no weight can underflow to zero
	// however large the noise.
	s.measured = append(s.measured, measurement{query: q, value: meas})
	if err := s.update(q, meas, est[q]); err != nil {
		return MWEMRound{}, err
	}
	for pass := 0; pass < s.cfg.Replays; pass++ {
		for _, m := range s.measured {
			cur := s.cfg.Queries.queries[m.query].answer(s.a)
			if err := s.update(m.query, m.value, cur); err != nil {
				return MWEMRound{}, err
			}
		}
	}
	for p := range s.a {
		s.sum[p] += s.a[p]
	}
	avg := make([]float64, len(s.sum))
	for p, v := range s.sum {
		avg[p] = v / float64(t)
	}
	round := MWEMRound{
		Round:        t,
		Query:        q,
		Selection:    sel.Probabilities(),
		Estimate:     est[q],
		Measurement:  meas,
		Updated:      s.cfg.Queries.answersOf(s.a)[q],
		TrueAnswer:   s.truth[q],
		Distribution: append([]float64(nil), s.a...),
		MaxError:     maxAbsDiff(s.cfg.Queries.answersOf(avg), s.truth),
	}
	s.rounds = append(s.rounds, round)
	return round, nil
}

// update applies A(p) ∝ A(p)·exp(φ_q(p)·(meas − estimate)/2).
func (s *MWEMStepper) update(q int, meas, estimate float64) error {
	step := (meas - estimate) / 2
	for p, in := range s.cfg.Queries.queries[q].Member {
		if in {
			s.logA[p] += step
		}
	}
	_, a, err := numeric.Normalize(s.logA)
	if err != nil {
		return err
	}
	s.a = a
	return nil
}

func (s *MWEMStepper) spend(label string, eps float64) error {
	if err := s.acct.Spend(label, eps, 0); err != nil {
		return err
	}
	s.charges = append(s.charges, account.Charge{Label: label, Epsilon: eps})
	return nil
}

// Result returns the finished run: Ā = (1/T)·Σ_t A_t, its max-error and the
// 2T charges.
func (s *MWEMStepper) Result() (*MWEMResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if !s.Done() {
		return nil, validate.Errorf("stepper", "has run %d of %d rounds", len(s.rounds), s.cfg.Rounds)
	}
	avg := make([]float64, len(s.sum))
	for p, v := range s.sum {
		avg[p] = v / float64(len(s.rounds))
	}
	ans := s.cfg.Queries.answersOf(avg)
	ledger := append([]account.Charge(nil), s.charges...)
	spent := 0.0
	for _, c := range ledger {
		spent += c.Epsilon
	}
	return &MWEMResult{
		Rounds:        append([]MWEMRound(nil), s.rounds...),
		Distribution:  avg,
		TrueAnswers:   append([]float64(nil), s.truth...),
		Answers:       ans,
		MaxError:      maxAbsDiff(ans, s.truth),
		Ledger:        ledger,
		EpsilonSpent:  spent,
		EpsilonBudget: s.cfg.Epsilon,
	}, nil
}

// MWEM runs all T rounds of MWEM: each round chooses the
// worst-answered query with the exponential mechanism at ε/(2T) (score
// abs(q(A) − q(x)), Δ = 1/n), measures it with Laplace noise of scale
// 2T/(ε·n), and updates A(p) ∝ A(p)·exp(φ(p)·(measurement − q(A))/2); the
// output is the average of A_1, …, A_T. The whole run is ε-differentially
// private. ctx is checked between rounds.
func MWEM(ctx context.Context, cfg MWEMConfig, r *mrand.Rand) (*MWEMResult, error) {
	if ctx == nil {
		return nil, validate.Errorf("context", "is nil; pass context.Background()")
	}
	s, err := NewMWEMStepper(cfg, r)
	if err != nil {
		return nil, err
	}
	for !s.Done() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, err := s.Step(); err != nil {
			return nil, err
		}
	}
	return s.Result()
}
