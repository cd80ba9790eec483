//go:build js && wasm

// Command market is the lazily loaded module of private pricing,
// approximate truthfulness and billboard prices. It registers
// globalThis.dpplay_market with methods that take one plain object:
//
//	pricing({values, maxPrice, step, epsilon, seed, draws}) →
//	    {prices, revenue, probabilities, counts, sensitivity, expectedRevenue, optimalRevenue, optimalPrice,
//	     threshold, probabilityBelow, expectedGap, beta, epsilons, revenueCurve, guaranteeCurve}
//	truth({values, maxPrice, step, epsilon, buyer}) →
//	    {value, reports (0, then every grid price), utilities, truthfulUtility, bestReport, maxGain, maxUtility,
//	     slidesBound (ε·B), proofBound ((1 − e^−ε)·B), tightBound (min((e^ε − 1)·E[u], B·tanh(ε/2))),
//	     detTruthfulPrice, detTruthfulUtility, detBestReport, detBestPrice, detGain, detMaxShift}
//	billboard({supply, rounds, epsilon, counter, seed}) →
//	    {goods, buyers, rounds, prices, demand, noisyDemand, choices, allocation, allocated, overAllocation,
//	     expectedAllocated, overSupplyProbability, overDemand, welfare, expectedWelfare, feasibleWelfare, optimalWelfare, epsilonSpent, counter, noiseScale, step, charges}
//
// Matrices cross flattened row by row: prices[t*goods+j].
package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/app/market"
	"github.com/dpplay/dpplay/wasm/jsio"
)

func main() { jsio.Serve("dpplay_market", "market") }

func floats[T int | float64](rows ...[]T) []float64 {
	var out []float64
	for _, r := range rows {
		for _, x := range r {
			out = append(out, float64(x))
		}
	}
	return out
}

func init() {
	jsio.Register("pricing", func(a js.Value) (map[string]any, error) {
		v, err := market.Pricing(jsio.FromJS(a.Get("values")), a.Get("maxPrice").Float(), a.Get("step").Float(),
			a.Get("epsilon").Float(), uint64(a.Get("seed").Float()), a.Get("draws").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"prices": jsio.ToJS(v.Prices), "revenue": jsio.ToJS(v.Revenue), "probabilities": jsio.ToJS(v.Probabilities),
			"counts": jsio.ToJS(v.Counts), "sensitivity": v.Sensitivity, "expectedRevenue": v.ExpectedRevenue,
			"optimalRevenue": v.OptimalRevenue, "optimalPrice": v.OptimalPrice, "threshold": v.Threshold,
			"probabilityBelow": v.ProbabilityBelow, "expectedGap": v.ExpectedGap, "beta": market.PricingBeta,
			"epsilons": jsio.ToJS(v.Epsilons), "revenueCurve": jsio.ToJS(v.RevenueCurve), "guaranteeCurve": jsio.ToJS(v.GuaranteeCurve),
		}, nil
	})
	jsio.Register("truth", func(a js.Value) (map[string]any, error) {
		t, err := market.Truth(jsio.FromJS(a.Get("values")), a.Get("maxPrice").Float(), a.Get("step").Float(),
			a.Get("epsilon").Float(), a.Get("buyer").Int())
		if err != nil {
			return nil, err
		}
		d := t.Deterministic
		return map[string]any{
			"value": t.Value, "reports": jsio.ToJS(t.Reports), "utilities": jsio.ToJS(t.Utilities),
			"truthfulUtility": t.TruthfulUtility, "bestReport": t.BestReport, "maxGain": t.MaxGain, "maxUtility": t.MaxUtility,
			"slidesBound": t.SlidesBound, "proofBound": t.ProofBound, "tightBound": t.TightBound,
			"detTruthfulPrice": d.TruthfulPrice, "detTruthfulUtility": d.TruthfulUtility, "detBestReport": d.BestReport,
			"detBestPrice": d.BestPrice, "detGain": d.Gain, "detMaxShift": d.MaxShift,
		}, nil
	})
	jsio.Register("billboard", func(a js.Value) (map[string]any, error) {
		sf := jsio.FromJS(a.Get("supply"))
		supply := make([]int, len(sf))
		for i, s := range sf {
			supply[i] = int(s)
		}
		run, goods, err := market.Billboard(supply, a.Get("rounds").Int(), a.Get("epsilon").Float(),
			a.Get("counter").String(), uint64(a.Get("seed").Float()))
		if err != nil {
			return nil, err
		}
		names := make([]any, len(goods))
		for i, g := range goods {
			names[i] = g
		}
		return map[string]any{
			"goods": names, "buyers": run.Buyers, "rounds": run.Rounds,
			"prices": jsio.ToJS(floats(run.Prices...)), "demand": jsio.ToJS(floats(run.Demand...)),
			"noisyDemand": jsio.ToJS(floats(run.NoisyDemand...)), "choices": jsio.ToJS(floats(run.Choices...)),
			"allocation": jsio.ToJS(floats(run.Allocation)), "allocated": jsio.ToJS(floats(run.Allocated)),
			"overAllocation": jsio.ToJS(floats(run.OverAllocation)), "overDemand": jsio.ToJS(run.ExpectedOverDemand),
			"expectedAllocated": jsio.ToJS(run.ExpectedAllocated), "overSupplyProbability": jsio.ToJS(run.OverSupplyProbability),
			"welfare": run.Welfare, "expectedWelfare": run.ExpectedWelfare, "feasibleWelfare": run.FeasibleWelfare,
			"optimalWelfare": run.OptimalWelfare, "epsilonSpent": run.EpsilonSpent, "counter": run.Counter,
			"noiseScale": run.NoiseScale, "step": run.Step, "charges": len(run.Ledger),
		}, nil
	})
}
