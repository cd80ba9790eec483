package mech

import (
	"strconv"
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

// manyScores returns n scores for the exact report-noisy-max benchmarks:
// counts spread over 0 … 50 (at ε = 1 many candidates sit within a few
// noise scales of each other, the hard case for the quadrature).
func manyScores(n int) []float64 {
	r := rng.Seeded(7)
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(r.IntN(5000)) / 100
	}
	return s
}

func benchmarkExactRNM(b *testing.B, noise Noise, n int) {
	c := Config{Scores: manyScores(n), Epsilon: 1, Sensitivity: 1}
	for i := 0; i < b.N; i++ {
		if _, err := NewReportNoisyMax(c, noise); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReportNoisyMaxExact is the time to compute report noisy max's
// exact distribution (Laplace and exponential noise) at 256, 1,000 and
// 10,000 candidates.
func BenchmarkReportNoisyMaxExact(b *testing.B) {
	for _, noise := range []Noise{LaplaceNoise, ExponentialNoise} {
		for _, n := range []int{256, 1000, 10000} {
			b.Run(noise.String()+"/"+strconv.Itoa(n), func(b *testing.B) { benchmarkExactRNM(b, noise, n) })
		}
	}
}
