package pair

import (
	"math"
	"sort"
	"strconv"

	"github.com/dpplay/dpplay/core/validate"
)

// A CancelError says that an output's probability is a sum of terms that
// cancel to within their rounding error: its exact value is below what
// float64 arithmetic on those terms can resolve (about 16 significant
// digits), so no loss is reported rather than a wrong one.
type CancelError struct {
	Compared int // the noises the integral compares
}

// Error describes the failure in plain words.
func (e *CancelError) Error() string {
	return "an output's probability is too small to compute exactly: it is a difference of terms that agree in all the 16 digits double precision keeps (" + strconv.Itoa(e.Compared) + " noises compared)"
}

// unitRound is the unit roundoff of float64, 2⁻⁵³.
const unitRound = 1.0 / (1 << 53)

// noise is the distribution added to a value: Laplace or (one-sided)
// exponential.
type noise uint8

const (
	laplace noise = iota
	exponential
)

// part says which function of a noisy value Z = at + N a factor is.
type part uint8

const (
	density part = iota // the density of Z at r
	cdf                 // Pr[Z ≤ r]
	surv                // Pr[Z > r]
)

// A factor is one function of r in a product integrand: the density, CDF
// or survival function at r of Z = at + N, with N Laplace or exponential
// noise of the given scale.
type factor struct {
	part  part
	noise noise
	at    float64
	scale float64
}

// A piece of a product integral: on [lo, hi] the integrand is, with
// t = r − ref,
//
//	exp(logA + α·t) · Σₖ coef[k+m]·exp(k·t/s),  k = −m … m,
//
// where the sum expands the m "bulk" factors 1 − B·exp(±t/s) (a CDF or
// survival function on its near side); every other factor is a pure
// exponential folded into logA and α. abs holds the expansion of
// ∏ (1 + B·exp(±t/s)), which bounds the sum's terms in absolute value.
type piece struct {
	lo, hi, ref float64
	logA, alpha float64
	coef, abs   []float64
	logTotal    float64 // ln of the integral over the whole piece
	relErr      float64 // bound on its relative rounding error
	zero        bool    // the integrand is 0 on the piece
}

// A product is the integral over r ∈ [lo, hi] of a product of factors,
// exactly one of them a density, the CDF and survival factors all of one
// scale s. Every factor is an exponential or one minus an exponential on
// each side of its point at, so between consecutive points the integrand
// is a finite sum of exponentials, integrated in closed form: no
// quadrature. The terms of the sum can have both signs; each piece keeps a
// bound on the rounding error that their cancellation can cause, at most
// about (2m+16)·2⁻⁵³·3ᵐ relative with m bulk factors (1e-10 for m = 10).
type product struct {
	fs     []factor
	s      float64
	m      int
	pieces []piece
	cum    []float64 // cum[i]: ln of the integral over pieces[:i]
	relErr float64
}

// newProduct prepares the integral of ∏ fs over [lo, hi] (lo may be −Inf,
// hi +Inf).
func newProduct(fs []factor, lo, hi float64) (*product, error) {
	s, dens := 0.0, 0
	for _, f := range fs {
		if err := validate.Positive("noise scale", f.scale); err != nil {
			return nil, err
		}
		if err := validate.Finite("noise location", f.at); err != nil {
			return nil, err
		}
		if f.part == density {
			dens++
			continue
		}
		if s == 0 {
			s = f.scale
		} else if f.scale != s {
			return nil, validate.Errorf("noise scale", "the compared noises must share one scale, got %v and %v", s, f.scale)
		}
	}
	if dens != 1 {
		return nil, validate.Errorf("integrand", "needs exactly one density factor, got %d", dens)
	}
	if s == 0 {
		s = 1 // no bulk factors: any scale will do
	}
	p := &product{fs: fs, s: s}
	for _, f := range fs {
		if f.part != density && !(f.noise == exponential && f.part == surv) {
			p.m++
		}
	}
	if !(lo < hi) {
		p.cum = []float64{math.Inf(-1)}
		return p, nil
	}
	cuts := []float64{lo, hi}
	for _, f := range fs {
		if f.at > lo && f.at < hi {
			cuts = append(cuts, f.at)
		}
	}
	sort.Float64s(cuts)
	if math.IsInf(lo, -1) && math.IsInf(hi, 1) && len(cuts) == 2 {
		cuts = []float64{lo, fs[0].at, hi}
	}
	p.cum = []float64{math.Inf(-1)}
	for i := 0; i+1 < len(cuts); i++ {
		a, b := cuts[i], cuts[i+1]
		if !(a < b) {
			continue
		}
		pc, err := p.piece(fs, a, b)
		if err != nil {
			return nil, err
		}
		p.pieces = append(p.pieces, pc)
		p.cum = append(p.cum, logAdd(p.cum[len(p.cum)-1], pc.logTotal))
		if !pc.zero {
			p.relErr = math.Max(p.relErr, pc.relErr)
		}
	}
	return p, nil
}

