package numeric

import (
	"errors"
	"math"
	"testing"
)

// Components e^{−k·x} on [0, 10] with levels from e^0 to e^−5000: each
// integral (1 − e^{−10k})/k, times its level, keeps its relative accuracy,
// and a kink at a cut costs nothing.
func TestLogIntegrals(t *testing.T) {
	ks := []float64{0, 0.5, 1, 3, 40}
	shifts := []float64{0, -1, -700, -5000, 3}
	level := func(mid float64, out []float64) {
		for i, k := range ks {
			out[i] = shifts[i] - k*mid
		}
	}
	rel := func(mid, dx float64, out []float64) {
		for i, k := range ks {
			out[i] = -k * dx
		}
	}
	got, err := LogIntegrals(level, rel, len(ks), []float64{0, 10}, nil, 1e-13)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range ks {
		want := shifts[i] + math.Log(10)
		if k > 0 {
			want = shifts[i] + math.Log(-math.Expm1(-10*k)/k)
		}
		if math.Abs(got[i]-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("k = %v: ln ∫ = %.15g, want %.15g", k, got[i], want)
		}
	}
	// |x − 3| has a kink at 3: with the cut there, ∫₀⁵ e^{−|x−3|} dx is exact.
	kinkLevel := func(mid float64, out []float64) { out[0] = 0 }
	kinkRel := func(mid, dx float64, out []float64) { out[0] = -math.Abs(mid + dx - 3) }
	v, err := LogIntegrals(kinkLevel, kinkRel, 1, []float64{0, 3, 5}, nil, 1e-13)
	want := math.Log(2 - math.Exp(-3) - math.Exp(-2))
	if err != nil || math.Abs(v[0]-want) > 1e-13 {
		t.Errorf("∫ e^−|x−3| = %v, %v; want %v", v, err, want)
	}
	// A series held to its first term: the second, e^−50 of it, needs no
	// relative accuracy of its own.
	ref := []int{0, 0}
	pair, err := LogIntegrals(func(mid float64, out []float64) { out[0], out[1] = 0, -50 },
		func(mid, dx float64, out []float64) { out[0], out[1] = 0, math.Sin(40*(mid+dx)) }, 2, []float64{0, 1}, ref, 1e-13)
	if err != nil || math.Abs(pair[0]) > 1e-15 {
		t.Errorf("held to the first term: %v, %v", pair, err)
	}
	// A component that is 0 everywhere has the integral LogZero.
	zero, err := LogIntegrals(func(mid float64, out []float64) { out[0] = math.Inf(-1) },
		func(mid, dx float64, out []float64) { out[0] = 0 }, 1, []float64{0, 1}, nil, 1e-13)
	if err != nil || zero[0] != LogZero {
		t.Errorf("zero integrand: %v, %v", zero, err)
	}
}

// What LogIntegrals cannot trust it reports: NaN, +Inf, or an integrand too
// rough to reach the tolerance; bad arguments are errors.
func TestLogIntegralsErrors(t *testing.T) {
	flat := func(mid float64, out []float64) { out[0] = 0 }
	for name, rel := range map[string]func(mid, dx float64, out []float64){
		"NaN":      func(mid, dx float64, out []float64) { out[0] = math.NaN() },
		"+Inf":     func(mid, dx float64, out []float64) { out[0] = math.Inf(1) },
		"sin(1/x)": func(mid, dx float64, out []float64) { out[0] = math.Log(2 + math.Sin(1/(mid+dx))) },
	} {
		if _, err := LogIntegrals(flat, rel, 1, []float64{0, 1}, nil, 1e-13); !errors.Is(err, ErrNotConverged) {
			t.Errorf("%s: got %v, want ErrNotConverged", name, err)
		}
	}
	ok := func(mid, dx float64, out []float64) { out[0] = 0 }
	for name, f := range map[string]func() error{
		"no components":  func() error { _, err := LogIntegrals(flat, ok, 0, []float64{0, 1}, nil, 1e-13); return err },
		"zero tolerance": func() error { _, err := LogIntegrals(flat, ok, 1, []float64{0, 1}, nil, 0); return err },
		"unsorted cuts":  func() error { _, err := LogIntegrals(flat, ok, 1, []float64{1, 0}, nil, 1e-13); return err },
		"NaN cut":        func() error { _, err := LogIntegrals(flat, ok, 1, []float64{0, math.NaN()}, nil, 1e-13); return err },
		"ref outside":    func() error { _, err := LogIntegrals(flat, ok, 1, []float64{0, 1}, []int{1}, 1e-13); return err },
	} {
		if err := f(); err == nil || errors.Is(err, ErrNotConverged) {
			t.Errorf("%s: got %v, want a validation error", name, err)
		}
	}
}
