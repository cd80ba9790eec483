package numeric

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestLogSumExp(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{0}, 0},
		{[]float64{0, 0}, math.Ln2},
		{[]float64{1000, 1000}, 1000 + math.Ln2},
		{[]float64{-1000, -1000, -1000}, -1000 + math.Log(3)},
		{[]float64{LogZero, 5}, 5},
		{[]float64{math.Log(2), math.Log(3)}, math.Log(5)},
	} {
		got, err := LogSumExp(tc.xs)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("LogSumExp(%v) = %v, %v; want %v", tc.xs, got, err, tc.want)
		}
	}
	for _, bad := range [][]float64{nil, {math.NaN()}, {math.Inf(1), 0}} {
		if _, err := LogSumExp(bad); err == nil {
			t.Errorf("LogSumExp(%v): no error", bad)
		}
	}
}

func TestNormalize(t *testing.T) {
	logp, p, err := Normalize([]float64{LogZero, 0, math.Log(3)})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 0.25, 0.75}
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-15 {
			t.Errorf("p[%d] = %v, want %v", i, p[i], want[i])
		}
	}
	if logp[0] != LogZero {
		t.Errorf("log of an impossible outcome = %v, want LogZero", logp[0])
	}
	if _, _, err := Normalize([]float64{LogZero, LogZero}); err == nil {
		t.Error("all-zero weights accepted")
	}
}

func TestIntegrate(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(float64) float64
		a, b float64
		want float64
	}{
		{"x²", func(x float64) float64 { return x * x }, 0, 3, 9},
		{"exp", math.Exp, -1, 2, math.Exp(2) - math.Exp(-1)},
		{"kink", func(x float64) float64 { return math.Abs(x - 0.3) }, 0, 1, (0.09 + 0.49) / 2},
		{"peak", func(x float64) float64 { return math.Exp(-x * x * 1e4) }, -1, 1, math.Sqrt(math.Pi) / 100},
		{"1/(1+x²)", func(x float64) float64 { return 1 / (1 + x*x) }, -50, 50, 2 * math.Atan(50)},
	} {
		got, err := Integrate(tc.f, tc.a, tc.b, 1e-13)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: got %.15g, %v; want %.15g", tc.name, got, err, tc.want)
		}
	}
	if _, err := Integrate(math.Exp, 0, math.Inf(1), 1e-9); err == nil {
		t.Error("infinite bound accepted")
	}
}

// An integral that cannot reach its tolerance must say so, not hand back a
// number that looks exact: the mechanisms promise 1e-9 and rely on this.
func TestIntegrateReportsNonConvergence(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(float64) float64
		a, b float64
		tol  float64
	}{
		// sin(1/x) oscillates infinitely often near 0: 500 pieces cannot
		// resolve it to 1e-13.
		{"sin(1/x)", func(x float64) float64 { return math.Sin(1 / x) }, 0, 1, 1e-13},
		{"NaN integrand", func(x float64) float64 { return math.NaN() }, 0, 1, 1e-9},
		{"NaN on part of the range", func(x float64) float64 {
			if x > 0.6 {
				return math.NaN()
			}
			return 1
		}, 0, 1, 1e-9},
		{"overflowing integrand", func(x float64) float64 { return math.MaxFloat64 }, -1e300, 1e300, 1e-9},
		{"tolerance below rounding", math.Exp, 0, 700, 1e-300},
	} {
		v, err := Integrate(tc.f, tc.a, tc.b, tc.tol)
		var nc *NotConvergedError
		if !errors.Is(err, ErrNotConverged) || !errors.As(err, &nc) {
			t.Errorf("%s: got %v, %v; want ErrNotConverged", tc.name, v, err)
			continue
		}
		for _, x := range []float64{v, nc.Value, nc.ErrEstimate} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("%s: non-finite %v in %v, %+v", tc.name, x, v, nc)
			}
		}
		if !(nc.ErrEstimate > nc.Tolerance) || strings.Contains(err.Error(), "%!") {
			t.Errorf("%s: error %q with estimate %v", tc.name, err, nc.ErrEstimate)
		}
	}
}

// The whole double range is a valid interval: the quadrature must not
// overflow computing its centre or width.
func TestIntegrateWholeRange(t *testing.T) {
	got, err := Integrate(func(x float64) float64 { return math.Exp(-x * x) }, -math.MaxFloat64, math.MaxFloat64, 1e-9)
	if err == nil && (math.IsNaN(got) || math.IsInf(got, 0)) {
		t.Errorf("∫ exp(−x²) over the doubles = %v with no error", got)
	}
	got, err = Integrate(func(float64) float64 { return 1e-300 }, -math.MaxFloat64, math.MaxFloat64, 1e-3)
	if want := 2 * math.MaxFloat64 * 1e-300; err != nil || math.Abs(got-want) > 1e-12*want {
		t.Errorf("∫ 1e-300 over the doubles = %v, %v; want %v", got, err, want)
	}
}
