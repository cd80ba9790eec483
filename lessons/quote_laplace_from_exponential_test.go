package lessons

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/lecture"
)

// laplaceEM runs the laplace-from-exponential widget's computation; wide is
// its "whole line in effect" range [−1000, 1000], bounded is [0, 100].
func laplaceEM(t *testing.T, q, h float64, bounded, tight bool) selection.LaplaceEM {
	t.Helper()
	lo, hi := -1000.0, 1000.0
	if bounded {
		lo, hi = 0, 100
	}
	r, err := selection.LaplaceFromExponential(selection.LaplaceEMRequest{
		Value: q, Sensitivity: 1, Epsilon: 1, Lo: lo, Hi: hi, Spacing: h, Tight: tight,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestQuotedLaplaceFromExponential(t *testing.T) {
	const slug = "laplace-from-exponential"
	general := laplaceEM(t, 50, 0, false, false)
	quoted(t, slug,
		fmt.Sprintf("The widget shows the exact loss: %g at ε = 1", general.Loss),
		fmt.Sprintf("Laplace with scale 2Δq/ε"))
	if general.EMScale != 2 || general.Scale != 1 || general.Certified != 1 {
		t.Errorf("scales or certificate moved: %+v", general)
	}
	tight := laplaceEM(t, 50, 0, false, true)
	quoted(t, slug,
		fmt.Sprintf("the loss reads %g: running the exponential mechanism at 2ε", tight.Loss),
		fmt.Sprintf("the lines coincide and the loss reads %g", tight.Loss))
	// The grid: h small keeps 0.5; h much larger than Δq climbs towards 1,
	// and never flags a breach with the weights at ε.
	fine, coarse := laplaceEM(t, 50, 0.1, false, false), laplaceEM(t, 50, 10, false, false)
	if d := fine.Loss - general.Loss; d > 1e-9 || d < -1e-9 || coarse.Loss < 0.95 || coarse.Loss > 1 {
		t.Errorf("grid losses %g (h = 0.1) and %g (h = 10) do not climb from 0.5 towards 1", fine.Loss, coarse.Loss)
	}
	quoted(t, slug, fmt.Sprintf("the loss climbs from %g towards 1", general.Loss))
	// The exercise: bounded range, tight weights, q(x) = 0, derived at the
	// output r = 0 from the normalisers 1 and 2 − 1/e (the tail beyond 100
	// is e^−99 and left out).
	b := laplaceEM(t, 0, 0, true, true)
	derived := 1 + math.Log(2-math.Exp(-1))
	if math.Abs(derived-b.Loss) > 1e-9 {
		t.Errorf("1 + ln(2 − 1/e) = %v, the widget's loss %v", derived, b.Loss)
	}
	quoted(t, slug,
		fmt.Sprintf("answer: %.5f", b.Loss),
		fmt.Sprintf("the loss is 1 + ln(2 − 1/e) ≈ %.2f, well above the ε = 1", b.Loss),
		fmt.Sprintf("[%.4f, \"That takes the normaliser for q(x) = 1 as the whole line's", 1+math.Log(2)),
		fmt.Sprintf("[%.5f, \"That is the normalisers' part alone", math.Log(2-math.Exp(-1))),
		fmt.Sprintf("so the loss is 1 + ln(2 − 1/e) ≈ %.2f (common slips: 1, the weight alone; %.2f, the whole line's normaliser)", b.Loss, 1+math.Log(2)))
	exerciseAccepts(t, slug, "privacy loss", b.Loss, 1, b.Certified, 1+math.Log(2), math.Log(2-math.Exp(-1)))
	exerciseAccepts(t, slug, "privacy loss", round(b.Loss, 2))
	if !(b.Loss > 1 && b.Loss < b.Certified) {
		t.Errorf("bounded loss %g is not between ε = 1 and the certified %g", b.Loss, b.Certified)
	}
	// The class histogram: the activity's per-bin noise scale Δ/ε.
	quoted(t, slug, fmt.Sprintf("every bin gets noise of scale $%d/\\varepsilon$", lecture.HistogramSensitivity),
		fmt.Sprintf("scale %d/ε per bin", lecture.HistogramSensitivity))
	// Every ε-DP mechanism as an exponential mechanism: Δu ≤ ε = 0.5.
	quoted(t, slug, "answer: 0.5", fmt.Sprintf("[%.4f, \"That is e^0.5", math.Exp(0.5)))
	exerciseAccepts(t, slug, "Δu at most", 0.5, 1, math.Exp(0.5))
}
