package lessons

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/deployments"
	"github.com/dpplay/dpplay/app/widget"
)

// reSnapshot is how deployments.csv's header names the registry's snapshot:
// "(branch jkf-initial, 11 June 2024; 27 rows)".
var reSnapshot = regexp.MustCompile(`\(branch (\S+), (\d+ [A-Z][a-z]+ \d{4}); (\d+) rows\)`)

// The section on real deployments in "What ε promises": every number it
// quotes is computed here from app/deployments' file (the data the sliders
// mark) and from the ε band's schema.
func TestQuotedDeployments(t *testing.T) {
	all, err := deployments.All()
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]deployments.Deployment{}
	var max, onSlider, unitless, corrected, zcdp float64
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
		if d.Corrected() {
			corrected++
		}
		if d.Kind == deployments.ZCDP {
			zcdp++
		}
	}
	const slug = "what-epsilon-promises"
	n := len(all)
	quoted(t, slug,
		fmt.Sprintf("from the %d rows of the OpenDP Epsilon Registry", n),
		fmt.Sprintf("This lesson's slider stops at ε = %g, so %g of the %d fall on it; the rest lie above, up to ε = %g.", hi, onSlider, n, max),
		fmt.Sprintf("For %g of the %d rows the playground's sources name no unit", unitless, n),
		fmt.Sprintf("corrects the numbers of %g rows from the sources their notes name, and marks %g rows as ρ-zCDP", corrected, zcdp))

	// The snapshot the file was taken from, as its header names it.
	csv, err := os.ReadFile("../app/deployments/deployments.csv")
	if err != nil {
		t.Fatal(err)
	}
	snap := reSnapshot.FindStringSubmatch(strings.Join(strings.Fields(string(csv)), " "))
	if snap == nil || snap[3] != fmt.Sprint(n) {
		t.Fatalf("deployments.csv's header does not name its snapshot of %d rows: %q", n, snap)
	}
	quoted(t, slug, fmt.Sprintf("on the branch %s, as of %s", snap[1], snap[2]))

	// Apple's emoji suggestions, in the local model, composed over a year and
	// over 30 days of daily reports; e^year has that many decimal digits.
	emoji := by["apple_emoji"]
	if emoji.Kind != deployments.Pure || emoji.Unit != "user-day" || !strings.Contains(emoji.Note, "event-level") {
		t.Fatalf("apple_emoji: %+v", emoji)
	}
	year := 365 * emoji.Epsilon
	quoted(t, slug,
		fmt.Sprintf("Apple's emoji suggestions use ε = %g per %s in the local model", emoji.Epsilon, emoji.Unit),
		"(registry.opendp.org calls the unit event-level instead)",
		fmt.Sprintf("gives only 365 · %g = %g: a bound of $e^{%g}$, a number with %.0f digits", emoji.Epsilon, year, year, math.Floor(year*math.Log10(math.E))+1))

	// LinkedIn per month against Apple's 30 days: not ranked, since one has a
	// δ (and they run in different models).
	li := by["linkedin_audience"]
	if li.Kind != deployments.Approx || li.Unit != "user-month" {
		t.Fatalf("linkedin_audience: %+v", li)
	}
	quoted(t, slug,
		fmt.Sprintf("LinkedIn's Audience Engagements API promises (%g, %s) per %s, and Apple's ε = %g per day adds up to at most %g over 30 days, yet the two cannot be ranked", li.Epsilon, deployments.Power(li.Delta), li.Unit, emoji.Epsilon, 30*emoji.Epsilon))

	// QuickType: the registry's figure, kept in the row, against the one the
	// row keeps, each from its own Apple document.
	quick := by["apple_quick"]
	if !quick.Corrected() || !strings.Contains(quick.Note, "Learning with Privacy at Scale") || !strings.Contains(quick.Source, "Differential_Privacy_Overview") {
		t.Errorf("apple_quick: %+v", quick)
	}
	quoted(t, slug, fmt.Sprintf("for QuickType suggestions the registry gives ε = %g, linking Apple's paper *Learning with Privacy at Scale*; Desfontaines' list gives %g per %s, which the playground keeps, linking Apple's *Differential Privacy Overview*", quick.RegistryEpsilon, quick.Epsilon, quick.Unit))

	// Microsoft and Apple share an ε and nothing else.
	ms := by["microsoft_assistive"]
	if ms.Kind != deployments.Approx || ms.Epsilon != emoji.Epsilon || ms.Unit == emoji.Unit || ms.Unit == "" {
		t.Fatalf("microsoft_assistive: %+v", ms)
	}
	quoted(t, slug, fmt.Sprintf("Microsoft's Assistive AI at (%g, %s) per %s and Apple's emoji suggestions at ε = %g per %s share only the digit %g: one has a δ, and their units differ", ms.Epsilon, deployments.Power(ms.Delta), ms.Unit, emoji.Epsilon, emoji.Unit, emoji.Epsilon))

	// The ρ rows: Wikimedia's stated ρ and its conversion at another δ;
	// Gboard's and the DHC's inferred ρ; the redistricting data's stated ρ.
	wiki, gboard := by["wikimedia_distinct"], by["google_prediction"]
	redist, dhc := by["uscensus_restricting"], by["uscensus_2020"]
	for _, c := range []struct {
		d    deployments.Deployment
		from deployments.RhoFrom
	}{{wiki, deployments.Stated}, {gboard, deployments.Inferred}, {redist, deployments.Stated}, {dhc, deployments.Inferred}} {
		if c.d.Kind != deployments.ZCDP || c.d.RhoFrom != c.from {
			t.Fatalf("%s: %s ρ %s, want zcdp %s", c.d.ID, c.d.Kind, c.d.RhoFrom, c.from)
		}
	}
	at5, err := deployments.ZCDPEpsilon(wiki.Rho, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	quoted(t, slug,
		fmt.Sprintf("Wikipedia's pageviews by country use ρ = %g per %s (a device's first 10 pageviews each day), which their documentation gives as roughly (%g, %s)", wiki.Rho, wiki.Unit, wiki.Epsilon, deployments.Power(wiki.Delta)),
		fmt.Sprintf("at δ = 10⁻⁵ the same ρ gives ε at most %.2f", at5))
	for _, d := range []deployments.Deployment{gboard, redist, dhc} {
		// These ε and δ are the registry's own, converted from ρ.
		if d.Corrected() {
			t.Errorf("%s: (%g, %g) is not the registry's (%g, %g)", d.ID, d.Epsilon, d.Delta, d.RegistryEpsilon, d.RegistryDelta)
		}
		// A stated ρ converts to the pair, and an inferred ρ is the pair's
		// ρ, each to the two decimals written.
		if d.RhoFrom == deployments.Stated {
			if e, err := deployments.ZCDPEpsilon(d.Rho, d.Delta); err != nil || math.Abs(e-d.Epsilon) > 0.005 {
				t.Errorf("%s: ρ = %g converts to %v at δ = %g, not %g", d.ID, d.Rho, e, d.Delta, d.Epsilon)
			}
		} else if r, err := deployments.ZCDPRho(d.Epsilon, d.Delta); err != nil || math.Abs(r-d.Rho) > 0.005 {
			t.Errorf("%s: (%g, %g) comes from ρ = %v, not %g", d.ID, d.Epsilon, d.Delta, r, d.Rho)
		}
	}
	// The Census Bureau's code converts at its own δ, as the row's note says.
	const censusDelta = 1e-10
	if !strings.Contains(redist.Note, "δ = "+deployments.Power(censusDelta)) {
		t.Errorf("uscensus_restricting's note does not give the code's δ: %q", redist.Note)
	}
	quoted(t, slug,
		fmt.Sprintf("For Gboard's next-word model the registry gives (%g, %s), and the conversion maps ρ ≈ %g to that pair", gboard.RegistryEpsilon, deployments.Power(gboard.RegistryDelta), gboard.Rho),
		fmt.Sprintf("The registry's (%g, %s) for the 2020 Census redistricting data is the conversion of ρ = %g, set in the Census Bureau's published code, which itself converts at δ = %s.", redist.RegistryEpsilon, deployments.Power(redist.RegistryDelta), redist.Rho, deployments.Power(censusDelta)),
		fmt.Sprintf("and also the 2020 Demographic and Housing Characteristics File, whose (%g, %s) is the conversion of ρ ≈ %g, a ρ inferred the same way.", dhc.RegistryEpsilon, deployments.Power(dhc.RegistryDelta), dhc.Rho))
}
