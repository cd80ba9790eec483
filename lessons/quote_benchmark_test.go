package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/audit/sparse"
	"github.com/dpplay/dpplay/core/audit/pair"
)

// toolsSlug is the lesson that compares the auditor with the research tools.
const toolsSlug = "research-tools"

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

// differIn is how the table names a neighbour notion of the benchmark.
var differIn = map[string]string{pair.OneEntry: "one entry", pair.EveryEntry: "every entry"}

// benchmarkRows returns the table's rows, one per mechanism of DP-Sniper's
// evaluation: the neighbour notion of its pairs, the ε proved under it, the
// exact loss on DP-Sniper's pair (logistic regression run), its lower
// bound, and StatDP's larger lower bound of its two runs with the exact
// loss on that run's pair.
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
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", shortName(c.Mechanism), differIn[c.Neighbours], benchCell(c.Proved), benchCell(loss(c)), benchCell(c.LowerBound), statdp))
	}
	return rows
}

func TestQuotedBenchmarkTable(t *testing.T) {
	rows := benchmarkRows(t)
	if len(rows) != 20 {
		t.Fatalf("%d rows", len(rows))
	}
	quoted(t, toolsSlug, rows...)
}

// The paragraph under the table.
func TestQuotedBenchmarkProse(t *testing.T) {
	cs, _ := pair.Benchmark(pair.RunStatDP2)
	for _, c := range cs {
		if c.Mechanism == "NoisyHist2" {
			l, _ := c.M.Loss(c.Pair[0], c.Pair[1])
			quoted(t, toolsSlug, fmt.Sprintf("StatDP's %.3f for noisy histogram 2, whose exact loss is %g", c.LowerBound, l.Value()))
		}
	}
	dps, _ := pair.Benchmark(pair.RunDPSniperLogistic)
	for _, c := range dps {
		l, _ := c.M.Loss(c.Pair[0], c.Pair[1])
		switch c.Mechanism {
		case "NoisyHist2":
			quoted(t, toolsSlug, fmt.Sprintf("Noisy hist. 2's loss of %g shows up as %.3f", l.Value(), c.LowerBound))
		case "PrefixSum":
			quoted(t, toolsSlug, fmt.Sprintf("on prefix sums the tools report %.3f and", c.LowerBound),
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
	quoted(t, toolsSlug, fmt.Sprintf("Every mechanism claims ε = 0.1 except RAPPOR (%s, by Erlingsson et al.'s formula), one-time RAPPOR (%s) and SVT3 with SVT4 (%s, the sum of its parts)",
		other["Rappor"], other["OneTimeRappor"], other["SVT34Parallel"]))
}

// The rows whose loss exceeds their claim but not what is proved, and
// StatDP's SVT5 at half the ε.
func TestQuotedBenchmarkProved(t *testing.T) {
	cs, _ := pair.Benchmark(pair.RunDPSniperLogistic)
	by := map[string]pair.Case{}
	for _, c := range cs {
		by[c.Mechanism] = c
	}
	tg, rnm3, ps := by["TruncatedGeometricMechanism"], by["ReportNoisyMax3"], by["PrefixSum"]
	tgLoss, _ := tg.M.Loss(tg.Pair[0], tg.Pair[1])
	if math.Abs(tgLoss.Value()-tg.Proved) > 1e-9 || math.Abs(tg.Proved-math.Log1p(1.0/8)) > 1e-15 {
		t.Errorf("truncated geometric: loss %v, proved %v, want both ln(1 + 2⁻³)", tgLoss.Value(), tg.Proved)
	}
	n := len(ps.Pair[0])
	differ := 0
	for i := range ps.Pair[0] {
		if ps.Pair[0][i] != ps.Pair[1][i] {
			differ++
		}
	}
	quoted(t, toolsSlug,
		fmt.Sprintf("as DP-Sniper sets it up, asked for ε = %g, guarantees ln(1 + 2⁻³) = %.3f: its claim is mis-stated", tg.Claimed, tg.Proved), fmt.Sprintf("asked for ε = %g, it guarantees ln(1 + 2⁻³) = %.3f: the ratio", tg.Claimed, tg.Proved),
		fmt.Sprintf("is proved only %d × %g = %.3f for its %d answers", len(rnm3.Pair[0]), rnm3.Claimed/2, rnm3.Proved, len(rnm3.Pair[0])),
		fmt.Sprintf("DP-Sniper's pair differs in all %d of its entries, where the guarantee is %d × %g = %g.", differ, n, ps.Claimed, ps.Proved))
	// Noisy histogram 1 adds Lap(1/ε) to each count: one person added or
	// removed moves one count by 1, one answer changed moves two.
	h1 := by["NoisyHist1"]
	quoted(t, toolsSlug, fmt.Sprintf("noisy histogram 1 is proved %g there, and would be proved only %g for one person's answer changed", h1.Proved, 2*h1.Proved))
	quoted(t, toolsSlug, fmt.Sprintf("SVT4 is proved %.3f, noisy histogram 2, whose noise $\\mathrm{Lap}(\\varepsilon)$ should have been $\\mathrm{Lap}(1/\\varepsilon)$, is proved %g", by["SparseVectorTechnique4"].Proved, by["NoisyHist2"].Proved))
	for _, c := range []pair.Case{rnm3, by["SparseVectorTechnique4"], by["NoisyHist2"]} {
		if l, _ := c.M.Loss(c.Pair[0], c.Pair[1]); l.Value() <= c.Claimed {
			t.Errorf("%s: the loss %v on the pair does not exceed the claim %v; the lesson calls it a failure", c.Mechanism, l.Value(), c.Claimed)
		}
	}
	if differ != n {
		t.Errorf("prefix sums: the pair differs in %d of %d entries", differ, n)
	}
	for _, run := range []string{pair.RunStatDP1, pair.RunStatDP2} {
		s, _ := pair.Benchmark(run)
		for _, c := range s {
			if c.Mechanism == "SparseVectorTechnique5" {
				quoted(t, toolsSlug, fmt.Sprintf("StatDP's runs give SVT5 ε = %g", c.Claimed))
			}
		}
	}
}

// The exercise: prefix sums at ε = 0.1 on pairs that differ in every one
// of 10 entries, and its likely wrong answers.
func TestQuotedPrefixSumsExercise(t *testing.T) {
	cs, _ := pair.Benchmark(pair.RunDPSniperLogistic)
	for _, c := range cs {
		if c.Mechanism != "PrefixSum" {
			continue
		}
		n := float64(len(c.Pair[0]))
		sums := 0.0 // how far the running sums move together
		for i := 1; i <= len(c.Pair[0]); i++ {
			sums += float64(i)
		}
		oneEntry, scale := c.Claimed, 1/c.Claimed
		quoted(t, toolsSlug, fmt.Sprintf("with ε = %g to each of %g entries", c.Claimed, n),
			fmt.Sprintf("(1 + 2 + … + %g = %g, times %g)", n, sums, c.Claimed),
			fmt.Sprintf("[[%g, \"That is the guarantee when one entry differs", oneEntry),
			fmt.Sprintf("[%g, \"That adds up how far the running sums move", sums*c.Claimed),
			fmt.Sprintf("[%g, \"That multiplies the sensitivity %g by the noise scale %g", n*scale, n, scale))
		exerciseAccepts(t, toolsSlug, "Proved ε", c.Proved, oneEntry, sums*c.Claimed, n*scale)
		if l, _ := c.M.Loss(c.Pair[0], c.Pair[1]); l.Value() != c.Proved {
			t.Errorf("the exact loss %v on the pair does not reach the proved %v", l.Value(), c.Proved)
		}
	}
}

// The lesson's widget audits SVT4 on DP-Sniper's pair with the benchmark's
// parameters: its loss is the table's.
func TestQuotedBenchmarkWidget(t *testing.T) {
	cs, _ := pair.Benchmark(pair.RunDPSniperLogistic)
	for _, c := range cs {
		if c.Mechanism != "SparseVectorTechnique4" {
			continue
		}
		a, err := sparse.NewAudit(4, c.Claimed, 1, 1, c.Pair[0], c.Pair[1])
		if err != nil {
			t.Fatal(err)
		}
		bench, _ := c.M.Loss(c.Pair[0], c.Pair[1])
		if math.Abs(a.Loss-bench.Value()) > 1e-9 || a.Variant.Proven != c.Proved {
			t.Errorf("the widget's audit %v (proved %v) is not the benchmark's %v (proved %v)", a.Loss, a.Variant.Proven, bench.Value(), c.Proved)
		}
		quoted(t, toolsSlug, "alg: 4\neps: 0.1\nc: 1\nt: 1\nx: 1,1,1,1,1,1,1,1,1,1\ny: 2,2,2,2,2,0,0,0,0,0",
			fmt.Sprintf("The exact loss is the table's %.3f: above the claimed %g, below the %.3f that Lyu et al. prove.", a.Loss, c.Claimed, c.Proved))
		if fmt.Sprint(c.Pair[0]) != "[1 1 1 1 1 1 1 1 1 1]" || fmt.Sprint(c.Pair[1]) != "[2 2 2 2 2 0 0 0 0 0]" {
			t.Errorf("DP-Sniper's SVT4 pair is %v, %v; the widget opens on another", c.Pair[0], c.Pair[1])
		}
	}
}
