package lessons

import (
	"fmt"
	"testing"

	"github.com/dpplay/dpplay/app/selection"
)

// The predict block of the exponential-mechanism lesson: five days with
// 21, 27, 25, 12 and 18 free, Δ = 1, ε = 1.
func TestQuotedMeetingPrediction(t *testing.T) {
	p, err := selection.New().Probabilities(selection.Request{
		Mechanism: "exponential", Scores: []float64{21, 27, 25, 12, 18}, Epsilon: 1, Sensitivity: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	quoted(t, "exponential-mechanism",
		fmt.Sprintf("Tuesday gets about %.2f and Wednesday about %.2f", p[1], p[2]),
		fmt.Sprintf("About %.0f%%: Tuesday is favoured", 100*p[1]))
}
