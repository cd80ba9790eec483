package synth

import (
	"context"
	"math"
	"math/bits"
	mrand "math/rand/v2"
	"sort"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// DefaultMaxCandidates bounds the enumeration when SmallDBConfig leaves
// MaxCandidates at 0: about a billion multisets C(|X|+m−1, m), roughly a
// minute natively.
const DefaultMaxCandidates = 1 << 30

// MaxSize bounds m, the number of rows of the synthetic database.
const MaxSize = 64

// SmallDBConfig configures the small database mechanism.
type SmallDBConfig struct {
	Data    *Data
	Queries *QuerySet
	// Size is m, the number of rows of every candidate. The notes take
	// m = ln|Q|/α² (see SizeForAlpha).
	Size int
	// Epsilon is ε in the notes' parametrisation: a candidate y has weight
	// exp(ε·u(x,y)/(2Δu)) with u = −max_q abs(f(x) − f(y)) and Δu = 1/n.
	Epsilon float64
	// MaxCandidates refuses instances with more candidates than this;
	// 0 means DefaultMaxCandidates.
	MaxCandidates uint64
}

// CandidateCount returns C(|X|+m−1, m), the number of multisets of size m
// over a universe of |X| points: the size of SmallDB's range (490,314 for
// |X| = 16, m = 8). It fails when the count does not
// fit in 64 bits.
func CandidateCount(universeSize, m int) (uint64, error) {
	if universeSize < 1 {
		return 0, validate.Errorf("|X|", "must be at least 1, got %d", universeSize)
	}
	if m < 1 {
		return 0, validate.Errorf("m", "must be at least 1, got %d", m)
	}
	// After step i, c = C(|X|−1+i, i); the division is exact at every step.
	c := uint64(1)
	for i := 1; i <= m; i++ {
		hi, lo := bits.Mul64(c, uint64(universeSize-1+i))
		if hi >= uint64(i) {
			return 0, validate.Errorf("m", "C(%d+%d−1, %d) does not fit in 64 bits", universeSize, m, m)
		}
		c, _ = bits.Div64(hi, lo, uint64(i))
	}
	return c, nil
}

// LogCandidateCount returns ln C(|X|+m−1, m) = lnΓ(|X|+m) − lnΓ(m+1) −
// lnΓ(|X|) via log-gamma, for instances too large to enumerate.
func LogCandidateCount(universeSize, m int) (float64, error) {
	if universeSize < 1 {
		return 0, validate.Errorf("|X|", "must be at least 1, got %d", universeSize)
	}
	if m < 1 {
		return 0, validate.Errorf("m", "must be at least 1, got %d", m)
	}
	a, _ := math.Lgamma(float64(universeSize + m))
	b, _ := math.Lgamma(float64(m + 1))
	c, _ := math.Lgamma(float64(universeSize))
	return a - b - c, nil
}

// Level is one achievable value of the max-error, with how many candidates
// achieve it and their total probability under the exponential mechanism:
// P(level) = count·exp(−ε·n·err/2) / Z.
type Level struct {
	// MaxError is max_q abs(f(x) − f(y)) for every candidate y at this level.
	MaxError float64
	// Scaled is MaxError·n·m, an exact integer: max_q abs(n·c_q(y) − m·a_q(x))
	// with c_q(y), a_q(x) the unnormalised counts.
	Scaled int64
	// Candidates is the number of multisets at this level.
	Candidates uint64
	// LogProbability and Probability are ln P and P of the level; P sums to 1
	// over the levels.
	LogProbability float64
	Probability    float64
}

// SmallDBResult is one run of SmallDB: the drawn multiset y, its
// max-error max_q abs(f(x) − f(y)), and the exact distribution over levels.
type SmallDBResult struct {
	Candidates uint64
	// Synthetic is the chosen multiset as m sorted point indices.
	Synthetic []int
	// SyntheticData is the same multiset as a histogram over the universe.
	SyntheticData *Data
	MaxError      float64
	// Level indexes Levels: the error level the draw fell in.
	Level  int
	Levels []Level
	// TrueAnswers and SyntheticAnswers are f(x) and f(y) for every query.
	TrueAnswers, SyntheticAnswers []float64
}

// enumerator scores every multiset of size m over the universe, depth first
// in lexicographic order of non-decreasing point sequences. The first m−1
// points (the prefix) are held with their query counts; the last point runs
// over a contiguous range in a tight loop, so each candidate costs at most
// one pass over the queries and no recomputation of the prefix.
//
// Error levels are exact integers: with a_q the data's count for query q and
// c_q the candidate's, n·m·abs(f_q(x) − f_q(y)) = abs(n·c_q − m·a_q). Every
// such value is known in advance (c_q ∈ 0..m), so they are sorted once and a
// candidate's level is the maximum of small integer ranks, with no floating
// point and no exp per candidate.
//
// Sampling is exact in one pass: each level keeps one uniformly chosen member
// by reservoir sampling (with geometric skips, so random numbers are drawn
// only about ln(count) times per level), and after the pass a level is drawn
// with probability count·exp(−ε·v/(2m)) / Z, v being the level's scaled
// error (ε·u/(2Δu) = −ε·n·v/(n·m)/2). Its kept member is then a draw from the
// exponential mechanism over all candidates.
type enumerator struct {
	universe, m, nq int
	total           uint64
	r               *mrand.Rand

	values []int64   // sorted distinct scaled errors; a level is an index here
	rank   []int32   // rank[q*(m+1)+c] = level of abs(n·c − m·a_q)
	offs   []uint16  // offs[p*nq+q] = 2q + φ_q(p): where point p reads query q's level
	sat    [][]int32 // queries satisfied by point p
	// leave[u] and enter[u] are the queries that moving one prefix entry
	// from point u to u+1 takes out and puts in: the common step of the
	// enumeration, cheaper than removing all of sat[u] and adding sat[u+1].
	leave, enter [][]int32

	// Queries are numbered by their last member point, and firstActive[v]
	// is the first query whose last member is ≥ v. Once the prefix holds a
	// point v, the points still to come are all ≥ v, so queries below
	// firstActive[v] are settled: settled[j] is the largest level among the
	// queries settled by pts[j]. A run of last points from s only loops over
	// the queries from firstActive[s] on.
	firstActive []int
	settled     []int32

	pts []int32 // current prefix (first m−1 entries used)
	pos []int32 // q·(m+1) + c_q, with c_q query q's count over the prefix
	// r01[2q] is the level of c_q and r01[2q+1] that of c_q+1: a candidate
	// whose last point is p has level max_q r01[offs[p*nq+q]]. A fixed-size
	// array indexed by uint16 needs no bounds checks, which matters in wasm.
	r01 *[1 << 16]int32

	count []uint64  // candidates seen per level
	next  []uint64  // reservoir: the next count at which a level takes a member
	keep  [][]int32 // reservoir: the kept member per level (nil until the first)

	scored uint64
	done   bool

	firstOnly bool // a broken reservoir for tests: keep each level's first member
}

// checkRun checks what SmallDB and MWEM both need before a run: data, queries
// over the data's columns, ε > 0 and a random source.
func checkRun(d *Data, qs *QuerySet, epsilon float64, r *mrand.Rand) error {
	if d == nil {
		return validate.Errorf("data", "is missing")
	}
	if qs == nil {
		return validate.Errorf("queries", "are missing")
	}
	if err := qs.compatible(d); err != nil {
		return err
	}
	if err := validate.Positive("ε", epsilon); err != nil {
		return err
	}
	if r == nil {
		return validate.Errorf("rng", "is missing")
	}
	return nil
}

func newEnumerator(cfg SmallDBConfig, r *mrand.Rand) (*enumerator, error) {
	if err := checkRun(cfg.Data, cfg.Queries, cfg.Epsilon, r); err != nil {
		return nil, err
	}
	if cfg.Size < 1 || cfg.Size > MaxSize {
		return nil, validate.Errorf("m", "must be between 1 and %d, got %d", MaxSize, cfg.Size)
	}
	limit := cfg.MaxCandidates
	if limit == 0 {
		limit = DefaultMaxCandidates
	}
	universe, m, nq := cfg.Data.UniverseSize(), cfg.Size, cfg.Queries.Len()
	total, err := CandidateCount(universe, m)
	if err != nil {
		return nil, err
	}
	if total > limit {
		return nil, validate.Errorf("m", "gives %d candidates, more than the limit of %d; lower m, use fewer columns, or use MWEM", total, limit)
	}
	if universe*nq > 1<<24 {
		return nil, validate.Errorf("queries", "%d queries over %d points is too large a table to score", nq, universe)
	}
	e := &enumerator{universe: universe, m: m, nq: nq, total: total, r: r}

	n := int64(cfg.Data.N())
	a := cfg.Queries.counts(cfg.Data)
	seen := map[int64]bool{}
	for q := 0; q < nq; q++ {
		for c := 0; c <= m; c++ {
			v := n*int64(c) - int64(m)*int64(a[q])
			if v < 0 {
				v = -v
			}
			if !seen[v] {
				seen[v] = true
				e.values = append(e.values, v)
			}
		}
	}
	sort.Slice(e.values, func(i, j int) bool { return e.values[i] < e.values[j] })
	index := make(map[int64]int32, len(e.values))
	for i, v := range e.values {
		index[v] = int32(i)
	}
	// Number the queries internally by their last member point, so that the
	// queries a run of last points [s, |X|) can still change form a suffix.
	order := make([]int, nq)
	lastMember := make([]int, nq)
	for q, query := range cfg.Queries.queries {
		order[q] = q
		lastMember[q] = -1
		for p, in := range query.Member {
			if in {
				lastMember[q] = p
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return lastMember[order[i]] < lastMember[order[j]] })
	e.firstActive = make([]int, universe+1)
	for v := 0; v <= universe; v++ {
		e.firstActive[v] = sort.Search(nq, func(i int) bool { return lastMember[order[i]] >= v })
	}
	e.rank = make([]int32, nq*(m+1))
	for q := 0; q < nq; q++ {
		for c := 0; c <= m; c++ {
			v := n*int64(c) - int64(m)*int64(a[order[q]])
			if v < 0 {
				v = -v
			}
			e.rank[q*(m+1)+c] = index[v]
		}
	}
	e.offs = make([]uint16, universe*nq)
	e.sat = make([][]int32, universe)
	for q, orig := range order {
		for p, in := range cfg.Queries.queries[orig].Member {
			e.offs[p*nq+q] = uint16(2 * q)
			if in {
				e.offs[p*nq+q]++
				e.sat[p] = append(e.sat[p], int32(q))
			}
		}
	}
	e.leave = make([][]int32, universe)
	e.enter = make([][]int32, universe)
	for u := 0; u+1 < universe; u++ {
		for _, q := range e.sat[u] {
			if e.offs[(u+1)*nq+int(q)]&1 == 0 {
				e.leave[u] = append(e.leave[u], q)
			}
		}
		for _, q := range e.sat[u+1] {
			if e.offs[u*nq+int(q)]&1 == 0 {
				e.enter[u] = append(e.enter[u], q)
			}
		}
	}
	e.pts = make([]int32, m)
	e.pos = make([]int32, nq)
	e.r01 = new([1 << 16]int32)
	e.settled = make([]int32, m)
	e.count = make([]uint64, len(e.values))
	e.next = make([]uint64, len(e.values))
	e.keep = make([][]int32, len(e.values))
	e.reset(r)
	return e, nil
}

// reset rewinds the enumeration to the first candidate, forgetting all
// counts and kept members, so that one enumerator can serve many draws.
func (e *enumerator) reset(r *mrand.Rand) {
	e.r = r
	e.scored, e.done = 0, false
	clear(e.pts)
	for q := 0; q < e.nq; q++ {
		e.pos[q] = int32(q * (e.m + 1))
		e.r01[2*q] = e.rank[e.pos[q]]
		e.r01[2*q+1] = e.rank[e.pos[q]+1]
	}
	for j := 0; j < e.m-1; j++ {
		e.add(0, 1)
	}
	// Queries with no member never change: they are settled from the start.
	base := int32(0)
	for q := 0; q < e.firstActive[0]; q++ {
		base = max(base, e.r01[2*q])
	}
	for j := range e.settled {
		e.settled[j] = base
	}
	clear(e.count)
	for i := range e.next {
		e.next[i] = 1
	}
	// Kept members are overwritten before they are read: a level's first
	// candidate always takes the reservoir (next = 1).
}

// add puts point p into the prefix (delta +1) or takes it out (delta −1).
func (e *enumerator) add(p int32, delta int32) { e.update(e.sat[p], delta) }

// update adds delta to the counts of queries qs.
func (e *enumerator) update(qs []int32, delta int32) {
	pos, rank, r01 := e.pos, e.rank, e.r01
	for _, q := range qs {
		b := pos[q] + delta
		pos[q] = b
		r01[uint16(2*q)] = rank[b]
		r01[uint16(2*q+1)] = rank[b+1]
	}
}

// advance scores whole runs of candidates until at least budget more have
// been scored or the enumeration ends. It reports whether it has ended.
func (e *enumerator) advance(budget uint64) bool {
	if e.done {
		return true
	}
	target := e.scored + budget
	m, nq, last, universe := e.m, e.nq, e.m-1, int32(e.universe)
	r01, offs, count, next, pts := e.r01, e.offs, e.count, e.next, e.pts
	for e.scored < target {
		start, floor := int32(0), e.settled[0]
		if last > 0 {
			start, floor = pts[last-1], e.settled[last-1]
		}
		fa := e.firstActive[start]
		for p := start; p < universe; p++ {
			lv := floor
			for _, o := range offs[int(p)*nq+fa : int(p)*nq+nq] {
				if v := r01[o]; v > lv {
					lv = v
				}
			}
			c := count[lv] + 1
			count[lv] = c
			if c == next[lv] {
				if e.keep[lv] == nil {
					e.keep[lv] = make([]int32, m)
				}
				copy(e.keep[lv], pts[:last])
				e.keep[lv][last] = p
				next[lv] = reservoirNext(c, e.r)
				if e.firstOnly {
					next[lv] = math.MaxUint64
				}
			}
		}
		e.scored += uint64(universe - start)
		// Move the prefix to the next non-decreasing sequence.
		i := last - 1
		for i >= 0 && pts[i] == universe-1 {
			i--
		}
		if i < 0 {
			e.done = true
			return true
		}
		u := pts[i]
		if i == last-1 {
			e.update(e.leave[u], -1)
			e.update(e.enter[u], 1)
			pts[i] = u + 1
		} else {
			for j := i; j < last; j++ {
				e.add(pts[j], -1)
			}
			for j := i; j < last; j++ {
				pts[j] = u + 1
				e.add(u+1, 1)
			}
		}
		// Queries whose last member is u are now settled at their counts
		// from pts[:i]; those settled earlier kept theirs.
		fl := e.settled[i]
		for q := e.firstActive[u]; q < e.firstActive[u+1]; q++ {
			fl = max(fl, r01[uint16(2*q)])
		}
		for j := i; j < last; j++ {
			e.settled[j] = fl
		}
	}
	return false
}

// reservoirNext returns the next index at which a size-one reservoir that has
// seen c items replaces its member: P(J > j) = c/j for j ≥ c, so
// J = ⌊c/U⌋ + 1 with U uniform on (0, 1).
func reservoirNext(c uint64, r *mrand.Rand) uint64 {
	t := float64(c) / rng.OpenUnit(r)
	if t >= 1<<63 {
		return math.MaxUint64
	}
	return uint64(t) + 1
}

// levels returns the exact distribution over error levels for weight factor
// λ (the mechanism's exponent is λ·ε·u/Δu; SmallDB uses λ = 1/2): level v has
// log-weight ln count + λ·ε·(−v/(n·m))·n = ln count − λ·ε·v/m. Only levels
// with candidates are listed, in increasing error; index maps them back to
// the enumerator's levels.
func (e *enumerator) levels(n int, epsilon, lambda float64) (out []Level, index []int, err error) {
	var logw []float64
	for i, c := range e.count {
		if c == 0 {
			continue
		}
		index = append(index, i)
		logw = append(logw, math.Log(float64(c))-lambda*epsilon*float64(e.values[i])/float64(e.m))
		out = append(out, Level{
			MaxError:   float64(e.values[i]) / (float64(n) * float64(e.m)),
			Scaled:     e.values[i],
			Candidates: c,
		})
	}
	logp, p, err := numeric.Normalize(logw)
	if err != nil {
		return nil, nil, err
	}
	for i := range out {
		out[i].LogProbability = logp[i]
		out[i].Probability = p[i]
	}
	return out, index, nil
}

// drawLevel picks a level with probability P (Gumbel-max on the
// log-probabilities, which stays exact however small they are).
func drawLevel(levels []Level, r *mrand.Rand) int {
	best, arg := math.Inf(-1), 0
	for i, l := range levels {
		if l.LogProbability <= numeric.LogZero {
			continue
		}
		if g := l.LogProbability + rng.Gumbel(r); g > best {
			best, arg = g, i
		}
	}
	return arg
}

// SmallDB runs the small database mechanism of the notes (Algorithm 4):
// enumerate every multiset y of m rows over {0,1}^k, score it by
// u(x, y) = −max_q abs(f(x) − f(y)), and output one with probability
// proportional to exp(ε·u(x,y)/(2Δu)), Δu = 1/n. It is ε-differentially
// private for data sets of n rows differing in one row. The draw is exact
// over all C(|X|+m−1, m) candidates; the result also carries the exact
// distribution of the max-error. progress, if not nil, is called with the
// number of candidates scored so far; ctx cancels the enumeration.
func SmallDB(ctx context.Context, cfg SmallDBConfig, r *mrand.Rand, progress func(scored, total uint64)) (*SmallDBResult, error) {
	if ctx == nil {
		return nil, validate.Errorf("context", "is nil; pass context.Background()")
	}
	s, err := NewSmallDBStepper(cfg, r)
	if err != nil {
		return nil, err
	}
	return s.Run(ctx, progress)
}
