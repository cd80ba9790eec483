package pair

import (
	"math"
	"sort"
	"testing"

	"github.com/dpplay/dpplay/core/internal/reference"
	"github.com/dpplay/dpplay/core/numeric"
)

// The computations in this file are written apart from the package's:
// plain float64 probabilities, the Laplace functions of
// core/internal/reference, adaptive Gauss–Kronrod quadrature
// (core/numeric.Integrate) over a wide finite range split at every kink,
// and grids for suprema. They share no code with product.go, svt.go or
// noisymax.go.

// quad integrates f over [lo, hi], split at the given kinks.
func quad(t *testing.T, f func(float64) float64, lo, hi float64, kinks []float64) float64 {
	t.Helper()
	pts := []float64{lo}
	for _, k := range kinks {
		if k > lo && k < hi {
			pts = append(pts, k)
		}
	}
	pts = append(pts, hi)
	sort.Float64s(pts)
	total := 0.0
	for i := 0; i+1 < len(pts); i++ {
		if pts[i+1] <= pts[i] {
			continue
		}
		v, err := numeric.Integrate(f, pts[i], pts[i+1], 1e-15)
		if err != nil {
			t.Fatalf("quadrature on [%v, %v]: %v", pts[i], pts[i+1], err)
		}
		total += v
	}
	return total
}

// bruteSVTPattern returns Pr[pattern | x] by quadrature over the threshold
// noise of the comparison probabilities, segment by segment.
func bruteSVTPattern(t *testing.T, m SVT, x []float64, pattern string) float64 {
	t.Helper()
	var segs [][2]int
	start := 0
	for i := range pattern {
		if m.Resample && pattern[i] == 'T' {
			segs = append(segs, [2]int{start, i + 1})
			start = i + 1
		}
	}
	if start < len(pattern) || len(segs) == 0 {
		segs = append(segs, [2]int{start, len(pattern)})
	}
	p := 1.0
	for _, sg := range segs {
		if sg[0] == sg[1] {
			continue
		}
		f := func(r float64) float64 {
			v := reference.LaplacePDF(r, m.ThresholdScale)
			for i := sg[0]; i < sg[1]; i++ {
				// Pr[xᵢ + ν ≥ T + r] = Pr[ν ≥ r − (xᵢ − T)]
				var above float64
				if m.QueryScale == 0 {
					if x[i] >= m.Threshold+r {
						above = 1
					}
				} else {
					above = 1 - reference.LaplaceCDF(r-(x[i]-m.Threshold), m.QueryScale)
				}
				if pattern[i] == 'T' {
					v *= above
				} else {
					v *= 1 - above
				}
			}
			return v
		}
		kinks := []float64{0}
		for i := sg[0]; i < sg[1]; i++ {
			kinks = append(kinks, x[i]-m.Threshold)
		}
		w := 80 * math.Max(m.ThresholdScale, m.QueryScale)
		p *= quad(t, f, -w, w, kinks)
	}
	return p
}

// bruteSVTLoss is the loss over patterns, by quadrature: the largest
// ln p − ln q and the largest ln q − ln p.
func bruteSVTLoss(t *testing.T, m SVT, x, y []float64) (up, down float64) {
	t.Helper()
	patterns, err := m.Patterns(len(x))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range patterns {
		a, b := bruteSVTPattern(t, m, x, p), bruteSVTPattern(t, m, y, p)
		switch {
		case a == 0 && b == 0:
		case b == 0:
			up = math.Inf(1)
		case a == 0:
			down = math.Inf(1)
		default:
			up, down = math.Max(up, math.Log(a/b)), math.Max(down, math.Log(b/a))
		}
	}
	return up, down
}

// bruteFreshLoss is the loss of an SVT that releases a fresh Lap(b) answer
// for each ⊤ query (b = m.ReleaseScale), by quadrature: for each pattern,
// the bare pattern's log-ratio plus the released answers' Laplace part
// Σ_⊤ |xᵢ − yᵢ|/b; the largest ln p − ln q and the largest ln q − ln p.
func bruteFreshLoss(t *testing.T, m SVT, x, y []float64) (up, down float64) {
	t.Helper()
	bare := m
	bare.Release = ReleaseNothing
	patterns, _ := m.Patterns(len(x))
	for _, p := range patterns {
		a, b := bruteSVTPattern(t, bare, x, p), bruteSVTPattern(t, bare, y, p)
		spread := 0.0
		for i := range p {
			if p[i] == 'T' {
				spread += math.Abs(x[i]-y[i]) / m.ReleaseScale
			}
		}
		up, down = math.Max(up, math.Log(a/b)+spread), math.Max(down, math.Log(b/a)+spread)
	}
	return up, down
}

