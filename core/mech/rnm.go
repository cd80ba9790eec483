package mech

import (
	"math"
	mrand "math/rand/v2"
	"sort"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// Noise is the distribution report noisy max adds to every score.
type Noise int

const (
	// LaplaceNoise of scale Δ/ε, as in the notebook. Releasing only the
	// argmax costs ε when the scores are counts that one person moves in the
	// same direction (Dwork–Roth, Claim 3.9); for arbitrary scores the same
	// scale guarantees only 2ε, and Lap(2Δ/ε) is needed for ε.
	LaplaceNoise Noise = iota
	// GumbelNoise of scale 2Δ/ε: report noisy max then has exactly the
	// exponential mechanism's distribution, and is ε-DP.
	GumbelNoise
	// ExponentialNoise of scale 2Δ/ε: this is permute-and-flip (McKenna and
	// Sheldon 2020), ε-DP and never less accurate than the exponential
	// mechanism.
	ExponentialNoise
)

// String returns the noise's name, "Laplace", "Gumbel" or "exponential", for
// messages and test failures.
func (n Noise) String() string {
	switch n {
	case LaplaceNoise:
		return "Laplace"
	case GumbelNoise:
		return "Gumbel"
	case ExponentialNoise:
		return "exponential"
	}
	return "unknown"
}

// MaxExactCandidates bounds the candidates for which report noisy max
// computes exact probabilities. One quadrature is shared by all of them
// (see laplaceMaxLogProbabilities and exponentialMaxLogProbabilities), so
// 10,000 take well under a second natively (make bench); the bound keeps a
// request from the page or the command line from holding the engine for
// longer.
const MaxExactCandidates = 10000

// ReportNoisyMax adds independent noise to every score and outputs the index
// of the largest noisy score, never the score itself. Its exact
// distribution is
//
//	Pr[i] = ∫ fᵢ(x) ∏_{j≠i} Fⱼ(x) dx,
//
// with fⱼ, Fⱼ the density and CDF of score j plus noise. Gumbel noise gives
// the softmax in closed form; exponential noise reduces to a polynomial
// integral on [0, 1]; Laplace noise has no closed form and is integrated
// numerically, in the log domain, to about 1e-12.
//
// The zero value has no candidates: Sample returns 0. Use NewReportNoisyMax.
type ReportNoisyMax struct {
	noise   Noise
	s       []float64 // standardised scores (u − u*)/scale, ≤ 0
	laplace rng.Laplace
	logp, p []float64
}

// NewReportNoisyMax validates c (which must have no base measure) and
// computes the exact output distribution for the given noise.
func NewReportNoisyMax(c Config, noise Noise) (*ReportNoisyMax, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	if c.Measure != nil {
		return nil, validate.Errorf("measure μ", "report noisy max has no base measure; use the exponential mechanism")
	}
	if len(c.Scores) > MaxExactCandidates {
		return nil, validate.Errorf("scores", "has %d candidates; exact report-noisy-max probabilities support at most %d", len(c.Scores), MaxExactCandidates)
	}
	// Work in units of the noise scale: b = Δ/ε for Laplace, 2Δ/ε otherwise.
	// Computed as Δ/ε·factor; ε, Δ finite and > 0, so only overflow to +Inf
	// is possible, and then every standardised score is 0: pure noise.
	scale := c.Sensitivity / c.Epsilon
	if noise != LaplaceNoise {
		scale *= 2
	}
	m := &ReportNoisyMax{noise: noise, s: standardScores(c, scale)}
	m.laplace, _ = rng.NewLaplace(1)
	var logp []float64
	var err error
	switch noise {
	case LaplaceNoise:
		logp, err = laplaceMaxLogProbabilities(m.s)
	case GumbelNoise:
		logp = clone(m.s)
	case ExponentialNoise:
		logp, err = exponentialMaxLogProbabilities(m.s)
	default:
		return nil, validate.Errorf("noise", "unknown noise %d", int(noise))
	}
	if err != nil {
		return nil, err
	}
	for i := range logp {
		logp[i] = math.Max(logp[i], numeric.LogZero)
	}
	if m.logp, m.p, err = numeric.Normalize(logp); err != nil {
		return nil, err
	}
	return m, nil
}

// Noise returns the noise distribution: Laplace, Gumbel or exponential.
func (m *ReportNoisyMax) Noise() Noise { return m.noise }

// Probabilities returns the exact output distribution Pr[i] = ∫ fᵢ ∏_{j≠i} Fⱼ,
// with fᵢ and Fⱼ the density and CDF of the noisy scores.
func (m *ReportNoisyMax) Probabilities() []float64 { return clone(m.p) }

// LogProbabilities returns ln Pr[i], exact even where Pr[i] underflows.
func (m *ReportNoisyMax) LogProbabilities() []float64 { return clone(m.logp) }

// Sample adds fresh noise to every score and returns the argmax. It runs the
// mechanism itself rather than drawing from the exact distribution, so tests
// comparing the two check the integrals too.
func (m *ReportNoisyMax) Sample(r *mrand.Rand) int {
	best, bestKey := 0, math.Inf(-1)
	for i, s := range m.s {
		var z float64
		switch m.noise {
		case LaplaceNoise:
			z = m.laplace.Sample(r)
		case GumbelNoise:
			z = rng.Gumbel(r)
		default:
			z = rng.Exponential(r)
		}
		if key := s + z; key > bestKey {
			best, bestKey = i, key
		}
	}
	return best
}

// quadRelTol is the relative accuracy asked of every integral behind the
// exact probabilities: each candidate's, or each term's relative to the
// first term of its series. The probabilities promise 1e-9.
const quadRelTol = 1e-13

// scoreGroups returns the distinct finite scores of s in decreasing order,
// how many candidates share each, and each candidate's group (−1 for a
// score of −Inf, infinitely far below the best). Tied candidates have the
// same probability, so the integrals are computed once per group.
func scoreGroups(s []float64) (vals []float64, mult []int, group []int) {
	order := make([]int, 0, len(s))
	for i, x := range s {
		if !math.IsInf(x, -1) {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
	group = make([]int, len(s))
	for i := range group {
		group[i] = -1
	}
	for _, i := range order {
		if len(vals) == 0 || s[i] != vals[len(vals)-1] {
			vals = append(vals, s[i])
			mult = append(mult, 0)
		}
		mult[len(mult)-1]++
		group[i] = len(vals) - 1
	}
	return vals, mult, group
}

// logAddExp returns ln(eᵃ + eᵇ), with −Inf for 0.
func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// exponentialMaxLogProbabilities gives permute-and-flip's distribution. With
// pⱼ = exp(sⱼ) ≤ 1 and the substitution y = exp(−(x − u*)/scale),
//
//	Pr[i] = pᵢ ∫₀¹ ∏_{j≠i} (1 − pⱼ·y) dy,
//	ln Pr[i] = sᵢ + ln ∫₀¹ ∏_{j≠i} (1 − pⱼ·y) dy,
//
// a smooth integrand on [0, 1] between 0 and 1. All the integrals share one
// adaptive quadrature: at each node the logarithms ln(1 − pⱼ·y) are summed
// once as prefix and suffix sums over the candidates, so candidate i's
// integrand, exp(prefix before i + suffix after i), costs O(1) and is never
// a quotient that could be 0/0. The factor pᵢ stays in the log domain: on
// raw counts it is like e^−2147, which is 0 as a double, while its logarithm
// sᵢ is exact. Inside the integral an underflowed pⱼ = 0 is harmless, since
// then 1 − pⱼ·y is 1 to the last bit. The integral is at least
// ∫₀¹ (1 − y)^(n−1) dy = 1/n, so its logarithm is finite.
func exponentialMaxLogProbabilities(s []float64) ([]float64, error) {
	vals, mult, group := scoreGroups(s)
	g := len(vals)
	p := make([]float64, g)
	for k, v := range vals {
		p[k] = math.Exp(v)
	}
	term := make([]float64, g)
	// logs writes ln ∏_{j≠i} (1 − pⱼ·y) for every group: a prefix sum over
	// the groups before it, a suffix sum over those after, and its own other
	// members.
	logs := func(y float64, out []float64) {
		for k, pk := range p {
			term[k] = math.Log1p(-pk * y)
		}
		pre := 0.0
		for k := range term {
			out[k] = pre
			pre += float64(mult[k]) * term[k]
		}
		suf := 0.0
		for k := g - 1; k >= 0; k-- {
			out[k] += suf
			if mult[k] > 1 {
				out[k] += float64(mult[k]-1) * term[k]
			}
			suf += float64(mult[k]) * term[k]
		}
	}
	atMid := make([]float64, g)
	level := func(mid float64, out []float64) {
		logs(mid, atMid)
		copy(out, atMid)
	}
	rel := func(mid, dx float64, out []float64) {
		logs(mid+dx, out)
		for k := range out {
			out[k] -= atMid[k]
		}
	}
	v, err := numeric.LogIntegrals(level, rel, g, []float64{0, 1}, nil, quadRelTol)
	if err != nil {
		return nil, err
	}
	logp := make([]float64, len(s))
	for i, k := range group {
		if k < 0 {
			logp[i] = numeric.LogZero
			continue
		}
		logp[i] = s[i] + v[k]
	}
	return logp, nil
}

// rTerms is the number of terms kept of the series r(z) = Σₘ (e^−z/2)^m
// below: the rest is below 2^−50 of the first.
const rTerms = 50

// negligible is ln of the share below which a gap's integrals are left out
// of report noisy max's probabilities: e^−50 ≈ 2e-22, so that even 10,000
// of them change none by 1e-17.
const negligible = 50

// belowTerms bounds the series for ln F of the candidates below x, whose
// ratio is at most ½: 64 terms reach 1e-19.
const belowTerms = 64

// laplaceMaxLogProbabilities gives report noisy max's distribution under unit
// Laplace noise for standardised scores s, for all candidates at once. With
// F(z) = ½eᶻ (z < 0), 1 − ½e^−z (z ≥ 0) the noise's CDF and
// Π(x) = ∏ⱼ F(x − sⱼ) the CDF of the largest noisy score,
//
//	Pr[i] = ∫ fᵢ(x) ∏_{j≠i} Fⱼ(x) dx = ∫ Π(x)·r(x − sᵢ) dx,
//
// where r = f/F is 1 below 0 and 1/(2eᶻ − 1) = Σ_{m≥1} (e^−z/2)^m above.
// So
//
//	Pr[i] = A(sᵢ) + Σ_{m≥1} 2^−m·Jₘ(sᵢ),
//	A(a) = ∫_{−∞}^a Π(x) dx,  Jₘ(a) = ∫_a^∞ Π(x)·e^{−m(x−a)} dx:
//
// a prefix integral of Π and a suffix integral of Π against exponentials,
// both shared by every candidate. Between two consecutive distinct scores
// Π is smooth: the c candidates above contribute c·(x − ln 2) minus their
// scores, exactly linear, and those below
//
//	Σ ln(1 − ½e^{sⱼ−x}) = −Σₘ (e^{lo−x}/2)^m·Eₘ/m,  Eₘ = Σ_{sⱼ ≤ lo} e^{m(sⱼ−lo)},
//
// a series whose sums Eₘ are built once from the lowest score up. Each gap
// between scores is integrated once (A measured from its upper end, Jₘ from
// its lower end, so the large linear parts cancel exactly), and A and Jₘ are
// accumulated across the gaps in the log domain: O(n·(rTerms + nodes)) in
// all instead of a quadrature per candidate. Tiny probabilities such as
// e^−4000 keep their exact logarithm.
func laplaceMaxLogProbabilities(s []float64) ([]float64, error) {
	vals, mult, group := scoreGroups(s)
	g := len(vals)
	n := 0
	for _, m := range mult {
		n += m
	}
	// lin[k] = Σ over the candidates above vals[k] of vals[k] − sⱼ − ln 2.
	above := make([]int, g)
	lin := make([]float64, g)
	d := 0.0
	for k := 1; k < g; k++ {
		above[k] = above[k-1] + mult[k-1]
		d -= float64(above[k]) * (vals[k-1] - vals[k])
		lin[k] = d - float64(above[k])*math.Ln2
	}
	// e[k·belowTerms + m − 1] = Eₘ at lo = vals[k].
	e := make([]float64, g*belowTerms)
	for k := g - 1; k >= 0; k-- {
		row := e[k*belowTerms : (k+1)*belowTerms]
		if k == g-1 {
			for m := range row {
				row[m] = float64(mult[k])
			}
			continue
		}
		q, qm := math.Exp(vals[k+1]-vals[k]), 1.0
		prev := e[(k+1)*belowTerms : (k+2)*belowTerms]
		for m := range row {
			qm *= q
			row[m] = prev[m]*qm + float64(mult[k])
		}
	}
	row := func(k int) []float64 { return e[k*belowTerms : (k+1)*belowTerms] }
	// phi[k] = ln Π(vals[k]).
	phi := make([]float64, g)
	for k := range phi {
		phi[k] = lin[k] + belowSeries(row(k), 0.5)
	}

	// Jₘ at the top score: with y = e^{vals[0]−x}, ∫₀¹ Π·y^{m−1} dy.
	ref := make([]int, rTerms) // every term is held to the first's accuracy
	var bMid float64
	top, err := numeric.LogIntegrals(func(mid float64, out []float64) {
		bMid = belowSeries(row(0), mid/2)
		for m := range out {
			out[m] = bMid + float64(m)*math.Log(mid)
		}
	}, func(mid, dx float64, out []float64) {
		b := belowSeries(row(0), (mid+dx)/2) - bMid
		ly := math.Log1p(dx / mid)
		for m := range out {
			out[m] = b + float64(m)*ly
		}
	}, rTerms, []float64{0, 1}, ref, quadRelTol)
	if err != nil {
		return nil, err
	}
	lJ := make([]float64, g*rTerms)
	copy(lJ, top)
	lA := make([]float64, g)
	// Below the lowest score every candidate is above x: ln Π has slope n.
	lA[g-1] = phi[g-1] - math.Log(float64(n))

	// The gaps, top down for J; their A parts are summed bottom up after.
	// On a gap, Π(lo + t) = Π(lo)·exp(c·t + below(t) − below(0)) with c
	// candidates above: the integrands of A and of Jₘ for m < c rise to the
	// gap's upper end, so they are measured from there (u = hi − x); those
	// of Jₘ for m ≥ c are flat or fall, and are measured from lo (t = x − lo).
	// Either way the mass lies where x is finely resolved, even on a gap as
	// wide as 1e300.
	gapA := make([]float64, g)
	pj := make([]float64, rTerms)
	for k := 1; k < g; k++ {
		w := vals[k-1] - vals[k]
		c := above[k]
		rk := row(k)
		prev, cur := lJ[(k-1)*rTerms:k*rTerms], lJ[k*rTerms:(k+1)*rTerms]
		// The gap's integrals are at most w·Π(hi). Where that is below
		// e^−50 of J₁ carried down from above (so of every probability at or
		// below hi, and of A(hi) ≤ Π(hi) against every one at or above it),
		// the gap is left out: this is what makes deep gaps free.
		if phi[k-1]+math.Log(w) < prev[0]-w-negligible {
			gapA[k] = math.Inf(-1)
			for m := range cur {
				cur[m] = prev[m] - float64(m+1)*w
			}
			continue
		}
		cuts := gapCuts(w)
		// rising: A (m = 0) and Jₘ for 1 ≤ m < c, as ∫ exp(−(c−m)·u + below(w−u) − below(w)) du.
		nu := min(c, rTerms+1)
		bw := belowSeries(rk, 0.5*math.Exp(-w))
		up, err := numeric.LogIntegrals(func(mid float64, out []float64) {
			bMid = belowSeries(rk, 0.5*math.Exp(-(w-mid)))
			for m := range out {
				out[m] = -float64(c-m)*mid + bMid - bw
			}
		}, func(mid, dx float64, out []float64) {
			b := belowSeries(rk, 0.5*math.Exp(-(w-mid-dx))) - bMid
			for m := range out {
				out[m] = -float64(c-m)*dx + b
			}
		}, nu, cuts, nil, quadRelTol)
		if err != nil {
			return nil, err
		}
		gapA[k] = phi[k-1] + up[0]
		for m := 1; m < nu; m++ {
			pj[m-1] = phi[k-1] - float64(m)*w + up[m]
		}
		// flat or falling: Jₘ for m ≥ c, as ∫ exp((c−m)·t + below(t)) dt, each
		// held to the accuracy of the first, the largest.
		if nt := rTerms - nu + 1; nt > 0 {
			first := nu // m of out[0]
			down, err := numeric.LogIntegrals(func(mid float64, out []float64) {
				bMid = belowSeries(rk, 0.5*math.Exp(-mid))
				for i := range out {
					out[i] = bMid + float64(c-first-i)*mid
				}
			}, func(mid, dx float64, out []float64) {
				b := belowSeries(rk, 0.5*math.Exp(-(mid+dx))) - bMid
				for i := range out {
					out[i] = b + float64(c-first-i)*dx
				}
			}, nt, cuts, ref[:nt], quadRelTol)
			if err != nil {
				return nil, err
			}
			for i, v := range down {
				pj[first+i-1] = lin[k] + v
			}
		}
		for m := range cur {
			cur[m] = logAddExp(pj[m], prev[m]-float64(m+1)*w)
		}
	}
	for k := g - 1; k > 0; k-- {
		lA[k-1] = logAddExp(lA[k], gapA[k])
	}

	perGroup := make([]float64, g)
	for k := range perGroup {
		v := lA[k]
		for m, j := range lJ[k*rTerms : (k+1)*rTerms] {
			v = logAddExp(v, j-float64(m+1)*math.Ln2)
		}
		perGroup[k] = v
	}
	logp := make([]float64, len(s))
	for i, k := range group {
		if k < 0 {
			logp[i] = numeric.LogZero
			continue
		}
		logp[i] = perGroup[k]
	}
	return logp, nil
}

// belowSeries returns Σ_{m≥1} −(x^m)·Eₘ/m for 0 ≤ x ≤ ½ and the sums
// Eₘ = e[m−1]: the logarithm of the product of the CDFs of the candidates
// below a point, x = e^{lo−point}/2. The terms fall at least by half each,
// so it stops once they no longer change the sum.
func belowSeries(e []float64, x float64) float64 {
	sum, xm := 0.0, 1.0
	for m := 1; m <= len(e); m++ {
		xm *= x
		term := xm * e[m-1] / float64(m)
		sum -= term
		if term <= -1e-17*sum {
			break
		}
	}
	return sum
}

// gapCuts splits [0, w] at 1, 2, 4, … 1024 from each end. Every integrand
// on a gap is exp(k·t) times a factor that is flat beyond t ≈ 40, with k an
// integer: constant, or rising or falling at least at rate 1, so its mass
// lies near an end or spreads evenly, and a gap as wide as 1e300 needs no
// more than these pieces and a few splits.
func gapCuts(w float64) []float64 {
	cuts := []float64{0}
	var far []float64
	for p := 1.0; p < w/2 && p <= 1024; p *= 2 {
		cuts = append(cuts, p)
		far = append(far, w-p)
	}
	for i := len(far) - 1; i >= 0; i-- {
		if far[i] > cuts[len(cuts)-1] {
			cuts = append(cuts, far[i])
		}
	}
	if w > cuts[len(cuts)-1] {
		cuts = append(cuts, w)
	}
	return cuts
}