// piece expands the integrand on [a, b], which holds no factor's point.
func (p *product) piece(fs []factor, a, b float64) (piece, error) {
	pc := piece{lo: a, hi: b, ref: a}
	if math.IsInf(a, -1) {
		pc.ref = b
	}
	var mid float64
	switch {
	case math.IsInf(a, -1):
		mid = b - 1
	case math.IsInf(b, 1):
		mid = a + 1
	default:
		mid = a + (b-a)/2
	}
	m := p.m
	pc.coef = make([]float64, 2*m+1)
	pc.abs = make([]float64, 2*m+1)
	pc.coef[m], pc.abs[m] = 1, 1
	for _, f := range fs {
		z0 := pc.ref - f.at // the noise's argument at t = 0
		left := mid < f.at
		sc := f.scale
		bulk, bigB, sigma := false, 0.0, 0
		switch {
		case f.part == density && f.noise == laplace:
			if left {
				pc.logA += z0/sc - math.Log(2*sc)
				pc.alpha += 1 / sc
			} else {
				pc.logA += -z0/sc - math.Log(2*sc)
				pc.alpha -= 1 / sc
			}
		case f.part == density: // exponential
			if left {
				pc.zero = true
			} else {
				pc.logA += -z0/sc - math.Log(sc)
				pc.alpha -= 1 / sc
			}
		case f.noise == laplace && f.part == cdf:
			if left {
				pc.logA += z0/sc - math.Ln2
				pc.alpha += 1 / sc
			} else {
				bulk, bigB, sigma = true, 0.5*math.Exp(-z0/sc), -1
			}
		case f.noise == laplace: // survival
			if left {
				bulk, bigB, sigma = true, 0.5*math.Exp(z0/sc), 1
			} else {
				pc.logA += -z0/sc - math.Ln2
				pc.alpha -= 1 / sc
			}
		case f.part == cdf: // exponential
			if left {
				pc.zero = true
			} else {
				bulk, bigB, sigma = true, math.Exp(-z0/sc), -1
			}
		default: // exponential survival
			if !left {
				pc.logA += -z0 / sc
				pc.alpha -= 1 / sc
			}
		}
		if bulk {
			// Multiply the sum by 1 − B·e^{σt/s}: term k takes −B times term
			// k−σ, updated in place in the order that reads old terms only.
			last := len(pc.coef) - 1
			for i := 0; i <= last; i++ {
				k := i
				if sigma > 0 {
					k = last - i
				}
				if j := k - sigma; j >= 0 && j <= last {
					pc.coef[k] -= bigB * pc.coef[j]
					pc.abs[k] += bigB * pc.abs[j]
				}
			}
		}
	}
	if pc.zero {
		pc.logTotal = math.Inf(-1)
		return pc, nil
	}
	t0, t1 := pc.lo-pc.ref, pc.hi-pc.ref
	v, e, err := p.sum(&pc, t0, t1)
	if err != nil {
		return pc, err
	}
	pc.logTotal, pc.relErr = v, e
	return pc, nil
}

// sum returns ln ∫_{t0}^{t1} of the piece's integrand and a bound on its
// relative rounding error.
func (p *product) sum(pc *piece, t0, t1 float64) (float64, float64, error) {
	m := p.m
	logs := make([]float64, 0, 2*m+1)
	signs := make([]float64, 0, 2*m+1)
	absLogs := make([]float64, 0, 2*m+1)
	for k := -m; k <= m; k++ {
		c := pc.coef[k+m]
		if c == 0 && pc.abs[k+m] == 0 {
			continue
		}
		li, err := logExpIntegral(pc.alpha+float64(k)/p.s, t0, t1)
		if err != nil {
			return 0, 0, err
		}
		if math.IsInf(li, -1) {
			continue
		}
		absLogs = append(absLogs, math.Log(pc.abs[k+m])+li)
		if c != 0 {
			logs = append(logs, math.Log(math.Abs(c))+li)
			signs = append(signs, math.Copysign(1, c))
		}
	}
	if len(absLogs) == 0 {
		return math.Inf(-1), 0, nil
	}
	top := math.Inf(-1)
	for _, l := range absLogs {
		top = math.Max(top, l)
	}
	var s, a float64
	for i, l := range logs {
		s += signs[i] * math.Exp(l-top)
	}
	for _, l := range absLogs {
		a += math.Exp(l - top)
	}
	bound := float64(2*m+16) * unitRound * a
	if s <= bound {
		if s <= 0 && a*unitRound*float64(2*m+16) < 1e-300 {
			return math.Inf(-1), 0, nil
		}
		return 0, 0, &CancelError{Compared: m}
	}
	return pc.logA + top + math.Log(s), bound / s, nil
}