// bruteNoisyLoss is the loss of an SVT releasing the compared noisy answer
// (one threshold, cutoff 1 or 2), by grids over the released values: the
// density of a pattern with ⊤ answers A released as v is
// ∏_A f_ν(vⱼ − xⱼ)·H(min v − T), H(u) = ∫_{−∞}^u f_ρ(r) ∏_{⊥} Pr[xᵢ + ν < T + r] dr,
// with H by quadrature on the grid of its upper end. A grid gives lower
// bounds on the suprema.
func bruteNoisyLoss(t *testing.T, m SVT, x, y []float64) (up, down float64) {
	t.Helper()
	if m.Cutoff < 1 || m.Cutoff > 2 || m.Resample {
		t.Fatal("bruteNoisyLoss needs cutoff 1 or 2 and one threshold")
	}
	w := 60 * math.Max(m.ThresholdScale, m.QueryScale)
	lo, hi := m.Threshold, m.Threshold
	for i := range x {
		lo, hi = math.Min(lo, math.Min(x[i], y[i])), math.Max(hi, math.Max(x[i], y[i]))
	}
	// Released values: steps of 0.05 near the answers and the threshold,
	// doubling steps far away.
	var grid []float64
	for d := w; d >= 1; d /= 2 {
		grid = append(grid, lo-5-d)
	}
	for v := lo - 5; v <= hi+5; v += 0.05 {
		grid = append(grid, v)
	}
	for d := 1.0; d <= w; d *= 2 {
		grid = append(grid, hi+5+d)
	}
	bare := SVT{Threshold: m.Threshold, ThresholdScale: m.ThresholdScale, QueryScale: m.QueryScale, Cutoff: m.Cutoff}
	patterns, err := bare.Patterns(len(x))
	if err != nil {
		t.Fatal(err)
	}
	fold := func(lx, ly float64) {
		up, down = math.Max(up, lx-ly), math.Max(down, ly-lx)
	}
	for _, p := range patterns {
		var tops, belows []int
		for i := range p {
			if p[i] == 'T' {
				tops = append(tops, i)
			} else {
				belows = append(belows, i)
			}
		}
		if len(tops) == 0 {
			fold(math.Log(bruteSVTPattern(t, bare, x, p)), math.Log(bruteSVTPattern(t, bare, y, p)))
			continue
		}
		cum := func(v []float64) []float64 {
			f := func(r float64) float64 {
				g := reference.LaplacePDF(r, m.ThresholdScale)
				for _, i := range belows {
					g *= reference.LaplaceCDF(r-(v[i]-m.Threshold), m.QueryScale)
				}
				return g
			}
			out := make([]float64, len(grid))
			prev, acc := -4*w, 0.0
			for k, g := range grid {
				acc += quad(t, f, prev, g-m.Threshold, nil)
				prev = g - m.Threshold
				out[k] = acc
			}
			return out
		}
		hx, hy := cum(x), cum(y)
		// The log-densities on the grid, each computed once: the double
		// loop below adds them for every pair of released values.
		logs := func(v []float64) []float64 {
			out := make([]float64, len(v))
			for k := range v {
				out[k] = math.Log(v[k])
			}
			return out
		}
		lf := func(a float64) []float64 {
			out := make([]float64, len(grid))
			for k, v := range grid {
				out[k] = math.Log(reference.LaplacePDF(v-a, m.QueryScale))
			}
			return out
		}
		lhx, lhy := logs(hx), logs(hy)
		if len(tops) == 1 {
			j := tops[0]
			fx, fy := lf(x[j]), lf(y[j])
			for k := range grid {
				fold(fx[k]+lhx[k], fy[k]+lhy[k])
			}
			continue
		}
		j1, j2 := tops[0], tops[1]
		fx1, fx2, fy1, fy2 := lf(x[j1]), lf(x[j2]), lf(y[j1]), lf(y[j2])
		for k1 := range grid {
			for k2 := range grid {
				k := min(k1, k2)
				fold(fx1[k1]+fx2[k2]+lhx[k], fy1[k1]+fy2[k2]+lhy[k])
			}
		}
	}
	return up, down
}

// bruteMaxValueLoss is the loss of report noisy max with Lap(b) noise
// releasing the largest noisy answer, by a grid over it with the density
// Σᵢ fᵢ ∏_{j≠i} Fⱼ in plain float64, plus the limit far right.
func bruteMaxValueLoss(x, y []float64, b float64) float64 {
	dens := func(v []float64, t float64) float64 {
		s := 0.0
		for i := range v {
			p := reference.LaplacePDF(t-v[i], b)
			for j := range v {
				if j != i {
					p *= reference.LaplaceCDF(t-v[j], b)
				}
			}
			s += p
		}
		return s
	}
	worst := 0.0
	for k := -20000; k <= 20000; k++ {
		t := float64(k) / 200 * b / 20
		worst = math.Max(worst, math.Abs(math.Log(dens(x, t))-math.Log(dens(y, t))))
	}
	sx, sy := 0.0, 0.0
	for i := range x {
		sx += math.Exp(x[i] / b)
		sy += math.Exp(y[i] / b)
	}
	return math.Max(worst, math.Abs(math.Log(sx)-math.Log(sy)))
}

// bruteLaplaceVectorLoss: the log density ratio of independent Laplace
// coordinates is a sum of one-dimensional terms; each term's extremes are
// found on a grid, and the loss is the larger of the summed maxima and the
// summed minima (negated).
func bruteLaplaceVectorLoss(x, y []float64, b float64, copies int) (up, down float64) {
	for i := range x {
		hi, lo := math.Inf(-1), math.Inf(1)
		for k := -4000; k <= 4000; k++ {
			o := float64(k) / 100
			g := math.Log(reference.LaplacePDF(o-x[i], b)) - math.Log(reference.LaplacePDF(o-y[i], b))
			hi, lo = math.Max(hi, g), math.Min(lo, g)
		}
		up += float64(copies) * hi
		down -= float64(copies) * lo
	}
	return up, down
}
