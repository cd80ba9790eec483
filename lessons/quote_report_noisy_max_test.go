package lessons

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
)

// The predict reveal: how often each of the four panels picks Tuesday on
// the meeting scores at ε = 1 (the report-noisy-max widget's exact probabilities).
func TestQuotedReportNoisyMax(t *testing.T) {
	share := map[string]float64{}
	for _, m := range []string{"exponential", "report-noisy-max-laplace", "report-noisy-max-gumbel", "permute-and-flip"} {
		p, err := selection.New().Probabilities(selection.Request{Mechanism: m, Scores: meeting, Epsilon: 1, Sensitivity: 1})
		if err != nil {
			t.Fatal(err)
		}
		share[m] = p[1]
	}
	if math.Abs(share["exponential"]-share["report-noisy-max-gumbel"]) > 1e-12 {
		t.Errorf("Gumbel noise %g is not the exponential mechanism %g", share["report-noisy-max-gumbel"], share["exponential"])
	}
	quoted(t, "report-noisy-max",
		fmt.Sprintf("Laplace noise picks Tuesday about %.0f%% of the time, permute-and-flip about %.0f%%, and the exponential mechanism and Gumbel noise both about %.0f%%",
			100*share["report-noisy-max-laplace"], 100*share["permute-and-flip"], 100*share["exponential"]))
	quoted(t, "report-noisy-max", fmt.Sprintf("it picks Tuesday with probability %.3f against %.3f", share["report-noisy-max-laplace"], share["exponential"]))
	if !(share["report-noisy-max-laplace"] > share["permute-and-flip"] && share["permute-and-flip"] > share["exponential"]) {
		t.Error("the predict block's answer (Laplace picks Tuesday most often) no longer holds")
	}
}

// The accountant's exercises (budget 2, ε = 0.25, n = 5) and the derived
// scale under change-one-answer neighbours, all through core/account.
func TestQuotedBudget(t *testing.T) {
	const budget, eps, n = 2.0, 0.25, 5
	quoted(t, "report-noisy-max", "budget: 2", "eps: 0.25", "n: 5")
	count := func(cost float64) int {
		charges := make([]selection.Charge, 100)
		for i := range charges {
			charges[i] = selection.Charge{Epsilon: cost}
		}
		led, err := selection.Account(budget, 0, charges)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for _, ok := range led.Accepted {
			if ok {
				k++
			}
		}
		return k
	}
	sel, full := count(eps), count(n*eps)
	quoted(t, "report-noisy-max",
		fmt.Sprintf("answer: %d\ntolerance: 0\nexample-right: %d", sel, sel),
		fmt.Sprintf("%d × 0.25 = 2 spends the budget exactly", sel),
		fmt.Sprintf("answer: %d\ntolerance: 0\nexample-right: %d\nexample-wrong: 5\nlabel: Full releases", full, full),
		fmt.Sprintf("costs 5 × 0.25 = %g; a second release would need %g in total", n*eps, 2*n*eps),
		fmt.Sprintf("spend 2 on selections (%d of them), reset, then spend on full releases (only %d fits)", sel, full))
	// Change-one-answer neighbours need scale 2Δ/ε; the wrong answers are Δ/ε and n·Δ/ε.
	const delta, e2 = 1.0, 0.5
	quoted(t, "report-noisy-max",
		fmt.Sprintf("answer: %g", 2*delta/e2),
		fmt.Sprintf("2Δ/ε = 2 × 1/0.5 = %g", 2*delta/e2),
		fmt.Sprintf("If you gave %g, that is Δ/ε", delta/e2),
		fmt.Sprintf("If you gave %g, you paid for publishing all five", n*delta/e2))
	exerciseAccepts(t, "report-noisy-max", "Selections", float64(sel), float64(sel-1))
	exerciseAccepts(t, "report-noisy-max", "Full releases", float64(full), n)
	exerciseAccepts(t, "report-noisy-max", "Scale b", 2*delta/e2, delta/e2, n*delta/e2)
}
