// Package audit is the application layer of the auditor widget: it runs an
// exact privacy audit (core/audit) in chunks for the lazily loaded audit
// module (wasm/audit). It is apart from package selection because the
// expression library it links must stay out of the first-load module.
package audit

import (
	"math"

	"github.com/dpplay/dpplay/core/audit"
	"github.com/dpplay/dpplay/core/validate"
)

// Config is an audit's description (core/audit.Config): the mechanism, its
// score and sensitivity as expressions, ε, and the universe of data sets.
type Config = audit.Config

// Example is one entry of the gallery of mistakes (core/audit.Example).
type Example = audit.Example

// Gallery returns the mistakes the widget's gallery offers, each with its fix.
func Gallery() []Example { return audit.Gallery() }

// View is what the page shows after a chunk: the audit so far.
type View struct {
	audit.Result
	Holds, Unbounded bool
	// Next is the first data set not yet audited; Total the universe's size.
	Next, Total int
	// P and Q are the worst pair's output probabilities on the data set and
	// its neighbour (selection mechanisms only), LogRatio ln P − ln Q.
	P, Q, LogRatio []float64
}

// Session keeps one audit's enumerator and running result between chunks,
// so the page can audit a large universe in steps and show progress.
type Session struct {
	key    audit.Config
	a      *audit.Auditor
	merged audit.Result
	next   int
}

func same(a, b audit.Config) bool {
	if a.Mechanism != b.Mechanism || a.Score != b.Score || a.Sensitivity != b.Sensitivity || a.Epsilon != b.Epsilon ||
		a.Candidates != b.Candidates || a.MaxCount != b.MaxCount || a.Neighbours != b.Neighbours || len(a.Measure) != len(b.Measure) {
		return false
	}
	for i := range a.Measure {
		if a.Measure[i] != b.Measure[i] {
			return false
		}
	}
	return true
}

// Run audits the data sets [from, from+count) of c's universe and returns
// the result over [0, from+count). A call with from = 0 starts afresh; a
// call that does not continue where the last one stopped is an error. An
// error about c is worded for the page (audit.Page): it names the widget's
// controls, not the command line's flags.
func (s *Session) Run(c audit.Config, from, count int) (View, error) {
	if count < 1 {
		return View{}, validate.Errorf("count", "must be at least 1, got %d", count)
	}
	if from == 0 || s.a == nil || !same(s.key, c) {
		if from != 0 {
			return View{}, validate.Errorf("from", "an audit starts at data set 0, got %d", from)
		}
		a, err := audit.New(c)
		if err != nil {
			return View{}, audit.For(err, audit.Page)
		}
		*s = Session{key: c, a: a}
	}
	if from != s.next {
		return View{}, validate.Errorf("from", "the audit has reached data set %d, not %d", s.next, from)
	}
	to := min(from+count, s.a.DataSets())
	r, err := s.a.Run(from, to)
	if err != nil {
		return View{}, audit.For(err, audit.Page)
	}
	s.merged = audit.Merge(s.merged, r)
	s.next = to
	v := View{Result: s.merged, Holds: audit.Holds(s.merged.Loss, c.Epsilon), Unbounded: math.IsInf(s.merged.Loss, 1),
		Next: to, Total: s.a.DataSets()}
	if w := s.merged.Worst; w.Data != nil && w.Output >= 0 && w.Point == nil {
		lp, err := s.a.LogProbabilities(w.Data)
		if err != nil {
			return View{}, err
		}
		lq, err := s.a.LogProbabilities(w.Neighbour)
		if err != nil {
			return View{}, err
		}
		v.P, v.Q, v.LogRatio = make([]float64, len(lp)), make([]float64, len(lp)), make([]float64, len(lp))
		for i := range lp {
			v.P[i], v.Q[i], v.LogRatio[i] = math.Exp(lp[i]), math.Exp(lq[i]), lp[i]-lq[i]
		}
	}
	return v, nil
}

// MaxGrowthDataSets bounds the universes Growth audits, so the chart of
// worst loss against universe size stays interactive.
const MaxGrowthDataSets = 5000

// Growth audits c on the universes with max-count 1, 2, …, up to maxCount
// (stopping before a universe of more than MaxGrowthDataSets data sets) and
// returns each universe's max-count and worst loss: how the loss a larger
// universe uncovers grows towards its limit. Its errors are worded for the
// page, as Run's are.
func Growth(c audit.Config, maxCount int) (counts, losses []float64, err error) {
	for m := 1; m <= maxCount; m++ {
		c.MaxCount = m
		a, err := audit.New(c)
		if err != nil {
			return nil, nil, audit.For(err, audit.Page)
		}
		if a.DataSets() > MaxGrowthDataSets {
			break
		}
		r, err := a.All()
		if err != nil {
			return nil, nil, audit.For(err, audit.Page)
		}
		counts, losses = append(counts, float64(m)), append(losses, r.Loss)
	}
	return counts, losses, nil
}
