package selection

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// LaplaceEMRequest describes the exponential mechanism with the
// score u(x, r) = −2·|q(x) − r| on the finite range [Lo, Hi], continuous or
// on a grid of the given Spacing, next to the Laplace mechanism Lap(Δq/ε).
// A range far wider than Δq/ε stands for the whole line.
type LaplaceEMRequest struct {
	Value, Sensitivity, Epsilon float64 // q(x), Δq, ε
	Lo, Hi                      float64 // the output range
	Spacing                     float64 // grid spacing h; 0 for the continuous range
	// Tight runs the exponential mechanism at 2ε: on the whole line that is
	// exactly Lap(Δq/ε) and exactly ε-DP, which the general theorem (it would
	// certify only 2ε) cannot see.
	Tight bool
	Seed  uint64
	Draws int
}

// LaplaceEM is the exponential mechanism beside the Laplace mechanism:
// densities on a common window, a
// histogram of draws as a density, and the privacy the general theorem
// certifies next to the loss the mechanism really has on neighbours.
type LaplaceEM struct {
	Lo, Hi    float64 // the output range
	Run       float64 // the ε the exponential mechanism runs at: ε, or 2ε when tight
	Certified float64 // what the general theorem certifies: Run
	Loss      float64 // the exact privacy loss over the neighbours q(x) ± Δq
	// OverEpsilon says that Loss exceeds ε beyond rounding (relative 1e−9):
	// then the mechanism is not ε-private against these neighbours. It is
	// never so with ε in the weights (the general theorem) or, on the wide
	// range, for the continuous mechanism at 2ε (the Laplace mechanism).
	OverEpsilon bool
	EMScale     float64   // the exponential mechanism's noise scale on the line, 2Δq/Run
	Scale       float64   // the Laplace mechanism's scale, Δq/ε
	X           []float64 // where the densities are evaluated
	EM          []float64 // the exponential mechanism's density (on a grid: probability ÷ h)
	Laplace     []float64 // the Laplace mechanism's density
	Edges       []float64 // histogram bin edges
	Density     []float64 // draws per bin ÷ (draws × bin width)
}

const (
	laplaceEMMaxDraws  = 1_000_000
	laplaceEMCurve     = 241 // points on each density curve
	laplaceEMBins      = 60  // histogram bins on the continuous range
	laplaceEMGridBins  = 121 // up to this many grid points, one bin per point
	laplaceEMHalfWidth = 10  // the window is q ± this many Laplace scales
)

// LaplaceEMRange returns the laplace-from-exponential widget's output range
// called name for sensitivity Δq and ε: "bounded" is [0, 100], and "wide",
// which stands for the whole line, is [−W, W] with
//
//	W = max(1000, 100 + 50·Δq/ε) rounded up to a whole hundred,
//
// so that q(x) ∈ [0, 100] and its neighbours q(x) ± Δq lie at least 22
// noise scales 2Δq/ε of the exponential mechanism at ε (45 of the Laplace
// mechanism's Δq/ε) from either end. The normaliser then moves with q(x) by
// a factor within about 1e−11 of 1, so the exact loss on this range is the
// whole line's, ε_run/2, well within the page's 1e−9; a fixed [−1000, 1000]
// is not, once Δq/ε nears 1000 (Δq = 20, ε = 0.05: loss 0.05125 at 2ε, for a
// mechanism that is the Laplace mechanism, exactly 0.05-private, on the
// line). The range depends on Δq and ε only, never on q(x), so neighbours'
// mechanisms share it.
func LaplaceEMRange(name string, sensitivity, epsilon float64) (lo, hi float64, err error) {
	switch name {
	case "bounded":
		return 0, 100, nil
	case "wide":
		if err := validate.Positive("ε (epsilon)", epsilon); err != nil {
			return 0, 0, err
		}
		if err := validate.Positive("Δq (sensitivity)", sensitivity); err != nil {
			return 0, 0, err
		}
		w := math.Max(1000, 100*math.Ceil(1+0.5*sensitivity/epsilon))
		if math.IsInf(w, 0) {
			return 0, 0, validate.Errorf("Δq/ε", "is too large for a finite range: %v", sensitivity/epsilon)
		}
		return -w, w, nil
	}
	return 0, 0, validate.Errorf("range", "must be wide or bounded, got %q", name)
}

