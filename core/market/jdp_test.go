package market

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

// TestAllocationIsPostProcessing checks the second half of the billboard
// lemma on real runs: every buyer's good is their best response to the
// published prices of the round their own draw picked, so it reads no other
// buyer's data. With TestRunPrivacyLoss (the transcript of prices is ε-DP
// when one buyer's values change) this is the joint differential privacy of
// Allocation.
func TestAllocationIsPostProcessing(t *testing.T) {
	r := rng.Seeded(7)
	for trial := 0; trial < 40; trial++ {
		values, supply := randomMarket(r, 12, 3, 4)
		run, err := Allocate(AllocationConfig{Values: values, Supply: supply, Rounds: 1 + r.IntN(50), Epsilon: 2}, rng.Seeded(uint64(trial)), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range run.Allocation {
			tau := run.FinalRound[i]
			if tau < 1 || tau > run.Rounds {
				t.Fatalf("trial %d: buyer %d's round %d is outside 1..%d", trial, i, tau, run.Rounds)
			}
			if want := bestResponse(values[i], run.Prices[tau-1]); g != want {
				t.Fatalf("trial %d: buyer %d got %d, but their best response to round %d's prices is %d", trial, i, g, tau, want)
			}
		}
	}
}

// TestTurnAwayIsNotJointlyPrivate shows on i-neighbouring inputs that the
// clean-up which makes the allocation feasible breaks joint privacy. One
// copy of good 0; buyer 0 wants it. With T = 1 the prices are 0 and each
// buyer takes their favourite, with no noise involved. If buyer 1 reports a
// taste for good 1, buyer 0 keeps the copy with probability 1; if buyer 1
// reports a taste for good 0, buyer 0 keeps it with probability 1/2. The
// event "buyer 0 loses it" has probability 0 under one input and 1/2 under
// the other: no ε bounds the ratio.
func TestTurnAwayIsNotJointlyPrivate(t *testing.T) {
	const draws = 4000
	lost := func(buyer1 []float64) int {
		values := [][]float64{{0.9, 0.1}, buyer1}
		n := 0
		for seed := uint64(0); seed < draws; seed++ {
			run, err := Allocate(AllocationConfig{Values: values, Supply: []int{1, 1}, Rounds: 1, Epsilon: 1}, rng.Seeded(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			if run.Allocation[0] != 0 {
				t.Fatalf("buyer 0's jointly private good is %d, want 0 whatever buyer 1 reports", run.Allocation[0])
			}
			if TurnAway(run.Allocation, run.Supply, rng.Seeded(seed+1e6))[0] == None {
				n++
			}
		}
		return n
	}
	if n := lost([]float64{0.1, 0.9}); n != 0 {
		t.Errorf("buyer 1 wants good 1: buyer 0 lost good 0 in %d of %d draws, want 0", n, draws)
	}
	// Binomial(4000, 1/2): 2000 ± 32 (sd); 1800..2200 fails with
	// probability about 3e-10.
	if n := lost([]float64{0.9, 0.1}); n < 1800 || n > 2200 {
		t.Errorf("buyer 1 wants good 0: buyer 0 lost it in %d of %d draws, want about half", n, draws)
	}
}

// TestOverSupplyProbability checks the exact over-supply probabilities and
// expected counts against enumeration of every buyer's draw of the round on
// small markets (T^n equally likely draws).
func TestOverSupplyProbability(t *testing.T) {
	r := rng.Seeded(11)
	for trial := 0; trial < 60; trial++ {
		values, supply := randomMarket(r, 5, 3, 3)
		T := 1 + r.IntN(4)
		run, err := Allocate(AllocationConfig{Values: values, Supply: supply, Rounds: T, Epsilon: 0.5 + r.Float64()}, rng.Seeded(uint64(trial)), nil)
		if err != nil {
			t.Fatal(err)
		}
		n, k := run.Buyers, run.Goods
		over := make([]float64, k)
		mean := make([]float64, k)
		total := int(math.Pow(float64(T), float64(n)))
		draw := make([]int, n)
		for c := 0; c < total; c++ {
			x := c
			for i := range draw {
				draw[i], x = x%T, x/T
			}
			count := make([]int, k)
			for i, tau := range draw {
				if g := run.Choices[tau][i]; g != None {
					count[g]++
				}
			}
			for j := range count {
				mean[j] += float64(count[j]) / float64(total)
				if count[j] > supply[j] {
					over[j] += 1 / float64(total)
				}
			}
		}
		for j := 0; j < k; j++ {
			if math.Abs(run.OverSupplyProbability[j]-over[j]) > 1e-12 || math.Abs(run.ExpectedAllocated[j]-mean[j]) > 1e-12 {
				t.Fatalf("trial %d, good %d: P(over) %v, mean %v; enumeration gives %v, %v",
					trial, j, run.OverSupplyProbability[j], run.ExpectedAllocated[j], over[j], mean[j])
			}
		}
	}
}

// TestPoissonBinomialAbove checks the tail against a binomial.
func TestPoissonBinomialAbove(t *testing.T) {
	q := []float64{0.5, 0.5, 0.5, 0.5}
	// Pr[Bin(4, 1/2) > 2] = (4 + 1)/16.
	if got := poissonBinomialAbove(q, 2); math.Abs(got-5.0/16) > 1e-15 {
		t.Errorf("got %v, want 5/16", got)
	}
	if got := poissonBinomialAbove(q, 4); got != 0 {
		t.Errorf("above n: got %v, want 0", got)
	}
	if got := poissonBinomialAbove(q, -1); got != 1 {
		t.Errorf("above −1: got %v, want 1", got)
	}
}
