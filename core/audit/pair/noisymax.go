package pair

import (
	"math"
	"strconv"

	"github.com/dpplay/dpplay/core/validate"
)

// Noise names the noise report noisy max adds.
type Noise uint8

const (
	Laplace     Noise = iota // Lap(Scale)
	Exponential              // Exp(Scale), one-sided
)

// MaxCandidates bounds the answers report noisy max compares.
const MaxCandidates = 64

// NoisyMax is report noisy max: it adds independent noise of the given
// scale to every answer and publishes the index of the largest noisy
// answer, or with Value the largest noisy answer itself (not its index).
//
// The index has probability Pr[i] = ∫ fᵢ(t) ∏_{j≠i} Fⱼ(t) dt, computed in
// closed form as a product integral. The value has density
// f_M(t) = G(t)·R(t), with G = ∏ⱼ Fⱼ and R = Σᵢ rᵢ, rᵢ = fᵢ/Fᵢ. For Laplace
// noise of scale b each rᵢ is 1/b left of its answer and falls right of it
// (ln rᵢ has slope in [−2/b, 0], and rᵢ″/rᵢ ≤ 6/b²), so ln f_M = ln G + ln R
// has slope in [−2/b, n/b] and, between answers, second derivative in
// [−(2n+4)/b², 6/b²]. The log-ratio of two such densities is therefore
// Lipschitz with a bounded curvature, constant left of every answer and
// converging right of them, and supSearch finds its supremum to within
// SupTolerance. For exponential noise the density is 0 below the largest
// answer: two inputs whose largest answers differ, or are shared by
// different numbers of entries, have an output possible under one only.
type NoisyMax struct {
	Noise Noise
	Scale float64
	Value bool
}

// Loss returns the privacy loss of report noisy max on the answers (x, y).
func (m NoisyMax) Loss(x, y []float64) (Loss, error) {
	if err := validate.Positive("noise scale", m.Scale); err != nil {
		return Loss{}, err
	}
	if m.Noise != Laplace && m.Noise != Exponential {
		return Loss{}, validate.Errorf("noise", "unknown noise %d", m.Noise)
	}
	if err := checkPair(x, y, 1, MaxCandidates); err != nil {
		return Loss{}, err
	}
	if m.Value {
		if m.Noise == Exponential {
			return m.exponentialValueLoss(x, y)
		}
		return m.laplaceValueLoss(x, y)
	}
	lp, ep, err := m.LogProbabilities(x)
	if err != nil {
		return Loss{}, err
	}
	lq, eq, err := m.LogProbabilities(y)
	if err != nil {
		return Loss{}, err
	}
	return discreteLoss(lp, lq, math.Max(ep, eq), func(i int) string { return "index " + strconv.Itoa(i) },
		"every index's probability in closed form (integral of a density times distribution functions)"), nil
}

func (m NoisyMax) noise() noise {
	if m.Noise == Exponential {
		return exponential
	}
	return laplace
}

// LogProbabilities returns ln Pr[index i] for the answers x and a bound on
// their relative rounding error.
func (m NoisyMax) LogProbabilities(x []float64) ([]float64, float64, error) {
	if err := checkPair(x, x, 1, MaxCandidates); err != nil {
		return nil, 0, err
	}
	out := make([]float64, len(x))
	relErr := 0.0
	for i := range x {
		fs := []factor{{part: density, noise: m.noise(), at: x[i], scale: m.Scale}}
		for j := range x {
			if j != i {
				fs = append(fs, factor{part: cdf, noise: m.noise(), at: x[j], scale: m.Scale})
			}
		}
		p, err := newProduct(fs, math.Inf(-1), math.Inf(1))
		if err != nil {
			return nil, 0, err
		}
		out[i], relErr = p.cum[len(p.cum)-1], math.Max(relErr, p.relErr)
	}
	return out, relErr, nil
}

// lapLogCDF and lapLogPDF are ln F and ln f of Lap(b) at z.
func lapLogCDF(z, b float64) float64 {
	if z < 0 {
		return z/b - math.Ln2
	}
	return math.Log1p(-0.5 * math.Exp(-z/b))
}

func lapLogPDF(z, b float64) float64 { return -math.Abs(z)/b - math.Log(2*b) }

// logMaxDensity returns ln f_M(t) for Laplace noise: the log of
// Σᵢ fᵢ(t) ∏_{j≠i} Fⱼ(t).
func logMaxDensity(x []float64, t, b float64) float64 {
	all := 0.0
	for _, xj := range x {
		all += lapLogCDF(t-xj, b)
	}
	s := math.Inf(-1)
	for _, xi := range x {
		s = logAdd(s, all-lapLogCDF(t-xi, b)+lapLogPDF(t-xi, b))
	}
	return s
}

