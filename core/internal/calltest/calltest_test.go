package calltest

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// recorder is a testing.TB that keeps its failures instead of failing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func TestHelpersReportWhatTheyShould(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(tb testing.TB)
		fail bool
	}{
		{"NoPanic, fine", func(tb testing.TB) { NoPanic(tb, "f", func() {}) }, false},
		{"NoPanic, panics", func(tb testing.TB) { NoPanic(tb, "f", func() { panic("boom") }) }, true},
		{"Finite, finite", func(tb testing.TB) { Finite(tb, "f", func() []float64 { return []float64{0, -1e308} }) }, false},
		{"Finite, NaN", func(tb testing.TB) { Finite(tb, "f", func() []float64 { return []float64{1, math.NaN()} }) }, true},
		{"Finite, Inf", func(tb testing.TB) { Finite(tb, "f", func() []float64 { return []float64{math.Inf(-1)} }) }, true},
		{"Finite, panics", func(tb testing.TB) { Finite(tb, "f", func() []float64 { panic("boom") }) }, true},
		{"Fails, error", func(tb testing.TB) { Fails(tb, "f", func() error { return errors.New("no") }) }, false},
		{"Fails, no error", func(tb testing.TB) { Fails(tb, "f", func() error { return nil }) }, true},
		{"Fails, panics", func(tb testing.TB) { Fails(tb, "f", func() error { panic("boom") }) }, true},
	} {
		r := &recorder{TB: t}
		tc.run(r)
		if (len(r.failures) > 0) != tc.fail {
			t.Errorf("%s: failures %q, want failure = %v", tc.name, r.failures, tc.fail)
		}
	}
	if got := (Const(7)).Uint64(); got != 7 {
		t.Errorf("Const(7).Uint64() = %d", got)
	}
}
