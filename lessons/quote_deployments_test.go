package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/deployments"
	"github.com/dpplay/dpplay/app/widget"
)

// The section on real deployments in "What ε promises": every number it
// quotes is computed here from app/deployments' file (the data the sliders
// mark) and from the ε band's schema.
func TestQuotedDeployments(t *testing.T) {
	all, err := deployments.All()
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]deployments.Deployment{}
	var max, onSlider, unitless float64
	var lo, hi float64
	for _, p := range widget.Schema("epsilon-band") {
		if p.Key == "eps" {
			lo, hi = p.Min, p.Max
		}
	}
	for _, d := range all {
		by[d.ID] = d
		max = math.Max(max, d.Epsilon)
		if d.Epsilon >= lo && d.Epsilon <= hi {
			onSlider++
		}
		if d.Unit == "" {
			unitless++
		}
	}
	const slug = "what-epsilon-promises"
	n := len(all)
	quoted(t, slug,
		fmt.Sprintf("from the %d rows of the OpenDP Epsilon Registry", n),
		fmt.Sprintf("This lesson's slider stops at ε = %g, so %g of the %d fall on it; the rest lie above, up to ε = %g.", hi, onSlider, n, max),
		fmt.Sprintf("For %g of the %d rows the playground's sources do not name the unit", unitless, n))

	emoji := by["apple_emoji"]
	if emoji.Kind != deployments.Pure || emoji.Unit != "user-day" {
		t.Fatalf("apple_emoji: %+v", emoji)
	}
	quoted(t, slug,
		fmt.Sprintf("Apple's emoji suggestions use ε = %g per %s", emoji.Epsilon, emoji.Unit),
		// Sequential composition over a year and over 30 days of daily reports.
		fmt.Sprintf("only by 365 · %g = %g over that year", emoji.Epsilon, 365*emoji.Epsilon),
		fmt.Sprintf("ε = %g per day allows up to %g over 30 days", emoji.Epsilon, 30*emoji.Epsilon))

	li := by["linkedin_audience"]
	if li.Kind != deployments.Approx || li.Unit != "user-month" || !(li.Epsilon < 30*emoji.Epsilon) {
		t.Fatalf("linkedin_audience: %+v", li)
	}
	quoted(t, slug,
		fmt.Sprintf("LinkedIn's Audience Engagements API promises (%g, %s) per %s", li.Epsilon, deployments.Power(li.Delta), li.Unit),
		// Twelve months composed: ε and δ add.
		fmt.Sprintf("at most (%.1f, %s) over twelve months", 12*li.Epsilon, deployments.Power(round(12*li.Delta, 10))))

	quick := by["apple_quick"]
	if !strings.Contains(quick.Note, "ε = 8") {
		t.Errorf("apple_quick's note does not give the registry's 8: %q", quick.Note)
	}
	quoted(t, slug, fmt.Sprintf("the registry gives Apple's QuickType suggestions ε = 8, Desfontaines' list of deployments %g per %s", quick.Epsilon, quick.Unit))

	ms := by["microsoft_assistive"]
	if ms.Kind != deployments.Approx || ms.Epsilon != emoji.Epsilon {
		t.Fatalf("microsoft_assistive: %+v", ms)
	}
	quoted(t, slug, fmt.Sprintf("Microsoft's Assistive AI at (%g, %s) and Apple's emoji suggestions at ε = %g share an ε", ms.Epsilon, deployments.Power(ms.Delta), emoji.Epsilon))

	wiki, gboard := by["wikimedia_distinct"], by["google_prediction"]
	if wiki.Kind != deployments.ZCDP || gboard.Kind != deployments.ZCDP {
		t.Fatalf("the ρ rows: %+v, %+v", wiki, gboard)
	}
	at5, err := deployments.ZCDPEpsilon(wiki.Rho, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	g, err := deployments.ZCDPEpsilon(gboard.Rho, gboard.Delta)
	if err != nil || math.Abs(g-gboard.Epsilon) > 0.005 {
		t.Errorf("Gboard's ρ = %g converts to %v at δ = %g, not %g", gboard.Rho, g, gboard.Delta, gboard.Epsilon)
	}
	quoted(t, slug,
		fmt.Sprintf("Wikipedia's pageviews by country use ρ = %g, which their documentation gives as roughly (%g, %s)", wiki.Rho, wiki.Epsilon, deployments.Power(wiki.Delta)),
		fmt.Sprintf("at δ = 10⁻⁵ the same ρ gives ε = %.2f", at5),
		fmt.Sprintf("Gboard's next-word model at ρ = %g is the registry's (%g, %s)", gboard.Rho, gboard.Epsilon, deployments.Power(gboard.Delta)))
}
