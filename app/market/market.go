// Package market is the application layer of the market widgets (private
// pricing, truthfulness and the billboard's posted prices), called by the
// lazily loaded market module (wasm/market) and by `dpplay figures`. It is
// apart from package selection because core/market links fmt, which the
// first-load module must not.
package market

import (
	"math"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/market"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// PricingBeta is the β of the pricing accuracy theorem: the revenue falls
// below its threshold with probability at most 5%.
const PricingBeta = 0.05

// maxPricingDraws bounds one request's draws.
const maxPricingDraws = 1_000_000

// PricingView is the picture of private pricing on the grid
// step, 2·step, …, maxPrice.
type PricingView struct {
	Prices, Revenue, Probabilities, Counts []float64
	Sensitivity                            float64 // Δ, the highest price
	ExpectedRevenue                        float64
	OptimalRevenue, OptimalPrice           float64
	// The accuracy theorem at β = PricingBeta, and E[OPT − rev] ≤ ExpectedGap.
	Threshold, ProbabilityBelow, ExpectedGap float64
	// Epsilons, the expected revenue at each, and the revenue the theorem
	// guarantees in expectation, OPT − 2Δ(ln|R| + 1)/ε (negative: nothing).
	Epsilons, RevenueCurve, GuaranteeCurve []float64
}

// Pricing computes the pricing view: the exact price distribution,
// seeded draws, revenue and its accuracy bound, and expected revenue over
// the ε values 0.1 … 100.
func Pricing(values []float64, maxPrice, step, epsilon float64, seed uint64, draws int) (PricingView, error) {
	var out PricingView
	if draws < 0 || draws > maxPricingDraws {
		return out, validate.Errorf("draws", "must be between 0 and %d, got %d", maxPricingDraws, draws)
	}
	p, err := gridPricing(values, maxPrice, step, epsilon)
	if err != nil {
		return out, err
	}
	prices := p.Prices()
	acc, err := p.Accuracy(PricingBeta)
	if err != nil {
		return out, err
	}
	counts, err := p.Draw(rng.Seeded(seed), draws)
	if err != nil {
		return out, err
	}
	out = PricingView{
		Prices: prices, Revenue: p.Revenue(), Probabilities: p.Probabilities(), Counts: make([]float64, len(counts)),
		Sensitivity: p.Sensitivity(), ExpectedRevenue: p.ExpectedRevenue(),
		Threshold: acc.Threshold, ProbabilityBelow: acc.ProbabilityBelow, ExpectedGap: acc.ExpectedGap,
	}
	for i, c := range counts {
		out.Counts[i] = float64(c)
	}
	out.OptimalRevenue, out.OptimalPrice = p.Optimal()
	for k := 0; k <= 30; k++ {
		e := 0.1 * math.Pow(1000, float64(k)/30)
		q, err := market.NewPricing(values, prices, e)
		if err != nil {
			return PricingView{}, err
		}
		a, err := q.Accuracy(PricingBeta)
		if err != nil {
			return PricingView{}, err
		}
		out.Epsilons = append(out.Epsilons, e)
		out.RevenueCurve = append(out.RevenueCurve, q.ExpectedRevenue())
		out.GuaranteeCurve = append(out.GuaranteeCurve, out.OptimalRevenue-a.ExpectedGap)
	}
	return out, nil
}

// gridPricing is the private pricing of values at ε over the prices step,
// 2·step, …, maxPrice.
func gridPricing(values []float64, maxPrice, step, epsilon float64) (*market.Pricing, error) {
	prices, err := market.Grid(step, maxPrice, step)
	if err != nil {
		return nil, err
	}
	return market.NewPricing(values, prices, epsilon)
}

// Truth returns market.Truthfulness for one buyer, on the same grid as
// Pricing.
func Truth(values []float64, maxPrice, step, epsilon float64, buyer int) (*market.Truthfulness, error) {
	p, err := gridPricing(values, maxPrice, step, epsilon)
	if err != nil {
		return nil, err
	}
	return p.Truthfulness(buyer)
}

// Billboard runs market.Allocate on the tea market (market.TeaMarket)
// with the given supply per good, charging ε to a fresh accountant.
func Billboard(supply []int, rounds int, epsilon float64, counter string, seed uint64) (*market.AllocationRun, []string, error) {
	v, err := market.TeaMarket()
	if err != nil {
		return nil, nil, err
	}
	acct, err := account.New(epsilon, 0)
	if err != nil {
		return nil, nil, err
	}
	run, err := market.Allocate(market.AllocationConfig{
		Values: v.Values, Supply: supply, Rounds: rounds, Epsilon: epsilon, MaxValue: 1, Counter: counter,
	}, rng.Seeded(seed), acct)
	if err != nil {
		return nil, nil, err
	}
	return run, v.Goods, nil
}
