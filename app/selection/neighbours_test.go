package selection

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/stats"
)

// The page's default pair: Ana said only Thursday in x, every day but
// Thursday in x′. Others' answers give 5, 6, 6, 3, 4.
var anaX, anaY = []float64{5, 6, 6, 4, 4}, []float64{6, 7, 7, 3, 5}

// The exact log-ratio has a closed form: with λ = ε_run/(2Δ),
// ln PX(r) − ln PY(r) = λ(x_r − y_r) − (LSE(λx) − LSE(λy)).
func TestCompareNeighboursExactLogRatio(t *testing.T) {
	for _, broken := range []bool{false, true} {
		got, err := New().CompareNeighbours("t", anaX, anaY, 1, 1, broken, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		lambda := got.Run / 2
		sx, sy := make([]float64, 5), make([]float64, 5)
		for i := range anaX {
			sx[i], sy[i] = lambda*anaX[i], lambda*anaY[i]
		}
		zx, _ := numeric.LogSumExp(sx)
		zy, _ := numeric.LogSumExp(sy)
		worst := 0.0
		for i := range anaX {
			want := lambda*(anaX[i]-anaY[i]) - (zx - zy)
			if math.Abs(got.LogRatio[i]-want) > 1e-12 {
				t.Errorf("broken=%v outcome %d: log-ratio %g, want %g", broken, i, got.LogRatio[i], want)
			}
			worst = math.Max(worst, math.Abs(want))
		}
		if math.Abs(got.Loss-worst) > 1e-12 {
			t.Errorf("broken=%v: loss %g, want %g", broken, got.Loss, worst)
		}
		if broken != (got.Loss > 1) {
			t.Errorf("broken=%v: loss %g against the claimed ε = 1", broken, got.Loss)
		}
	}
}

// Over many random neighbouring pairs, changes in both directions included,
// the correct mechanism never loses more than ε.
func TestCompareNeighboursNeverExceedsEpsilon(t *testing.T) {
	b := New()
	x := make([]float64, 6)
	y := make([]float64, 6)
	for trial := 0; trial < 500; trial++ {
		for i := range x {
			x[i] = float64((trial*7 + i*13) % 11)
			y[i] = x[i] + float64((trial+i)%3-1) // −1, 0 or +1
		}
		eps := 0.1 + float64(trial%40)/8
		got, err := b.CompareNeighbours("t", x, y, eps, 1, false, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Loss > eps*(1+1e-12) {
			t.Fatalf("trial %d: loss %g > ε = %g for x=%v y=%v", trial, got.Loss, eps, x, y)
		}
	}
}

// The empirical privacy check: from draws alone, with intervals wide enough
// (z = 5.5, a miss chance of 4e-8 per outcome) that a correct mechanism is
// flagged with probability under 1e-6, the correct mechanism shows no breach
// and the broken one (ε/Δ scale) shows one.
func TestCompareNeighboursDrawsDetectTheBrokenScale(t *testing.T) {
	const n, z = 200_000, 5.5
	for _, broken := range []bool{false, true} {
		got, err := New().CompareNeighbours("t", anaX, anaY, 1, 1, broken, 11, n)
		if err != nil {
			t.Fatal(err)
		}
		breaches := 0
		for i := range anaX {
			_, lo, hi, err := stats.LogRatio(int(got.CountX[i]), n, int(got.CountY[i]), n, z)
			if err != nil {
				t.Fatal(err)
			}
			if lo > 1 || hi < -1 {
				breaches++
			}
		}
		if broken != (breaches > 0) {
			t.Errorf("broken=%v: %d outcomes breach ε = 1 (exact loss %g)", broken, breaches, got.Loss)
		}
	}
}

func TestCompareNeighboursRefusesNonNeighbours(t *testing.T) {
	b := New()
	for _, c := range []struct {
		name string
		x, y []float64
		eps  float64
	}{
		{"a score moves by 2", []float64{1, 2}, []float64{3, 2}, 1},
		{"different lengths", []float64{1, 2}, []float64{1}, 1},
		{"ε = 0", []float64{1, 2}, []float64{1, 2}, 0},
		{"NaN ε", []float64{1, 2}, []float64{1, 2}, math.NaN()},
	} {
		if _, err := b.CompareNeighbours("t", c.x, c.y, c.eps, 1, false, 1, 10); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
