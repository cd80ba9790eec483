package osrand

import (
	"testing"

	"github.com/dpplay/dpplay/core/stats"
)

func TestTopNibblesAreUniform(t *testing.T) {
	r := New()
	counts := make([]int, 16)
	for i := 0; i < 160_000; i++ {
		counts[r.Uint64()>>60]++
	}
	probs := make([]float64, 16)
	for i := range probs {
		probs[i] = 1.0 / 16
	}
	// The source is not seeded, so this test's false-failure rate is a real
	// 1e-6 per run rather than a fixed outcome.
	if res, _ := stats.ChiSquare(counts, probs); res.PValue < 1e-6 {
		t.Errorf("top nibbles not uniform: p = %.3g", res.PValue)
	}
}

// A source that repeats its buffer is the classic bug in a buffered reader;
// 10,000 words with a repeat among them would be a 2^-64-scale accident.
func TestNoRepeatedWords(t *testing.T) {
	r := New()
	seen := make(map[uint64]bool, 10_000)
	for i := 0; i < 10_000; i++ {
		v := r.Uint64()
		if seen[v] {
			t.Fatalf("word %d repeats an earlier one", i)
		}
		seen[v] = true
	}
}
