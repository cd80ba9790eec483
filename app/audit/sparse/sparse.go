// Package sparse is the application layer of the lesson on the sparse
// vector technique: the exact output distribution of a query stream, the
// exact audit of Lyu, Su and Li's variants on a pair of answer vectors,
// and the "break it" challenges, all from core/audit/pair. It links no
// expression library, so its WebAssembly module (wasm/svt) stays small.
package sparse

import (
	"errors"
	"math"
	"sort"
	"strings"

	"github.com/dpplay/dpplay/app/challenge"
	"github.com/dpplay/dpplay/core/audit/pair"
	"github.com/dpplay/dpplay/core/validate"
)

// Limits of the page's streams and pairs.
const (
	MaxQueries = 12
	MaxAnswer  = 100
	MaxCutoff  = 5
)

// checkAnswers validates a vector of query answers.
func checkAnswers(name string, xs []float64, n int) error {
	if len(xs) < 1 || len(xs) > MaxQueries {
		return validate.Errorf(name, "needs 1 to %d answers, got %d", MaxQueries, len(xs))
	}
	if n > 0 && len(xs) != n {
		return validate.Errorf(name, "has %d answers, the other input %d", len(xs), n)
	}
	for i, x := range xs {
		if err := validate.Finite(validate.Index(name, i), x); err != nil {
			return err
		}
		if math.Abs(x) > MaxAnswer {
			return validate.Errorf(validate.Index(name, i), "must be between −%d and %d, got %v", MaxAnswer, MaxAnswer, x)
		}
	}
	return nil
}

// CheckNeighbours says whether x and y are neighbours for queries of
// sensitivity 1: every answer moves by at most 1 (one person's data
// changes each count by at most one).
func CheckNeighbours(x, y []float64) error {
	if err := checkAnswers("x", x, 0); err != nil {
		return err
	}
	if err := checkAnswers("x′", y, len(x)); err != nil {
		return err
	}
	for i := range x {
		if d := math.Abs(x[i] - y[i]); d > 1+1e-12 {
			return validate.Errorf("pair", "query %d moves by %v between x and x′; neighbours move each answer by at most 1", i+1, d)
		}
	}
	return nil
}

// Stream is the exact distribution of AboveThreshold's answers (Lyu, Su and
// Li's Algorithm 1: Dwork and Roth's AboveThreshold for c = 1) on a stream
// of query answers: for each query the probabilities that it is answered
// ⊤, answered ⊥, or not reached (the technique halted after c ⊤), and
// what accuracy that gives.
type Stream struct {
	Above, Below, Halted []float64
	// ThresholdScale and QueryScale are the Laplace scales used: 2/ε and
	// 4c/ε (half of ε for the threshold, half for the queries).
	ThresholdScale, QueryScale float64
	// ExpectedTops is the expected number of ⊤ answers.
	ExpectedTops float64
	// Alpha is the accuracy the union bound gives with probability 1 − Beta:
	// α = 8c(ln k + ln(2/β))/ε for k queries; Miss is the exact probability
	// that some answer is wrong by more than α (a ⊤ for a query below
	// T − α, or a ⊥ for one above T + α), and Exact the smallest α whose
	// exact probability of such an error is at most Beta on these answers.
	Alpha, Beta, Miss, Exact float64

	// The stream and its output distribution, for MissAt.
	answers, logp []float64
	threshold     float64
	patterns      []string
}

// MissAt returns the exact probability that some answered query is wrong
// by more than alpha: a ⊤ for an answer below T − α or a ⊥ for one above
// T + α. It falls as alpha grows, in steps at the distances |xᵢ − T|.
func (s Stream) MissAt(alpha float64) float64 {
	m := 0.0
	for k, p := range s.patterns {
		for i := range p {
			if (p[i] == 'T' && s.answers[i] < s.threshold-alpha) || (p[i] == 'F' && s.answers[i] > s.threshold+alpha) {
				m += math.Exp(s.logp[k])
				break
			}
		}
	}
	return m
}