// LaplaceFromExponential computes LaplaceEM for q. The window is
// q ± 10·Δq/ε cut to [Lo, Hi]; on a grid the densities are probability per
// unit length, so that the continuous and the grid versions share one axis.
func LaplaceFromExponential(q LaplaceEMRequest) (LaplaceEM, error) {
	var out LaplaceEM
	if err := validate.Positive("ε (epsilon)", q.Epsilon); err != nil {
		return out, err
	}
	if err := validate.Positive("Δq (sensitivity)", q.Sensitivity); err != nil {
		return out, err
	}
	if q.Draws < 0 || q.Draws > laplaceEMMaxDraws {
		return out, validate.Errorf("draws", "must be between 0 and %d, got %d", laplaceEMMaxDraws, q.Draws)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"lo", q.Lo}, {"hi", q.Hi}} {
		if err := validate.Finite(v.name, v.x); err != nil {
			return out, err
		}
	}
	if !(q.Value >= q.Lo && q.Value <= q.Hi) {
		return out, validate.Errorf("q(x)", "must lie in the range [%v, %v], got %v", q.Lo, q.Hi, q.Value)
	}
	if q.Spacing < 0 || math.IsNaN(q.Spacing) {
		return out, validate.Errorf("grid spacing", "must be 0 (continuous) or positive, got %v", q.Spacing)
	}
	run := q.Epsilon
	if q.Tight {
		run = 2 * q.Epsilon
	}
	lap, err := mech.NewLaplace(q.Value, q.Sensitivity, q.Epsilon)
	if err != nil {
		return out, err
	}
	out = LaplaceEM{Lo: q.Lo, Hi: q.Hi, Run: run, Certified: run, EMScale: 2 * q.Sensitivity / run, Scale: lap.Scale()}
	half := laplaceEMHalfWidth * lap.Scale()
	wlo, whi := math.Max(q.Lo, q.Value-half), math.Min(q.Hi, q.Value+half)
	if !(whi > wlo) {
		return LaplaceEM{}, validate.Errorf("range", "needs lo < hi, got [%v, %v]", q.Lo, q.Hi)
	}
	out.X = make([]float64, laplaceEMCurve)
	out.Laplace = make([]float64, laplaceEMCurve)
	for i := range out.X {
		x := wlo + (whi-wlo)*float64(i)/(laplaceEMCurve-1)
		out.X[i], out.Laplace[i] = x, lap.Density(x)
	}
	r := rng.Seeded(q.Seed)
	if q.Spacing == 0 {
		err = out.continuous(q, run, wlo, whi, r)
	} else {
		err = out.grid(q, run, wlo, whi, r)
	}
	if err != nil {
		return LaplaceEM{}, err
	}
	out.OverEpsilon = out.Loss > q.Epsilon*(1+1e-9)
	return out, nil
}

