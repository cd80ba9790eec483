// Package pair computes the exact privacy loss of a mechanism on one pair
// of inputs: the largest |ln p(o | x) − ln p(o | y)| over the outputs o,
// for probabilities (discrete outputs) or densities (continuous or mixed
// outputs). It holds the mechanisms of the published benchmarks of
// DP-Sniper (Bichsel et al., 2021) and StatDP (Ding et al., 2018): the
// sparse vector technique and its variants, report noisy max, noisy
// histograms, the Laplace and truncated geometric mechanisms, RAPPOR,
// prefix sums and parallel compositions; Benchmark lists them with the
// pairs and figures those tools report.
//
// Inputs are vectors of query answers. Which pairs are neighbours is the
// caller's: the benchmarks use pairs whose answers differ by at most 1 in
// every entry (each query has sensitivity 1).
//
// Every loss is exact up to float64 rounding, or comes with a stated bound
// on its error (Loss.Err): discrete outputs take a maximum over every
// output; a supremum of a density ratio is found in closed form where
// there is one, and otherwise by a branch-and-bound search whose Lipschitz
// bound certifies the error.
package pair

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// A Mechanism has an exact output distribution on every input.
type Mechanism interface {
	// Loss returns the privacy loss of the mechanism on the pair (x, y).
	Loss(x, y []float64) (Loss, error)
}

// An Output is one output of a mechanism, with its log-probability (or
// log-density) under each input of the pair; −Inf when impossible. An
// output only approached as a limit (far in a tail) has Limit set and the
// log-probabilities NaN.
type Output struct {
	Text       string
	LogP, LogQ float64
	Limit      bool
}

// Loss describes the privacy loss on a pair (x, y): with ℓ(o) = ln p(o | x)
// − ln p(o | y), Up is sup ℓ and Down is sup −ℓ, reached at (or
// approached towards) UpAt and DownAt. Either is +Inf when an output is
// possible under one input and impossible under the other. The exact
// values lie within Err of the reported ones (0: a closed form, exact up to
// float64 rounding).
type Loss struct {
	Up, Down     float64
	UpAt, DownAt Output
	Err          float64
	Method       string
}

// Value returns the privacy loss max(Up, Down).
func (l Loss) Value() float64 { return math.Max(l.Up, l.Down) }

// Worst returns the output where the loss is largest.
func (l Loss) Worst() Output {
	if l.Down > l.Up {
		return l.DownAt
	}
	return l.UpAt
}

// Unbounded reports whether the loss is infinite.
func (l Loss) Unbounded() bool { return math.IsInf(l.Value(), 1) }

// LogRatio returns ln(p/q) from a = ln p and b = ln q: −Inf where p = 0
// (a = −Inf) and +Inf where q = 0 alone, an output possible under one input
// only.
func LogRatio(a, b float64) float64 {
	switch {
	case math.IsInf(a, -1):
		return math.Inf(-1)
	case math.IsInf(b, -1):
		return math.Inf(1)
	}
	return a - b
}

// Holds reports whether a privacy loss keeps a claim of ε: loss ≤ ε, with a
// relative allowance of 1e-9 for the rounding of exact arithmetic done in
// float64 (an ε-DP mechanism's exact loss of ε is computed as ε ± 1e-15).
func Holds(loss, epsilon float64) bool { return loss <= epsilon*(1+1e-9) }

// discreteLoss returns the loss of two distributions over the same
// outputs, given as log-probabilities in the same order; text names output
// i. Outputs impossible under both inputs are skipped.
func discreteLoss(lp, lq []float64, relErr float64, text func(i int) string, method string) Loss {
	l := Loss{Up: math.Inf(-1), Down: math.Inf(-1), Method: method}
	for i := range lp {
		a, b := lp[i], lq[i]
		if math.IsInf(a, -1) && math.IsInf(b, -1) {
			continue
		}
		d := LogRatio(a, b)
		if d > l.Up {
			l.Up, l.UpAt = d, Output{Text: text(i), LogP: a, LogQ: b}
		}
		if -d > l.Down {
			l.Down, l.DownAt = -d, Output{Text: text(i), LogP: a, LogQ: b}
		}
	}
	// ln p − ln q with each within a relative error relErr moves by at most
	// about 2·relErr.
	l.Err = 2 * relErr
	return l
}

