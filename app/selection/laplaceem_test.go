package selection

import (
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/stats"
)

var wideLine = LaplaceEMRequest{Value: 50, Sensitivity: 1, Epsilon: 1, Lo: -1000, Hi: 1000}

// On a range much wider than the noise the normaliser does not move with
// q(x), so the loss is ε_run/2: half of what the general theorem certifies.
// Run at 2ε ("tight"), the mechanism is exactly Lap(Δq/ε) and loses ε.
func TestLaplaceFromExponentialFactorTwoOnTheLine(t *testing.T) {
	for _, tight := range []bool{false, true} {
		q := wideLine
		q.Tight = tight
		got, err := LaplaceFromExponential(q)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Loss-got.Certified/2) > 1e-9 {
			t.Errorf("tight=%v: loss %g, want half of the certified %g", tight, got.Loss, got.Certified)
		}
		if tight {
			for i, x := range got.X {
				if math.Abs(got.EM[i]-got.Laplace[i]) > 1e-12*got.Laplace[i]+1e-300 {
					t.Fatalf("tight: EM density %g at %g, Laplace %g", got.EM[i], x, got.Laplace[i])
				}
			}
		}
	}
}

// Near an end of a bounded range the normaliser does move, the loss exceeds
// ε_run/2, and the general theorem's factor 2 is needed: the loss stays ≤ ε_run.
func TestLaplaceFromExponentialEdgeNeedsTheFactorTwo(t *testing.T) {
	for _, spacing := range []float64{0, 0.5} {
		q := LaplaceEMRequest{Value: 0.5, Sensitivity: 1, Epsilon: 1, Lo: 0, Hi: 100, Spacing: spacing}
		got, err := LaplaceFromExponential(q)
		if err != nil {
			t.Fatal(err)
		}
		if !(got.Loss > got.Run/2+0.05 && got.Loss <= got.Run*(1+1e-12)) {
			t.Errorf("spacing %g: loss %g, want in (ε/2, ε] for ε = %g", spacing, got.Loss, got.Run)
		}
	}
}

// The histogram is the sampler seen through the streams: its counts per bin
// must fit the exact bin probabilities (from the CDF; everything outside the
// window pooled into one more cell) at α = 1e-6. A sampler at the Laplace
// mechanism's scale (tight) in place of the exponential mechanism's fails.
func TestLaplaceFromExponentialHistogramFitsTheExactDensity(t *testing.T) {
	q := wideLine
	q.Draws, q.Seed = 200_000, 4
	got, err := LaplaceFromExponential(q)
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []float64{q.Epsilon, 2 * q.Epsilon} {
		m, err := mech.NewLaplaceAsExponential(q.Value, q.Sensitivity, run, q.Lo, q.Hi)
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int, len(got.Density)+1)
		probs := make([]float64, len(got.Density)+1)
		inside := 0
		for i, d := range got.Density {
			w := got.Edges[i+1] - got.Edges[i]
			counts[i] = int(math.Round(d * float64(q.Draws) * w))
			inside += counts[i]
			probs[i] = m.CDF(got.Edges[i+1]) - m.CDF(got.Edges[i])
		}
		counts[len(counts)-1] = q.Draws - inside
		probs[len(probs)-1] = 1 - (m.CDF(got.Edges[len(got.Edges)-1]) - m.CDF(got.Edges[0]))
		res, err := stats.ChiSquare(counts, probs)
		if err != nil {
			t.Fatal(err)
		}
		if fits := res.PValue >= 1e-6; fits != (run == q.Epsilon) {
			t.Errorf("against the density at ε_run = %g: p = %.3g", run, res.PValue)
		}
	}
}

// On a grid the density is probability ÷ spacing, so it integrates to 1 over
// the grid, and the loss is core's exact PrivacyLoss, never above ε_run.
func TestLaplaceFromExponentialGrid(t *testing.T) {
	for _, h := range []float64{0.1, 1, 7} {
		q := LaplaceEMRequest{Value: 40, Sensitivity: 2, Epsilon: 0.5, Lo: 0, Hi: 100, Spacing: h, Draws: 1000, Seed: 1}
		got, err := LaplaceFromExponential(q)
		if err != nil {
			t.Fatal(err)
		}
		mass := 0.0
		for i, d := range got.Density {
			mass += d * (got.Edges[i+1] - got.Edges[i])
		}
		if mass > 1+1e-9 || mass < 0.9 {
			t.Errorf("h = %g: histogram mass %g", h, mass)
		}
		if got.Loss > got.Run*(1+1e-12) || got.Loss <= 0 {
			t.Errorf("h = %g: loss %g for ε_run %g", h, got.Loss, got.Run)
		}
	}
}

