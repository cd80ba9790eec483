package market

import (
	"fmt"
	"math"
	mrand "math/rand/v2"
	"strconv"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/validate"
)

// Size limits keep a slider drag in the browser interactive and stop a typo
// on the command line from allocating gigabytes.
const (
	MaxGrid   = 100_000   // |R|, the price grid
	MaxBuyers = 1_000_000 // n, the buyers
)

// Grid returns the price grid R = {lo, lo+step, …} up to hi (inclusive when hi
// is on the grid), 0.01:5.00:0.01 for instance. Each price is rounded to 12
// significant digits so that the grid
// 0.01:5.00:0.01 contains exactly the double that "4.01" parses to: without
// that, 401·0.01 lands one ulp above 4.01 and a buyer who values the good at
// 4.01 would not buy at "4.01".
func Grid(lo, hi, step float64) ([]float64, error) {
	if err := validate.Positive("lowest price", lo); err != nil {
		return nil, err
	}
	if err := validate.Positive("price step", step); err != nil {
		return nil, err
	}
	if err := validate.Finite("highest price", hi); err != nil {
		return nil, err
	}
	if hi < lo {
		return nil, validate.Errorf("highest price", "must be ≥ the lowest price %v, got %v", lo, hi)
	}
	steps := math.Floor((hi-lo)/step + 1e-9)
	if steps+1 > MaxGrid {
		return nil, validate.Errorf("price step", "gives %.0f prices; at most %d are allowed", steps+1, MaxGrid)
	}
	n := int(steps) + 1
	prices := make([]float64, n)
	for i := range prices {
		p, err := strconv.ParseFloat(strconv.FormatFloat(lo+float64(i)*step, 'g', 12, 64), 64)
		if err != nil {
			return nil, validate.Errorf("price grid", "cannot round %v: %v", lo+float64(i)*step, err)
		}
		prices[i] = p
	}
	if err := checkGrid(prices); err != nil {
		return nil, validate.Errorf("price step", "is too fine for 12 significant digits: %v", err)
	}
	return prices, nil
}

// checkGrid requires positive, finite, strictly increasing prices. Sorting is
// the caller's job because "lowest optimal price" breaks ties in the
// deterministic mechanism and needs a defined order.
func checkGrid(prices []float64) error {
	if err := validate.Count("prices", len(prices), MaxGrid, "price"); err != nil {
		return err
	}
	for i, p := range prices {
		if err := validate.Positive(fmt.Sprintf("prices[%d]", i), p); err != nil {
			return err
		}
		if i > 0 && p <= prices[i-1] {
			return validate.Errorf(fmt.Sprintf("prices[%d]", i), "must be greater than the price before it (%v), got %v", prices[i-1], p)
		}
	}
	return nil
}

func checkValues(values []float64) error {
	if err := validate.Count("values", len(values), MaxBuyers, "buyer"); err != nil {
		return err
	}
	for i, v := range values {
		if err := validate.NonNegative(validate.Index("values", i), v); err != nil {
			return err
		}
	}
	return nil
}

// Pricing is the exponential mechanism choosing a price for a digital good
// (McSherry–Talwar 2007):
//
//	Pr[p] = exp(ε·rev(p)/(2Δ)) / Σ_q exp(ε·rev(q)/(2Δ)),  rev(p) = p·#{i : vᵢ ≥ p},
//
// with Δ = max of the grid, the most one buyer can move any rev(p). It is
// ε-differentially private in the buyers' reported values.
type Pricing struct {
	values, prices []float64
	epsilon        float64
	revenue        []float64
	mech           *mech.Exponential
}

// NewPricing builds the price distribution Pr[p] ∝ exp(ε·rev(p)/(2Δ)),
// rev(p) = p·#{i : vᵢ ≥ p} and Δ = max R, for the reported values (each
// finite and ≥ 0), a strictly increasing grid R of positive prices and ε > 0.
func NewPricing(values, prices []float64, epsilon float64) (*Pricing, error) {
	if err := checkValues(values); err != nil {
		return nil, err
	}
	if err := checkGrid(prices); err != nil {
		return nil, err
	}
	if err := validate.Positive("ε (epsilon)", epsilon); err != nil {
		return nil, err
	}
	p := &Pricing{values: clone(values), prices: clone(prices), epsilon: epsilon}
	p.revenue = revenues(values, prices)
	// Δ = the highest price; Sensitivity() would refuse p until mech is set.
	m, err := mech.NewExponential(mech.Config{Scores: p.revenue, Epsilon: epsilon, Sensitivity: prices[len(prices)-1]})
	if err != nil {
		return nil, err
	}
	p.mech = m
	return p, nil
}

