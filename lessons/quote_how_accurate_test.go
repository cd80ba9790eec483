package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
)

// spread is the accuracy widget's candidate set: n scores from 10 down to 0.
func spread(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 10 * (1 - float64(i)/float64(n-1))
	}
	return s
}

// slopeNeedle are the measurebound widget's two shapes on 101 candidates,
// lifted by lift (0 in the widget).
func slopeNeedle(lift float64) (slope, needle []float64) {
	const n = 101
	slope, needle = make([]float64, n), make([]float64, n)
	for i := range slope {
		slope[i] = lift - math.Abs(float64(i)-50)/n
		needle[i] = lift - 0.5
	}
	needle[50] = lift
	return slope, needle
}

// sci writes x as the lesson does: "1.93 \times 10^{-20}".
func sci(x float64) string {
	e := math.Floor(math.Log10(x))
	return fmt.Sprintf("%.2f \\times 10^{%d}", x/math.Pow(10, e), int(e))
}

func TestQuotedAccuracyTheorem(t *testing.T) {
	const slug = "how-accurate"
	a, err := selection.AccuracyReport(spread(50), 1, 1, 1, make([]float64, 50))
	if err != nil {
		t.Fatal(err)
	}
	quoted(t, slug,
		fmt.Sprintf("$10 - 2(\\ln 50 + 1) \\approx %.2f$", a.Threshold),
		fmt.Sprintf("the exact probability of picking it is about %.5f", a.Exact),
		fmt.Sprintf("$e^{-1} \\approx %.2f$", a.Bound))
	if sp := spread(50); !(sp[49] <= a.Threshold && sp[48] > a.Threshold) || a.Exact >= 0.001 {
		t.Errorf("only the worst candidate should lie below the threshold %g, exact %g", a.Threshold, a.Exact)
	}
	b, _ := selection.AccuracyReport(spread(1000), 1, 1, 1, make([]float64, 1000))
	quoted(t, slug, fmt.Sprintf("drops only by $2 \\ln 20 \\approx %.0f$", a.Threshold-b.Threshold),
		fmt.Sprintf("$2\\Delta \\ln(1000)/\\varepsilon \\approx %.1f \\Delta/\\varepsilon$", 2*math.Log(1000)))
	// t = ln 2: at least half the mass lies above the threshold.
	h, _ := selection.AccuracyReport(spread(50), 1, 1, math.Ln2, make([]float64, 50))
	quoted(t, slug, fmt.Sprintf("which for 50 candidates at ε = 1 is %.2f", h.Threshold))
	if math.Abs(h.Bound-0.5) > 1e-12 || h.Exact > 0.5 {
		t.Errorf("at t = ln 2 the bound is %g and the exact tail %g", h.Bound, h.Exact)
	}
	// The exercise: |R| = 100, t = 1, and its two likely wrong answers.
	c, _ := selection.AccuracyReport(spread(100), 1, 1, 1, make([]float64, 100))
	gap := c.Opt - c.Threshold
	quoted(t, slug,
		fmt.Sprintf("answer: %.2f", gap),
		fmt.Sprintf("≈ 2 × %.3f = %.2f", gap/2, gap))
	// Its likely wrong answers: no factor 2, no t, t outside the factor, log₁₀.
	slips := []float64{gap / 2, 2 * math.Log(100), 2*math.Log(100) + 1, 2 * (math.Log10(100) + 1)}
	quoted(t, slug, fmt.Sprintf("mistakes: [[%.6f, \"That leaves out the factor 2", slips[0]),
		fmt.Sprintf("[%.6f, \"That leaves out t", slips[1]),
		fmt.Sprintf("[%.6f, \"That adds t outside the factor", slips[2]),
		fmt.Sprintf("[%g, \"That uses the logarithm to base 10", slips[3]),
		fmt.Sprintf("ln 100 ≈ %.3f", math.Log(100)))
	exerciseAccepts(t, slug, "OPT − threshold", gap, slips...)
	// The slides' β form: ε = 1, Δ = 1, |R| = 50, β = 0.05.
	quoted(t, slug, fmt.Sprintf("with probability at least 0.95, within %.2f of the best", 2*math.Log(50/0.05)))
	d, _ := selection.AccuracyReport(spread(50), 1, 1, math.Log(1/0.05), make([]float64, 50))
	if math.Abs((d.Opt-d.Threshold)-2*math.Log(50/0.05)) > 1e-9 {
		t.Errorf("β form %g disagrees with the widget's threshold at t = ln 20: %g", 2*math.Log(1000), d.Opt-d.Threshold)
	}
}