// checkPair validates a pair of answer vectors of equal length n, with
// lo ≤ n ≤ hi entries, each finite and of magnitude at most MaxAnswer.
func checkPair(x, y []float64, lo, hi int) error {
	if len(x) != len(y) {
		return validate.Errorf("pair", "the two inputs have %d and %d entries", len(x), len(y))
	}
	if len(x) < lo || len(x) > hi {
		if lo == hi {
			return validate.Errorf("pair", "needs %d entries per input, got %d", lo, len(x))
		}
		return validate.Errorf("pair", "needs %d to %d entries per input, got %d", lo, hi, len(x))
	}
	for i := range x {
		for _, v := range []float64{x[i], y[i]} {
			if err := validate.Finite(validate.Index("pair", i), v); err != nil {
				return err
			}
			if math.Abs(v) > MaxAnswer {
				return validate.Errorf(validate.Index("pair", i), "must be between −%g and %g, got %v", float64(MaxAnswer), float64(MaxAnswer), v)
			}
		}
	}
	return nil
}

// MaxAnswer bounds the magnitude of a query answer.
const MaxAnswer = 1e6

// supSearch returns the best point and value found for the supremum of g
// over [a, b], and a certified gap: sup g ≤ max(best, floor) + gap. It is
// a branch and bound: g is evaluated at a, b and the kinks start (points
// where its derivative may jump), and an interval [u, v] of width w with no
// kink inside can hold nothing above
//
//	min((g(u)+g(v))/2 + lip·w/2,  max(g(u), g(v)) + curv·w²/8),
//
// the first because g is Lipschitz with constant lip, the second because
// g″ ≥ −curv(u, v) on [u, v] (g minus its chord is at most
// curv·(t−u)(v−t)/2),
// and by extra(u, v), any other bound on g over [u, v] (+Inf for none). The
// interval with the largest bound is halved until no bound exceeds
// max(best, floor) + tol; floor is a value known to be approached
// elsewhere (a limit in a tail), which spares refining what cannot beat it.
// A region where g is nearly flat at its supremum makes the search long
// (about √(curv/tol) intervals per unit of length) unless curv, bounded on
// the interval itself, falls there too.
func supSearch(g func(float64) float64, a, b, lip float64, curv func(u, v float64) float64, tol, floor float64, start []float64, extra func(u, v float64) float64) (at, best, gap float64) {
	type iv struct{ u, v, gu, gv, ub float64 }
	pts := []float64{a}
	for _, s := range start {
		if s > a && s < b {
			pts = append(pts, s)
		}
	}
	pts = append(pts, b)
	sort.Float64s(pts)
	best, at = math.Inf(-1), a
	vals := make([]float64, len(pts))
	for i, p := range pts {
		vals[i] = g(p)
		if vals[i] > best {
			best, at = vals[i], p
		}
	}
	var h []iv
	push := func(x iv) {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if h[p].ub >= h[i].ub {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
	}
	pop := func() {
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for i := 0; ; {
			l, r, m := 2*i+1, 2*i+2, i
			if l < len(h) && h[l].ub > h[m].ub {
				m = l
			}
			if r < len(h) && h[r].ub > h[m].ub {
				m = r
			}
			if m == i {
				break
			}
			h[m], h[i] = h[i], h[m]
			i = m
		}
	}
	bound := func(u, v, gu, gv float64) float64 {
		w := v - u
		return math.Min(math.Min((gu+gv)/2+lip*w/2, math.Max(gu, gv)+curv(u, v)*w*w/8), extra(u, v))
	}
	for i := 0; i+1 < len(pts); i++ {
		if pts[i+1] > pts[i] {
			push(iv{pts[i], pts[i+1], vals[i], vals[i+1], bound(pts[i], pts[i+1], vals[i], vals[i+1])})
		}
	}
	const maxSteps = 1_000_000
	for step := 0; len(h) > 0 && step < maxSteps; step++ {
		top := h[0]
		if top.ub-math.Max(best, floor) <= tol {
			break
		}
		pop()
		mid := top.u + (top.v-top.u)/2
		if !(mid > top.u && mid < top.v) {
			continue // one float wide: its ends are its values
		}
		gm := g(mid)
		if gm > best {
			best, at = gm, mid
		}
		push(iv{top.u, mid, top.gu, gm, bound(top.u, mid, top.gu, gm)})
		push(iv{mid, top.v, gm, top.gv, bound(mid, top.v, gm, top.gv)})
	}
	if len(h) > 0 {
		gap = math.Max(0, h[0].ub-math.Max(best, floor))
	}
	return at, best, gap
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func vec(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = ftoa(x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
