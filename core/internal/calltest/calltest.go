// Package calltest runs calls from the core's tests, turning a panic into a
// test failure: the core's rule is that no public function panics, or
// returns NaN or Inf, whatever it is given, and every lesson's numbers rest
// on it.
package calltest

import (
	"math"
	"testing"
)

// NoPanic runs f, reports a panic as a failure of what, and says whether f
// returned normally.
func NoPanic(t testing.TB, what string, f func()) (returned bool) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked: %v", what, p)
		}
	}()
	f()
	return true
}

// Finite runs f and checks that every number it returns is finite.
func Finite(t testing.TB, what string, f func() []float64) {
	t.Helper()
	var xs []float64
	if !NoPanic(t, what, func() { xs = f() }) {
		return
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("%s: value %d is %v", what, i, x)
			return // one report per call is enough
		}
	}
}

// Fails runs f and checks that it returns an error.
func Fails(t testing.TB, what string, f func() error) {
	t.Helper()
	var err error
	if NoPanic(t, what, func() { err = f() }) && err == nil {
		t.Errorf("%s returned no error", what)
	}
}

// Const is a random source that always gives the same word: the extreme
// draws (the smallest or largest uniform) that a seeded stream meets only
// once in a very long while.
type Const uint64

// Uint64 returns c.
func (c Const) Uint64() uint64 { return uint64(c) }
