package lessons

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/app/widget"
)

var meeting = []float64{21, 27, 25, 12, 18}

// probs is the exponential mechanism's exact distribution, as the
// exponential-mechanism widget asks the engine for it.
func probs(t *testing.T, scores, measure []float64, eps, delta float64) []float64 {
	t.Helper()
	p, err := selection.New().Probabilities(selection.Request{
		Mechanism: "exponential", Scores: scores, Measure: measure, Epsilon: eps, Sensitivity: delta,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The predict block of the exponential-mechanism lesson: five days with
// 21, 27, 25, 12 and 18 free, Δ = 1, ε = 1.
func TestQuotedMeetingPrediction(t *testing.T) {
	p := probs(t, meeting, nil, 1, 1)
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("Tuesday gets about %.2f and Wednesday about %.2f", p[1], p[2]),
		fmt.Sprintf("About %.0f%%: Tuesday is favoured", 100*p[1]))
	// "Tuesday's weight is e^{(27-25)/2} = e ≈ 2.7 times Wednesday's".
	quoted(t, "exponential-mechanism", fmt.Sprintf("e \\approx %.1f$ times Wednesday's", p[1]/p[2]))
	// ε = 10: "Tuesday wins nearly every time"; ε = 0.05: "almost equally likely".
	if p := probs(t, meeting, nil, 10, 1); p[1] < 0.999 {
		t.Errorf("at ε = 10 Tuesday has %g, not nearly every time", p[1])
	}
	if p := probs(t, meeting, nil, 0.05, 1); p[1]-p[3] > 0.1 {
		t.Errorf("at ε = 0.05 the days are not almost equally likely: %v", p)
	}
}

// The Adult data set: its counts (the seeds' README), their total, the gap
// between the top two, the widget's copy of them, and the exercise's range.
func TestQuotedAdult(t *testing.T) {
	counts := []float64{14976, 10683, 4443, 1025, 993, 418, 23}
	sum := 0.0
	for _, c := range counts {
		sum += c
	}
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("training file of the Adult data set has %s rows", thousands(sum)),
		fmt.Sprintf("the gap of %s people between the top two", thousands(counts[0]-counts[1])))
	if raw, ok := widget.Find(widget.DataSets(), "adult-raw"); !ok || !slices.Equal(raw.Scores, counts) {
		t.Error("the widget's Adult data set (app/widget) no longer holds the counts the lesson's table shows")
	}
	if adult, ok := widget.Find(widget.DataSets(), "adult"); !ok || adult.Scores[0] != 14.976 || adult.Scores[1] != 10.683 {
		t.Error("the widget's Adult scores in thousands are not the 14.976 and 10.683 the exercise gives")
	}
	raw := probs(t, counts, nil, 0.01, 1)
	if raw[0] < 1-1e-6 {
		t.Errorf("raw counts at ε = 0.01 pick Married-civ-spouse with %g, not essentially every time", raw[0])
	}
	// The exercise: the ε at which Married-civ-spouse is 9 times as likely
	// as Never-married, derived from the weights and confirmed by the
	// widget's exact probabilities at that ε; the instructor notes quote
	// the exact accepted interval.
	thousandths := make([]float64, len(counts))
	for i, c := range counts {
		thousandths[i] = c / 1000
	}
	gap := thousandths[0] - thousandths[1]
	eps9 := 2 * math.Log(9) / gap
	at := probs(t, thousandths, nil, eps9, 1)
	if r := at[0] / at[1]; math.Abs(r-9) > 1e-9 {
		t.Errorf("at ε = %v the widget's probabilities stand %v to 1, not 9", eps9, r)
	}
	slips := []float64{math.Log(9) / gap, 2 * math.Log10(9) / gap, 2 * 9 / gap, 2 * math.Log(9) / (counts[0] - counts[1])}
	exerciseAccepts(t, "exponential-mechanism", "ε =", eps9, slips...)
	exerciseAccepts(t, "exponential-mechanism", "ε =", round(eps9, 3))
	lo, hi := acceptedInterval(t, "exponential-mechanism", "ε =")
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("answer: %.6f", eps9),
		fmt.Sprintf("so ε = 2 ln 9 / %.3f ≈ %.3f", gap, eps9),
		fmt.Sprintf("Married-civ-spouse has about %.3f, Never-married about %.3f", at[0], at[1]),
		fmt.Sprintf("(Married-civ-spouse 14.976, Never-married 10.683)"),
		fmt.Sprintf("[[%.5f, \"That solves", slips[0]), fmt.Sprintf("[%.5f, \"That uses log base 10", slips[1]),
		fmt.Sprintf("[%.4f, \"That leaves out the logarithm", slips[2]), fmt.Sprintf("[%.6f, \"That uses the raw counts", slips[3]),
		fmt.Sprintf("ε = 2 ln 9 / %.3f ≈ %.3f (the page accepts every answer from %.4f up to, not including, %.4f; the usual slips are %.3f without the 2, %.3f with log₁₀ and %.3f without the logarithm)",
			gap, eps9, lo, hi, slips[0], slips[1], slips[2]))
	// Per person, scores in thousands with Δ = 1 at ε are raw counts at ε/1000.
	per := probs(t, counts, nil, 0.001, 1)
	for i, q := range probs(t, thousandths, nil, 1, 1) {
		if math.Abs(q-per[i]) > 1e-12 {
			t.Errorf("thousands at ε = 1 and raw counts at ε = 0.001 differ for %d: %g, %g", i, q, per[i])
		}
	}
	// The parametrisation callout: the article's ε_a = 1 costs 2Δ.
	quoted(t, "exponential-mechanism", fmt.Sprintf("costs $2\\Delta$ (%g when Δ = 1, %g when Δ = 0.001)", 2*1.0, 2*0.001))
	quoted(t, "exponential-mechanism", fmt.Sprintf("the notebook's ε = 1 is the raw-count mechanism at ε = %g", 0.001),
		fmt.Sprintf("for one person ε = 1 acts as ε = %g", 0.001))
}

