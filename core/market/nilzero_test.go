package market

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/internal/calltest"
	"github.com/dpplay/dpplay/core/rng"
)

// TestNilAndZeroValues calls every exported function and method of the
// package with nil pointers, zero values and nil arguments: none may panic,
// every one that returns an error must return one, and the accessors with no
// error to return give zero values, never NaN or Inf.
func TestNilAndZeroValues(t *testing.T) {
	var nilPricing *Pricing
	var nilRun *AllocationRun
	r := rng.Seeded(1)
	good, err := NewPricing([]float64{1, 2}, []float64{1, 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	errs := []struct {
		name string
		call func() error
	}{
		{"Grid(0, 0, 0)", func() error { _, err := Grid(0, 0, 0); return err }},
		{"NewPricing(nil, nil, 0)", func() error { _, err := NewPricing(nil, nil, 0); return err }},
		{"NewPricing(values, nil, 1)", func() error { _, err := NewPricing([]float64{1}, nil, 1); return err }},
		{"nil Pricing.Sample", func() error { _, err := nilPricing.Sample(r); return err }},
		{"zero Pricing.Sample", func() error { _, err := (&Pricing{}).Sample(r); return err }},
		{"Pricing.Sample(nil)", func() error { _, err := good.Sample(nil); return err }},
		{"nil Pricing.Draw", func() error { _, err := nilPricing.Draw(r, 1); return err }},
		{"zero Pricing.Draw", func() error { _, err := (&Pricing{}).Draw(r, 1); return err }},
		{"Pricing.Draw(nil)", func() error { _, err := good.Draw(nil, 1); return err }},
		{"nil Pricing.Accuracy", func() error { _, err := nilPricing.Accuracy(0.05); return err }},
		{"zero Pricing.Accuracy", func() error { _, err := (&Pricing{}).Accuracy(0.05); return err }},
		{"nil Pricing.NeighbourLoss", func() error { _, err := nilPricing.NeighbourLoss(0, 1); return err }},
		{"zero Pricing.NeighbourLoss", func() error { _, err := (&Pricing{}).NeighbourLoss(0, 1); return err }},
		{"nil Pricing.Truthfulness", func() error { _, err := nilPricing.Truthfulness(0); return err }},
		{"zero Pricing.Truthfulness", func() error { _, err := (&Pricing{}).Truthfulness(0); return err }},
		{"Allocate(zero config)", func() error { _, err := Allocate(AllocationConfig{}, r, nil); return err }},
		{"Allocate(nil rng)", func() error {
			_, err := Allocate(AllocationConfig{Values: [][]float64{{1}}, Supply: []int{1}, Rounds: 1, Epsilon: 1}, nil, nil)
			return err
		}},
		{"Allocate(nil row)", func() error {
			_, err := Allocate(AllocationConfig{Values: [][]float64{nil}, Supply: []int{1}, Rounds: 1, Epsilon: 1}, r, nil)
			return err
		}},
		{"nil AllocationRun.RunPrivacyLoss", func() error { _, err := nilRun.RunPrivacyLoss(0, nil); return err }},
		{"zero AllocationRun.RunPrivacyLoss", func() error { _, err := (&AllocationRun{}).RunPrivacyLoss(0, nil); return err }},
		{"hand-made AllocationRun.RunPrivacyLoss", func() error {
			run := &AllocationRun{Goods: 1, Buyers: 1, Rounds: 1, Nodes: []Node{{Start: 1, End: 1, Exact: []float64{0}, Noisy: []float64{0}}}}
			_, err := run.RunPrivacyLoss(0, []float64{1})
			return err
		}},
		{"OptimalWelfare(nil, nil)", func() error { _, _, err := OptimalWelfare(nil, nil); return err }},
		{"OptimalWelfare(nil row)", func() error { _, _, err := OptimalWelfare([][]float64{nil}, []int{1}); return err }},
		{"DefaultStep(0, 0, 0)", func() error { _, err := DefaultStep(0, 0, 0); return err }},
		{"DefaultStep(+Inf, 1, 1)", func() error { _, err := DefaultStep(math.Inf(1), 1, 1); return err }},
		{"DefaultStep(NaN, 1, 1)", func() error { _, err := DefaultStep(math.NaN(), 1, 1); return err }},
		{"ParseValuations(nil)", func() error { _, err := ParseValuations(nil); return err }},
	}
	for _, c := range errs {
		calltest.Fails(t, c.name, c.call)
	}
	zeroes := []struct {
		name string
		call func() []float64
	}{
		{"nil Pricing.Sensitivity", func() []float64 { return []float64{nilPricing.Sensitivity()} }},
		{"zero Pricing.Sensitivity", func() []float64 { return []float64{(&Pricing{}).Sensitivity()} }},
		{"nil Pricing.Epsilon", func() []float64 { return []float64{nilPricing.Epsilon()} }},
		{"nil Pricing.Prices", func() []float64 { return nilPricing.Prices() }},
		{"zero Pricing.Values", func() []float64 { return (&Pricing{}).Values() }},
		{"nil Pricing.Revenue", func() []float64 { return nilPricing.Revenue() }},
		{"nil Pricing.Probabilities", func() []float64 { return nilPricing.Probabilities() }},
		{"zero Pricing.Probabilities", func() []float64 { return (&Pricing{}).Probabilities() }},
		{"zero Pricing.LogProbabilities", func() []float64 { return (&Pricing{}).LogProbabilities() }},
		{"nil Pricing.ExpectedRevenue", func() []float64 { return []float64{nilPricing.ExpectedRevenue()} }},
		{"zero Pricing.ExpectedRevenue", func() []float64 { return []float64{(&Pricing{}).ExpectedRevenue()} }},
		{"nil Pricing.Optimal", func() []float64 { a, b := nilPricing.Optimal(); return []float64{a, b} }},
		{"zero Pricing.Optimal", func() []float64 { a, b := (&Pricing{}).Optimal(); return []float64{a, b} }},
	}
	for _, c := range zeroes {
		calltest.NoPanic(t, c.name, func() {
			for _, v := range c.call() {
				if v != 0 {
					t.Errorf("%s gave %v, want 0 or nothing", c.name, v)
				}
			}
		})
	}
	// A real Pricing still samples.
	if j, err := good.Sample(r); err != nil || j < 0 || j > 1 {
		t.Errorf("Sample on a real Pricing: %d, %v", j, err)
	}
}
