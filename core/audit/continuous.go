package audit

import (
	"math"
	"sort"
	"strconv"
)

// continuousLoss returns the supremum over outputs of |ln f(o|x) − ln f(o|x′)|
// for the mechanisms with a continuous output, given both data sets'
// values u, v and sensitivities du, dv.
func continuousLoss(name string, eps float64, u, v []float64, du, dv float64) (float64, Worst) {
	if du != dv {
		// Noise of two different scales: the densities' tails decay at
		// different rates, so their ratio grows without bound.
		return math.Inf(1), Worst{Output: -1, LogPData: math.NaN(), LogPNeighbour: math.NaN(),
			Description: "far in the tail: the noise scale Δ/ε differs between the neighbours (Δ = " +
				ftoa(du) + " and " + ftoa(dv) + "), so the density ratio grows without bound"}
	}
	b := du / eps
	switch name {
	case NameLaplace:
		return laplaceLoss(b, u, v)
	case NameGaussian:
		return gaussianLoss(b, u, v)
	}
	return valueLoss(b, u, v)
}

// laplaceLoss: with o = u(x) + Lap(b)ᵏ, ln f(o|x) − ln f(o|x′) =
// Σᵣ (|oᵣ − vᵣ| − |oᵣ − uᵣ|)/b, at most Σᵣ |uᵣ − vᵣ|/b by the triangle
// inequality, with equality at o = u. So the loss is exactly ε·‖u − v‖₁/Δ.
func laplaceLoss(b float64, u, v []float64) (float64, Worst) {
	l1 := 0.0
	for r := range u {
		l1 += math.Abs(u[r] - v[r])
	}
	lf := -float64(len(u)) * math.Log(2*b)
	loss := l1 / b
	return loss, Worst{Output: -1, Point: append([]float64(nil), u...), LogPData: lf, LogPNeighbour: lf - loss,
		Description: "the output equal to the data set's true values"}
}

// gaussianLoss: ln f(o|x) − ln f(o|x′) = Σᵣ ((oᵣ − vᵣ)² − (oᵣ − uᵣ)²)/(2σ²) is
// linear in o with slope (uᵣ − vᵣ)/σ², unbounded unless u = v.
func gaussianLoss(sigma float64, u, v []float64) (float64, Worst) {
	for r := range u {
		if u[r] != v[r] {
			return math.Inf(1), Worst{Output: -1, LogPData: math.NaN(), LogPNeighbour: math.NaN(),
				Description: "far in the tail of value " + itoa(r) + ": the log-ratio of two Gaussians with different means is linear in the output, so it grows without bound"}
		}
	}
	lf := -float64(len(u)) * math.Log(sigma*math.Sqrt(2*math.Pi))
	return 0, Worst{Output: -1, Point: append([]float64(nil), u...), LogPData: lf, LogPNeighbour: lf,
		Description: "every output: the two distributions are equal"}
}

// lapLogPDF and lapLogCDF are ln f and ln F of Lap(b) at z.
func lapLogPDF(z, b float64) float64 { return -math.Abs(z)/b - math.Log(2*b) }

func lapLogCDF(z, b float64) float64 {
	if z < 0 {
		return z/b - math.Ln2
	}
	return math.Log1p(-0.5 * math.Exp(-z/b))
}

// valueLog returns ln f(i, t) for report noisy max with Lap(b) noise that
// releases the winner i and its noisy score t:
// f(i, t) = f_b(t − uᵢ)·∏_{j≠i} F_b(t − uⱼ).
func valueLog(i int, t, b float64, u []float64) float64 {
	l := lapLogPDF(t-u[i], b)
	for j, uj := range u {
		if j != i {
			l += lapLogCDF(t-uj, b)
		}
	}
	return l
}

// valueLoss returns sup over (i, t) of |ln f_x(i,t) − ln f_x′(i,t)| for
// report noisy max that releases the noisy maximum's value. The log-ratio
// gᵢ(t) is constant, Σⱼ (vⱼ − uⱼ)/b, left of every score (every term is in
// the Laplace's exponential left tail); it tends to (uᵢ − vᵢ)/b as t → +∞;
// in between it is smooth between the breakpoints {uⱼ, vⱼ}. The supremum is
// the larger of the two limits and the interior maxima, found by sampling
// each piece and refining the best sample by golden-section search to a
// width of 1e-12·b.
func valueLoss(b float64, u, v []float64) (float64, Worst) {
	bps := append(append([]float64(nil), u...), v...)
	sort.Float64s(bps)
	lo, hi := bps[0]-b, bps[len(bps)-1]+40*b
	grid := []float64{lo}
	for _, p := range bps {
		if p > grid[len(grid)-1] {
			grid = append(grid, p)
		}
	}
	grid = append(grid, hi)
	best, bestI, bestT, limit := -1.0, 0, lo, ""
	for i := range u {
		g := func(t float64) float64 { return math.Abs(valueLog(i, t, b, u) - valueLog(i, t, b, v)) }
		if r := math.Abs(u[i]-v[i]) / b; r > best {
			best, bestI, bestT, limit = r, i, hi, "as the released value tends to +∞"
		}
		for s := 0; s+1 < len(grid); s++ {
			const samples = 16
			a, c := grid[s], grid[s+1]
			h := (c - a) / samples
			for q := 0; q <= samples; q++ {
				t := a + float64(q)*h
				if q == samples {
					t = c
				}
				if val := g(t); val > best {
					best, bestI, bestT, limit = val, i, t, ""
				}
			}
			// Refine around the best sample of this piece.
			bq, bv := 0, -1.0
			for q := 0; q <= samples; q++ {
				if val := g(a + float64(q)*h); val > bv {
					bq, bv = q, val
				}
			}
			l, r := math.Max(a, a+float64(bq-1)*h), math.Min(c, a+float64(bq+1)*h)
			if t, val := goldenMax(g, l, r, 1e-12*b); val > best {
				best, bestI, bestT, limit = val, i, t, ""
			}
		}
	}
	w := Worst{Output: bestI, Point: []float64{bestT}, LogPData: valueLog(bestI, bestT, b, u), LogPNeighbour: valueLog(bestI, bestT, b, v),
		Description: "candidate " + itoa(bestI) + " wins with noisy score " + ftoa(bestT)}
	if limit != "" {
		w.Description = "candidate " + itoa(bestI) + " wins, " + limit
	}
	return best, w
}

// goldenMax maximises a unimodal f on [a, c] to width tol.
func goldenMax(f func(float64) float64, a, c, tol float64) (float64, float64) {
	const phi = 0.6180339887498949
	x1, x2 := c-phi*(c-a), a+phi*(c-a)
	f1, f2 := f(x1), f(x2)
	for i := 0; i < 200 && c-a > tol; i++ {
		if f1 < f2 {
			a, x1, f1 = x1, x2, f2
			x2 = a + phi*(c-a)
			f2 = f(x2)
		} else {
			c, x2, f2 = x2, x1, f1
			x1 = c - phi*(c-a)
			f1 = f(x1)
		}
	}
	if f1 > f2 {
		return x1, f1
	}
	return x2, f2
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
