package lessons

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
)

// Ana's two polls as the epsilon-band widget builds them: the other eleven
// students' counts (5, 6, 6, 3, 4) plus Ana's days, x: Thursday only,
// x′: every day but Thursday; seed 3, one batch of 10,000 draws.
var anaX, anaY = []float64{5, 6, 6, 4, 4}, []float64{6, 7, 7, 3, 5}

func band(t *testing.T, broken bool) selection.Neighbours {
	t.Helper()
	n, err := selection.New().CompareNeighbours("band", anaX, anaY, 1, 1, broken, 3, 10000)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestQuotedBand(t *testing.T) {
	right := band(t, false)
	const thu = 3
	text := fmt.Sprintf("Thursday goes from %.4f to %.4f, a factor of %.2f", right.PX[thu], right.PY[thu], right.PX[thu]/right.PY[thu])
	quoted(t, "what-epsilon-promises", text, fmt.Sprintf("Point at Thursday: %.4f against %.4f", right.PX[thu], right.PY[thu]))
	quoted(t, "what-dp-promises",
		fmt.Sprintf("Thursday is announced with probability %.4f on $x$ and %.4f on $x'$, a log-ratio of %.2f", right.PX[thu], right.PY[thu], right.LogRatio[thu]),
		fmt.Sprintf("%.4f against %.4f, log-ratio %.2f", right.PX[thu], right.PY[thu], right.LogRatio[thu]))
	// A student who divides the quoted probabilities must get the quoted
	// factor and log-ratio back.
	px, py := round(right.PX[thu], 4), round(right.PY[thu], 4)
	if round(px/py, 2) != round(right.PX[thu]/right.PY[thu], 2) || round(math.Log(px/py), 2) != round(right.LogRatio[thu], 2) {
		t.Errorf("the quoted %.4f and %.4f do not reproduce the factor %.2f and log-ratio %.2f", px, py, right.PX[thu]/right.PY[thu], right.LogRatio[thu])
	}
	if math.Abs(right.LogRatio[thu]) != right.Loss || right.Loss > 1 || right.Breaches != 0 {
		t.Errorf("Thursday is not the largest log-ratio inside the band: %+v", right)
	}

	broken := band(t, true)
	// The pair's loss, derived from Thursday's share p on x: on x′ the
	// normaliser is the one on x times e(1 − p) + p/e, so the ratio is
	// e²(1 − p) + p. The widget's Broken readout must agree.
	p := broken.PX[thu]
	ratio := math.Exp(2)*(1-p) + p
	if math.Abs(math.Log(ratio)-broken.Loss) > 1e-12 {
		t.Errorf("ln(e²(1 − p) + p) = %v, the widget's loss %v", math.Log(ratio), broken.Loss)
	}
	pY := broken.PY[thu]
	onY := math.Log(math.Exp(2)*(1-pY) + pY)
	quoted(t, "what-epsilon-promises",
		fmt.Sprintf("Thursday has probability p = %.4f on $x$", p),
		fmt.Sprintf("answer: %.6f", broken.Loss),
		fmt.Sprintf("e²(1 − p) + p ≈ %.2f, a loss of %.2f: almost 2ε", ratio, broken.Loss),
		fmt.Sprintf("[%.4f, \"That is the ratio of the two probabilities", ratio),
		fmt.Sprintf("[%.4f, \"That uses Thursday's probability on x′", onY),
		fmt.Sprintf("[%.2f, \"That is the loss with the right weights", right.Loss),
		fmt.Sprintf("[%.2f, \"That is the loss on the widget's one pair", broken.Loss),
		fmt.Sprintf("e²(1 − p) + p with p = %.4f, a loss of %.2f, which the Broken diamond confirms (common slips: 1, the weight alone; %.2f, the ratio without its logarithm)", p, broken.Loss, ratio))
	exerciseAccepts(t, "what-epsilon-promises", "privacy loss", broken.Loss, 1, 2, ratio, onY, right.Loss)
	exerciseAccepts(t, "what-epsilon-promises", "privacy loss", round(broken.Loss, 2))
	// The rounded p the question gives leads to the same two decimals.
	if round(math.Log(math.Exp(2)*(1-round(p, 4))+round(p, 4)), 2) != round(broken.Loss, 2) {
		t.Error("the question's p, rounded to four decimals, does not give the loss to two")
	}
	exerciseAccepts(t, "what-epsilon-promises", "ε really guaranteed", 2, 1, broken.Loss)
	if broken.Breaches != 1 || math.Abs(broken.LogRatio[thu]) != broken.Loss {
		t.Errorf("after one batch the broken weights should breach on Thursday alone: %+v", broken)
	}
	for r, lr := range broken.LogRatio {
		if r != thu && math.Abs(lr) > 1 {
			t.Errorf("day %d leaves the band too (%g); the lesson says the other days stay inside", r, lr)
		}
	}
	// The derivation: the broken weights guarantee 2ε in general.
	quoted(t, "what-epsilon-promises", "answer: 2\nexample-right: 2", "the general derivation gives 2 (twice the claimed ε)")
	// Standard errors, defined where the intervals first use them.
	quoted(t, "what-epsilon-promises", fmt.Sprintf("lands within 3 standard errors of the truth %.1f%% of the time", 100*(1-math.Erfc(3/math.Sqrt2))))

	// Intervals: five log-ratios at 95% and at ±3 standard errors.
	miss95 := 1 - math.Pow(0.95, 5)
	miss3 := 1 - math.Pow(1-math.Erfc(selection.IntervalZ/math.Sqrt2), 5)
	quoted(t, "what-epsilon-promises",
		fmt.Sprintf("misses the truth roughly %.0f%% of the time (1 − 0.95⁵, treating the five as independent, though they share draws; at most %.0f%% by the union bound); with ±%g standard errors, as the widget draws them, about %.1f%%", 100*miss95, 100*5*0.05, float64(selection.IntervalZ), 100*miss3))
}

// round returns x rounded to d decimal places, as %.*f prints it.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}
