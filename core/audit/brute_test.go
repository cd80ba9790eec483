package audit

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dpplay/dpplay/core/internal/reference"
)

// The brute-force auditor below is written apart from the engine: scores
// are Go closures, not expressions; every pair of data sets is compared
// against the neighbour definition directly (O(N²)); probabilities are
// plain float64 ratios, integrals Simpson's rule on a fine grid.

type bruteScore func(c []int, r int) float64

func universe(k, m int) [][]int {
	var out [][]int
	var rec func(prefix []int)
	rec = func(prefix []int) {
		if len(prefix) == k {
			out = append(out, append([]int(nil), prefix...))
			return
		}
		for c := 0; c <= m; c++ {
			rec(append(prefix, c))
		}
	}
	rec(nil)
	return out
}

func total(c []int) int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

func scoresOf(f bruteScore, c []int) []float64 {
	u := make([]float64, len(c))
	for r := range u {
		u[r] = f(c, r)
	}
	return u
}

func maxAbsLogRatio(p, q []float64) float64 {
	l := 0.0
	for i := range p {
		l = math.Max(l, math.Abs(math.Log(p[i])-math.Log(q[i])))
	}
	return l
}

// bruteWorst is the largest loss(x, y) over all neighbouring pairs.
func bruteWorst(k, m int, notion string, loss func(x, y []int) float64) (float64, int) {
	all := universe(k, m)
	worst, pairs := 0.0, 0
	for a := range all {
		for b := a + 1; b < len(all); b++ {
			if AreNeighbours(all[a], all[b], notion) {
				pairs++
				worst = math.Max(worst, loss(all[a], all[b]))
			}
		}
	}
	return worst, pairs
}

type bruteCase struct {
	name  string
	src   string
	score bruteScore
}

var bruteScores = []bruteCase{
	{"count", "count[r]", func(c []int, r int) float64 { return float64(c[r]) }},
	{"gap to next", "count[r] - count[(r+1)%k]", func(c []int, r int) float64 { return float64(c[r] - c[(r+1)%len(c)]) }},
	{"twice", "2*count[r]", func(c []int, r int) float64 { return 2 * float64(c[r]) }},
	{"share", "count[r] / max(n, 1)", func(c []int, r int) float64 { return float64(c[r]) / math.Max(float64(total(c)), 1) }},
	{"others", "n - count[r]", func(c []int, r int) float64 { return float64(total(c) - c[r]) }},
	{"square", "count[r]^2 / 4", func(c []int, r int) float64 { return float64(c[r]*c[r]) / 4 }},
}

