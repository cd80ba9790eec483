package mech

import (
	"math"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/internal/calltest"
	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/rng"
)

// sources are the streams every sampler runs on below: a seeded one and the
// two extremes of OpenUnit with either sign bit (1<<11 makes OpenUnit return
// 2^−53, the largest exponential draw 36.7; MaxUint64 its largest value).
func sources() []*mrand.Rand {
	return []*mrand.Rand{
		rng.Seeded(77),
		mrand.New(calltest.Const(1 << 11)),
		mrand.New(calltest.Const(1<<11 | 1)),
		mrand.New(calltest.Const(math.MaxUint64)),
		mrand.New(calltest.Const(math.MaxUint64 - 1)),
	}
}

func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func ints(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// The extremes every test below combines: ε and Δ from the smallest
// subnormal to the largest double, scores at the edges of the range, one
// candidate, and points to evaluate densities at, NaN and ±Inf included.
var (
	extremeEpsilons = []float64{5e-324, 1e-308, 1e-12, 1, 1e12, 1e308, math.MaxFloat64}
	extremeDeltas   = []float64{5e-324, 1e-300, 1e-12, 1, 1e12, 1e296, 1e308}
	extremeScores   = [][]float64{
		{42},
		{1, 2, 3},
		{1e308, -1e308, 0},
		{math.MaxFloat64, -math.MaxFloat64},
		{-1e308, -1e308},
		{math.MaxFloat64, math.MaxFloat64, 0},
	}
	extremePoints = []float64{0, 1, -1, 1e-300, 1e308, -1e308, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN()}
)

// Every public constructor and method of the selection mechanisms returns
// an error or finite numbers, and never panics.
func TestExtremeInputsSelection(t *testing.T) {
	for _, scores := range extremeScores {
		for _, eps := range extremeEpsilons {
			for _, sen := range extremeDeltas {
				c := Config{Scores: scores, Epsilon: eps, Sensitivity: sen}
				what := g(eps) + "/" + g(sen) + " on " + strings.Trim(strings.Join(strings.Fields(strings.Trim(strconv.Quote(stringOf(scores)), `"`)), " "), " ")
				for _, name := range Names() {
					calltest.Finite(t, name+" ε/Δ = "+what, func() []float64 {
						m, err := New(name, c)
						if err != nil {
							return nil
						}
						out := append(m.Probabilities(), m.LogProbabilities()...)
						for _, r := range sources() {
							out = append(out, float64(m.Sample(r)))
						}
						counts, err := Draw(m, rng.Seeded(1), 20)
						if err == nil {
							out = append(out, ints(counts)...)
						}
						if loss, err := ExpectedLoss(m, scores); err == nil {
							out = append(out, loss)
						}
						if loss, err := PrivacyLoss(m, m); err == nil {
							out = append(out, loss)
						}
						if tail, err := TailProbability(m.Probabilities(), scores, 0); err == nil {
							out = append(out, tail)
						}
						return out
					})
				}
				calltest.Finite(t, "SampleExponentialOnce "+what, func() []float64 {
					k, _ := SampleExponentialOnce(c, rng.Seeded(2))
					return []float64{float64(k)}
				})
				calltest.Finite(t, "article conversions "+what, func() []float64 {
					a, _ := FromArticle(eps, sen)
					b, _ := ToArticle(eps, sen)
					return []float64{a, b}
				})
				calltest.Finite(t, "accuracy "+what, func() []float64 {
					opt, count, _ := OptimalCount(scores)
					x, _ := AccuracyThreshold(opt, eps, sen, len(scores), count, 3)
					bound, exact, _ := MeasureTailBound(scores, nil, eps, sen)
					heavy := make([]float64, len(scores))
					for i := range heavy {
						heavy[i] = math.MaxFloat64
					}
					hb, he, _ := MeasureTailBound(scores, heavy, eps, sen)
					return []float64{opt, float64(count), x, bound, exact, hb, he}
				})
			}
		}
		calltest.Finite(t, "neighbours and empirical scores", func() []float64 {
			_ = CheckNeighbours(scores, scores, math.MaxFloat64)
			counts := make([]int, len(scores))
			counts[0] = 3
			ms, _ := EmpiricalScores(scores, counts)
			var out []float64
			for _, m := range ms {
				out = append(out, m.Score, m.Fraction, m.Cumulative)
			}
			return out
		})
	}
}

func stringOf(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = g(x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// The same for the Laplace mechanism, its exponential-mechanism forms and
// the floating-point attack and its fix.
func TestExtremeInputsLaplace(t *testing.T) {
	values := []float64{0, 1, -1e308, 1e308, math.MaxFloat64}
	ranges := [][2]float64{{math.Inf(-1), math.Inf(1)}, {0, 1}, {-1e308, 1e308}, {-math.MaxFloat64, math.MaxFloat64}, {1e300, math.Inf(1)}}
	for _, eps := range extremeEpsilons {
		for _, sen := range extremeDeltas {
			for _, q := range values {
				what := "q = " + g(q) + ", Δ = " + g(sen) + ", ε = " + g(eps)
				calltest.Finite(t, "Laplace "+what, func() []float64 {
					l, err := NewLaplace(q, sen, eps)
					if err != nil {
						return nil
					}
					out := []float64{l.Scale()}
					for _, x := range extremePoints {
						out = append(out, l.LogDensity(x), l.Density(x), l.CDF(x))
					}
					for _, r := range sources() {
						out = append(out, l.Sample(r))
					}
					return out
				})
				for _, rg := range ranges {
					calltest.Finite(t, "LaplaceAsExponential on ["+g(rg[0])+", "+g(rg[1])+"] "+what, func() []float64 {
						m, err := NewLaplaceAsExponential(q, sen, eps, rg[0], rg[1])
						if err != nil {
							return nil
						}
						var out []float64
						for _, x := range extremePoints {
							out = append(out, m.LogDensity(x), m.Density(x), m.CDF(x))
						}
						for _, r := range sources() {
							x := m.Sample(r)
							if x < rg[0] || x > rg[1] {
								t.Errorf("LaplaceAsExponential %s: sample %v outside [%v, %v]", what, x, rg[0], rg[1])
							}
							out = append(out, x)
						}
						return out
					})
				}
				calltest.Finite(t, "LaplaceOnGrid "+what, func() []float64 {
					grid, m, err := LaplaceOnGrid(q, sen, eps, -1e308, 1e308, 1e303)
					if err != nil {
						return nil
					}
					return append(append(grid, m.LogProbabilities()...), float64(m.Sample(rng.Seeded(3))))
				})
				calltest.Finite(t, "floating-point attack "+what, func() []float64 {
					n, _ := FloatingPointAttack(q, q+sen, sen, eps, 3, rng.Seeded(4))
					ok, _ := NaiveLaplaceCouldOutput(q, q, sen/eps)
					return []float64{float64(n), map[bool]float64{true: 1}[ok]}
				})
			}
			for _, d := range []int64{1, 1000, math.MaxInt64} {
				calltest.Finite(t, "DiscreteLaplace Δ = "+strconv.FormatInt(d, 10)+", ε = "+g(eps), func() []float64 {
					m, err := NewDiscreteLaplace(7, d, eps)
					if err != nil {
						return nil
					}
					out := []float64{m.Epsilon(), m.Scale(), float64(m.Sample(rng.Seeded(5)))}
					for _, y := range []int64{0, 7, math.MaxInt64, math.MinInt64} {
						out = append(out, m.LogPMF(y))
					}
					return out
				})
			}
		}
	}
}

// Zero values are usable or inert, as their doc comments say: finite
// numbers, no panic.
func TestZeroValues(t *testing.T) {
	r := rng.Seeded(6)
	calltest.Finite(t, "DiscreteLaplace{}", func() []float64 {
		var m DiscreteLaplace
		return []float64{m.Epsilon(), m.Scale(), m.LogPMF(0), m.LogPMF(math.MinInt64), float64(m.Sample(r))}
	})
	calltest.Finite(t, "Laplace{}", func() []float64 {
		var l Laplace
		return []float64{l.Scale(), l.LogDensity(0), l.Density(0), l.CDF(0), l.Sample(r)}
	})
	calltest.Finite(t, "LaplaceAsExponential{}", func() []float64 {
		var m LaplaceAsExponential
		return []float64{m.LogDensity(0), m.Density(0), m.CDF(0), m.CDF(1), m.Sample(r)}
	})
	calltest.Finite(t, "Exponential{}", func() []float64 {
		var m Exponential
		if err := m.Fill(r, nil, 3); err == nil {
			t.Error("Exponential{}.Fill drew from no candidates")
		}
		return append(m.Probabilities(), float64(m.Sample(r)))
	})
	calltest.Finite(t, "ReportNoisyMax{}", func() []float64 {
		var m ReportNoisyMax
		return append(m.Probabilities(), float64(m.Sample(r)))
	})
}

// Scales that no double can serve are refused when the mechanism is built,
// with a message naming what the student chose, ε and Δ, rather than a
// derived "scale"; and the methods' documented values at NaN and ±Inf.
func TestLaplaceScaleErrorsAndDocumentedValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func() error
	}{
		{"Laplace ε = 1e-12, Δ = 1e296", func() error { _, err := NewLaplace(0, 1e296, 1e-12); return err }},
		{"Laplace ε = 1e-308, Δ = 1", func() error { _, err := NewLaplace(0, 1, 1e-308); return err }},
		{"Laplace ε = 1e-12, Δ = 5e-324", func() error { _, err := NewLaplace(0, 5e-324, 1e-12); return err }},
		{"LaplaceAsExponential ε = 1e-300, Δ = 1e12", func() error {
			_, err := NewLaplaceAsExponential(0, 1e12, 1e-300, math.Inf(-1), math.Inf(1))
			return err
		}},
		{"DiscreteLaplace ε = 1e-12", func() error { _, err := NewDiscreteLaplace(0, 1, 1e-12); return err }},
	} {
		err := tc.build()
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "ε") || !strings.Contains(msg, "Δ") || strings.Contains(msg, "%!") {
			t.Errorf("%s: message %q should name ε and Δ", tc.name, msg)
		}
	}
	l, _ := NewLaplace(3, 1, 1)
	m, _ := NewLaplaceAsExponential(3, 1, 1, math.Inf(-1), math.Inf(1))
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"Laplace LogDensity(+Inf)", l.LogDensity(math.Inf(1)), numeric.LogZero},
		{"Laplace LogDensity(−Inf)", l.LogDensity(math.Inf(-1)), numeric.LogZero},
		{"Laplace LogDensity(NaN)", l.LogDensity(math.NaN()), numeric.LogZero},
		{"Laplace Density(NaN)", l.Density(math.NaN()), 0},
		{"Laplace CDF(NaN)", l.CDF(math.NaN()), 0},
		{"Laplace CDF(−Inf)", l.CDF(math.Inf(-1)), 0},
		{"Laplace CDF(+Inf)", l.CDF(math.Inf(1)), 1},
		{"LaplaceAsExponential LogDensity(+Inf)", m.LogDensity(math.Inf(1)), numeric.LogZero},
		{"LaplaceAsExponential CDF(NaN)", m.CDF(math.NaN()), 0},
		{"LaplaceAsExponential CDF(+Inf)", m.CDF(math.Inf(1)), 1},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
