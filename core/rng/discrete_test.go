package rng

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/stats"
)

func TestBernoulliExpFraction(t *testing.T) {
	for _, g := range [][2]uint64{{0, 1}, {1, 1}, {1, 3}, {7, 10}} {
		r := Seeded(71)
		hits := 0
		const n = 200_000
		for i := 0; i < n; i++ {
			if bernoulliExpFraction(r, g[0], g[1]) {
				hits++
			}
		}
		p := math.Exp(-float64(g[0]) / float64(g[1]))
		if res, _ := stats.ChiSquare([]int{hits, n - hits}, []float64{p, 1 - p}); res.PValue < alpha {
			t.Errorf("Bernoulli(exp(−%d/%d)): %d hits, p-value %.3g", g[0], g[1], hits, res.PValue)
		}
	}
}

// discreteCounts draws n values and bins them from −width to width, with
// the two tails beyond in the outer bins.
func discreteCounts(l DiscreteLaplace, seed uint64, n, width int) []int {
	r := Seeded(seed)
	counts := make([]int, 2*width+3)
	for i := 0; i < n; i++ {
		y := l.Sample(r)
		switch {
		case y < -int64(width):
			counts[0]++
		case y > int64(width):
			counts[len(counts)-1]++
		default:
			counts[int(y)+width+1]++
		}
	}
	return counts
}

// discreteProbs gives the exact probabilities of the same bins.
func discreteProbs(s float64, width int) []float64 {
	probs := make([]float64, 2*width+3)
	c := math.Tanh(1 / (2 * s))
	for y := -width; y <= width; y++ {
		probs[y+width+1] = c * math.Exp(-math.Abs(float64(y))/s)
	}
	// Pr[Y > w] = c·e^{−(w+1)/σ}/(1 − e^{−1/σ}).
	tail := c * math.Exp(-float64(width+1)/s) / -math.Expm1(-1/s)
	probs[0], probs[len(probs)-1] = tail, tail
	return probs
}

func TestDiscreteLaplaceExact(t *testing.T) {
	for i, scale := range []float64{0.3, 1, 2.5, 10} {
		l, err := NewDiscreteLaplace(scale)
		if err != nil {
			t.Fatal(err)
		}
		if l.Scale() < scale || l.Scale() > scale+1.0/discreteDenominator {
			t.Errorf("scale %v rounded to %v", scale, l.Scale())
		}
		width := int(4*scale) + 2
		counts := discreteCounts(l, uint64(80+i), 200_000, width)
		if res, _ := stats.ChiSquare(counts, discreteProbs(l.Scale(), width)); res.PValue < alpha {
			t.Errorf("σ = %v: χ² = %.1f, p = %.3g", scale, res.Statistic, res.PValue)
		}
		// Against the distribution with a 10% wider scale, it must fail.
		if res, _ := stats.ChiSquare(counts, discreteProbs(1.1*l.Scale(), width)); res.PValue >= alpha {
			t.Errorf("σ = %v: passed against a 10%% wider scale: p = %.3g", scale, res.PValue)
		}
		sum := 0.0
		for y := int64(-400); y <= 400; y++ {
			sum += math.Exp(l.LogPMF(y))
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("σ = %v: PMF sums to %v", scale, sum)
		}
	}
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1), 1e12} {
		if _, err := NewDiscreteLaplace(bad); err == nil {
			t.Errorf("NewDiscreteLaplace(%v): no error", bad)
		}
	}
}