func TestQuotedMeasureBound(t *testing.T) {
	const slug = "how-accurate"
	slope, needle := slopeNeedle(0)
	sb, se, sm, err := selection.MeasureBound(slope, nil, 100, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	nb, ne, nm, _ := selection.MeasureBound(needle, nil, 100, 0.1)
	// ε = 2ε_aΔ at ε_a = 100.
	quoted(t, slug, fmt.Sprintf("$\\varepsilon_a = 100$ is $\\varepsilon = %g\\Delta$: for scores whose sensitivity is Δ = 0.001 that is ε = %g, but with Δ = 1 it is ε = %g", 2*100.0, 2*100*0.001, 2*100.0))
	quoted(t, slug,
		fmt.Sprintf("the slope's bound is about $%.0f \\times 10^{-4}$ and the needle's about $%.0f \\times 10^{-3}$: %.0f times weaker", sb*1e4, nb*1e3, nb/sb),
		fmt.Sprintf("The needle's exact probability is $%s$ and the slope's $%s$", sci(ne), sci(se)),
		fmt.Sprintf("the bound %.0f times *weaker*", nb/sb),
		fmt.Sprintf("about $%.0f \\times 10^{%d}$ times *more* accurate", se/ne/1e10, 10),
		fmt.Sprintf("about $%.0f \\times 10^{10}$ times more accurate", se/ne/1e10))
	if r := se / ne; r < 1e10 || r >= 1e11 {
		t.Errorf("the reversal factor %g is no longer of order 10^10", r)
	}
	_, se10, _, _ := selection.MeasureBound(slope, nil, 10, 0.1)
	nb10, ne10, _, _ := selection.MeasureBound(needle, nil, 10, 0.1)
	sb10, _, _, _ := selection.MeasureBound(slope, nil, 10, 0.1)
	quoted(t, slug, fmt.Sprintf("the needle mechanism falls 2t short of the best with probability %.2f and the slope with %.2f", ne10, se10))
	if sb10 < 1 || nb10 < 1 {
		t.Errorf("at ε_a = 10 the bounds %g, %g are not vacuous", sb10, nb10)
	}
	// The exercise: μ(S_t) for the needle is 1/101, a factor of 101.
	quoted(t, slug, fmt.Sprintf("answer: %.0f", 1/nm), fmt.Sprintf("μ(S_t) = 1/%.0f", 1/nm))
	// E[q] ≥ OPT − 3t on the slope lifted by 1.
	lifted, _ := slopeNeedle(1)
	cond := math.Log(1/(0.1*sm)) / 0.1
	quoted(t, slug,
		fmt.Sprintf("at $t = 0.1$ the near-optimal mass is still %.0f/101", sm*101),
		fmt.Sprintf("answer: %.2f", cond),
		fmt.Sprintf("ε_a ≥ ln(%.2f)/0.1 ≈ %.2f", 1/(0.1*sm), cond),
		fmt.Sprintf("the third exercise's answer is %.2f", cond))
	// Its likely wrong answers: no division by t, the needle's mass, t left
	// out of the logarithm.
	condSlips := []float64{cond * 0.1, math.Log(1/(0.1*nm)) / 0.1, math.Log(1/sm) / 0.1}
	quoted(t, slug, fmt.Sprintf("mistakes: [[%.3f, \"That forgets to divide by t", condSlips[0]),
		fmt.Sprintf("[%.2f, \"That uses the needle's mass 1/101", condSlips[1]),
		fmt.Sprintf("[%.2f, \"That leaves t out of the logarithm", condSlips[2]))
	exerciseAccepts(t, slug, "smallest εₐ", cond, condSlips...)
	// The factor's likely wrong answers: every candidate near the top, the
	// needle's rivals counted, the slope's near-optimal count.
	quoted(t, slug, fmt.Sprintf("[%.0f, \"That counts the needle's rivals", 1/nm-1), fmt.Sprintf("[%.0f, \"That counts the slope's candidates within t", sm*101))
	exerciseAccepts(t, slug, "Factor", 1/nm, 1, 1/nm-1, sm*101)
	// The exact expected score at ε_a = 100 (ε = 2·ε_a·Δ in the ε/(2Δ) form).
	p := probs(t, lifted, nil, 200, 1)
	mean := 0.0
	for i, q := range lifted {
		mean += p[i] * q
	}
	quoted(t, slug, fmt.Sprintf("the theorem promises an expected score of at least %.1f; the exact expected score is %.4f", 1-3*0.1, mean))
	if mean < 1-3*0.1 {
		t.Errorf("E[q] = %g breaks the article's theorem", mean)
	}
	if !strings.Contains(lessonText(t, slug), "scores run from 1 at the middle down to about 0.5") || lifted[0] < 0.5 {
		t.Error("the lifted slope's range moved")
	}
}