// Beta is the failure probability the accuracy statements use.
const Beta = 0.05

// Alpha returns the union bound's accuracy α = 8c(ln k + ln(2/β))/ε: with
// probability at least 1 − β the threshold noise is within α/2 (it is
// Lap(2/ε): Pr[|ρ| ≥ α/2] = e^{−αε/4} ≤ β/2) and every one of the k query
// noises is within α/2 (each Lap(4c/ε): k·e^{−αε/(8c)} ≤ β/2), and then
// every answer is right to within α. For c = 1 it is Dwork and Roth's
// Theorem 3.24.
func Alpha(k, c int, eps, beta float64) float64 {
	return 8 * float64(c) * (math.Log(float64(k)) + math.Log(2/beta)) / eps
}

// NewStream computes the stream's distribution for privacy ε, cutoff c and
// threshold t.
func NewStream(answers []float64, eps float64, c int, t float64) (Stream, error) {
	if err := checkAnswers("answers", answers, 0); err != nil {
		return Stream{}, err
	}
	if c < 1 || c > MaxCutoff {
		return Stream{}, validate.Errorf("cutoff c", "must be between 1 and %d, got %d", MaxCutoff, c)
	}
	v, err := pair.Lyu(1, eps, c, t)
	if err != nil {
		return Stream{}, err
	}
	patterns, logp, _, err := v.SVT.Distribution(answers)
	if err != nil {
		return Stream{}, err
	}
	n := len(answers)
	s := Stream{Above: make([]float64, n), Below: make([]float64, n), Halted: make([]float64, n),
		ThresholdScale: v.SVT.ThresholdScale, QueryScale: v.SVT.QueryScale, Beta: Beta,
		answers: answers, logp: logp, threshold: t, patterns: patterns}
	s.Alpha = Alpha(n, c, eps, Beta)
	s.Miss = s.MissAt(s.Alpha)
	cands := []float64{0}
	for _, a := range answers {
		cands = append(cands, math.Abs(a-t))
	}
	sort.Float64s(cands)
	for _, d := range cands {
		if s.MissAt(d) <= Beta {
			s.Exact = d
			break
		}
	}
	for k, p := range patterns {
		pr := math.Exp(logp[k])
		for i := 0; i < n; i++ {
			switch {
			case i >= len(p):
				s.Halted[i] += pr
			case p[i] == 'T':
				s.Above[i] += pr
			default:
				s.Below[i] += pr
			}
		}
	}
	for i := 0; i < n; i++ {
		s.ExpectedTops += s.Above[i]
	}
	return s, nil
}

// Row is one output of an audit table: its pattern, its probabilities
// under x and x′ and their log-ratio.
type Row struct {
	Output   string
	P, Q     float64
	LogRatio float64
}

// Audit is the exact audit of one of Lyu et al.'s variants on a pair.
type Audit struct {
	Variant   pair.Variant
	Loss, Err float64
	Unbounded bool
	// Holds reports whether the loss is within the ε its authors claimed.
	Holds bool
	Worst pair.Output
	// Rows are the outputs with the largest |log-ratio| of their ⊤/⊥
	// pattern, largest first (for Algorithm 3 the released values are
	// integrated out; Worst has them).
	Rows []Row
}

// MaxRows is how many outputs an audit lists.
const MaxRows = 6

