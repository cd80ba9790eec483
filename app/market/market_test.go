package market

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/stats"
)

var slides = []float64{1, 1, 1, 4.01}

func TestPricingSlidesExample(t *testing.T) {
	const n = 100_000
	got, err := Pricing(slides, 5, 0.01, 1, 9, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Prices) != 500 || got.OptimalPrice != 4.01 || math.Abs(got.OptimalRevenue-4.01) > 1e-12 {
		t.Fatalf("grid %d prices, optimum %v at %v", len(got.Prices), got.OptimalRevenue, got.OptimalPrice)
	}
	// docs/market.md's table: E[revenue] = 2.079 at ε = 1.
	if math.Abs(got.ExpectedRevenue-2.079) > 5e-4 {
		t.Errorf("expected revenue %g, want 2.079", got.ExpectedRevenue)
	}
	sum, total := 0.0, 0.0
	for i, p := range got.Probabilities {
		sum += p
		total += got.Counts[i]
	}
	if math.Abs(sum-1) > 1e-12 || total != n {
		t.Errorf("probabilities sum to %g, counts to %g", sum, total)
	}
	// The draws fit the exact distribution at α = 1e-6; those of ε = 2 do not.
	other, err := Pricing(slides, 5, 0.01, 2, 9, 0)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, len(got.Counts))
	for i, c := range got.Counts {
		counts[i] = int(c)
	}
	for _, c := range []struct {
		probs []float64
		fits  bool
	}{{got.Probabilities, true}, {other.Probabilities, false}} {
		res, err := stats.ChiSquare(counts, c.probs)
		if err != nil {
			t.Fatal(err)
		}
		if (res.PValue >= 1e-6) != c.fits {
			t.Errorf("fits=%v: p = %.3g", c.fits, res.PValue)
		}
	}
	// More ε, more revenue, never above OPT; the guarantee stays below E[rev].
	for k := range got.Epsilons {
		if got.RevenueCurve[k] > got.OptimalRevenue+1e-9 || got.GuaranteeCurve[k] > got.RevenueCurve[k]+1e-9 {
			t.Errorf("ε = %g: E[rev] %g, guarantee %g, OPT %g", got.Epsilons[k], got.RevenueCurve[k], got.GuaranteeCurve[k], got.OptimalRevenue)
		}
	}
	if last := got.RevenueCurve[len(got.RevenueCurve)-1]; last < 3.9 {
		t.Errorf("E[rev] at ε = 100 is %g, want near OPT", last)
	}
}

func TestTruthSlidesExample(t *testing.T) {
	tr, err := Truth(slides, 5, 0.01, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if tr.MaxGain > tr.TightBound+1e-12 || tr.TightBound > tr.ProofBound+1e-12 || tr.ProofBound > tr.SlidesBound+1e-12 {
		t.Errorf("gain %g, tight bound %g, proof bound %g, slides bound %g", tr.MaxGain, tr.TightBound, tr.ProofBound, tr.SlidesBound)
	}
	// The slides' ε·B with B = $4.00 (the $4.01 buyer at a price of $0.01).
	if math.Abs(tr.SlidesBound-4) > 1e-9 || len(tr.Reports) != 501 || tr.Reports[0] != 0 {
		t.Errorf("slides bound %g, %d reports starting at %g", tr.SlidesBound, len(tr.Reports), tr.Reports[0])
	}
	// Posting the best price outright: the $4.01 buyer reports $0.75 and pays
	// $0.75, a gain of 3.26 (docs/market.md).
	if d := tr.Deterministic; math.Abs(d.Gain-3.26) > 1e-9 || d.BestPrice != 0.75 {
		t.Errorf("deterministic lie: gain %g at price %g", d.Gain, d.BestPrice)
	}
}

func TestBillboardAccountsForEpsilon(t *testing.T) {
	for _, counter := range []string{"tree", "per-round"} {
		run, goods, err := Billboard([]int{40, 40, 40}, 32, 2, counter, 1)
		if err != nil {
			t.Fatal(err)
		}
		spent := 0.0
		for _, c := range run.Ledger {
			spent += c.Epsilon
		}
		if len(goods) != 3 || math.Abs(spent-2) > 1e-9 || math.Abs(run.EpsilonSpent-2) > 1e-9 {
			t.Errorf("%s: goods %v, ledger sums to %g, spent %g", counter, goods, spent, run.EpsilonSpent)
		}
		if !run.OptimalKnown || run.FeasibleWelfare > run.OptimalWelfare+1e-9 {
			t.Errorf("%s: feasible welfare %g against optimum %g (known %v)", counter, run.FeasibleWelfare, run.OptimalWelfare, run.OptimalKnown)
		}
	}
	if _, _, err := Billboard([]int{40, 40}, 32, 2, "tree", 1); err == nil {
		t.Error("two supplies for three goods: no error")
	}
}
