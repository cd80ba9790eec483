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
	// Laplace report noisy max is integrated numerically: its probabilities
	// have a closed form only as an integral, none in terms of simple
	// functions. Gumbel noise and the total variation distance are defined
	// where the panels first use them, and the distance is computed here.
	quoted(t, "report-noisy-max", "The Laplace panel's probabilities have no simple closed form",
		"A **Gumbel** draw of scale $b$ is $-b \\ln(-\\ln U)$ with $U$ uniform on $(0, 1)$",
		"The panel's **total variation distance** from the first, the largest difference in probability the two give any set of outputs (half the sum of $|p(r) - q(r)|$), is zero.")
	exp, gum := all(t, "exponential"), all(t, "report-noisy-max-gumbel")
	tv := 0.0
	for r := range exp {
		tv += math.Abs(exp[r]-gum[r]) / 2
	}
	if tv > 1e-12 {
		t.Errorf("the Gumbel panel is %g from the exponential mechanism in total variation, not zero", tv)
	}
}

// all is a mechanism's exact distribution on the meeting scores at ε = 1.
func all(t *testing.T, mech string) []float64 {
	t.Helper()
	p, err := selection.New().Probabilities(selection.Request{Mechanism: mech, Scores: meeting, Epsilon: 1, Sensitivity: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The accountant: budget 2 at ε = 0.25 per selection over n = 5 days, the
// exercise's eight weeks of full releases (scale per count 20, confirmed by
// eight releases at ε = 0.05 in the accountant) and the derived scale under
// change-one-answer neighbours, all through core/account.
func TestQuotedBudget(t *testing.T) {
	const budget, eps, n, weeks = 2.0, 0.25, 5, 8
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
		fmt.Sprintf("spend 2 on selections (%d of them), reset, then spend on full releases (only %d fits)", sel, full))
	if sel != weeks {
		t.Errorf("the budget pays for %d selections at ε = 0.25; the exercise's weeks are %d", sel, weeks)
	}
	// Eight weeks of five counts each: ε per count and its scale.
	perCount := budget / (weeks * n)
	scale := 1 / perCount
	if got := count(n * (1 / scale)); got != weeks {
		t.Errorf("at ε = 1/%g per count the accountant takes %d full releases, not %d", scale, got, weeks)
	}
	quoted(t, "report-noisy-max",
		fmt.Sprintf("answer: %g", scale),
		fmt.Sprintf("each count gets %g, and Laplace noise of scale Δ/%g = %g", perCount, perCount, scale),
		fmt.Sprintf("Report noisy max needs scale %g for the same budget", 1/eps),
		fmt.Sprintf("[[%g, \"That is report noisy max's scale", 1/eps),
		fmt.Sprintf("[%g, \"That splits the budget over the five counts", n/budget),
		fmt.Sprintf("[%g, \"That is the ε each count gets", perCount),
		fmt.Sprintf("[%d, \"That counts the %d releases but spends ε = 1", weeks*n, weeks*n),
		fmt.Sprintf("(scale %g per count for %d weeks of full releases against %g for report noisy max, confirmed by %d full releases at ε = %g in the accountant;", scale, weeks, 1/eps, weeks, perCount))
	exerciseAccepts(t, "report-noisy-max", "Scale per count", scale, 1/eps, n/budget, perCount, weeks*n)
	// Change-one-answer neighbours need scale 2Δ/ε; the wrong answers are Δ/ε and n·Δ/ε.
	const delta, e2 = 1.0, 0.5
	quoted(t, "report-noisy-max",
		fmt.Sprintf("answer: %g", 2*delta/e2),
		fmt.Sprintf("2Δ/ε = 2 × 1/0.5 = %g", 2*delta/e2),
		fmt.Sprintf("[[%g, \"That is Δ/ε", delta/e2),
		fmt.Sprintf("[%g, \"That pays for publishing all five", n*delta/e2))
	exerciseAccepts(t, "report-noisy-max", "Scale b", 2*delta/e2, delta/e2, n*delta/e2)
}

// Under add-or-remove neighbours on counts, where Lap(Δ/ε) is ε-private,
// the exponential mechanism and permute-and-flip may halve their noise too:
// weights exp(εu/Δ) are the ε/(2Δ) form at 2ε.
func TestQuotedHalvedNoise(t *testing.T) {
	tuesday := func(mech string, eps float64) float64 {
		p, err := selection.New().Probabilities(selection.Request{Mechanism: mech, Scores: meeting, Epsilon: eps, Sensitivity: 1})
		if err != nil {
			t.Fatal(err)
		}
		return p[1]
	}
	em, pf, lap := tuesday("exponential", 2), tuesday("permute-and-flip", 2), tuesday("report-noisy-max-laplace", 1)
	quoted(t, "report-noisy-max",
		fmt.Sprintf("then they pick Tuesday about %.0f%% and %.0f%% of the time", 100*em, 100*pf),
		fmt.Sprintf("is ε-private as well, and picks Tuesday with probability %.3f", em))
	if em <= lap || pf <= lap {
		t.Errorf("at equal noise the exponential mechanism (%v) and permute-and-flip (%v) no longer beat Laplace (%v)", em, pf, lap)
	}
}
