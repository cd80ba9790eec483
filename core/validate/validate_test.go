package validate

import (
	"errors"
	"math"
	"testing"
)

func TestChecks(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		err  error
		ok   bool
	}{
		{"positive 1", Positive("x", 1), true},
		{"positive tiny", Positive("x", 5e-324), true},
		{"positive 0", Positive("x", 0), false},
		{"positive −1", Positive("x", -1), false},
		{"positive NaN", Positive("x", nan), false},
		{"positive Inf", Positive("x", inf), false},
		{"finite −1e308", Finite("x", -1e308), true},
		{"finite NaN", Finite("x", nan), false},
		{"finite −Inf", Finite("x", -inf), false},
		{"non-negative 0", NonNegative("x", 0), true},
		{"non-negative −1e-300", NonNegative("x", -1e-300), false},
		{"non-negative NaN", NonNegative("x", nan), false},
		{"non-negative Inf", NonNegative("x", inf), false},
		{"probability 0", Probability("p", 0), true},
		{"probability 1", Probability("p", 1), true},
		{"probability 1.5", Probability("p", 1.5), false},
		{"probability NaN", Probability("p", nan), false},
		{"scores", Scores("s", []float64{1, -2}), true},
		{"scores empty", Scores("s", nil), false},
		{"scores NaN", Scores("s", []float64{1, nan}), false},
		{"measure nil", Measure("μ", nil, 3), true},
		{"measure zeros allowed", Measure("μ", []float64{0, 1, 0}, 3), true},
		{"measure all zero", Measure("μ", []float64{0, 0}, 2), false},
		{"measure negative", Measure("μ", []float64{1, -1}, 2), false},
		{"measure Inf", Measure("μ", []float64{1, inf}, 2), false},
		{"measure length", Measure("μ", []float64{1}, 2), false},
		{"count 1 of at most 1", Count("xs", 1, 1, "x"), true},
		{"count 0", Count("xs", 0, 5, "x"), false},
		{"count 6 of at most 5", Count("xs", 6, 5, "x"), false},
	} {
		var e *Error
		switch {
		case tc.ok && tc.err != nil:
			t.Errorf("%s: unexpected error %v", tc.name, tc.err)
		case !tc.ok && !errors.As(tc.err, &e):
			t.Errorf("%s: got %v, want an *Error", tc.name, tc.err)
		case !tc.ok && (e.Param == "" || e.Reason == ""):
			t.Errorf("%s: error %+v lacks a parameter or reason", tc.name, e)
		}
	}
}

func TestCountMessages(t *testing.T) {
	for err, want := range map[error]string{
		Count("prices", 0, 8, "price"): "prices: needs at least one price",
		Count("prices", 9, 8, "price"): "prices: has 9 prices; at most 8 are allowed",
	} {
		if err == nil || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}
