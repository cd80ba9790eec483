package main

import (
	"math"
	"strings"
	"testing"
)

func TestPricingCommand(t *testing.T) {
	args := []string{"pricing", "-values", "1,1,1,4.01", "-prices", "0.01:5.00:0.01", "-epsilon", "1", "-draws", "2000", "-seed", "3", "-buyer", "3", "-neighbour", "3=0"}
	var res pricingResult
	first := runJSON(t, args, &res)
	total, sum, expected := 0, 0.0, 0.0
	for j, c := range res.Counts {
		total += c
		sum += res.Probabilities[j]
		expected += res.Probabilities[j] * res.Revenue[j]
	}
	if len(res.Prices) != 500 || total != 2000 || math.Abs(sum-1) > 1e-12 {
		t.Errorf("%d prices, %d draws, probabilities sum to %v", len(res.Prices), total, sum)
	}
	if math.Abs(expected-res.ExpectedRevenue) > 1e-12 || res.OptimalRevenue != 4.01 || res.OptimalPrice != 4.01 || res.Sensitivity != 5 {
		t.Errorf("expected revenue %v (recomputed %v), optimum %v at %v, Δ %v", res.ExpectedRevenue, expected, res.OptimalRevenue, res.OptimalPrice, res.Sensitivity)
	}
	tr := res.Truthfulness
	if tr == nil || tr.MaxGain > tr.TightBound || tr.Deterministic.Gain <= tr.TightBound || len(tr.Utilities) != 501 || tr.Reports[0] != 0 || tr.ProofBound > tr.SlidesBound || tr.TightBound > tr.ProofBound {
		t.Errorf("truthfulness: %+v", tr)
	}
	if res.Neighbour == nil || res.Neighbour.Loss > 0.5+1e-12 || res.Neighbour.Loss <= 0 {
		t.Errorf("neighbour loss: %+v, want in (0, ε/2]", res.Neighbour)
	}
	if again := runJSON(t, args, &pricingResult{}); again != first {
		t.Error("same seed, different output")
	}
}

func TestAllocateCommand(t *testing.T) {
	args := []string{"allocate", "-values", "../../core/market/testdata/known_optimum.csv", "-supply", "1,2", "-max-value", "5",
		"-rounds", "64", "-epsilon", "3", "-seed", "4", "-counter", "tree", "-choices"}
	var res allocateResult
	runJSON(t, args, &res)
	if strings.Join(res.Goods, ",") != "A,B" || res.Buyers != 4 || len(res.Trace) != 64 || len(res.Choices) != 64 || res.Levels != 7 {
		t.Errorf("goods %v, %d buyers, %d rounds traced, %d choice rows, %d levels", res.Goods, res.Buyers, len(res.Trace), len(res.Choices), res.Levels)
	}
	if res.OptimalWelfare == nil || *res.OptimalWelfare != 10 {
		t.Errorf("optimal welfare %v, want 10", res.OptimalWelfare)
	}
	sum := 0.0
	for _, ch := range res.Ledger {
		sum += ch.Epsilon * float64(ch.Count)
	}
	if math.Abs(sum-3) > 1e-12 || math.Abs(res.EpsilonSpent-3) > 1e-12 || len(res.Ledger) != 7 {
		t.Errorf("ledger %v sums to %v, spent %v; want 7 charges summing to 3", res.Ledger, sum, res.EpsilonSpent)
	}
	// The allocation is each buyer's choice in some round.
	for i, g := range res.Allocation {
		found := false
		for _, row := range res.Choices {
			found = found || row[i] == g
		}
		if !found {
			t.Errorf("buyer %d allocated %d, never demanded", i, g)
		}
	}
	// Per-round charges print as one grouped line.
	res = allocateResult{}
	runJSON(t, []string{"allocate", "-values", "../../core/market/testdata/known_optimum.csv", "-supply", "1", "-max-value", "5", "-rounds", "20", "-counter", "per-round", "-seed", "1"}, &res)
	if len(res.Ledger) != 1 || res.Ledger[0].Count != 20 {
		t.Errorf("per-round ledger %v, want one line counting 20", res.Ledger)
	}
}
