package audit

import "testing"

// benchAudit audits the 5-candidate exponential mechanism on counts 0..9
// (100,000 data sets) and reports neighbouring pairs per second, the figure
// the lesson's speed note and `make bench` quote.
func benchAudit(b *testing.B, c Config) {
	a, err := New(c)
	if err != nil {
		b.Fatal(err)
	}
	var pairs int64
	for i := 0; i < b.N; i++ {
		a, _ = New(c)
		r, err := a.All()
		if err != nil {
			b.Fatal(err)
		}
		pairs += r.Pairs
	}
	b.ReportMetric(float64(pairs)/b.Elapsed().Seconds(), "pairs/s")
}

func BenchmarkAuditExponential5(b *testing.B) {
	benchAudit(b, Config{Mechanism: "exponential", Score: "count[r] - count[(r+1)%k]", Sensitivity: "1", Epsilon: 1,
		Candidates: 5, MaxCount: 9, Neighbours: ChangeOne})
}

func BenchmarkAuditLaplaceNoisyMax3(b *testing.B) {
	benchAudit(b, Config{Mechanism: "report-noisy-max-laplace", Score: "count[r]", Sensitivity: "1", Epsilon: 1,
		Candidates: 3, MaxCount: 9, Neighbours: ChangeOne})
}