// NewAudit audits Algorithm k at privacy ε, cutoff c and threshold t on the
// neighbouring answers x and x′.
func NewAudit(k int, eps float64, c int, t float64, x, y []float64) (Audit, error) {
	if err := CheckNeighbours(x, y); err != nil {
		return Audit{}, err
	}
	if c < 1 || c > MaxCutoff {
		return Audit{}, validate.Errorf("cutoff c", "must be between 1 and %d, got %d", MaxCutoff, c)
	}
	v, err := pair.Lyu(k, eps, c, t)
	if err != nil {
		return Audit{}, err
	}
	l, tab, err := v.SVT.Compare(x, y)
	if cancel := (*pair.CancelError)(nil); errors.As(err, &cancel) {
		// The pair is fine; some output of it is too unlikely for float64.
		return Audit{}, validate.Errorf("threshold T", "at this ε and threshold some outputs are so unlikely that their exact probability is a difference of numbers that agree in all the 16 digits the auditor computes with, so their loss cannot be found. Move T closer to the answers, or lower ε.")
	}
	if err != nil {
		return Audit{}, err
	}
	a := Audit{Variant: v, Loss: l.Value(), Err: l.Err, Unbounded: l.Unbounded(), Worst: l.Worst()}
	a.Holds = pair.Holds(a.Loss, v.Claim)
	for i, p := range tab.Patterns {
		lp, lq := tab.LogP[i], tab.LogQ[i]
		if math.IsInf(lp, -1) && math.IsInf(lq, -1) {
			continue
		}
		a.Rows = append(a.Rows, Row{Output: pair.PatternText(p, len(x)), P: math.Exp(lp), Q: math.Exp(lq), LogRatio: pair.LogRatio(lp, lq)})
	}
	sort.SliceStable(a.Rows, func(i, j int) bool { return math.Abs(a.Rows[i].LogRatio) > math.Abs(a.Rows[j].LogRatio) })
	if len(a.Rows) > MaxRows {
		a.Rows = a.Rows[:MaxRows]
	}
	return a, nil
}

// A Challenge asks for a neighbouring pair and one output of a broken
// variant whose privacy loss exceeds the ε its authors claimed.
type Challenge struct {
	ID, Title, Task, Hint string
	Algorithm             int
	Epsilon               float64
	Cutoff                int
	Threshold             float64
	// X and Y are the pair the page starts from (one that does not break
	// the claim); Answer is a pair and output that do.
	X, Y, AnswerX, AnswerY []float64
	Answer                 string
}

// Challenges returns the lesson's challenges, in its order.
func Challenges() []Challenge {
	return []Challenge{
		{ID: "svt-no-noise", Title: "No noise on the queries (Algorithm 5)", Algorithm: 5, Epsilon: 1, Cutoff: 1, Threshold: 2,
			Task: "Algorithm 5 adds noise to the threshold only and answers every query. Find neighbouring answers and an output that one of them can produce and the other cannot, or nearly so.",
			Hint: "Without noise, a query is ⊤ exactly when its answer clears the one noisy threshold. Make query 1 higher than query 2 in x and lower in x′, then ask for ⊥ on query 1 and ⊤ on query 2.",
			X:    []float64{2, 2, 2, 2}, Y: []float64{2, 2, 2, 2},
			AnswerX: []float64{3, 2, 2, 2}, AnswerY: []float64{2, 3, 2, 2}, Answer: "FTFF"},
		{ID: "svt-no-cutoff", Title: "No cutoff (Algorithm 6)", Algorithm: 6, Epsilon: 1, Cutoff: 1, Threshold: 2,
			Task: "Algorithm 6 never stops: it answers every query, ⊤ or ⊥. Find neighbouring answers and an output whose privacy loss is above ε = 1.",
			Hint: "Moving every answer the same way is cheap: the threshold's noise covers it. Make the answers pull apart instead: raise queries 1 and 2 and lower queries 3 and 4 from x′ to x, and ask for ⊤ ⊤ ⊥ ⊥.",
			X:    []float64{2, 2, 2, 2}, Y: []float64{2, 2, 2, 2},
			AnswerX: []float64{3, 3, 2, 2}, AnswerY: []float64{2, 2, 3, 3}, Answer: "TTFF"},
		{ID: "svt-small-noise", Title: "Query noise that ignores c (Algorithm 4)", Algorithm: 4, Epsilon: 1, Cutoff: 1, Threshold: 2,
			Task: "Algorithm 4 spends a quarter of ε on the threshold and adds Lap(1/ε₂) to each query, too little. Find neighbouring answers and an output with privacy loss above ε = 1.",
			Hint: "A ⊤ after many ⊥ answers uses every query's noise. Lower the queries before the ⊤ by 1 and raise the ⊤ query by 1 from x′ to x, then ask for ⊥ ⊥ ⊥ ⊤.",
			X:    []float64{2, 2, 2, 2}, Y: []float64{2, 2, 2, 2},
			AnswerX: []float64{1, 1, 1, 3}, AnswerY: []float64{2, 2, 2, 2}, Answer: "FFFT"},
	}
}

