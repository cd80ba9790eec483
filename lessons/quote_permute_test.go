package lessons

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/app/widget"
)

// loss is the permute-and-flip-loss widget's exact expected loss: the
// core's LossCurve for one mechanism at one ε (Laplace 2Δ/ε is report noisy
// max at ε/2).
func loss(t *testing.T, scores []float64, mechanism string, eps float64) float64 {
	t.Helper()
	l, err := selection.LossCurve(scores, 1, []string{mechanism}, []float64{eps})
	if err != nil {
		t.Fatal(err)
	}
	return l[0]
}

func TestQuotedPermuteAndFlip(t *testing.T) {
	const slug = "permute-and-flip"
	meeting := []float64{21, 27, 25, 12, 18}
	ratio := func(eps float64) float64 {
		return loss(t, meeting, "exponential", eps) / loss(t, meeting, "permute-and-flip", eps)
	}
	quoted(t, slug, fmt.Sprintf("The ratio is about %.2f at ε = 0.05, %.2f at ε = 1 and %.2f at ε = 5", ratio(0.05), ratio(1), ratio(5)))

	// Laplace 2Δ/ε against the exponential mechanism on the meeting data.
	lap2 := func(eps float64) float64 { return loss(t, meeting, "report-noisy-max-laplace", eps/2) }
	em := func(eps float64) float64 { return loss(t, meeting, "exponential", eps) }
	quoted(t, slug, fmt.Sprintf("(expected loss %.3f against %.3f at ε = 1)", lap2(1), em(1)))
	lo, hi := 0.5, 3.0 // the crossing, by bisection
	for range 50 {
		mid := (lo + hi) / 2
		if lap2(mid) < em(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	quoted(t, slug, fmt.Sprintf("slightly better below ε ≈ %.1f", lo))

	// Over the widget's grid: permute-and-flip is never above the exponential
	// mechanism nor above Laplace 2Δ/ε, the ratio stays in [1, 2], and
	// Laplace Δ/ε is lowest of all.
	gmin, gmax, gn := widget.LossGridMin, widget.LossGridMax, widget.LossGridPoints
	quoted(t, slug, fmt.Sprintf("at %d values of ε", gn))
	for k := 0; k < gn; k++ {
		eps := gmin * math.Pow(gmax/gmin, float64(k)/float64(gn-1))
		e, p, l1, l2 := em(eps), loss(t, meeting, "permute-and-flip", eps), loss(t, meeting, "report-noisy-max-laplace", eps), lap2(eps)
		if p > e+1e-12 || p > l2+1e-12 || l1 > p+1e-12 || e > 2*p+1e-12 {
			t.Errorf("ε = %.3g: exponential %v, permute-and-flip %v, Laplace Δ/ε %v, Laplace 2Δ/ε %v", eps, e, p, l1, l2)
		}
	}

	// Two candidates at e^{ε/2} = 3.
	eps := 2 * math.Log(3)
	two := []float64{1, 0}
	pf, ex := loss(t, two, "permute-and-flip", eps), loss(t, two, "exponential", eps)
	quoted(t, slug,
		fmt.Sprintf("answer: %.5f", pf),
		fmt.Sprintf("½ × ⅓ = 1/6 ≈ %.3f, while the exponential mechanism loses 1/(1 + 3) = %.2f", pf, ex),
		fmt.Sprintf("[[%.2f, \"That is the exponential mechanism's loss", ex),
		fmt.Sprintf("ε = 2 ln 3 ≈ %.3f", eps))
	limit := loss(t, two, "exponential", 40) / loss(t, two, "permute-and-flip", 40)
	if math.Abs(limit-2) > 1e-6 {
		t.Errorf("two candidates at ε = 40: ratio %v, the lesson says it tends to 2", limit)
	}
	// The limit's likely wrong answers: no gain, the ratio upside down, the
	// ratio at ε = 2 ln 3 rather than its limit.
	quoted(t, slug, fmt.Sprintf("[%g, \"That divides the other way", 1/math.Round(limit)),
		fmt.Sprintf("[%g, \"That is the ratio at ε = 2 ln 3", ex/pf))
	exerciseAccepts(t, slug, "Limit of the ratio", math.Round(limit), 1, 1/math.Round(limit), ex/pf)
}
