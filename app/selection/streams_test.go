package selection

import (
	"errors"
	"slices"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// adult is the Adult data set's marital-status example: counts / 1000, Δ = 1.
var adult = []float64{14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023}

func TestDrawsBatchesEqualOneRun(t *testing.T) {
	for _, name := range mech.Names() {
		q := Request{Mechanism: name, Scores: adult, Epsilon: 0.4, Sensitivity: 1}
		b := New()
		for _, n := range []int{0, 7, 500, 500, 2000} {
			if _, err := b.Draws("w", q, 42, n); err != nil {
				t.Fatal(err)
			}
		}
		batched, _ := b.Draws("w", q, 42, 3000)
		once, err := New().Draws("w", q, 42, 3000)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(batched, once) {
			t.Errorf("%s: batched draws %v differ from one run %v", name, batched, once)
		}
		// Shrinking restarts the stream from its seed.
		small, _ := b.Draws("w", q, 42, 100)
		fresh, _ := New().Draws("x", q, 42, 100)
		if !slices.Equal(small, fresh) {
			t.Errorf("%s: shrinking to 100 draws gave %v, a fresh stream %v", name, small, fresh)
		}
		other, _ := New().Draws("w", q, 43, 3000)
		if slices.Equal(other, once) {
			t.Errorf("%s: seeds 42 and 43 gave the same counts", name)
		}
	}
}

// A slot keeps one stream; a new seed on the same slot (the page's seed box)
// starts the new seed's stream instead of continuing the old one, and going
// back to the old seed gives its counts again.
func TestDrawsSeedChangeOnSameSlot(t *testing.T) {
	for _, name := range mech.Names() {
		q := Request{Mechanism: name, Scores: adult, Epsilon: 0.4, Sensitivity: 1}
		b := New()
		first, err := b.Draws("w", q, 42, 3000)
		if err != nil {
			t.Fatal(err)
		}
		changed, _ := b.Draws("w", q, 43, 3000)
		want, _ := New().Draws("w", q, 43, 3000)
		if slices.Equal(changed, first) || !slices.Equal(changed, want) {
			t.Errorf("%s: seed 43 on the slot of seed 42 gave %v; seed 43 alone gives %v (seed 42: %v)", name, changed, want, first)
		}
		back, _ := b.Draws("w", q, 42, 3000)
		if !slices.Equal(back, first) {
			t.Errorf("%s: back to seed 42 gave %v, want %v", name, back, first)
		}
	}
}

// TestDrawsMatchProbabilities checks the streams' counts against their own
// exact probabilities, and that the same test rejects the probabilities of a
// different ε (a cache that mixed up its parameters).
func TestDrawsMatchProbabilities(t *testing.T) {
	const n = 20000
	for _, name := range mech.Names() {
		q := Request{Mechanism: name, Scores: adult, Epsilon: 0.6, Sensitivity: 1}
		b := New()
		counts, err := b.Draws("w", q, 7, n)
		if err != nil {
			t.Fatal(err)
		}
		p, err := b.Probabilities(q)
		if err != nil {
			t.Fatal(err)
		}
		wrongQ := q
		wrongQ.Epsilon = 0.45
		wrong, _ := b.Probabilities(wrongQ)
		ints := make([]int, len(counts))
		total := 0
		for i, c := range counts {
			ints[i] = int(c)
			total += ints[i]
		}
		if total != n {
			t.Fatalf("%s: %d draws counted, want %d", name, total, n)
		}
		good, err := stats.ChiSquare(ints, p)
		if err != nil {
			t.Fatal(err)
		}
		if good.PValue < 1e-6 {
			t.Errorf("%s: draws disagree with exact probabilities, p = %g", name, good.PValue)
		}
		bad, _ := stats.ChiSquare(ints, wrong)
		if bad.PValue >= 1e-6 {
			t.Errorf("%s: chi-square cannot tell ε = 0.6 from 0.45 (p = %g)", name, bad.PValue)
		}
	}
}

func TestDrawsRejectsBadInput(t *testing.T) {
	tests := []struct {
		name string
		q    Request
		n    int
	}{
		{"negative draws", Request{Mechanism: "exponential", Scores: adult, Epsilon: 1, Sensitivity: 1}, -1},
		{"too many draws", Request{Mechanism: "exponential", Scores: adult, Epsilon: 1, Sensitivity: 1}, MaxDraws + 1},
		{"zero ε", Request{Mechanism: "exponential", Scores: adult, Epsilon: 0, Sensitivity: 1}, 10},
		{"no scores", Request{Mechanism: "exponential", Epsilon: 1, Sensitivity: 1}, 10},
		{"unknown mechanism", Request{Mechanism: "coin", Scores: adult, Epsilon: 1, Sensitivity: 1}, 10},
	}
	for _, tt := range tests {
		_, err := New().Draws("w", tt.q, 1, tt.n)
		var ve *validate.Error
		if !errors.As(err, &ve) {
			t.Errorf("%s: got %v, want a *validate.Error", tt.name, err)
		}
	}
}
