// Package validate checks the inputs of every public function in core and
// reports problems as *Error values whose messages a student can act on.
package validate

import (
	"math"
	"strconv"
)

// Error says which parameter was wrong and why. Every input error returned by
// a core package is an *Error, so callers can use errors.As to tell bad input
// from other failures. Its text reads "param: reason", short enough to show
// beside the control that was refused.
type Error struct {
	Param  string // the parameter's name as the student sees it, e.g. "ε" or "scores[3]"
	Reason string
}

// Error returns "param: reason", the message every lesson's widget shows.
func (e *Error) Error() string { return e.Param + ": " + e.Reason }

// Errorf returns an *Error for param with a formatted reason: every lesson's
// input messages are built with it.
func Errorf(param, format string, args ...any) error {
	return &Error{Param: param, Reason: sprintf(format, args...)}
}

// Positive checks that x is finite and strictly greater than zero: ε, Δ and
// the noise scales of every lesson.
func Positive(param string, x float64) error {
	switch {
	case math.IsNaN(x):
		return Errorf(param, "must be a number, got NaN")
	case math.IsInf(x, 0):
		return Errorf(param, "must be finite, got %v", x)
	case x <= 0:
		return Errorf(param, "must be greater than 0, got %v", x)
	}
	return nil
}

// Finite checks that x is a finite number, neither NaN nor ±Inf.
func Finite(param string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Errorf(param, "must be a finite number, got %v", x)
	}
	return nil
}

// NonNegative checks that x is finite and at least zero: a buyer's value, a
// weight.
func NonNegative(param string, x float64) error {
	if err := Finite(param, x); err != nil {
		return err
	}
	if x < 0 {
		return Errorf(param, "must be ≥ 0, got %v", x)
	}
	return nil
}

// Probability checks that x lies in [0, 1]: the δ of every accountant.
func Probability(param string, x float64) error {
	if !(x >= 0 && x <= 1) {
		return Errorf(param, "must be between 0 and 1, got %v", x)
	}
	return nil
}

// Scores checks that xs is non-empty and every entry is finite: the scores
// u(r) of a selection problem.
func Scores(param string, xs []float64) error {
	if len(xs) == 0 {
		return Errorf(param, "needs at least one candidate")
	}
	for i, x := range xs {
		if err := Finite(Index(param, i), x); err != nil {
			return err
		}
	}
	return nil
}

// Measure checks a base measure μ over n candidates: one finite, non-negative
// weight per candidate with positive total mass. A nil measure means the
// uniform measure and is always valid. Alias tables and the base-measure
// accuracy bound check their weights with it.
func Measure(param string, mu []float64, n int) error {
	if mu == nil {
		return nil
	}
	if len(mu) != n {
		return Errorf(param, "has %d weights but there are %d candidates", len(mu), n)
	}
	positive := false
	for i, w := range mu {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return Errorf(Index(param, i), "must be a finite weight ≥ 0, got %v", w)
		}
		positive = positive || w > 0
	}
	if !positive {
		return Errorf(param, "gives every candidate weight 0, so there is nothing to choose")
	}
	return nil
}

// Index names element i of the parameter param, as in "scores[3]" or
// "neighbour's scores[2]", so that a message points at the entry to fix.
func Index(param string, i int) string { return param + "[" + strconv.Itoa(i) + "]" }

// Count checks that a list of n things, each one unit ("price"), holds at
// least one and at most max: "needs at least one price", "has 9 prices; at
// most 8 are allowed".
func Count(param string, n, max int, unit string) error {
	switch {
	case n < 1:
		return Errorf(param, "needs at least one %s", unit)
	case n > max:
		return Errorf(param, "has %d %ss; at most %d are allowed", n, unit, max)
	}
	return nil
}

// Wrapf returns an error that reads "sentinel: detail" and that errors.Is
// matches to sentinel: fmt.Errorf("%w: …") for packages linked into the
// first-load module, which do without fmt (account.ErrBudget's refusals,
// for one).
func Wrapf(sentinel error, format string, args ...any) error {
	return &wrapped{sentinel, sprintf(format, args...)}
}

type wrapped struct {
	sentinel error
	detail   string
}

// Error reads "sentinel: detail", e.g. "privacy budget exceeded: …" for a
// refused charge.
func (w *wrapped) Error() string { return w.sentinel.Error() + ": " + w.detail }

// Unwrap returns the sentinel, so that errors.Is(err, account.ErrBudget)
// holds (the live lecture answers 409 on a refused charge).
func (w *wrapped) Unwrap() error { return w.sentinel }