// Halts returns after how many ⊤ answers the challenge's variant halts (0:
// it answers every query).
func (c Challenge) Halts() int {
	v, err := pair.Lyu(c.Algorithm, c.Epsilon, c.Cutoff, c.Threshold)
	if err != nil {
		return 0
	}
	return v.SVT.Cutoff
}

// FindChallenge returns the challenge with the given id.
func FindChallenge(id string) (Challenge, error) {
	return challenge.Find(Challenges(), func(c Challenge) string { return c.ID }, id)
}

// Attempt is the exact verdict on a student's pair and output, with the
// output as the technique publishes it.
type Attempt struct {
	challenge.Attempt
	Output string
}

// Try computes the privacy loss of one output on the pair (x, x′) for a
// challenge: output is a pattern of 'T' (⊤) and 'F' (⊥) answers, which
// stops at the c-th ⊤ for a variant with a cutoff.
func (c Challenge) Try(x, y []float64, output string) (Attempt, error) {
	if err := CheckNeighbours(x, y); err != nil {
		return Attempt{}, err
	}
	v, err := pair.Lyu(c.Algorithm, c.Epsilon, c.Cutoff, c.Threshold)
	if err != nil {
		return Attempt{}, err
	}
	if err := checkPattern(v.SVT, output, len(x)); err != nil {
		return Attempt{}, err
	}
	lp, err := v.SVT.LogProbability(x, output)
	if err != nil {
		return Attempt{}, err
	}
	lq, err := v.SVT.LogProbability(y, output)
	if err != nil {
		return Attempt{}, err
	}
	a := Attempt{challenge.Attempt{LogP: lp, LogQ: lq, Loss: math.Abs(pair.LogRatio(lp, lq))}, pair.PatternText(output, len(x))}
	if math.IsInf(lp, -1) && math.IsInf(lq, -1) {
		return Attempt{}, validate.Errorf("output", "%s is impossible under both inputs", a.Output)
	}
	a.Breaks = !pair.Holds(a.Loss, c.Epsilon)
	return a, nil
}

// checkPattern says whether p is an output of m on n queries.
func checkPattern(m pair.SVT, p string, n int) error {
	if strings.Trim(p, "TF") != "" {
		return validate.Errorf("output", "must be made of ⊤ and ⊥ answers")
	}
	tops := strings.Count(p, "T")
	switch {
	case m.Cutoff > 0 && tops > m.Cutoff:
		return validate.Errorf("output", "has %d ⊤ answers; the technique halts after %d", tops, m.Cutoff)
	case len(p) > n:
		return validate.Errorf("output", "answers %d queries of %d", len(p), n)
	case len(p) < n && !(m.Cutoff > 0 && tops == m.Cutoff && p[len(p)-1] == 'T'):
		return validate.Errorf("output", "stops after %d of %d queries without halting", len(p), n)
	}
	return nil
}

// Variants returns Lyu, Su and Li's six variants at budget eps and cutoff c,
// Algorithm k at index k−1.
func Variants(eps float64, c int) ([]pair.Variant, error) {
	out := make([]pair.Variant, 0, 6)
	for k := 1; k <= 6; k++ {
		v, err := pair.Lyu(k, eps, c, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
