// Package selection is the application layer of the selection widgets (the
// exponential mechanism, report noisy max, permute-and-flip, the ε band,
// accuracy, the Laplace mechanism as an exponential mechanism and the
// floating-point attack): it turns a widget's parameters (plain slices and
// numbers) into calls on core and keeps the per-widget draw streams. The
// first-load WebAssembly module (wasm/core), `dpplay figures` and the tests
// call it; wasm/core only converts typed arrays.
//
// Reproducibility. A draw stream is identified by its slot (a widget's
// name for one chart), the mechanism, the scores, ε, Δ and the seed. The
// counts after n draws are those of the first n draws of rng.Seeded(seed),
// whatever batches they were asked for in: asking for 3 000 and then 5 000
// continues the stream, and asking for fewer restarts it. So the page's URL
// (seed and number of draws) reproduces a histogram bit for bit.
package selection

import (
	"math"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/mech"
)

// Request describes one selection problem as the page sends it.
type Request struct {
	Mechanism   string    // one of mech.Names()
	Scores      []float64 // u(r) per candidate
	Measure     []float64 // base measure μ, nil for uniform (exponential mechanism only)
	Epsilon     float64   // ε of the ε/(2Δ) form
	Sensitivity float64   // Δ
}

func (q Request) config() mech.Config {
	return mech.Config{Scores: q.Scores, Epsilon: q.Epsilon, Sensitivity: q.Sensitivity, Measure: q.Measure}
}

// key identifies a selection problem exactly: two requests with the same key
// have the same mechanism and hence the same draw stream for a seed.
func (q Request) key() string {
	b := make([]byte, 0, 32+16*len(q.Scores))
	b = append(b, q.Mechanism...)
	b = appendFloats(b, q.Epsilon, q.Sensitivity, float64(len(q.Scores)))
	b = appendFloats(b, q.Scores...)
	if q.Measure != nil {
		b = append(b, 'm')
		b = appendFloats(b, q.Measure...)
	}
	return string(b)
}

func appendFloats(b []byte, xs ...float64) []byte {
	for _, x := range xs {
		u := math.Float64bits(x)
		for i := 0; i < 8; i++ {
			b = append(b, byte(u>>(8*i)))
		}
	}
	return b
}

// FromArticle converts the article's ε_a in exp(ε_a·q) into the ε of the
// ε/(2Δ) form: ε = 2·ε_a·Δ.
func FromArticle(epsArticle, sensitivity float64) (float64, error) {
	return mech.FromArticle(epsArticle, sensitivity)
}

// Charge is one request to spend privacy budget.
type Charge struct {
	Label          string
	Epsilon, Delta float64
}

// Ledger is the accountant's state after replaying a list of charges.
type Ledger struct {
	Accepted         []bool   // whether each charge fitted in the budget
	Errors           []string // "" or why a charge was refused
	SpentEpsilon     float64
	SpentDelta       float64
	RemainingEpsilon float64
	RemainingDelta   float64
}

// Account replays charges against a fresh accountant with the given budget.
// Refused charges cost nothing, as in
// account.Accountant.Spend. Replaying keeps the page's state in its URL.
func Account(budgetEpsilon, budgetDelta float64, charges []Charge) (Ledger, error) {
	a, err := account.New(budgetEpsilon, budgetDelta)
	if err != nil {
		return Ledger{}, err
	}
	var l Ledger
	for _, c := range charges {
		err := a.Spend(c.Label, c.Epsilon, c.Delta)
		l.Accepted = append(l.Accepted, err == nil)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		l.Errors = append(l.Errors, msg)
	}
	l.SpentEpsilon, l.SpentDelta = a.Spent()
	l.RemainingEpsilon, l.RemainingDelta = a.Remaining()
	return l, nil
}
