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
	quoted(t, "what-epsilon-promises",
		fmt.Sprintf("with a loss of %.2f at ε = 1", broken.Loss),
		fmt.Sprintf("answer: %.2f", broken.Loss),
		fmt.Sprintf("the loss reaches %.2f, almost 2ε", broken.Loss),
		fmt.Sprintf("the widget's pair reaches %.2f", broken.Loss))
	exerciseAccepts(t, "what-epsilon-promises", "privacy loss", broken.Loss, 1, 2)
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
	quoted(t, "what-epsilon-promises", "answer: 2\ntolerance: 0.001", "the derivation gives 2 (twice the claimed ε)")

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