func (m NoisyMax) laplaceValueLoss(x, y []float64) (Loss, error) {
	b := m.Scale
	kinks := append(append([]float64(nil), x...), y...)
	lo, hi := kinks[0], kinks[0]
	for _, k := range kinks {
		lo, hi = math.Min(lo, k), math.Max(hi, k)
	}
	// Right of every answer Fⱼ = 1 − εⱼ with εⱼ = ½e^{−(t−xⱼ)/b}, so ln f_M
	// is within −Σ ln(1 − εⱼ) of its tail ln Σ fᵢ, whose ratio is constant.
	tail := func(t float64) float64 {
		d := 0.0
		for _, v := range kinks {
			d -= math.Log1p(-0.5 * math.Exp(-(t-v)/b))
		}
		return d
	}
	upper := hi + b
	for tail(upper) > SupTolerance/8 {
		upper += 4 * b
	}
	lim := 0.0
	{
		sx, sy := math.Inf(-1), math.Inf(-1)
		for i := range x {
			sx, sy = logAdd(sx, x[i]/b), logAdd(sy, y[i]/b)
		}
		lim = sx - sy
	}
	// ln f_M has slope in [−2/b, n/b] and, between answers, second
	// derivative in [−(2n+4)/b², 6/b²] (see NoisyMax).
	n := float64(len(x))
	lip := (n + 2) / b
	curv := (2*n + 10) / (b * b)
	l := Loss{Method: "the supremum over the released maximum of the density ratio, by a branch-and-bound search with certified error"}
	for _, sign := range []float64{1, -1} {
		g := func(t float64) float64 { return sign * (logMaxDensity(x, t, b) - logMaxDensity(y, t, b)) }
		// Right of every answer f_M(t) = e^{−t/b}·A(t) with A increasing, so
		// over [u, v] the ratio is at most A_x(v)/A_y(u) (sign +).
		beyond := func(u, v float64) float64 {
			if u < hi {
				return math.Inf(1)
			}
			if sign > 0 {
				return logMaxDensity(x, v, b) - logMaxDensity(y, u, b) + (v-u)/b
			}
			return logMaxDensity(y, v, b) - logMaxDensity(x, u, b) + (v-u)/b
		}
		at, best, gap := supSearch(g, lo, upper, lip, func(_, _ float64) float64 { return curv }, SupTolerance/2, sign*lim, kinks, beyond)
		out := Output{Text: "maximum " + ftoa(at), LogP: logMaxDensity(x, at, b), LogQ: logMaxDensity(y, at, b)}
		if sign*lim > best {
			best, out = sign*lim, Output{Text: "a maximum far above every answer", LogP: math.NaN(), LogQ: math.NaN(), Limit: true}
		}
		if sign > 0 {
			l.Up, l.UpAt = best, out
		} else {
			l.Down, l.DownAt = best, out
		}
		l.Err = math.Max(l.Err, gap+2*tail(upper)+1e-14*math.Abs(best))
	}
	return l, nil
}

// exponentialValueLoss: with exponential noise the maximum is at least the
// largest answer, and near it its density behaves as (t − max)^(k−1) with k
// the number of answers equal to the largest.
func (m NoisyMax) exponentialValueLoss(x, y []float64) (Loss, error) {
	top := func(v []float64) (float64, int) {
		t, k := v[0], 0
		for _, a := range v {
			t = math.Max(t, a)
		}
		for _, a := range v {
			if a == t {
				k++
			}
		}
		return t, k
	}
	tx, kx := top(x)
	ty, ky := top(y)
	l := Loss{Method: "supports compared: the released maximum is never below the largest answer"}
	switch {
	case tx < ty:
		mid := tx + (ty-tx)/2
		l.Up, l.Down = math.Inf(1), 0
		l.UpAt = Output{Text: "maximum " + ftoa(mid) + ", below every value possible under the second input",
			LogP: m.expLogMaxDensity(x, mid), LogQ: math.Inf(-1)}
		return l, nil
	case ty < tx:
		mid := ty + (tx-ty)/2
		l.Down, l.Up = math.Inf(1), 0
		l.DownAt = Output{Text: "maximum " + ftoa(mid) + ", below every value possible under the first input",
			LogP: math.Inf(-1), LogQ: m.expLogMaxDensity(y, mid)}
		return l, nil
	case kx != ky:
		if kx < ky {
			l.Up = math.Inf(1)
			l.UpAt = Output{Text: "a maximum just above " + ftoa(tx) + ", whose density falls to 0 faster under the second input", LogP: math.NaN(), LogQ: math.NaN(), Limit: true}
		} else {
			l.Down = math.Inf(1)
			l.DownAt = Output{Text: "a maximum just above " + ftoa(tx) + ", whose density falls to 0 faster under the first input", LogP: math.NaN(), LogQ: math.NaN(), Limit: true}
		}
		return l, nil
	}
	return Loss{}, validate.Errorf("mechanism", "the exact loss of report noisy max releasing the value with exponential noise is only computed when the two supports differ")
}

// expLogMaxDensity returns ln f_M(t) for exponential noise at t ≥ every
// answer: ln Σᵢ fᵢ(t) ∏_{j≠i} Fⱼ(t), with Fⱼ(t) = 1 − e^{−(t−xⱼ)/b}.
func (m NoisyMax) expLogMaxDensity(x []float64, t float64) float64 {
	b := m.Scale
	s := math.Inf(-1)
	for i, xi := range x {
		if t < xi {
			return math.Inf(-1)
		}
		l := -(t-xi)/b - math.Log(b)
		for j, xj := range x {
			if j != i {
				l += math.Log(-math.Expm1(-(t - xj) / b))
			}
		}
		s = logAdd(s, l)
	}
	return s
}