func auditAll(t *testing.T, c Config) Result {
	t.Helper()
	a, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.All()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWorstLossMatchesBruteForceSelection(t *testing.T) {
	const eps, delta = 1.0, 1.0
	mu := []float64{1, 2, 0.5}
	type mechCase struct {
		name string
		dist func(u []float64) []float64
		tol  float64
		mu   []float64
	}
	mechs := []mechCase{
		{"exponential", func(u []float64) []float64 { return reference.Exponential(u, eps/(2*delta), nil) }, 1e-12, nil},
		{"exponential", func(u []float64) []float64 { return reference.Exponential(u, eps/(2*delta), mu) }, 1e-12, mu},
		{"report-noisy-max-gumbel", func(u []float64) []float64 { return reference.Exponential(u, eps/(2*delta), nil) }, 1e-12, nil},
		{"permute-and-flip", func(u []float64) []float64 { return reference.PermuteAndFlip(u, eps, delta) }, 1e-10, nil},
		{"report-noisy-max-laplace", func(u []float64) []float64 { return reference.RNMLaplace(u, delta/eps, 2000) }, 1e-6, nil},
	}
	for _, mc := range mechs {
		for _, sc := range bruteScores {
			for _, notion := range []string{AddRemove, ChangeOne} {
				k, m := 3, 3
				if mc.name == "report-noisy-max-laplace" {
					m = 2 // the Simpson brute force is slow
					if sc.name != "count" && sc.name != "gap to next" && sc.name != "others" {
						continue
					}
				}
				dist := perDataSet(func(x []int) []float64 { return mc.dist(scoresOf(sc.score, x)) })
				want, pairs := bruteWorst(k, m, notion, func(x, y []int) float64 {
					return maxAbsLogRatio(dist(x), dist(y))
				})
				got := auditAll(t, Config{Mechanism: mc.name, Score: sc.src, Sensitivity: "1", Epsilon: eps,
					Candidates: k, MaxCount: m, Neighbours: notion, Measure: mc.mu})
				if got.Pairs != int64(pairs) {
					t.Errorf("%s %s %s: %d pairs, brute force %d", mc.name, sc.name, notion, got.Pairs, pairs)
				}
				if math.Abs(got.Loss-want) > mc.tol*math.Max(1, want) {
					t.Errorf("%s μ=%v %s %s: worst loss %.15g, brute force %.15g", mc.name, mc.mu, sc.name, notion, got.Loss, want)
				}
			}
		}
	}
}

// supSteps is the number of steps of bruteSup's uniform grid.
const supSteps = 20000

// supGrid is bruteSup's uniform grid on [lo, hi].
func supGrid(lo, hi float64) []float64 {
	g := make([]float64, supSteps+1)
	for q := range g {
		g[q] = lo + (hi-lo)*float64(q)/supSteps
	}
	return g
}

// bruteSup returns the largest |a[q] − b[q]| over the points of a grid,
// given a and b there, and the largest |f(t)| over the extra points (the
// kinks, where a maximum may sit).
func bruteSup(a, b []float64, f func(t float64) float64, extra []float64) float64 {
	s := 0.0
	for q := range a {
		s = math.Max(s, math.Abs(a[q]-b[q]))
	}
	for _, t := range extra {
		s = math.Max(s, math.Abs(f(t)))
	}
	return s
}

// perDataSet returns f with its results kept per data set: bruteWorst
// meets each data set once for every neighbour it has, so what depends on
// one data set alone is computed once.
func perDataSet[T any](f func(x []int) T) func(x []int) T {
	seen := map[string]T{}
	return func(x []int) T {
		key := fmt.Sprint(x)
		v, ok := seen[key]
		if !ok {
			v = f(x)
			seen[key] = v
		}
		return v
	}
}

func TestWorstLossMatchesBruteForceContinuous(t *testing.T) {
	const eps = 0.7
	b := 1 / eps
	// Laplace on every value: the grid of released values, and the log
	// density of each value's noisy release on it.
	var laplaceGrid []float64
	for q := -2000; q <= 2000; q++ {
		laplaceGrid = append(laplaceGrid, float64(q)/100)
	}
	laplaceLog := func(o, u float64) float64 { return math.Log(reference.LaplacePDF(o-u, b)) }
	// Report noisy max with the value: ln of the density that candidate i
	// is reported with value t, for scores u, is ln f(t − uᵢ) + Σⱼ≠ᵢ ln F(t − uⱼ),
	// f and F the Laplace density and distribution function. On the grid,
	// the terms are kept per score value.
	valueGrid := supGrid(-10, 20)
	winLog := func(u []float64, i int, t float64) float64 {
		f := reference.LaplacePDF(t-u[i], b)
		for j := range u {
			if j != i {
				f *= reference.LaplaceCDF(t-u[j], b)
			}
		}
		return math.Log(f)
	}
	type terms struct{ logPDF, logCDF []float64 }
	onGrid := map[float64]terms{}
	termsOf := func(s float64) terms {
		tm, ok := onGrid[s]
		if !ok {
			for _, t := range valueGrid {
				tm.logPDF = append(tm.logPDF, math.Log(reference.LaplacePDF(t-s, b)))
				tm.logCDF = append(tm.logCDF, math.Log(reference.LaplaceCDF(t-s, b)))
			}
			onGrid[s] = tm
		}
		return tm
	}
	for _, sc := range bruteScores {
		for _, notion := range []string{AddRemove, ChangeOne} {
			k, m := 2, 3
			// The density is a product, so the sup of the log-ratio is the
			// sum of per-coordinate sups on a grid.
			laplace := perDataSet(func(x []int) [][]float64 {
				u := scoresOf(sc.score, x)
				out := make([][]float64, len(u))
				for r := range u {
					for _, o := range laplaceGrid {
						out[r] = append(out[r], laplaceLog(o, u[r]))
					}
				}
				return out
			})
			want, _ := bruteWorst(k, m, notion, func(x, y []int) float64 {
				lu, lv := laplace(x), laplace(y)
				up, down := 0.0, 0.0
				for r := range lu {
					hiV, loV := math.Inf(-1), math.Inf(1)
					for q := range lu[r] {
						g := lu[r][q] - lv[r][q]
						hiV, loV = math.Max(hiV, g), math.Min(loV, g)
					}
					up, down = up+hiV, down+loV
				}
				return math.Max(up, -down)
			})
			got := auditAll(t, Config{Mechanism: NameLaplace, Score: sc.src, Sensitivity: "1", Epsilon: eps,
				Candidates: k, MaxCount: m, Neighbours: notion})
			if math.Abs(got.Loss-want) > 1e-9 {
				t.Errorf("laplace %s %s: worst loss %.12g, brute force %.12g", sc.name, notion, got.Loss, want)
			}

			// Report noisy max with the value: dense grid plus the +∞ limit.
			k = 3
			value := perDataSet(func(x []int) [][]float64 {
				u := scoresOf(sc.score, x)
				out := make([][]float64, len(u))
				for i := range u {
					out[i] = slices.Clone(termsOf(u[i]).logPDF)
					for j := range u {
						if j != i {
							for q, l := range termsOf(u[j]).logCDF {
								out[i][q] += l
							}
						}
					}
				}
				return out
			})
			want, _ = bruteWorst(k, 2, notion, func(x, y []int) float64 {
				u, v := scoresOf(sc.score, x), scoresOf(sc.score, y)
				gu, gv := value(x), value(y)
				l := 0.0
				for i := range u {
					g := func(t float64) float64 { return winLog(u, i, t) - winLog(v, i, t) }
					l = math.Max(l, bruteSup(gu[i], gv[i], g, append(append([]float64(nil), u...), v...)))
					l = math.Max(l, math.Abs(u[i]-v[i])/b)
				}
				return l
			})
			got = auditAll(t, Config{Mechanism: NameReportNoisyMaxWithValue, Score: sc.src, Sensitivity: "1", Epsilon: eps,
				Candidates: k, MaxCount: 2, Neighbours: notion})
			if got.Loss < want-1e-9 || got.Loss > want+1e-5 {
				t.Errorf("value release %s %s: worst loss %.12g, brute force %.12g", sc.name, notion, got.Loss, want)
			}
		}
	}
}
