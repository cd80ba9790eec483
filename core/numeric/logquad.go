package numeric

import (
	"container/heap"
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// LogIntegrals returns ln ∫ gₖ(x) dx over [cuts[0], cuts[len−1]] for the n
// components k of one vector integrand, sharing every evaluation among
// them. For each subinterval with midpoint mid, level(mid, out) writes a
// level ℓₖ(mid) into out[k], and rel(mid, dx, out) writes
// ln gₖ(mid + dx) − ℓₖ(mid) (−Inf for 0), for |dx| up to the half-width.
// Any level will do; one near ln gₖ(mid) that rel can subtract exactly
// (such as the linear part of an exponent) keeps the node values free of
// the rounding of large exponents, which would otherwise stop the error
// estimates from falling below 1e-13 on a subinterval where ln gₖ is
// like 10¹². level is called before rel for each subinterval; a level of
// −Inf says that gₖ is 0 on it. Report
// noisy max's exact probabilities for thousands of candidates are such a
// vector, one integral per candidate or per term of a series, over one set
// of nodes.
//
// It is globally adaptive Gauss–Kronrod (7/15) quadrature, as Integrate, but
// in the log domain: each subinterval keeps, per component, its value and
// error estimate as logarithms, scaled by the largest node value, so
// integrands like e^−4000 keep their relative accuracy. The initial
// subintervals are those between consecutive cuts (kinks of g belong
// there). Component k is done when its summed error estimate is at most
// relTol times the integral of component ref[k] (ref nil: itself), so a
// series of terms can be held to the accuracy of its first one. It splits
// the subinterval whose error is largest relative to its reference until
// every component is done, and returns a *NotConvergedError if that takes
// more than maxLogPieces subintervals (or more than maxLogCells values) or
// g produced NaN or +Inf. A component whose integrand is 0 everywhere has
// integral LogZero.
func LogIntegrals(level func(mid float64, out []float64), rel func(mid, dx float64, out []float64), n int, cuts []float64, ref []int, relTol float64) ([]float64, error) {
	if n < 1 {
		return nil, validate.Errorf("components", "needs at least one, got %d", n)
	}
	if err := validate.Positive("tolerance", relTol); err != nil {
		return nil, err
	}
	if ref == nil {
		ref = make([]int, n)
		for k := range ref {
			ref[k] = k
		}
	}
	if len(ref) != n {
		return nil, validate.Errorf("ref", "has %d entries for %d components", len(ref), n)
	}
	for k, r := range ref {
		if r < 0 || r >= n {
			return nil, validate.Errorf("ref", "entry %d is %d, outside 0 … %d", k, r, n-1)
		}
	}
	for i, c := range cuts {
		if err := validate.Finite("cut", c); err != nil {
			return nil, err
		}
		if i > 0 && c < cuts[i-1] {
			return nil, validate.Errorf("cuts", "are not sorted at %d", i)
		}
	}
	q := &logQuad{level: level, rel: rel, n: n, lev: make([]float64, n), ref: ref, tol: relTol, nodes: make([]float64, 15*n)}
	for i := 1; i < len(cuts); i++ {
		if cuts[i] > cuts[i-1] {
			if err := q.add(cuts[i-1], cuts[i]); err != nil {
				return nil, err
			}
		}
	}
	out := make([]float64, n)
	if len(q.pieces) == 0 {
		for k := range out {
			out[k] = LogZero
		}
		return out, nil
	}
	for {
		q.totals()
		worstRel := q.worst()
		if worstRel <= 0 {
			break
		}
		if len(q.pieces) >= maxLogPieces || len(q.pieces)*n >= maxLogCells {
			return nil, &NotConvergedError{Value: 0, ErrEstimate: math.Min(math.Exp(worstRel+math.Log(relTol)), math.MaxFloat64), Tolerance: relTol}
		}
		// Split the worst pieces: a handful per pass, so that the totals
		// (O(pieces·n)) are recomputed far less often than pieces are made.
		top := math.Inf(-1)
		for split := 0; split < 8 && q.h.Len() > 0; split++ {
			p := heap.Pop(&q.h).(*logPiece)
			if split == 0 {
				top = p.key
			}
			// Only pieces within a factor e⁷ of the worst: the others may
			// already be fine once it is split.
			if p.key == math.Inf(-1) || p.key < top-7 {
				heap.Push(&q.h, p)
				break
			}
			m := p.a + (p.b/2 - p.a/2)
			if m <= p.a || m >= p.b {
				p.key = math.Inf(-1) // cannot be split in float64: keep it as it is
				heap.Push(&q.h, p)
				continue
			}
			q.remove(p)
			if err := q.add(p.a, m); err != nil {
				return nil, err
			}
			if err := q.add(m, p.b); err != nil {
				return nil, err
			}
		}
		if q.stuck() {
			return nil, &NotConvergedError{Value: 0, ErrEstimate: math.Min(math.Exp(worstRel+math.Log(relTol)), math.MaxFloat64), Tolerance: relTol}
		}
	}
	copy(out, q.tot)
	for k := range out {
		out[k] = clampLog(out[k])
	}
	return out, nil
}

// maxLogPieces and maxLogCells bound LogIntegrals' work and memory: the
// report-noisy-max integrals need a few dozen pieces.
const (
	maxLogPieces = 2_000
	maxLogCells  = 8_000_000
)

type logPiece struct {
	a, b  float64
	v, e  []float64 // ln value, ln error estimate, per component
	key   float64   // largest ln(error/reference) when made; orders the splits
	index int       // in the heap
	live  bool
}

type logQuad struct {
	level  func(float64, []float64)
	rel    func(float64, float64, []float64)
	lev    []float64
	n      int
	ref    []int
	tol    float64
	nodes  []float64 // 15 rows of n log-values
	pieces []*logPiece
	h      logHeap
	tot    []float64 // ln Σ values per component, from totals()
	errTot []float64
}

// add evaluates the 7/15 rule on [a, b] for every component and keeps the
// piece.
func (q *logQuad) add(a, b float64) error {
	c, h := a/2+b/2, b/2-a/2
	n := q.n
	q.level(c, q.lev)
	q.rel(c, 0, q.nodes[7*n:8*n])
	for i := 0; i < 7; i++ {
		dx := h * gkNodes[i]
		q.rel(c, -dx, q.nodes[i*n:(i+1)*n])
		q.rel(c, dx, q.nodes[(14-i)*n:(15-i)*n])
	}
	p := &logPiece{a: a, b: b, v: make([]float64, n), e: make([]float64, n), live: true}
	for k := 0; k < n; k++ {
		if math.IsNaN(q.lev[k]) || math.IsInf(q.lev[k], 1) {
			return &NotConvergedError{Value: 0, ErrEstimate: math.MaxFloat64, Tolerance: q.tol}
		}
		if math.IsInf(q.lev[k], -1) {
			p.v[k], p.e[k] = math.Inf(-1), math.Inf(-1)
			continue
		}
		shift := math.Inf(-1)
		for r := 0; r < 15; r++ {
			x := q.nodes[r*n+k]
			if math.IsNaN(x) || math.IsInf(x, 1) {
				return &NotConvergedError{Value: 0, ErrEstimate: math.MaxFloat64, Tolerance: q.tol}
			}
			shift = math.Max(shift, x)
		}
		if math.IsInf(shift, -1) {
			p.v[k], p.e[k] = math.Inf(-1), math.Inf(-1)
			continue
		}
		w := func(r int) float64 { return math.Exp(q.nodes[r*n+k] - shift) }
		kronrod := w(7) * kronrodWeights[7]
		gauss := w(7) * gaussWeights[3]
		for i := 0; i < 7; i++ {
			pair := w(i) + w(14-i)
			kronrod += kronrodWeights[i] * pair
			if i%2 == 1 {
				gauss += gaussWeights[i/2] * pair
			}
		}
		p.v[k] = q.lev[k] + shift + math.Log(kronrod*h)
		p.e[k] = q.lev[k] + shift + math.Log(math.Abs(kronrod-gauss)*h)
	}
	q.pieces = append(q.pieces, p)
	p.key = math.Inf(1) // ordered once the totals are known
	heap.Push(&q.h, p)
	return nil
}

// remove drops a piece that has been split.
func (q *logQuad) remove(p *logPiece) {
	p.live = false
	for i, x := range q.pieces {
		if x == p {
			last := len(q.pieces) - 1
			q.pieces[i] = q.pieces[last]
			q.pieces = q.pieces[:last]
			break
		}
	}
}

// totals recomputes ln Σ value and ln Σ error per component over the pieces.
func (q *logQuad) totals() {
	if q.tot == nil {
		q.tot, q.errTot = make([]float64, q.n), make([]float64, q.n)
	}
	for k := 0; k < q.n; k++ {
		mv, me := math.Inf(-1), math.Inf(-1)
		for _, p := range q.pieces {
			mv, me = math.Max(mv, p.v[k]), math.Max(me, p.e[k])
		}
		sv, se := 0.0, 0.0
		for _, p := range q.pieces {
			if !math.IsInf(mv, -1) {
				sv += math.Exp(p.v[k] - mv)
			}
			if !math.IsInf(me, -1) {
				se += math.Exp(p.e[k] - me)
			}
		}
		q.tot[k], q.errTot[k] = mv+math.Log(sv), me+math.Log(se)
		if math.IsInf(mv, -1) {
			q.tot[k] = mv
		}
		if math.IsInf(me, -1) {
			q.errTot[k] = me
		}
	}
}

// worst rekeys every piece by its largest ln(error/(tol·reference)) and
// returns the largest such value for the summed errors: ≤ 0 when every
// component is done.
func (q *logQuad) worst() float64 {
	lt := math.Log(q.tol)
	worst := math.Inf(-1)
	for k := 0; k < q.n; k++ {
		if math.IsInf(q.errTot[k], -1) {
			continue
		}
		worst = math.Max(worst, q.errTot[k]-q.tot[q.ref[k]]-lt)
	}
	for _, p := range q.pieces {
		if p.key == math.Inf(-1) && p.b > p.a {
			// Unsplittable pieces stay last.
			m := p.a + (p.b/2 - p.a/2)
			if m <= p.a || m >= p.b {
				continue
			}
		}
		key := math.Inf(-1)
		for k := 0; k < q.n; k++ {
			if !math.IsInf(p.e[k], -1) {
				key = math.Max(key, p.e[k]-q.tot[q.ref[k]])
			}
		}
		p.key = key
	}
	heap.Init(&q.h)
	return worst
}

// stuck reports that no piece can be split any further.
func (q *logQuad) stuck() bool {
	for _, p := range q.pieces {
		m := p.a + (p.b/2 - p.a/2)
		if m > p.a && m < p.b && p.key > math.Inf(-1) {
			return false
		}
	}
	return true
}

// logHeap orders the live pieces by key, largest first.
type logHeap []*logPiece

// Len is the number of pieces in the heap.
func (h logHeap) Len() int { return len(h) }

// Less puts the larger key first.
func (h logHeap) Less(i, j int) bool { return h[i].key > h[j].key }

// Swap exchanges two pieces and their recorded positions.
func (h logHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }

// Push adds a piece (for container/heap).
func (h *logHeap) Push(x any) { p := x.(*logPiece); p.index = len(*h); *h = append(*h, p) }

// Pop removes the last piece (for container/heap).
func (h *logHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	*h = old[:len(old)-1]
	return p
}
