package lessons

import (
	"fmt"
	"math"
	"testing"

	marketapp "github.com/dpplay/dpplay/app/market"
	"github.com/dpplay/dpplay/core/market"
)

// The pricing widget's grid: $0.01 to $5.00 in cents.
const priceMax, priceStep = 5, 0.01

func pricingView(t *testing.T, values []float64, eps float64) marketapp.PricingView {
	t.Helper()
	v, err := marketapp.Pricing(values, priceMax, priceStep, eps, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func truth(t *testing.T, values []float64, eps float64, buyer int) *market.Truthfulness {
	t.Helper()
	tr, err := marketapp.Truth(values, priceMax, priceStep, eps, buyer)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func usd(x float64) string { return fmt.Sprintf(`\$%.2f`, x) }

func TestQuotedPricing(t *testing.T) {
	const slug = "private-pricing"
	slides := []float64{1, 1, 1, 4.01}
	v := pricingView(t, slides, 1)

	// The example: revenue at $1.00, $4.01, $4.02, and the report $3.99.
	rev := func(p float64) float64 {
		for i, x := range v.Prices {
			if math.Abs(x-p) < 1e-9 {
				return v.Revenue[i]
			}
		}
		t.Fatalf("no price %v on the grid", p)
		return 0
	}
	if rev(1) != 4 || rev(4.01) != 4.01 || rev(4.02) != 0 || v.OptimalPrice != 4.01 {
		t.Errorf("revenues %v, %v, %v, best %v: the lesson says 4.00, 4.01, 0 and best $4.01", rev(1), rev(4.01), rev(4.02), v.OptimalPrice)
	}
	lower := pricingView(t, []float64{1, 1, 1, 3.99}, 1)
	tie := pricingView(t, []float64{1, 1, 1, 4}, 1)
	if tie.OptimalRevenue != 4 || tie.Revenue[99] != 4 || tie.Revenue[399] != 4 {
		t.Errorf("values 1,1,1,4: revenue %v at $1.00 and %v at $4.00, the lesson says a tie at $4.00", tie.Revenue[99], tie.Revenue[399])
	}
	quoted(t, slug,
		fmt.Sprintf(`had that buyer said \$3.99, the best price would be %s (revenue %s against \$3.99)`, usd(lower.OptimalPrice), usd(lower.OptimalRevenue)),
		fmt.Sprintf(`the two prices would tie at %s of revenue`, usd(tie.OptimalRevenue)),
		fmt.Sprintf(`the best price jumps from %s to %s`, usd(v.OptimalPrice), usd(lower.OptimalPrice)))

	// Privacy loss between the reports 4.01 and 3.99.
	p, err := market.NewPricing(slides, v.Prices, 1)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := p.NeighbourLoss(3, 3.99)
	if err != nil {
		t.Fatal(err)
	}
	if loss > 0.5+1e-12 {
		t.Errorf("loss %v above ε/2", loss)
	}
	quoted(t, slug, fmt.Sprintf("by more than a factor $e^{%.2f}$", loss))

	// Predict block: expected revenue and the weights' range.
	quoted(t, slug,
		fmt.Sprintf(`The expected revenue is %s`, usd(v.ExpectedRevenue)),
		fmt.Sprintf("weights between 1 and %.2f", math.Exp(v.OptimalRevenue/(2*v.Sensitivity))),
		fmt.Sprintf(`reveal: %s against %s`, usd(v.ExpectedRevenue), usd(v.OptimalRevenue)))
	if math.Abs(v.ExpectedRevenue-2.10) > 0.05 {
		t.Errorf("expected revenue %v, the predict block's answer says about $2.10", v.ExpectedRevenue)
	}

	// The by-hand exercise: weight ratio of $4.01 to $4.02.
	ratio := math.Exp(1 * (rev(4.01) - rev(4.02)) / (2 * v.Sensitivity))
	i401, i402 := 400, 401
	if math.Abs(v.Probabilities[i401]/v.Probabilities[i402]-ratio) > 1e-9 {
		t.Errorf("the widget's probabilities give a ratio %v, the formula %v", v.Probabilities[i401]/v.Probabilities[i402], ratio)
	}
	quoted(t, slug,
		fmt.Sprintf("answer: %.4f", ratio),
		fmt.Sprintf("exp(0.401) ≈ %.2f times as likely", ratio),
		fmt.Sprintf("[[%.2f, \"That is exp(4.01/5)", math.Exp(4.01/5)),
		fmt.Sprintf("[%.2f, \"That is exp(4.01)", math.Exp(4.01)),
		fmt.Sprintf("exp(0.401) ≈ %.2f (common slips: %.2f without the 2, %.2f without Δ)", ratio, math.Exp(4.01/5), math.Exp(4.01)))
	exerciseAccepts(t, slug, "ratio", ratio, math.Exp(4.01/5), math.Exp(4.01), 1)
	exerciseAccepts(t, slug, "ratio", math.Round(ratio*100)/100)

	// Adding $1 buyers.
	grow := func(n int) []float64 {
		x := append([]float64(nil), slides...)
		for len(x) < n {
			x = append(x, 1)
		}
		return x
	}
	v16, v40, v16e10 := pricingView(t, grow(16), 1), pricingView(t, grow(40), 1), pricingView(t, grow(16), 10)
	pct := func(w marketapp.PricingView) string {
		return fmt.Sprintf("%.0f%%", 100*w.ExpectedRevenue/w.OptimalRevenue)
	}
	quoted(t, slug,
		fmt.Sprintf(`OPT grows to %s`, usd(v16.OptimalRevenue)),
		fmt.Sprintf(`the private revenue is only %s`, usd(v16.ExpectedRevenue)),
		fmt.Sprintf("(%s against %s)", pct(v16), pct(v)),
		fmt.Sprintf("with 40 buyers it is %s at ε = 1, and at ε = 10 the 16 buyers already get %s", pct(v40), pct(v16e10)),
		fmt.Sprintf("(16 buyers: %s) and then rises (40 buyers: %s)", pct(v16), pct(v40)))

	// The accuracy theorem's bound on the expected loss, the same for every
	// market, against the actual losses.
	shortfall := func(w marketapp.PricingView) float64 { return w.OptimalRevenue - w.ExpectedRevenue }
	bound := 2 * v.Sensitivity * (math.Log(float64(len(v.Prices))) + 1) / 1
	for _, w := range []marketapp.PricingView{v, v16, v40} {
		if math.Abs(w.ExpectedGap-bound) > 1e-9 || shortfall(w) > bound {
			t.Errorf("the widget's guarantee gap %v, loss %v; the bound 2Δ(ln|R| + 1)/ε is %v", w.ExpectedGap, shortfall(w), bound)
		}
	}
	if !(shortfall(v) < shortfall(v16) && shortfall(v16) < shortfall(v40)) {
		t.Error("the loss does not grow with the market, as the lesson says")
	}
	quoted(t, slug,
		fmt.Sprintf(`$2\Delta(\ln|R| + 1)/\varepsilon$ = %s at ε = 1 whatever the market, far above the actual losses: %s with four buyers, %s with 16 and %s with 40`, usd(bound), usd(shortfall(v)), usd(shortfall(v16)), usd(shortfall(v40))),
		fmt.Sprintf(`2Δ(ln|R| + 1)/ε = %s, is the same for every market; the actual loss grows (%s, %s, %s for 4, 16 and 40 buyers)`, usd(bound), usd(shortfall(v)), usd(shortfall(v16)), usd(shortfall(v40))))

	// The guarantee curve and the β form.
	quoted(t, slug,
		fmt.Sprintf("until ε reaches %.0f for four buyers", v.ExpectedGap*1/v.OptimalRevenue),
		fmt.Sprintf(`reads −%s at ε = 1`, usd(-v.Threshold)))

	// Truthfulness of the $4.01 buyer.
	t1, t10 := truth(t, slides, 1, 3), truth(t, slides, 10, 3)
	quoted(t, slug,
		fmt.Sprintf(`$B$ is %s`, usd(t1.MaxUtility)),
		fmt.Sprintf(`the slides promise a gain of at most %s, the proof %s, and the cap %s`, usd(t1.SlidesBound), usd(t1.ProofBound), usd(t1.TightBound)),
		fmt.Sprintf(`the best lie, a report of %s, gains \$%.3f in expectation`, usd(t1.BestReport), t1.MaxGain),
		fmt.Sprintf(`At ε = 10 the best lie, %s, gains %s`, usd(t10.BestReport), usd(t10.MaxGain)),
		fmt.Sprintf(`lies gain \$%.3f at ε = 1 and %s at ε = 10`, t1.MaxGain, usd(t10.MaxGain)),
		fmt.Sprintf(`(at ε = 1: %s, %s, %s; the first equals B`, usd(t1.SlidesBound), usd(t1.ProofBound), usd(t1.TightBound)))
	// The exercise without privacy: the best lie is a report of $0.75,
	// which ties 4 × 0.75 with 3 × 1.00; any report from $1 to $4 gains
	// only 4.01 − 1. The widget's readout gives the same lie and gain.
	det := t1.Deterministic
	if det.BestReport != 0.75 || math.Abs(det.Gain-(4.01-0.75)) > 1e-9 {
		t.Errorf("without privacy the best lie is %v gaining %v; the exercise derives $0.75 and 4.01 − 0.75", det.BestReport, det.Gain)
	}
	quoted(t, slug,
		fmt.Sprintf("answer: %.2f", det.Gain),
		fmt.Sprintf("a gain of %.2f. Below 1 dollar", 4.01-1),
		fmt.Sprintf("so the buyer pays %.2f instead of 4.01, a gain of %.2f", det.BestReport, det.Gain),
		fmt.Sprintf("the private mechanism's best lie gains only %.3f", t1.MaxGain),
		fmt.Sprintf(`(%s: report %s; common slips: %s, any report from \$1 to \$4`, usd(det.Gain), usd(det.BestReport), usd(4.01-1)))
	exerciseAccepts(t, slug, "gain without privacy ($)", det.Gain, 4.01-1, 4.01, t1.MaxGain, 4)
	// Pricing is ε/2-DP, so the cap also holds at ε/2.
	capHalf := math.Min(math.Expm1(0.5)*t1.TruthfulUtility, math.Tanh(0.25)*t1.MaxUtility)
	if capHalf != math.Tanh(0.25)*t1.MaxUtility {
		t.Errorf("cap at ε/2 %v is not B·tanh(1/4), as the lesson says", capHalf)
	}
	quoted(t, slug, fmt.Sprintf("at ε = 1 the cap becomes %s", usd(capHalf)), fmt.Sprintf("the cap at ε/2, %s, holds too", usd(capHalf)))
	if capHalf < t1.MaxGain {
		t.Errorf("cap at ε/2 %v below the best lie's gain %v", capHalf, t1.MaxGain)
	}
	if t1.SlidesBound != t1.MaxUtility {
		t.Errorf("εB = %v and B = %v at ε = 1: the lesson says they are equal", t1.SlidesBound, t1.MaxUtility)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, u := range t1.Utilities {
		lo, hi = math.Min(lo, u), math.Max(hi, u)
	}
	if hi-lo > t1.TightBound {
		t.Errorf("reports spread %v > cap %v", hi-lo, t1.TightBound)
	}
	quoted(t, slug, fmt.Sprintf(`an expected utility between %s and %s`, usd(lo), usd(hi)))
}
