package synth

import (
	"context"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

// benchSmallDB runs one exact SmallDB draw per iteration and reports the
// scoring rate and the time per draw (the figures the page predicts run
// time from).
func benchSmallDB(b *testing.B, d *Data, qs *QuerySet, m int) {
	s, err := NewSmallDBSampler(SmallDBConfig{Data: d, Queries: qs, Size: m, Epsilon: 1})
	if err != nil {
		b.Fatal(err)
	}
	r := rng.Seeded(1)
	var total uint64
	for b.Loop() {
		res, err := s.Sample(context.Background(), r)
		if err != nil {
			b.Fatal(err)
		}
		total += res.Candidates
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "candidates/s")
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/sample")
}

// BenchmarkSmallDB: the first case is the page's speed target, k = 4
// (16 points), m = 8 (490,314 candidates), all 24 two-way marginals.
func BenchmarkSmallDB(b *testing.B) {
	four := medical(b, "sex", "smoker", "lung_cancer", "over_50")
	five := medical(b)
	m2four, _ := Marginals(four.Columns(), 2)
	m2five, _ := Marginals(five.Columns(), 2)
	hfour, _ := Halfspaces(four.Columns())
	b.Run("k4-m8-marginals2", func(b *testing.B) { benchSmallDB(b, four, m2four, 8) })
	b.Run("k5-m5-marginals2", func(b *testing.B) { benchSmallDB(b, five, m2five, 5) })
	b.Run("k4-m8-halfspaces", func(b *testing.B) { benchSmallDB(b, four, hfour, 8) })
}

func BenchmarkMWEM(b *testing.B) {
	d := medical(b)
	qs, _ := Marginals(d.Columns(), 2)
	r := rng.Seeded(1)
	for b.Loop() {
		if _, err := MWEM(context.Background(), MWEMConfig{Data: d, Queries: qs, Rounds: 20, Epsilon: 1}, r); err != nil {
			b.Fatal(err)
		}
	}
}
