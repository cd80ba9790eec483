package lessons

import (
	"fmt"
	"math"
	"testing"

	synthapp "github.com/dpplay/dpplay/app/synth"
)

// mwem runs the MWEM widget on the medical table (4 attributes, all 2-way
// marginals, seed 1) for all its rounds, as the widget asks app/synth.
func mwem(t *testing.T, eps float64, rounds, upto, replays int) synthapp.MWEMView {
	t.Helper()
	v, err := synthapp.MWEM(synthapp.MWEMSpec{K: 4, Kind: "marginals:2", Rounds: rounds, Upto: upto, Replays: replays, Epsilon: eps, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestQuotedMWEM(t *testing.T) {
	const slug = "mwem"
	const n = 120.0
	start := mwem(t, 1, 10, 10, 10)
	if start.Budget != 1 || math.Abs(start.Spent-1) > 1e-12 || start.Charges != 20 {
		t.Errorf("after 10 rounds: spent %v of %v in %d charges; the lesson says 2T = 20 charges adding up to ε", start.Spent, start.Budget, start.Charges)
	}

	// The scale exercise: ε/(2T) per measurement, sensitivity 1/n.
	scale := 2 * 10 / (1 * n)
	if math.Abs(start.NoiseScale-scale) > 1e-12 {
		t.Errorf("the widget's scale %v is not 2T/(εn) = %v", start.NoiseScale, scale)
	}
	slips := []float64{10 / n, 2 * 10 / 1.0, 2 / n, 1.0 / 20}
	exerciseAccepts(t, slug, "Laplace scale", scale, slips...)
	exerciseAccepts(t, slug, "Laplace scale", round(scale, 3))
	quoted(t, slug,
		fmt.Sprintf("answer: %.5f", scale),
		fmt.Sprintf("20/120 = 2T/(εn) ≈ %.3f", scale),
		fmt.Sprintf("[[%.6f, \"That is T/(εn)", slips[0]),
		fmt.Sprintf("[%g, \"That is 2T/ε", slips[1]),
		fmt.Sprintf("[%.6f, \"That is 2/(εn)", slips[2]),
		fmt.Sprintf("[%g, \"That is ε/(2T)", slips[3]),
		fmt.Sprintf("noise of scale 20/120 ≈ %.2f", scale),
		fmt.Sprintf("the scale 2T/(εn) = 20/120 ≈ %.3f (common slips: %.3f, the whole round's budget on the measurement; %g, a count instead of a fraction)", scale, slips[0], slips[1]))

	// The update exercise: uniform A on 16 rows, a query counting 4 of
	// them, measurement 0.45. And the widget's first round, without
	// replays, follows the same rule from its own numbers.
	update := func(est, meas float64) float64 {
		w := 16 * est * math.Exp((meas-est)/2) // the counted rows' weight, in units of 1/16
		return w / (w + 16*(1-est))
	}
	after := update(0.25, 0.45)
	mistakes := []float64{0.45, 0.25 * math.Exp(0.1), 4 * math.Exp(0.2) / (4*math.Exp(0.2) + 12), (0.25 + 0.45) / 2}
	exerciseAccepts(t, slug, "f(A) after the update", after, mistakes...)
	exerciseAccepts(t, slug, "f(A) after the update", round(after, 3))
	quoted(t, slug,
		fmt.Sprintf("answer: %.6f", after),
		fmt.Sprintf("f(A) = 4e^0.1/(4e^0.1 + 12) ≈ %.3f", after),
		fmt.Sprintf("[%.5f, \"That is 0.25 × e^0.1", mistakes[1]),
		fmt.Sprintf("[%.5f, \"That multiplies by e^d", mistakes[2]),
		fmt.Sprintf("$4e^{0.1}/(4e^{0.1} + 12) \\approx %.3f$ (common slips: 0.45, a jump to the measurement; %.3f, no normalising)", after, mistakes[1]))
	first := mwem(t, 1, 10, 1, 0)
	if first.Estimate[0] != 0.25 {
		t.Fatalf("round 1 estimates %v; a 2-way marginal on the uniform A is 4/16", first.Estimate[0])
	}
	if got, want := first.Updated[0], update(first.Estimate[0], first.Measurement[0]); math.Abs(got-want) > 1e-12 {
		t.Errorf("the widget's first round updates %v to %v with measurement %v; the lesson's rule gives %v", first.Estimate[0], got, first.Measurement[0], want)
	}

	// Replays, rounds and ε against SmallDB's exact error at m = 6.
	var ref synthapp.Reference
	e1, q1, _, err := ref.Expected(4, "marginals:2", 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	e10, _, _, err := ref.Expected(4, "marginals:2", 6, 10)
	if err != nil {
		t.Fatal(err)
	}
	none, long, strong := mwem(t, 1, 10, 10, 0), mwem(t, 1, 40, 40, 10), mwem(t, 10, 10, 10, 10)
	if start.MaxError <= q1 {
		t.Errorf("MWEM's max-error %v is within SmallDB's 95%% quantile %v (expected %v): the lesson says SmallDB wins clearly", start.MaxError, q1, e1)
	}
	if strong.MaxError >= e10 {
		t.Errorf("at ε = 10 MWEM's %v does not beat SmallDB's %v", strong.MaxError, e10)
	}
	if long.NoiseScale != 4*start.NoiseScale {
		t.Errorf("T = 40 has scale %v, not four times %v", long.NoiseScale, start.NoiseScale)
	}
	quoted(t, slug,
		fmt.Sprintf("the error after 10 rounds is %.2f with replays and %.2f without", start.MaxError, none.MaxError),
		fmt.Sprintf("MWEM's error in this run, %.2f, stays above SmallDB's whole 95%% band", start.MaxError),
		fmt.Sprintf("the error after 40 rounds in this run is %.2f", long.MaxError),
		fmt.Sprintf("MWEM's error in this run falls to %.2f, well below SmallDB's %.3f", strong.MaxError, e10),
		"At 120 patients and ε = 1 SmallDB wins clearly", "with T = 10 every measurement")

	// Hardt, Ligett and McSherry's accuracy theorem at the starting
	// settings: universe 2^4, the widget's query count, T = 10, ε = 1.
	if len(start.Queries) != 24 {
		t.Fatalf("the widget asks %d queries; the lesson says 24", len(start.Queries))
	}
	X, Q, rounds := 16.0, float64(len(start.Queries)), 10.0
	bound := 2*math.Sqrt(math.Log(X)/rounds) + 10*rounds*math.Log(Q)/(1*n)
	if bound <= 1 {
		t.Errorf("the theorem's bound %v is at most 1; the lesson says it promises nothing", bound)
	}
	quoted(t, slug,
		"with probability at least $1 - 2T/|Q|$ the error is at most $2\\sqrt{\\ln|X|/T} + 10T\\ln|Q|/(\\varepsilon n)$",
		fmt.Sprintf("it holds with probability %s and bounds the error by %.2f", oneOver(1-2*rounds/Q), bound))
}

// oneOver writes p as 1/k when it is one.
func oneOver(p float64) string {
	k := math.Round(1 / p)
	if math.Abs(p-1/k) < 1e-12 {
		return fmt.Sprintf("1/%g", k)
	}
	return fmt.Sprintf("%g", p)
}
