package lessons

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
)

// The floating-point-attack widget's runs (seed 1, 1,000 draws, Δ = 1) and the
// discrete Laplace exercise, through the bridge.
func TestQuotedFloatingPoint(t *testing.T) {
	const slug = "floating-point"
	attack := func(q, eps float64) selection.Attack {
		a, err := selection.FloatAttack(q, q+1, 1, eps, 1000, 1)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a0 := attack(0, 1)
	quoted(t, slug,
		fmt.Sprintf("%d of 1,000 outputs from count 0 could not have been produced by count 1", a0.Count),
		fmt.Sprintf("%d of 1,000 outputs rule out count 1", a0.Count))
	if a0.Count <= 500 || a0.Neighbour <= 500 {
		t.Errorf("the predict answer (more than half) fails: %d and %d of 1,000", a0.Count, a0.Neighbour)
	}
	a1000 := attack(1000, 1)
	quoted(t, slug,
		fmt.Sprintf("none of the 1,000 outputs rules out the neighbour (and %d of 1,000 do the other way round)", a1000.Neighbour),
		fmt.Sprintf("(%d of 1,000 this seed)", a1000.Count))
	if a1000.Count != 0 {
		t.Errorf("q = 1000 now rules out its neighbour %d times; the lesson says none", a1000.Count)
	}
	// Outputs of Lap(1) within 0.5 of 0: 1 − e^(−1/2).
	near := -math.Expm1(-0.5)
	quoted(t, slug, fmt.Sprintf("only %.0f%% of the outputs of Lap(1) lie within 0.5 of 0, so the %.0f%% that give the count away cannot all come from there", 100*near, float64(a0.Count)/10))
	if float64(a0.Count)/1000 <= near {
		t.Errorf("%d of 1,000 ruled out, not more than the %v near 0", a0.Count, near)
	}
	low := attack(0, 0.1)
	quoted(t, slug,
		fmt.Sprintf("at ε = 0.1, %d of 1,000 outputs still rule out count 1", low.Count),
		fmt.Sprintf("(%d at ε = 0.1)", low.Count))
	// The exercise: ε = ln 2 gives tanh(ln 2 / 2) = 1/3; the widget at
	// ε = 0.693 rounds σ up to a multiple of 1/4096 and must still be accepted.
	exact := math.Tanh(math.Ln2 / 2)
	quoted(t, slug, fmt.Sprintf("answer: %.5f", exact), "decimals: 3", fmt.Sprintf("[[%.1f, \"That is tanh(ln 2)", math.Tanh(math.Ln2)),
		fmt.Sprintf("[%.1f, \"That is e^(−ε)", math.Exp(-math.Ln2)))
	if math.Abs(math.Exp(-math.Ln2)-0.5) > 1e-15 || math.Abs(-math.Expm1(-math.Ln2)-0.5) > 1e-15 || math.Abs(math.Expm1(math.Ln2)/(math.Exp(math.Ln2)+1)-exact) > 1e-15 {
		t.Error("at ε = ln 2, e^(−ε) and 1 − e^(−ε) are not 0.5, or (e^ε − 1)/(e^ε + 1) is not tanh(ε/2)")
	}
	// Three decimals: 1/3 and 0.333 are accepted, and so is the widget's
	// value at ε = 0.693; 0.33 is too coarse.
	exerciseAccepts(t, slug, "Probability", exact, math.Tanh(math.Ln2), 0.5, 0.33)
	exerciseAccepts(t, slug, "Probability", 0.333, 0.332, 0.334)
	exerciseAccepts(t, slug, "Probability", math.Tanh(0.693/2))
	if math.Abs(exact-0.3333) > 0.0001 {
		t.Errorf("tanh(ln 2 / 2) = %g", exact)
	}
	pmf, _, _, achieved, err := selection.DiscreteLaplaceHistogram(0, 1, 0.693, 0, 2, -10, 10)
	if err != nil {
		t.Fatal(err)
	}
	if p0 := pmf[10]; math.Abs(p0-0.3333) > 0.004 || achieved > 0.693 {
		t.Errorf("the widget at ε = 0.693 shows %g at the true count (achieved ε %g), outside the exercise's range", p0, achieved)
	}
}
