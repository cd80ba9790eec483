// Package account keeps a privacy budget under sequential composition: the
// guarantees of releases made one after another on the same data add up,
// Σεᵢ for pure differential privacy and (Σεᵢ, Σδᵢ) for (ε, δ)-differential
// privacy. n separate ε-DP releases cost n·ε; one report-noisy-max release
// of the best of n costs ε.
package account

import (
	"errors"

	"github.com/dpplay/dpplay/core/validate"
)

// Charge is one release recorded against the budget, one term εᵢ, δᵢ of the
// sums, such as one MWEM round or one level of a tree counter.
type Charge struct {
	Label   string
	Epsilon float64
	Delta   float64
}

// Accountant tracks spending against a fixed (ε, δ) budget, spent =
// (Σεᵢ, Σδᵢ). It is not safe for concurrent use.
type Accountant struct {
	budgetEps, budgetDelta float64
	spentEps, spentDelta   float64
	ledger                 []Charge
}

// ErrBudget is returned (wrapped) when a charge would exceed the budget.
var ErrBudget = errors.New("privacy budget exceeded")

// slack absorbs rounding when charges are meant to add up to the budget
// exactly, e.g. ten charges of ε/10.
const slack = 1e-9

// New returns an accountant with budget ε > 0 and δ in [0, 1) and nothing
// spent.
func New(epsilonBudget, deltaBudget float64) (*Accountant, error) {
	if err := validate.Positive("ε budget", epsilonBudget); err != nil {
		return nil, err
	}
	if err := validate.Probability("δ budget", deltaBudget); err != nil || deltaBudget >= 1 {
		return nil, validate.Errorf("δ budget", "must be in [0, 1), got %v", deltaBudget)
	}
	return &Accountant{budgetEps: epsilonBudget, budgetDelta: deltaBudget}, nil
}

// Spend records a release with guarantee (ε, δ), adding it to (Σεᵢ, Σδᵢ). If
// it would take the total past the budget nothing is recorded and the error
// wraps ErrBudget.
func (a *Accountant) Spend(label string, epsilon, delta float64) error {
	if err := validate.Positive("ε", epsilon); err != nil {
		return err
	}
	if err := validate.Probability("δ", delta); err != nil {
		return err
	}
	eps, del := a.spentEps+epsilon, a.spentDelta+delta
	if eps > a.budgetEps*(1+slack) || del > a.budgetDelta*(1+slack) {
		return validate.Wrapf(ErrBudget, "%q needs ε = %g, δ = %g but only ε = %g, δ = %g remain",
			label, epsilon, delta, left(a.budgetEps, a.spentEps), left(a.budgetDelta, a.spentDelta))
	}
	a.spentEps, a.spentDelta = eps, del
	a.ledger = append(a.ledger, Charge{Label: label, Epsilon: epsilon, Delta: delta})
	return nil
}

// SpendAll records several releases as one: either every charge fits the
// budget and all are recorded, or none is and the error says why. A
// mechanism that makes several releases (one per tree level, one per round)
// uses it so that a run the budget cannot pay for leaves no partial charges
// behind. The check is Spend's own rule applied to the running totals in the
// order given, so SpendAll accepts exactly the sequences that the same Spend
// calls would accept, rounding included.
func (a *Accountant) SpendAll(charges []Charge) error {
	if err := a.CanSpendAll(charges); err != nil {
		return err
	}
	for _, c := range charges {
		a.spentEps += c.Epsilon
		a.spentDelta += c.Delta
		a.ledger = append(a.ledger, c)
	}
	return nil
}

// CanSpendAll reports, without recording anything, whether SpendAll(charges)
// would succeed: nil if it would, otherwise the error it would return.
// Callers that charge as they release (MWEM charges round by round) check
// the whole run with it first.
func (a *Accountant) CanSpendAll(charges []Charge) error {
	if a == nil {
		return validate.Errorf("accountant", "is nil")
	}
	if len(charges) == 0 {
		return validate.Errorf("charges", "are empty")
	}
	eps, del := a.spentEps, a.spentDelta
	for _, c := range charges {
		if err := validate.Positive("ε", c.Epsilon); err != nil {
			return err
		}
		if err := validate.Probability("δ", c.Delta); err != nil {
			return err
		}
		// The same additions, in the same order, as Spend makes them.
		eps, del = eps+c.Epsilon, del+c.Delta
		if eps > a.budgetEps*(1+slack) || del > a.budgetDelta*(1+slack) {
			return validate.Wrapf(ErrBudget, "%d charges need ε = %g, δ = %g in all but only ε = %g, δ = %g remain",
				len(charges), eps-a.spentEps, del-a.spentDelta, left(a.budgetEps, a.spentEps), left(a.budgetDelta, a.spentDelta))
		}
	}
	return nil
}

// Spent returns the total (Σεᵢ, Σδᵢ) spent so far.
func (a *Accountant) Spent() (epsilon, delta float64) { return a.spentEps, a.spentDelta }

// Remaining returns what is left of the budget, (ε − Σεᵢ, δ − Σδᵢ).
// Leftovers within rounding of zero are zero, so a budget split into equal
// parts is used up exactly.
func (a *Accountant) Remaining() (epsilon, delta float64) {
	return left(a.budgetEps, a.spentEps), left(a.budgetDelta, a.spentDelta)
}

func left(budget, spent float64) float64 {
	if d := budget - spent; d > budget*slack {
		return d
	}
	return 0
}

// Ledger returns a copy of the charges in the order they were made.
func (a *Accountant) Ledger() []Charge { return append([]Charge(nil), a.ledger...) }