// logExpIntegral returns ln ∫_{t0}^{t1} e^{βt} dt; t0 may be −Inf and t1
// +Inf when β makes the integral finite.
func logExpIntegral(beta, t0, t1 float64) (float64, error) {
	if !(t0 < t1) {
		return math.Inf(-1), nil
	}
	switch {
	case math.IsInf(t0, -1) && math.IsInf(t1, 1):
		return 0, validate.Errorf("integral", "diverges over the whole line")
	case math.IsInf(t0, -1):
		if beta <= 0 {
			return 0, validate.Errorf("integral", "diverges at −∞ (rate %v)", beta)
		}
		return beta*t1 - math.Log(beta), nil
	case math.IsInf(t1, 1):
		if beta >= 0 {
			return 0, validate.Errorf("integral", "diverges at +∞ (rate %v)", beta)
		}
		return beta*t0 - math.Log(-beta), nil
	}
	w := t1 - t0
	switch {
	case beta == 0:
		return math.Log(w), nil
	case beta > 0:
		return beta*t1 + math.Log(-math.Expm1(-beta*w)) - math.Log(beta), nil
	default:
		return beta*t0 + math.Log(-math.Expm1(beta*w)) - math.Log(-beta), nil
	}
}

// logTotal returns ln ∫ over [lo, hi] (−Inf when the integrand is 0 there)
// and a bound on its relative rounding error.
func (p *product) logTotal() (float64, float64) { return p.cum[len(p.cum)-1], p.relErr }

// logUpTo returns ln ∫ over [lo, min(u, hi)] and a bound on its relative
// rounding error. It costs O(m) once the product is prepared.
func (p *product) logUpTo(u float64) (float64, float64, error) {
	i := sort.Search(len(p.pieces), func(i int) bool { return p.pieces[i].hi > u })
	if i == len(p.pieces) {
		v, e := p.logTotal()
		return v, e, nil
	}
	pc := &p.pieces[i]
	done, err := p.cum[i], p.relErr
	if u <= pc.lo || pc.zero {
		return done, err, nil
	}
	v, e, serr := p.sum(pc, pc.lo-pc.ref, u-pc.ref)
	if serr != nil {
		return 0, 0, serr
	}
	return logAdd(done, v), math.Max(err, e), nil
}

// logAdd returns ln(eᵃ + eᵇ).
func logAdd(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// logAt returns ln g(r) of the integrand and its derivative in r (from the
// right of r when right is set, else from the left).
func (p *product) logAt(r float64, right bool) (logg, slope float64) {
	for _, f := range p.fs {
		z, sc := r-f.at, f.scale
		neg := z < 0 || (z == 0 && !right) // on the left side of the point
		var l, d float64
		switch {
		case f.part == density && f.noise == laplace:
			l = -math.Abs(z)/sc - math.Log(2*sc)
			if d = -1 / sc; neg {
				d = 1 / sc
			}
		case f.part == density:
			if l, d = -z/sc-math.Log(sc), -1/sc; neg {
				l = math.Inf(-1)
			}
		case f.noise == laplace && f.part == cdf:
			if neg {
				l, d = z/sc-math.Ln2, 1/sc
			} else {
				e := 0.5 * math.Exp(-z/sc)
				l, d = math.Log1p(-e), e/sc/(1-e)
			}
		case f.noise == laplace:
			if neg {
				e := 0.5 * math.Exp(z/sc)
				l, d = math.Log1p(-e), -e/sc/(1-e)
			} else {
				l, d = -z/sc-math.Ln2, -1/sc
			}
		case f.part == cdf:
			if neg {
				l = math.Inf(-1)
			} else {
				e := math.Exp(-z / sc)
				l, d = math.Log(-math.Expm1(-z/sc)), e/sc/(1-e)
			}
		default:
			if !neg {
				l, d = -z/sc, -1/sc
			}
		}
		logg += l
		slope += d
	}
	return logg, slope
}
