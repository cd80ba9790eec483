package mech

import (
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

// BenchmarkExponentialBatch is the cost of one draw in a batch from the
// exponential mechanism over the 7 Adult marital-status candidates with a
// seeded source; compare with rng's BenchmarkSourceUint64.
func BenchmarkExponentialBatch(b *testing.B) {
	m, err := NewExponential(Config{Scores: []float64{14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023}, Epsilon: 1, Sensitivity: 1})
	if err != nil {
		b.Fatal(err)
	}
	r := rng.Seeded(1)
	counts := make([]int, 7)
	b.ResetTimer()
	if err := m.Fill(r, counts, b.N); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkExponentialOnceMillion(b *testing.B) {
	scores := make([]float64, 1_000_000)
	for i := range scores {
		scores[i] = float64(i % 1000)
	}
	c := Config{Scores: scores, Epsilon: 1, Sensitivity: 1}
	r := rng.Seeded(1)
	for i := 0; i < b.N; i++ {
		if _, err := SampleExponentialOnce(c, r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReportNoisyMaxLaplaceExact(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewReportNoisyMax(Config{Scores: spread, Epsilon: 1, Sensitivity: 1}, LaplaceNoise); err != nil {
			b.Fatal(err)
		}
	}
}
