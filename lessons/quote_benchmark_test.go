package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/audit/pair"
)

// benchCell writes a benchmark figure as the table does: ∞, or three
// decimals.
func benchCell(l float64) string {
	if math.IsInf(l, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.3f", l)
}

// shortName is how the table names a mechanism of DP-Sniper's code, so
// that it fits a phone: RNM for ReportNoisyMax, SVT for
// SparseVectorTechnique.
func shortName(class string) string {
	if n, ok := map[string]string{
		"LaplaceMechanism": "Laplace", "TruncatedGeometricMechanism": "Truncated geometric", "Rappor": "RAPPOR",
		"OneTimeRappor": "One-time RAPPOR", "LaplaceParallel": "20 × Laplace", "SVT34Parallel": "SVT3 with SVT4", "NumericalSVT": "Numerical SVT", "NoisyHist1": "Noisy hist. 1", "NoisyHist2": "Noisy hist. 2",
		"PrefixSum": "Prefix sums",
	}[class]; ok {
		return n
	}
	return strings.NewReplacer("ReportNoisyMax", "RNM", "SparseVectorTechnique", "SVT").Replace(class)
}

// benchmarkRows returns the table's rows, one per mechanism of DP-Sniper's
// evaluation: the exact loss on DP-Sniper's pair (logistic
// regression run), its lower bound, and StatDP's larger lower bound of its
// two runs with the exact loss on that run's pair.
func benchmarkRows(t *testing.T) []string {
	t.Helper()
	loss := func(c pair.Case) float64 {
		l, err := c.M.Loss(c.Pair[0], c.Pair[1])
		if err != nil {
			t.Fatal(err)
		}
		return l.Value()
	}
	dps, err := pair.Benchmark(pair.RunDPSniperLogistic)
	if err != nil {
		t.Fatal(err)
	}
	best := map[string]pair.Case{}
	for _, run := range []string{pair.RunStatDP1, pair.RunStatDP2} {
		cs, _ := pair.Benchmark(run)
		for _, c := range cs {
			if b, ok := best[c.Mechanism]; !ok || c.LowerBound > b.LowerBound {
				best[c.Mechanism] = c
			}
		}
	}
	var rows []string
	for _, c := range dps {
		statdp := "–"
		if s, ok := best[c.Mechanism]; ok {
			statdp = fmt.Sprintf("%s (%s)", benchCell(s.LowerBound), benchCell(loss(s)))
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", shortName(c.Mechanism), benchCell(loss(c)), benchCell(c.LowerBound), statdp))
	}
	return rows
}

func TestQuotedBenchmarkTable(t *testing.T) {
	rows := benchmarkRows(t)
	if len(rows) != 20 {
		t.Fatalf("%d rows", len(rows))
	}
	quoted(t, checkSlug, rows...)
}

// The paragraph under the table.
func TestQuotedBenchmarkProse(t *testing.T) {
	cs, _ := pair.Benchmark(pair.RunStatDP2)
	for _, c := range cs {
		if c.Mechanism == "NoisyHist2" {
			l, _ := c.M.Loss(c.Pair[0], c.Pair[1])
			quoted(t, checkSlug, fmt.Sprintf("StatDP's %.3f for noisy histogram 2, whose exact loss is %g", c.LowerBound, l.Value()))
		}
	}
	dps, _ := pair.Benchmark(pair.RunDPSniperLogistic)
	for _, c := range dps {
		l, _ := c.M.Loss(c.Pair[0], c.Pair[1])
		switch c.Mechanism {
		case "NoisyHist2":
			quoted(t, checkSlug, fmt.Sprintf("Noisy hist. 2's loss of %g shows up as %.3f", l.Value(), c.LowerBound))
		case "PrefixSum":
			quoted(t, checkSlug, fmt.Sprintf("on prefix sums the tools report %.3f and", c.LowerBound),
				fmt.Sprintf("where the exact loss is %.3f", l.Value()))
		}
	}
}

// The claims the table's text names: 0.1 for all but three.
func TestQuotedBenchmarkClaims(t *testing.T) {
	cs, _ := pair.Benchmark(pair.RunDPSniperLogistic)
	other := map[string]string{}
	for _, c := range cs {
		if c.Claimed != 0.1 {
			other[c.Mechanism] = benchCell(c.Claimed)
		}
	}
	if len(other) != 3 {
		t.Fatalf("claims other than 0.1: %v", other)
	}
	quoted(t, checkSlug, fmt.Sprintf("every mechanism claims ε = 0.1 but RAPPOR (%s, by Erlingsson et al.'s formula), one-time RAPPOR (%s) and SVT3 with SVT4 (%s, the sum of its parts)",
		other["Rappor"], other["OneTimeRappor"], other["SVT34Parallel"]))
}
