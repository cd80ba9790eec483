package audit

import (
	"math"
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
				want, pairs := bruteWorst(k, m, notion, func(x, y []int) float64 {
					return maxAbsLogRatio(mc.dist(scoresOf(sc.score, x)), mc.dist(scoresOf(sc.score, y)))
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

// bruteSup1 returns the largest |f(t)| over a uniform grid on [lo, hi]
// and the given extra points (the kinks, where a maximum may sit).
func bruteSup1(f func(t float64) float64, lo, hi float64, extra []float64) float64 {
	const steps = 20000
	s := 0.0
	for q := 0; q <= steps; q++ {
		s = math.Max(s, math.Abs(f(lo+(hi-lo)*float64(q)/steps)))
	}
	for _, t := range extra {
		s = math.Max(s, math.Abs(f(t)))
	}
	return s
}

func TestWorstLossMatchesBruteForceContinuous(t *testing.T) {
	const eps = 0.7
	for _, sc := range bruteScores {
		for _, notion := range []string{AddRemove, ChangeOne} {
			k, m := 2, 3
			// Laplace on every value: the density is a product, so the sup of
			// the log-ratio is the sum of per-coordinate sups on a grid.
			want, _ := bruteWorst(k, m, notion, func(x, y []int) float64 {
				u, v := scoresOf(sc.score, x), scoresOf(sc.score, y)
				up, down := 0.0, 0.0
				for r := range u {
					g := func(o float64) float64 {
						return math.Log(reference.LaplacePDF(o-u[r], 1/eps)) - math.Log(reference.LaplacePDF(o-v[r], 1/eps))
					}
					hiV, loV := math.Inf(-1), math.Inf(1)
					for q := -2000; q <= 2000; q++ {
						o := float64(q) / 100
						hiV, loV = math.Max(hiV, g(o)), math.Min(loV, g(o))
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
			b := 1 / eps
			want, _ = bruteWorst(k, 2, notion, func(x, y []int) float64 {
				u, v := scoresOf(sc.score, x), scoresOf(sc.score, y)
				l := 0.0
				for i := range u {
					g := func(t float64) float64 {
						fu, fv := reference.LaplacePDF(t-u[i], b), reference.LaplacePDF(t-v[i], b)
						for j := range u {
							if j != i {
								fu *= reference.LaplaceCDF(t-u[j], b)
								fv *= reference.LaplaceCDF(t-v[j], b)
							}
						}
						return math.Log(fu) - math.Log(fv)
					}
					l = math.Max(l, bruteSup1(g, -10, 20, append(append([]float64(nil), u...), v...)))
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
