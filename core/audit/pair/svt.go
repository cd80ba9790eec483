package pair

import (
	"math"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// Release says what the sparse vector technique publishes for a query it
// finds above the threshold.
type Release uint8

const (
	// ReleaseNothing publishes ⊤ only.
	ReleaseNothing Release = iota
	// ReleaseNoisy publishes the noisy answer xᵢ + νᵢ that was compared
	// with the threshold (Lyu, Su and Li's Algorithm 3).
	ReleaseNoisy
	// ReleaseFresh publishes xᵢ + Lap(ReleaseScale), with noise drawn apart
	// from the comparison (the numerical sparse vector technique).
	ReleaseFresh
)

// Limits of one sparse vector computation.
const (
	MaxQueries  = 40
	MaxPatterns = 20000
)

// SVT is the sparse vector technique and its published variants. It draws
// a noisy threshold T + ρ, ρ ~ Lap(ThresholdScale); for each query answer
// xᵢ in turn it draws νᵢ ~ Lap(QueryScale) (none when QueryScale is 0) and
// answers ⊤ if xᵢ + νᵢ ≥ T + ρ, else ⊥; after Cutoff answers ⊤ it halts
// (Cutoff 0: it answers every query). With Resample it draws a fresh ρ
// after each ⊤. Release says what it publishes beside a ⊤.
//
// An output is the pattern of ⊤ and ⊥ answers (a string of 'T' and 'F',
// shorter than the queries when it halted), with the released values for
// ReleaseNoisy and ReleaseFresh. Its probability is
//
//	Pr[pattern] = ∫ f_ρ(r) ∏_{⊥} Pr[xᵢ + νᵢ < T + r] ∏_{⊤} Pr[xᵢ + νᵢ ≥ T + r] dr,
//
// one such integral per run of queries sharing a threshold; each is a
// product of Laplace densities and distribution functions, integrated in
// closed form (see product).
type SVT struct {
	Threshold      float64
	ThresholdScale float64
	QueryScale     float64
	Cutoff         int
	Resample       bool
	Release        Release
	ReleaseScale   float64
}

func (m SVT) validate(n int) error {
	if err := validate.Finite("threshold", m.Threshold); err != nil {
		return err
	}
	if err := validate.Positive("threshold noise scale", m.ThresholdScale); err != nil {
		return err
	}
	if err := validate.Finite("query noise scale", m.QueryScale); err != nil {
		return err
	}
	if m.QueryScale < 0 {
		return validate.Errorf("query noise scale", "must be 0 (no noise) or positive, got %v", m.QueryScale)
	}
	if m.Cutoff < 0 {
		return validate.Errorf("cutoff c", "must be at least 1 (or 0 for no cutoff), got %d", m.Cutoff)
	}
	switch m.Release {
	case ReleaseNothing:
	case ReleaseNoisy:
		if m.QueryScale == 0 {
			return validate.Errorf("release", "releasing the compared answer needs query noise")
		}
		if m.Resample {
			return validate.Errorf("release", "releasing the compared answer with a threshold redrawn after each ⊤ is not supported")
		}
	case ReleaseFresh:
		if err := validate.Positive("release noise scale", m.ReleaseScale); err != nil {
			return err
		}
	default:
		return validate.Errorf("release", "unknown release %d", m.Release)
	}
	if n < 1 || n > MaxQueries {
		return validate.Errorf("queries", "must be between 1 and %d, got %d", MaxQueries, n)
	}
	if c := m.patternCount(n); c > MaxPatterns {
		return validate.Errorf("queries", "%d queries with cutoff %d have %.0f output patterns, more than %d", n, m.Cutoff, c, MaxPatterns)
	}
	return nil
}

// patternCount returns the number of ⊤/⊥ patterns of n queries.
func (m SVT) patternCount(n int) float64 {
	if m.Cutoff == 0 || m.Cutoff > n {
		return math.Pow(2, float64(n))
	}
	// Patterns with fewer than c ⊤ over all n queries, plus those halting
	// at the c-th ⊤ at query L (C(L−1, c−1) of them).
	total := 0.0
	for j := 0; j < m.Cutoff; j++ {
		total += binom(n, j)
	}
	for l := m.Cutoff; l <= n; l++ {
		total += binom(l-1, m.Cutoff-1)
	}
	return total
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// Patterns returns every output pattern of n queries, in a fixed order.
func (m SVT) Patterns(n int) ([]string, error) {
	if err := m.validate(n); err != nil {
		return nil, err
	}
	var out []string
	buf := make([]byte, 0, n)
	var rec func(tops int)
	rec = func(tops int) {
		if len(buf) == n || (m.Cutoff > 0 && tops == m.Cutoff) {
			out = append(out, string(buf))
			return
		}
		buf = append(buf, 'F')
		rec(tops)
		buf[len(buf)-1] = 'T'
		rec(tops + 1)
		buf = buf[:len(buf)-1]
	}
	rec(0)
	return out, nil
}

// segments splits a pattern into the runs of queries that share one
// threshold: the whole pattern, or with Resample a run ending at each ⊤.
func (m SVT) segments(pattern string) [][2]int {
	if !m.Resample {
		return [][2]int{{0, len(pattern)}}
	}
	var segs [][2]int
	start := 0
	for i := range pattern {
		if pattern[i] == 'T' {
			segs = append(segs, [2]int{start, i + 1})
			start = i + 1
		}
	}
	if start < len(pattern) {
		segs = append(segs, [2]int{start, len(pattern)})
	}
	return segs
}

// segmentProduct prepares the integral over the threshold noise r of the
// answers x[i] for i in [from, to) of pattern, integrated over [−∞, hi];
// tops says whether the ⊤ answers contribute their factor (false when
// their released values are treated apart).
func (m SVT) segmentProduct(x []float64, pattern string, from, to int, tops bool) (*product, error) {
	fs := []factor{{part: density, noise: laplace, at: 0, scale: m.ThresholdScale}}
	lo, hi := math.Inf(-1), math.Inf(1)
	for i := from; i < to; i++ {
		a := x[i] - m.Threshold
		if m.QueryScale == 0 {
			// ⊤ iff r ≤ a; ⊥ iff r > a.
			if pattern[i] == 'T' {
				hi = math.Min(hi, a)
			} else {
				lo = math.Max(lo, a)
			}
			continue
		}
		switch {
		case pattern[i] == 'F':
			fs = append(fs, factor{part: cdf, noise: laplace, at: a, scale: m.QueryScale})
		case tops:
			fs = append(fs, factor{part: surv, noise: laplace, at: a, scale: m.QueryScale})
		}
	}
	return newProduct(fs, lo, hi)
}

// logPattern returns ln Pr[pattern | x] and a bound on its relative error.
func (m SVT) logPattern(x []float64, pattern string) (float64, float64, error) {
	total, relErr := 0.0, 0.0
	for _, sg := range m.segments(pattern) {
		p, err := m.segmentProduct(x, pattern, sg[0], sg[1], true)
		if err != nil {
			return 0, 0, err
		}
		v, e := p.logTotal()
		total += v
		relErr += e
	}
	return total, relErr, nil
}

// LogProbability returns ln Pr[pattern | x] for one output pattern (the
// released values integrated out).
func (m SVT) LogProbability(x []float64, pattern string) (float64, error) {
	if err := checkPair(x, x, 1, MaxQueries); err != nil {
		return 0, err
	}
	if err := m.validate(len(x)); err != nil {
		return 0, err
	}
	v, _, err := m.logPattern(x, pattern)
	return v, err
}

// Distribution returns the output patterns for the answers x with their
// log-probabilities (for ReleaseNoisy and ReleaseFresh, the probability of
// the ⊤/⊥ pattern with the released values integrated out), and a bound on
// their relative rounding error.
func (m SVT) Distribution(x []float64) (patterns []string, logp []float64, relErr float64, err error) {
	if err := checkPair(x, x, 1, MaxQueries); err != nil {
		return nil, nil, 0, err
	}
	patterns, err = m.Patterns(len(x))
	if err != nil {
		return nil, nil, 0, err
	}
	logp = make([]float64, len(patterns))
	for i, p := range patterns {
		v, e, err := m.logPattern(x, p)
		if err != nil {
			return nil, nil, 0, err
		}
		logp[i], relErr = v, math.Max(relErr, e)
	}
	return patterns, logp, relErr, nil
}

// Marginals returns, for each query i, the probabilities that the
// technique answers it ⊤, answers it ⊥, or has halted before it.
func (m SVT) Marginals(x []float64) (above, below, halted []float64, err error) {
	patterns, logp, _, err := m.Distribution(x)
	if err != nil {
		return nil, nil, nil, err
	}
	n := len(x)
	above, below, halted = make([]float64, n), make([]float64, n), make([]float64, n)
	for k, p := range patterns {
		pr := math.Exp(logp[k])
		for i := 0; i < n; i++ {
			switch {
			case i >= len(p):
				halted[i] += pr
			case p[i] == 'T':
				above[i] += pr
			default:
				below[i] += pr
			}
		}
	}
	return above, below, halted, nil
}

// PatternText writes a pattern with ⊤ and ⊥, and "halt" when it stops
// before the last of n queries.
func PatternText(p string, n int) string {
	s := strings.NewReplacer("T", "⊤", "F", "⊥").Replace(p)
	if len(p) < n {
		s += " (halt)"
	}
	return s
}

// A Table holds the output patterns of a pair with their log-probabilities
// under each input (the released values integrated out) and a bound on
// their relative rounding error.
type Table struct {
	Patterns   []string
	LogP, LogQ []float64
	RelErr     float64
}

// Loss returns the privacy loss of the technique on the answers (x, y).
func (m SVT) Loss(x, y []float64) (Loss, error) {
	l, _, err := m.Compare(x, y)
	return l, err
}

// Compare returns the privacy loss on (x, y) and the table of pattern
// probabilities it was computed from.
func (m SVT) Compare(x, y []float64) (Loss, Table, error) {
	if err := checkPair(x, y, 1, MaxQueries); err != nil {
		return Loss{}, Table{}, err
	}
	patterns, err := m.Patterns(len(x))
	if err != nil {
		return Loss{}, Table{}, err
	}
	t := Table{Patterns: patterns, LogP: make([]float64, len(patterns)), LogQ: make([]float64, len(patterns))}
	for i, p := range patterns {
		a, ea, err := m.logPattern(x, p)
		if err != nil {
			return Loss{}, Table{}, err
		}
		b, eb, err := m.logPattern(y, p)
		if err != nil {
			return Loss{}, Table{}, err
		}
		t.LogP[i], t.LogQ[i], t.RelErr = a, b, math.Max(t.RelErr, math.Max(ea, eb))
	}
	n := len(x)
	var l Loss
	switch m.Release {
	case ReleaseNoisy:
		l, err = m.noisyLoss(x, y, t)
	case ReleaseFresh:
		l = m.freshLoss(x, y, t)
	default:
		method := "every ⊤/⊥ pattern's probability in closed form (integral over the threshold noise of products of Laplace distribution functions)"
		if m.QueryScale == 0 {
			method = "every ⊤/⊥ pattern's probability in closed form (the threshold noise's mass on the interval that gives the pattern)"
		}
		l = discreteLoss(t.LogP, t.LogQ, t.RelErr, func(i int) string { return PatternText(patterns[i], n) }, method)
	}
	if err != nil {
		return Loss{}, Table{}, err
	}
	return l, t, nil
}

// freshLoss: the released values are independent of the pattern given the
// answers, so ℓ = ln Pr[s|x] − ln Pr[s|y] + Σ_{i ⊤} (|zᵢ − yᵢ| − |zᵢ − xᵢ|)/b,
// and the sum ranges over [−Σ|xᵢ − yᵢ|/b, Σ|xᵢ − yᵢ|/b], its ends reached at
// z = x and z = y.
func (m SVT) freshLoss(x, y []float64, t Table) Loss {
	n := len(x)
	l := Loss{Up: math.Inf(-1), Down: math.Inf(-1), Err: 2 * t.RelErr,
		Method: "pattern probabilities in closed form, plus the closed-form supremum of the released Laplace answers' density ratio"}
	b := m.ReleaseScale
	for k, p := range t.Patterns {
		a, c := t.LogP[k], t.LogQ[k]
		if math.IsInf(a, -1) && math.IsInf(c, -1) {
			continue
		}
		spread, logf := 0.0, 0.0
		for i := range p {
			if p[i] == 'T' {
				spread += math.Abs(x[i]-y[i]) / b
				logf -= math.Log(2 * b)
			}
		}
		d := a - c
		if math.IsInf(a, -1) {
			d = math.Inf(-1)
		} else if math.IsInf(c, -1) {
			d = math.Inf(1)
		}
		text := PatternText(p, n)
		if strings.Contains(p, "T") {
			text += ", the ⊤ answers released as "
		}
		if up := d + spread; up > l.Up {
			l.Up, l.UpAt = up, Output{Text: text + releasedText(p, x), LogP: a + logf, LogQ: c + logf - spread}
		}
		if down := -d + spread; down > l.Down {
			l.Down, l.DownAt = down, Output{Text: text + releasedText(p, y), LogP: a + logf - spread, LogQ: c + logf}
		}
	}
	return l
}

// releasedText lists the values released at the ⊤ queries of p.
func releasedText(p string, v []float64) string {
	var parts []string
	for i := range p {
		if p[i] == 'T' {
			parts = append(parts, ftoa(v[i]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ")
}

// SupTolerance is the certified accuracy of a supremum found by search
// (ReleaseNoisy, and report noisy max releasing the value): the reported
// loss is within about this much of the exact one (Loss.Err states it).
const SupTolerance = 1e-9

// noisyLoss is the loss when the compared noisy answers of the ⊤ queries
// (the set A) are released. For a pattern, with one threshold for the
// whole run, the output density is
//
//	∏_{j∈A} f_ν(vⱼ − xⱼ) · H_x(min_A v − T),  H_x(u) = ∫_{−∞}^u f_ρ(r) ∏_{⊥} Pr[xᵢ + νᵢ < T + r] dr,
//
// so ℓ = Σ_A φⱼ(vⱼ) + ln H_x − ln H_y with φⱼ(v) = (|v − yⱼ| − |v − xⱼ|)/b_ν,
// monotone in v. For a given smallest value m the others are best placed
// where φⱼ is largest on [m, ∞), which leaves a function of m alone. Its
// integrand is log-concave, so ln H is concave with slope in
// [0, 1/b_ρ + |⊥|/b_ν]: the function of m is Lipschitz, constant below
// every kink and converging above them, and supLipschitz finds its
// supremum to within SupTolerance.
func (m SVT) noisyLoss(x, y []float64, t Table) (Loss, error) {
	n := len(x)
	l := Loss{Up: math.Inf(-1), Down: math.Inf(-1),
		Method: "pattern probabilities in closed form; for each pattern with ⊤ answers, the supremum over the released values by a branch-and-bound search with certified error"}
	for k, p := range t.Patterns {
		if !strings.Contains(p, "T") {
			d := discreteLoss(t.LogP[k:k+1], t.LogQ[k:k+1], t.RelErr, func(int) string { return PatternText(p, n) }, "")
			if d.Up > l.Up {
				l.Up, l.UpAt = d.Up, d.UpAt
			}
			if d.Down > l.Down {
				l.Down, l.DownAt = d.Down, d.DownAt
			}
			l.Err = math.Max(l.Err, d.Err)
			continue
		}
		for _, sign := range []float64{1, -1} {
			v, out, errBound, err := m.releasedSup(x, y, p, sign)
			if err != nil {
				return Loss{}, err
			}
			l.Err = math.Max(l.Err, errBound)
			if sign > 0 && v > l.Up {
				l.Up, l.UpAt = v, out
			}
			if sign < 0 && v > l.Down {
				l.Down, l.DownAt = v, out
			}
		}
	}
	return l, nil
}

// releasedSup returns sup over the released values of sign·ℓ for pattern
// p (one threshold, at least one ⊤), the output reaching it, and a bound on
// the error.
func (m SVT) releasedSup(x, y []float64, p string, sign float64) (float64, Output, float64, error) {
	hx, err := m.segmentProduct(x, p, 0, len(p), false)
	if err != nil {
		return 0, Output{}, 0, err
	}
	hy, err := m.segmentProduct(y, p, 0, len(p), false)
	if err != nil {
		return 0, Output{}, 0, err
	}
	b := m.QueryScale
	var tops []int
	below := 0
	for i := range p {
		if p[i] == 'T' {
			tops = append(tops, i)
		} else {
			below++
		}
	}
	phi := func(j int, v float64) float64 { return sign * (math.Abs(v-y[j]) - math.Abs(v-x[j])) / b }
	// best place for a ⊤ value that is not the smallest: where φⱼ is
	// largest on [v0, ∞); φⱼ is monotone and flat beyond max(xⱼ, yⱼ).
	place := func(j int, v0 float64) float64 {
		far := math.Max(v0, math.Max(x[j], y[j]))
		if phi(j, far) > phi(j, v0) {
			return far
		}
		return v0
	}
	var firstErr error
	logH := func(h *product, u float64) float64 {
		v, _, err := h.logUpTo(u)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return v
	}
	// values returns the released values for smallest value v0: the one ⊤
	// that sits at v0 is the one whose φ loses least by it.
	values := func(v0 float64) []float64 {
		vals := make([]float64, len(tops))
		bestK, bestLoss := 0, math.Inf(-1)
		for k, j := range tops {
			vals[k] = place(j, v0)
			if d := phi(j, v0) - phi(j, vals[k]); d > bestLoss {
				bestK, bestLoss = k, d
			}
		}
		vals[bestK] = v0
		return vals
	}
	g := func(v0 float64) float64 {
		s := 0.0
		for k, v := range values(v0) {
			s += phi(tops[k], v)
		}
		u := v0 - m.Threshold
		return s + sign*(logH(hx, u)-logH(hy, u))
	}
	// Kinks: the ⊤ answers (φ) and, shifted by T, the points of H's factors.
	kinks := []float64{m.Threshold}
	for _, j := range tops {
		kinks = append(kinks, x[j], y[j])
	}
	for i := range p {
		if p[i] == 'F' {
			kinks = append(kinks, x[i], y[i])
		}
	}
	lo, hi := kinks[0], kinks[0]
	for _, k := range kinks {
		lo, hi = math.Min(lo, k), math.Max(hi, k)
	}
	// Above every kink, ln H(u) is within δ(u) = −ln(1 − ½e^{−u/b_ρ}/H(∞))
	// of its limit: go far enough that both are below SupTolerance/8.
	totx, ex := hx.logTotal()
	toty, ey := hy.logTotal()
	if math.IsInf(totx, -1) || math.IsInf(toty, -1) {
		return 0, Output{}, 0, validate.Errorf("pattern", "%s has probability 0", p)
	}
	delta := func(u float64, tot float64) float64 {
		t := 0.5 * math.Exp(-u/m.ThresholdScale-tot)
		if u < 0 || t >= 1 {
			return math.Inf(1)
		}
		return -math.Log1p(-t)
	}
	upper := hi + m.ThresholdScale
	for delta(upper-m.Threshold, totx)+delta(upper-m.Threshold, toty) > SupTolerance/8 {
		upper += 4 * m.ThresholdScale
	}
	// The limit as the smallest value grows without bound.
	lim := 0.0
	for _, j := range tops {
		lim += phi(j, math.Max(x[j], y[j]))
	}
	lim += sign * (totx - toty)
	// ln H has slope in [0, λ] and, being concave, second derivative in
	// [−λ(λ + 1/b_ρ), 0], since ln h has slope at least −1/b_ρ.
	lambda := 1/m.ThresholdScale + float64(below)/b
	lip := 2*float64(len(tops))/b + lambda
	global := lambda * (lambda + 1/m.ThresholdScale)
	// On [u, v] the bound is sharper: (ln H)″ = q·(s − q) with q = h/H (the
	// slope of ln H) and s = (ln h)′, both non-increasing (ln H and ln h
	// are concave), so their ranges on [u, v] are given by their values at
	// the ends. Where H and h hardly change (far from every answer) the
	// bound falls towards 0, and long flat stretches are dismissed.
	ends := func(h *product, u, v float64) (qa, qb, sa, sb float64) {
		lu, su := h.logAt(u-m.Threshold, true)
		lv, sv := h.logAt(v-m.Threshold, false)
		return math.Exp(lv - logH(h, v-m.Threshold)), math.Exp(lu - logH(h, u-m.Threshold)), sv, su
	}
	second := func(h *product, u, v float64) (lo, hi float64) {
		a, b, c, d := ends(h, u, v)
		lo = math.Min(a*(c-a), b*(d-b))
		lo = math.Min(lo, math.Min(a*(d-a), b*(c-b)))
		r := math.Min(math.Max(d/2, a), b)
		hi = math.Min(0, math.Max(r*(d-r), math.Max(a*(d-a), b*(d-b))))
		return lo, hi
	}
	curv := func(u, v float64) float64 {
		lx, ux := second(hx, u, v)
		ly, uy := second(hy, u, v)
		low := lx - uy
		if sign < 0 {
			low = ly - ux
		}
		c := math.Min(global, math.Max(0, -low))
		if math.IsNaN(c) {
			return global
		}
		return c
	}
	// Above every ⊤ answer the φ part is constant, and ln H_x and ln H_y
	// both increase: over [u, v] g is at most that constant plus
	// ln H_x(v) − ln H_y(u) (sign +), a bound that stays tight over long
	// intervals far in the tail, where g flattens towards its limit.
	topHi := math.Inf(-1)
	for _, j := range tops {
		topHi = math.Max(topHi, math.Max(x[j], y[j]))
	}
	flatPart := lim - sign*(totx-toty)
	beyond := func(u, v float64) float64 {
		if u < topHi {
			return math.Inf(1)
		}
		if sign > 0 {
			return flatPart + logH(hx, v-m.Threshold) - logH(hy, u-m.Threshold)
		}
		return flatPart + logH(hy, v-m.Threshold) - logH(hx, u-m.Threshold)
	}
	// Below the smallest ⊥ answer that differs between x and y, H_x and
	// H_y are proportional (their integrands differ by a constant factor
	// there), so g is piecewise linear and convex between kinks: its
	// largest value there is at a kink, and the search starts above it.
	flat := math.Inf(1)
	for i := range p {
		if p[i] == 'F' && x[i] != y[i] {
			flat = math.Min(flat, math.Min(x[i], y[i]))
		}
	}
	at, best := lo, math.Inf(-1)
	for _, k := range append(kinks, math.Min(flat, upper)) {
		if k <= flat {
			if v := g(k); v > best {
				at, best = k, v
			}
		}
	}
	gap := 0.0
	if flat < upper {
		a, v, gp := supSearch(g, math.Max(lo, flat), upper, lip, curv, SupTolerance/2, math.Max(lim, best), kinks, beyond)
		if v > best {
			at, best = a, v
		}
		gap = gp
	}
	if firstErr != nil {
		return 0, Output{}, 0, firstErr
	}
	errBound := gap + delta(upper-m.Threshold, totx) + delta(upper-m.Threshold, toty) + 2*math.Max(ex, ey)
	n := len(x)
	if lim > best {
		return lim, Output{Text: PatternText(p, n) + ", the ⊤ answers released far above every answer", LogP: math.NaN(), LogQ: math.NaN(), Limit: true}, errBound, nil
	}
	vals := values(at)
	lp, lq := logH(hx, at-m.Threshold), logH(hy, at-m.Threshold)
	for k, j := range tops {
		lp += -math.Abs(vals[k]-x[j])/b - math.Log(2*b)
		lq += -math.Abs(vals[k]-y[j])/b - math.Log(2*b)
	}
	text := PatternText(p, n) + ", released as "
	for k, v := range vals {
		if k > 0 {
			text += ", "
		}
		text += ftoa(v)
	}
	return best, Output{Text: text, LogP: lp, LogQ: lq}, errBound, nil
}
