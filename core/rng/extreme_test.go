package rng

import (
	"math"
	mrand "math/rand/v2"
	"strconv"
	"testing"

	"github.com/dpplay/dpplay/core/internal/calltest"
)

// extremeSources are the streams every sampler is run on below: a seeded
// one and constant words. With 1<<11 OpenUnit gives its smallest value 2^−53
// (so −ln U = 36.7, the largest exponential draw), with MaxUint64 its
// largest: extremes a seeded stream would only reach after about 2^53 draws.
func extremeSources() map[string]*mrand.Rand {
	return map[string]*mrand.Rand{
		"seeded":       Seeded(99),
		"smallest U":   mrand.New(calltest.Const(1 << 11)),
		"largest U":    mrand.New(calltest.Const(math.MaxUint64)),
		"smallest U+1": mrand.New(calltest.Const(1<<11 | 1)), // odd: the other sign
	}
}

// Every public constructor and method of rng either returns an error or a
// finite value, and never panics, at the edges of the double range.
func TestExtremeInputsRng(t *testing.T) {
	scales := []float64{5e-324, 1e-310, 0x1p-1022, 1e-300, 1e-12, 1, 2.5e306, MaxScale, 1e307, 1e308, math.MaxFloat64,
		0, -1, math.NaN(), math.Inf(1)}
	for _, b := range scales {
		l, err := NewLaplace(b)
		// Accepted exactly on [MinScale, MaxScale]: a subnormal scale has
		// lost its precision, and beyond MaxScale draws overflow.
		if want := b >= MinScale && b <= MaxScale; (err == nil) != want {
			t.Errorf("NewLaplace(%v): error %v, want accepted = %v", b, err, want)
		}
		if err == nil {
			for name, r := range extremeSources() {
				calltest.Finite(t, "Laplace("+ftoa(b)+").Sample on "+name, func() []float64 {
					xs := []float64{l.Scale()}
					for i := 0; i < 200; i++ {
						xs = append(xs, l.Sample(r))
					}
					return xs
				})
			}
		}
		d, err := NewDiscreteLaplace(b)
		if err == nil {
			calltest.Finite(t, "DiscreteLaplace("+ftoa(b)+")", func() []float64 {
				r := Seeded(98)
				xs := []float64{d.Scale()}
				for _, y := range []int64{0, 1, -1, 1 << 40, math.MaxInt64, math.MinInt64} {
					xs = append(xs, d.LogPMF(y))
				}
				for i := 0; i < 200; i++ {
					xs = append(xs, float64(d.Sample(r)))
				}
				return xs
			})
		}
	}
	// Zero values: usable (unit scale, as documented), never NaN or a panic.
	calltest.Finite(t, "Laplace{}", func() []float64 {
		var l Laplace
		if l.Scale() != 1 {
			t.Errorf("Laplace{} has scale %v, want 1", l.Scale())
		}
		return []float64{l.Scale(), l.Sample(Seeded(1))}
	})
	calltest.Finite(t, "DiscreteLaplace{}", func() []float64 {
		var d DiscreteLaplace
		if d.Scale() != 1 {
			t.Errorf("DiscreteLaplace{} has scale %v, want 1", d.Scale())
		}
		return []float64{d.Scale(), d.LogPMF(0), d.LogPMF(3), float64(d.Sample(Seeded(1)))}
	})
	calltest.Finite(t, "nil *Alias", func() []float64 {
		var a *Alias
		if err := a.Fill(Seeded(1), nil, 5); err == nil {
			t.Error("nil table filled 5 draws")
		}
		return []float64{float64(a.Len()), float64(a.Draw(Seeded(1)))}
	})
	calltest.Finite(t, "Alias{}", func() []float64 {
		var a Alias
		counts := []int{}
		err := a.Fill(Seeded(1), counts, 5)
		if err == nil {
			t.Error("Alias{}.Fill of 5 draws into no outcomes: no error")
		}
		return []float64{float64(a.Len()), float64(a.Draw(Seeded(1)))}
	})
	for _, probs := range [][]float64{{math.MaxFloat64, math.MaxFloat64}, {5e-324}, {5e-324, 1}, {1e308, 1e-308}} {
		a, err := NewAlias(probs)
		if err != nil {
			continue
		}
		for name, r := range extremeSources() {
			calltest.Finite(t, "Alias draws on "+name, func() []float64 {
				counts := make([]int, len(probs))
				if err := a.Fill(r, counts, 100); err != nil {
					t.Error(err)
				}
				return []float64{float64(a.Draw(r))}
			})
		}
	}
	for name, r := range extremeSources() {
		calltest.Finite(t, "Gumbel, Exponential and OpenUnit on "+name, func() []float64 {
			return []float64{Gumbel(r), Exponential(r), OpenUnit(r)}
		})
	}
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