// revenues returns rev(p) for every grid price in O(n + m·log n) by counting
// buyers from the top: the grid is sorted, so #{v ≥ p} only falls as p rises.
func revenues(values, prices []float64) []float64 {
	counts := buyerCounts(values, prices)
	rev := make([]float64, len(prices))
	for j, p := range prices {
		rev[j] = p * float64(counts[j])
	}
	return rev
}

// buyerCounts returns #{i : vᵢ ≥ prices[j]} for each j.
func buyerCounts(values, prices []float64) []int {
	// above[j] counts buyers whose value reaches prices[j] but not prices[j+1].
	above := make([]int, len(prices)+1)
	for _, v := range values {
		above[reach(prices, v)]++
	}
	counts := make([]int, len(prices))
	run := 0
	for j := len(prices) - 1; j >= 0; j-- {
		run += above[j+1]
		counts[j] = run
	}
	return counts
}

// reach returns the number of grid prices p with p ≤ v (binary search).
func reach(prices []float64, v float64) int {
	lo, hi := 0, len(prices)
	for lo < hi {
		mid := (lo + hi) / 2
		if prices[mid] <= v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// check reports whether p was made by NewPricing. A nil or zero Pricing
// has no grid and no distribution: the methods that return an error refuse
// it, and the accessors without one return zero values instead of
// panicking.
func (p *Pricing) check() error {
	if p == nil || p.mech == nil || len(p.prices) == 0 || len(p.values) == 0 {
		return validate.Errorf("pricing", "is not set up; make it with NewPricing")
	}
	return nil
}

// orZero returns p when it is set up and otherwise a zero Pricing, whose
// fields are what the accessors return for a nil or zero Pricing.
func (p *Pricing) orZero() *Pricing {
	if p.check() != nil {
		return &Pricing{}
	}
	return p
}

// Sensitivity returns Δ = max R, the highest grid price: one buyer changes
// rev(p) = p·#{i : vᵢ ≥ p} by at most p ≤ Δ (0 for a nil or zero Pricing).
func (p *Pricing) Sensitivity() float64 {
	if p.check() != nil {
		return 0
	}
	return p.prices[len(p.prices)-1]
}

// Epsilon returns ε of Pr[p] ∝ exp(ε·rev(p)/(2Δ)) (0 for a nil or zero
// Pricing).
func (p *Pricing) Epsilon() float64 { return p.orZero().epsilon }

// Prices returns the grid R (nil for a nil or zero Pricing).
func (p *Pricing) Prices() []float64 { return clone(p.orZero().prices) }

// Values returns the reported values vᵢ (nil for a nil or zero Pricing).
func (p *Pricing) Values() []float64 { return clone(p.orZero().values) }

// Revenue returns rev(p) = p·#{i : vᵢ ≥ p} for each grid price (nil for a
// nil or zero Pricing).
func (p *Pricing) Revenue() []float64 { return clone(p.orZero().revenue) }

// Probabilities returns the exact price distribution
// Pr[p] = exp(ε·rev(p)/(2Δ)) / Σ_q exp(ε·rev(q)/(2Δ)) (nil for a nil or
// zero Pricing).
func (p *Pricing) Probabilities() []float64 {
	if p.check() != nil {
		return nil
	}
	return p.mech.Probabilities()
}

// LogProbabilities returns the natural logarithms of Probabilities, exact in
// the log domain (nil for a nil or zero Pricing).
func (p *Pricing) LogProbabilities() []float64 {
	if p.check() != nil {
		return nil
	}
	return p.mech.LogProbabilities()
}

// Sample draws the index of one price with probability Pr[p] ∝
// exp(ε·rev(p)/(2Δ)). A nil or zero Pricing, or a nil source, is
// an error.
func (p *Pricing) Sample(r *mrand.Rand) (int, error) {
	if err := p.check(); err != nil {
		return 0, err
	}
	if r == nil {
		return 0, validate.Errorf("random source", "is nil")
	}
	return p.mech.Sample(r), nil
}

// Draw draws n prices and returns how often each grid price came up.
func (p *Pricing) Draw(r *mrand.Rand, n int) ([]int, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if r == nil {
		return nil, validate.Errorf("random source", "is nil")
	}
	return mech.Draw(p.mech, r, n)
}

// ExpectedRevenue returns E[rev(p̂)] = Σ_p Pr[p]·rev(p), exactly (0 for a
// nil or zero Pricing).
func (p *Pricing) ExpectedRevenue() float64 {
	if p.check() != nil {
		return 0
	}
	e := 0.0
	for j, q := range p.mech.Probabilities() {
		e += q * p.revenue[j]
	}
	return e
}

// Optimal returns OPT = max_p rev(p) and the lowest price attaining it: the
// deterministic, non-private mechanism (0, 0 for a nil or zero Pricing).
func (p *Pricing) Optimal() (revenue, price float64) {
	if p.check() != nil {
		return 0, 0
	}
	j := argmaxLowest(p.revenue)
	return p.revenue[j], p.prices[j]
}

// argmaxLowest returns the first index of the largest entry.
func argmaxLowest(xs []float64) int {
	best := 0
	for j, x := range xs {
		if x > xs[best] {
			best = j
		}
	}
	return best
}

// Accuracy is the exponential mechanism's accuracy theorem for pricing,
// Pr[rev(p̂) ≤ OPT − 2Δ·ln(|R|/β)/ε] ≤ β, evaluated next to the exact
// probability it bounds.
type Accuracy struct {
	Beta float64
	// Threshold is OPT − 2Δ·ln(|R|/β)/ε: the theorem says
	// Pr[rev(p̂) ≤ Threshold] ≤ β.
	Threshold float64
	// ProbabilityBelow is the exact Pr[rev(p̂) ≤ Threshold].
	ProbabilityBelow float64
	// ExpectedGap is the bound E[OPT − rev(p̂)] ≤ 2Δ·(ln|R| + 1)/ε,
	// obtained by integrating the tail bound e^−t over t ≥ 0.
	ExpectedGap float64
}

// Accuracy evaluates the accuracy theorem Pr[rev(p̂) ≤ OPT − 2Δ·ln(|R|/β)/ε]
// ≤ β at confidence 1 − β, β in (0, 1).
func (p *Pricing) Accuracy(beta float64) (Accuracy, error) {
	if err := p.check(); err != nil {
		return Accuracy{}, err
	}
	if !(beta > 0 && beta < 1) {
		return Accuracy{}, validate.Errorf("β (beta)", "must be strictly between 0 and 1, got %v", beta)
	}
	opt, _ := p.Optimal()
	delta := p.Sensitivity()
	// With |R_OPT| = 1 and t = ln(1/β), mech's threshold is the slides' form.
	thr, err := mech.AccuracyThreshold(opt, p.epsilon, delta, len(p.prices), 1, math.Log(1/beta))
	if err != nil {
		return Accuracy{}, err
	}
	below, err := mech.TailProbability(p.mech.Probabilities(), p.revenue, thr)
	if err != nil {
		return Accuracy{}, err
	}
	gap := 2 * delta * (math.Log(float64(len(p.prices))) + 1) / p.epsilon
	if err := validate.Finite("expected gap bound", gap); err != nil {
		return Accuracy{}, err
	}
	return Accuracy{Beta: beta, Threshold: thr, ProbabilityBelow: below, ExpectedGap: gap}, nil
}

// NeighbourLoss returns the exact privacy loss max_p |ln Pr[p | values] −
// ln Pr[p | values′]| where values′ is values with buyer's report replaced by
// value: what an observer of the price learns about that one report.
// It is at most ε for every such pair; for pricing it is even at
// most ε/2, because a changed report moves every rev(p) in the same
// direction, so the normaliser moves with the numerator instead of against
// it.
func (p *Pricing) NeighbourLoss(buyer int, value float64) (float64, error) {
	if err := p.check(); err != nil {
		return 0, err
	}
	if buyer < 0 || buyer >= len(p.values) {
		return 0, validate.Errorf("buyer", "must be in [0, %d), got %d", len(p.values), buyer)
	}
	other := clone(p.values)
	other[buyer] = value
	q, err := NewPricing(other, p.prices, p.epsilon)
	if err != nil {
		return 0, err
	}
	return mech.PrivacyLoss(p.mech, q.mech)
}

func clone(xs []float64) []float64 { return append([]float64(nil), xs...) }