// The base-measure section: μ = (1, 1, 4, 1, 1) on the meeting scores.
func TestQuotedBaseMeasure(t *testing.T) {
	mu := []float64{1, 1, 4, 1, 1}
	p := probs(t, meeting, mu, 1, 1)
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("chosen with probability %.2f and Tuesday, with 27, with %.2f", p[2], p[1]),
		fmt.Sprintf("Wednesday the favourite at ε = 1 (%.2f against Tuesday's %.2f)", p[2], p[1]),
		"mu: [1, 1, 4, 1, 1]")
	p10 := probs(t, meeting, mu, 10, 1)
	quoted(t, "exponential-mechanism", fmt.Sprintf("Tuesday is chosen with probability %.4f", p10[1]))
	// The exercise: the ratio Wednesday : Tuesday, and its likely wrong answers.
	ratio := p[2] / p[1]
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("answer: %.4f", ratio),
		fmt.Sprintf("4 × e^(−1) ≈ %.2f", ratio),
		fmt.Sprintf("[%.5f, \"That is 1/e", 1/math.E),
		fmt.Sprintf("[%.5f, \"That is e/4", 1/ratio),
		fmt.Sprintf("[%.5f, \"That is 4 × e^(−2)", 4*math.Exp(-2)),
		fmt.Sprintf("4/e ≈ %.2f", ratio))
	exerciseAccepts(t, "exponential-mechanism", "Ratio", ratio, 4, 1/math.E, 4*math.Exp(-2), 1/ratio)
	exerciseAccepts(t, "exponential-mechanism", "Ratio", round(ratio, 2))
	if math.Abs(math.E/4-1/ratio) > 1e-12 {
		t.Fatal("e/4")
	}
}

// thousands formats a whole number with commas: 32561 → "32,561".
func thousands(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