func (out *LaplaceEM) continuous(q LaplaceEMRequest, run, wlo, whi float64, r *mrand.Rand) error {
	m, err := mech.NewLaplaceAsExponential(q.Value, q.Sensitivity, run, q.Lo, q.Hi)
	if err != nil {
		return err
	}
	out.EM = make([]float64, len(out.X))
	for i, x := range out.X {
		out.EM[i] = m.Density(x)
	}
	// The loss over the neighbours q ± Δq: ln p_q(r) − ln p_q′(r) is
	// piecewise linear in r with kinks at q and q′, so its extremes over
	// [lo, hi] lie at those kinks or at the ends.
	for _, other := range neighboursOf(q) {
		n, err := mech.NewLaplaceAsExponential(other, q.Sensitivity, run, q.Lo, q.Hi)
		if err != nil {
			return err
		}
		for _, x := range []float64{q.Lo, q.Hi, q.Value, other} {
			out.Loss = math.Max(out.Loss, math.Abs(m.LogDensity(x)-n.LogDensity(x)))
		}
	}
	out.Edges = make([]float64, laplaceEMBins+1)
	for i := range out.Edges {
		out.Edges[i] = wlo + (whi-wlo)*float64(i)/laplaceEMBins
	}
	counts := make([]float64, laplaceEMBins)
	width := (whi - wlo) / laplaceEMBins
	for i := 0; i < q.Draws; i++ {
		if x := m.Sample(r); x >= wlo && x < whi {
			counts[min(int((x-wlo)/width), laplaceEMBins-1)]++
		}
	}
	out.Density = densities(counts, q.Draws, out.Edges)
	return nil
}

func (out *LaplaceEM) grid(q LaplaceEMRequest, run, wlo, whi float64, r *mrand.Rand) error {
	points, m, err := mech.LaplaceOnGrid(q.Value, q.Sensitivity, run, q.Lo, q.Hi, q.Spacing)
	if err != nil {
		return err
	}
	p := m.Probabilities()
	// The density of a grid mechanism is its probability spread over the
	// spacing around each point: a step function, evaluated at the curve's x.
	out.EM = make([]float64, len(out.X))
	for i, x := range out.X {
		k := int(math.Round((x - q.Lo) / q.Spacing))
		if k >= 0 && k < len(points) {
			out.EM[i] = p[k] / q.Spacing
		}
	}
	for _, other := range neighboursOf(q) {
		_, n, err := mech.LaplaceOnGrid(other, q.Sensitivity, run, q.Lo, q.Hi, q.Spacing)
		if err != nil {
			return err
		}
		l, err := mech.PrivacyLoss(m, n)
		if err != nil {
			return err
		}
		out.Loss = math.Max(out.Loss, l)
	}
	// Bins of whole grid points, edges half a spacing either side: one
	// point a bin when they are few enough to see, otherwise the same number
	// of consecutive points in every bin, so that no bar is taller only
	// because its bin happens to hold one more point.
	first := int(math.Ceil((wlo - q.Lo) / q.Spacing))
	last := int(math.Floor((whi - q.Lo) / q.Spacing))
	last = min(last, len(points)-1)
	counts := make([]int, len(points))
	for i := 0; i < q.Draws; i++ {
		counts[m.Sample(r)]++
	}
	if first > last {
		return validate.Errorf("range", "leaves no grid point in view around q(x) = %v", q.Value)
	}
	// The points left over past the last whole bin fall outside the view,
	// so every bin has the same width.
	per := (last - first + laplaceEMGridBins) / laplaceEMGridBins
	last = first + (last-first+1)/per*per - 1
	out.Edges = []float64{points[first] - q.Spacing/2}
	var c []float64
	for k := first; k <= last; k += per {
		end := min(k+per-1, last)
		sum := 0
		for _, n := range counts[k : end+1] {
			sum += n
		}
		c = append(c, float64(sum))
		out.Edges = append(out.Edges, points[end]+q.Spacing/2)
	}
	out.Density = densities(c, q.Draws, out.Edges)
	return nil
}

// neighboursOf returns the query values one person away, q(x) ± Δq, that
// lie in the range.
func neighboursOf(q LaplaceEMRequest) []float64 {
	var out []float64
	for _, v := range []float64{q.Value - q.Sensitivity, q.Value + q.Sensitivity} {
		if v >= q.Lo && v <= q.Hi {
			out = append(out, v)
		}
	}
	return out
}

// densities turns counts per bin into a density: count ÷ (n × width).
func densities(counts []float64, n int, edges []float64) []float64 {
	out := make([]float64, len(counts))
	if n == 0 {
		return out
	}
	for i, c := range counts {
		out[i] = c / (float64(n) * (edges[i+1] - edges[i]))
	}
	return out
}
