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
	raw := probs(t, counts, nil, 0.01, 1)
	if raw[0] < 1-1e-6 {
		t.Errorf("raw counts at ε = 0.01 pick Married-civ-spouse with %g, not essentially every time", raw[0])
	}
	// The exercise (exponential-mechanism.shareAt, target 0.9 ± 0.01): the ε whose
	// probability is 0.89 and 0.91, rounded as the instructor notes give them.
	thousandths := make([]float64, len(counts))
	for i, c := range counts {
		thousandths[i] = c / 1000
	}
	share := func(e float64) float64 { return probs(t, thousandths, nil, e, 1)[0] }
	lo, hi, mid := solve(share, 0.89), solve(share, 0.91), solve(share, 0.9)
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("answer is ε ≈ %.2f (the page accepts any ε giving a probability from %.2f to %.2f: %.2f to %.2f)", mid, 0.89, 0.91, math.Ceil(lo*100)/100, math.Floor(hi*100)/100),
		"target: 0.9\ntolerance: 0.01",
		"chosen with probability between 0.89 and 0.91")
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
	for _, e := range []float64{math.Ceil(lo*100) / 100, math.Floor(hi*100) / 100, 1.05} {
		if p := share(e); math.Abs(p-0.9) > 0.01 {
			t.Errorf("ε = %g gives %g, outside the exercise's 0.9 ± 0.01", e, p)
		}
	}
	if p := share(1.00); math.Abs(p-0.9) <= 0.01 {
		t.Errorf("ε = 1.00 is accepted (%g); the notes say the range starts above it", p)
	}
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
		fmt.Sprintf("If you gave 0.37 (that is 1/e)"),
		fmt.Sprintf("If you gave %.2f (that is e/4)", 1/ratio),
		fmt.Sprintf("If you gave %.2f, you left out the 2 in 2Δ", 4*math.Exp(-2)),
		fmt.Sprintf("4/e ≈ %.2f", ratio))
	exerciseAccepts(t, "exponential-mechanism", "Ratio", ratio, 4, 1/math.E, 4*math.Exp(-2), 1/ratio)
	if math.Abs(1/math.E-0.37) > 0.005 || math.Abs(math.E/4-1/ratio) > 1e-12 {
		t.Fatal("1/e")
	}
}

// solve finds the ε in [0.01, 20] at which the increasing f equals y, by bisection.
func solve(f func(float64) float64, y float64) float64 {
	lo, hi := 0.01, 20.0
	for i := 0; i < 60; i++ {
		m := (lo + hi) / 2
		if f(m) < y {
			lo = m
		} else {
			hi = m
		}
	}
	return (lo + hi) / 2
}

// thousands formats a whole number with commas: 32561 → "32,561".
func thousands(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