func TestLaplaceFromExponentialRefusesBadInput(t *testing.T) {
	ok := LaplaceEMRequest{Value: 1, Sensitivity: 1, Epsilon: 1, Lo: 0, Hi: 10}
	for name, change := range map[string]func(*LaplaceEMRequest){
		"q outside the range": func(q *LaplaceEMRequest) { q.Value = 11 },
		"ε = 0":               func(q *LaplaceEMRequest) { q.Epsilon = 0 },
		"NaN spacing":         func(q *LaplaceEMRequest) { q.Spacing = math.NaN() },
		"negative spacing":    func(q *LaplaceEMRequest) { q.Spacing = -1 },
		"infinite lo":         func(q *LaplaceEMRequest) { q.Lo = math.Inf(-1) },
		"too many draws":      func(q *LaplaceEMRequest) { q.Draws = 1 << 30 },
		"empty range":         func(q *LaplaceEMRequest) { q.Lo, q.Hi, q.Value = 5, 5, 5 },
	} {
		q := ok
		change(&q)
		if _, err := LaplaceFromExponential(q); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// At every corner of the widget's schema (q(x), Δq, ε at their ends, both
// ranges, the line and the finest and coarsest grids, both weights), the
// readout calls the loss more than ε only for a mechanism that is not
// ε-private: never with ε in the weights, and never for the continuous
// mechanism at 2ε on the wide range, which is the Laplace mechanism (there
// the loss is ε itself). The wide range is the one the page asks for.
func TestLaplaceFromExponentialNeverFlagsAPrivateMechanism(t *testing.T) {
	for _, rng := range []string{"wide", "bounded"} {
		for _, q := range []float64{0, 100} {
			for _, dq := range []float64{0.1, 20} {
				for _, eps := range []float64{0.05, 5} {
					for _, h := range []float64{0, 0.1, 10} {
						for _, tight := range []bool{false, true} {
							lo, hi, err := LaplaceEMRange(rng, dq, eps)
							if err != nil {
								t.Fatal(err)
							}
							got, err := LaplaceFromExponential(LaplaceEMRequest{Value: q, Sensitivity: dq, Epsilon: eps, Lo: lo, Hi: hi, Spacing: h, Tight: tight})
							if err != nil {
								t.Fatalf("%s q=%v Δq=%v ε=%v h=%v tight=%v: %v", rng, q, dq, eps, h, tight, err)
							}
							where := fmt.Sprintf("%s q=%v Δq=%v ε=%v h=%v tight=%v: loss %v", rng, q, dq, eps, h, tight, got.Loss)
							laplace := tight && rng == "wide" && h == 0
							if (!tight || laplace) && got.OverEpsilon {
								t.Errorf("%s: an ε-private mechanism flagged as over ε", where)
							}
							if laplace && math.Abs(got.Loss-eps) > 1e-9*eps {
								t.Errorf("%s: the Laplace mechanism's loss is not ε", where)
							}
							if !tight && rng == "wide" && h == 0 && math.Abs(got.Loss-eps/2) > 1e-9*eps {
								t.Errorf("%s: on the whole line in effect the loss is not ε/2", where)
							}
							if got.Lo != lo || got.Hi != hi || !(hi-q >= 22*2*dq/eps+dq || rng == "bounded") {
								t.Errorf("%s: range [%v, %v] reported [%v, %v]", where, lo, hi, got.Lo, got.Hi)
							}
						}
					}
				}
			}
		}
	}
	// A setting where [−1000, 1000] is too narrow to stand for the line.
	lo, hi, _ := LaplaceEMRange("wide", 20, 0.05)
	got, err := LaplaceFromExponential(LaplaceEMRequest{Value: 100, Sensitivity: 20, Epsilon: 0.05, Lo: lo, Hi: hi, Tight: true})
	if err != nil || got.OverEpsilon || math.Abs(got.Loss-0.05) > 1e-12 {
		t.Errorf("Δq = 20, ε = 0.05, q = 100 at 2ε: loss %v on [%v, %v] (over ε: %v), want 0.05; %v", got.Loss, lo, hi, got.OverEpsilon, err)
	}
}
