package lessons

import (
	"fmt"
	"math"
	"testing"
)

// The first lesson's figures: the definition's factor e^ε, the Bayesian
// bound e^ε/(1 + e^ε), and the two exercises.
func TestQuotedWhatDPPromises(t *testing.T) {
	const slug = "what-dp-promises"
	// The predict block: 0.30 on x, ε = 1.
	// Both {Tuesday} and {not Tuesday} bound p′; the complement binds first.
	up, comp, low := math.E*0.30, 1-0.70/math.E, 0.30/math.E
	quoted(t, slug,
		fmt.Sprintf("is at most $e \\times 0.30 \\approx %.2f$", up),
		fmt.Sprintf("so $p' \\le 1 - 0.70/e \\approx %.2f$", comp),
		fmt.Sprintf("at $p' = 1 - 0.70/e$ Tuesday's ratio is %.2f, under $e$, and the complement's is exactly $e$", comp/0.30),
		fmt.Sprintf("The smallest $p'$ is $0.30 / e \\approx %.2f$", low),
		fmt.Sprintf("- [ ] About %.2f: Tuesday's probability can grow by a factor of at most $e \\approx %.2f$", up, math.E),
		fmt.Sprintf("- [x] About %.2f:", comp),
		fmt.Sprintf("the answer is 1 − 0.70/e ≈ %.2f", comp),
		fmt.Sprintf("(e × 0.30 ≈ %.2f ignores the complementary set)", up))
	if !(comp < up) || comp/0.30 > math.E || math.Abs(0.70/(1-comp)-math.E) > 1e-12 {
		t.Errorf("p′ = 1 − 0.70/e = %g is not the binding, attainable limit", comp)
	}
	post := func(eps float64) float64 { return math.Exp(eps) / (1 + math.Exp(eps)) }
	quoted(t, slug,
		fmt.Sprintf("At ε = 0.1 that is %.1f%%, at ε = 1 it is %.1f%%, at ε = 5 it is %.1f%%", 100*post(0.1), 100*post(1), 100*post(5)),
		fmt.Sprintf("%.1f%% at ε = 1", 100*post(1)))
	// Exercise: ε = ln 3, even prior.
	quoted(t, slug, fmt.Sprintf("answer: %g", post(math.Log(3))), "grow by at most e^ε = 3, to 3 : 1")
	if math.Abs(post(math.Log(3))-0.75) > 1e-12 {
		t.Error("ln 3 does not give 3/4")
	}
	// Exercise: a six-bin histogram under change-one-answer neighbours has
	// L1 sensitivity 2, so Laplace scale Δ/ε = 2 at ε = 1; the wrong answers
	// are the add-or-remove scale 1 and the six-release scale 6.
	const bins, eps = 6, 1.0
	changeOne, addRemove := 2.0, 1.0
	quoted(t, slug,
		fmt.Sprintf("answer: %g\nexample-right: %g\nexample-wrong: %g\nlabel: Scale b", changeOne/eps, changeOne/eps, addRemove/eps),
		fmt.Sprintf("[[%g, \"That is the scale for add-or-remove neighbours", addRemove/eps),
		fmt.Sprintf("[%d, \"That pays for six separate releases", bins),
		fmt.Sprintf("picks one of six days"))
	exerciseAccepts(t, slug, "Scale b", changeOne/eps, addRemove/eps, bins, 0.5)
	exerciseAccepts(t, slug, "Largest posterior", post(math.Log(3)), 0.5, 3, post(1))
	quoted(t, slug, fmt.Sprintf("[%.4f, \"That is e/(1 + e), the bound at ε = 1", post(1)))
	// The Laplace mechanism, defined where the exercise first needs it.
	quoted(t, slug, "The **Laplace mechanism** publishes $q(x) + Y$, where the noise $Y$ has density proportional to $e^{-|y|/b}$ with scale $b = \\Delta/\\varepsilon$; it is ε-private for the neighbour notion its Δ was computed under")
}

// The glossary's exercise: three 0.5-private releases on the same data.
func TestQuotedGlossary(t *testing.T) {
	quoted(t, "glossary", fmt.Sprintf("answer: %g", 3*0.5), fmt.Sprintf("0.5 + 0.5 + 0.5 = %g", 3*0.5), "Three 0.5-private releases")
	// Its likely wrong answers: parallel composition, the costs multiplied,
	// the adaptively chosen third release left out.
	quoted(t, "glossary", fmt.Sprintf("mistakes: [[%g, \"That is parallel composition", 0.5), fmt.Sprintf("[%g, \"That multiplies the three costs", 0.5*0.5*0.5), fmt.Sprintf("[%g, \"That counts only the first two releases", 2*0.5))
	exerciseAccepts(t, "glossary", "Total ε", 3*0.5, 0.5, 0.5*0.5*0.5, 2*0.5)
}

// Claims whose neighbour notion the review asked to be named: the Bayesian
// bound, parallel composition under change-one-answer neighbours, report
// noisy max with Laplace noise, and approximate truthfulness.
func TestNeighbourNotionsNamed(t *testing.T) {
	quoted(t, "what-dp-promises",
		"This is for change-one-answer neighbours, where the question is which record is Ana's.",
		"its odds move by up to $e^{2\\varepsilon}$",
		"the bound assumes the other records do not depend on Ana's",
		"$\\ln 3$-differentially private for change-one-answer neighbours",
		"provided each part's mechanism is ε-private for add-or-remove neighbours",
		"**Neighbours:** both notions are introduced here; each claim names the one it uses.")
	quoted(t, "glossary",
		"provided each part's mechanism is private for add-or-remove neighbours",
		"ε-private for monotone scores such as counts under add-or-remove neighbours, and otherwise only 2ε-private",
		"with utilities in $[0, B]$, lets no one gain more than $\\varepsilon B$",
		"ε-private only for add-or-remove neighbours gives $2\\varepsilon B$")
	quoted(t, "report-noisy-max",
		"the Laplace panel is ε-private only for counts with add-or-remove neighbours",
		"Claim 3.9) is made for counting queries with *add-or-remove* neighbours")
	quoted(t, "exponential-mechanism",
		"Its noise has scale 2Δ/ε, at which it is ε-private under this page's change-one-answer neighbours; with the scale Δ/ε that some texts use it would be only 2ε-private here")
}
