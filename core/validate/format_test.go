package validate

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// stage stands for a named type with a String method, such as synth.Stage.
type stage int

func (s stage) String() string { return [...]string{"start", "scored", "done"}[s] }

// sprintf must agree with fmt.Sprintf on every verb and argument type the
// messages use; fmt is the reference here, in a test, where its size costs
// nothing.
func TestSprintfAgreesWithFmt(t *testing.T) {
	cases := []struct {
		format string
		args   []any
	}{
		{"plain text, no verbs", nil},
		{"got %v", []any{0.1}},
		{"got %v", []any{1e6}},
		{"got %v", []any{1e21}},
		{"got %v", []any{-3.25e-7}},
		{"got %v", []any{math.Inf(-1)}},
		{"got %v", []any{math.NaN()}},
		{"got %v", []any{math.MaxFloat64}},
		{"got %g", []any{2.5}},
		{"got %.3g", []any{math.Pi}},
		{"got %.0f", []any{41.5}},
		{"got %.0f", []any{1e15}},
		{"got %.2f", []any{float32(0.125)}},
		{"%d of %d", []any{3, int64(-12)}},
		{"%v and %v", []any{7, uint64(1 << 63)}},
		{"%d", []any{uint(9)}},
		{"%d", []any{int32(-9)}},
		{"%s[%d]", []any{"scores", 4}},
		{"unknown kind %q", []any{"histo\"gram\n"}},
		{"%v", []any{"a string"}},
		{"%v", []any{true}},
		{"%v", []any{errors.New("wrapped")}},
		{"%s", []any{errors.New("wrapped")}},
		{"%v", []any{[]float64{1, 0.5, 1e-9}}},
		{"%v", []any{[]int{3, 1, 2}}},
		{"choose one of %v", []any{[]string{"exponential", "permute-and-flip"}}},
		{"%s", []any{[]string{"a", "b c"}}},
		{"%v", []any{[]string{}}},
		{"stage %v", []any{stage(2)}},
		{"stage %s", []any{stage(1)}},
		{"100%% sure, %v", []any{1}},
		{"ε = %v, Δ = %v", []any{1.0, 0.25}},
	}
	for _, c := range cases {
		got, want := sprintf(c.format, c.args...), fmt.Sprintf(c.format, c.args...)
		if got != want {
			t.Errorf("sprintf(%q, %v) = %q, fmt says %q", c.format, c.args, got, want)
		}
	}
}

// What sprintf cannot format it marks, as fmt does, rather than panicking.
func TestSprintfMarksWhatItCannotFormat(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
		want   string
	}{
		{"%d", []any{"x"}, "%!d(unsupported)"},
		{"%v", []any{struct{}{}}, "%!v(unsupported)"},
		{"%d and %d", []any{1}, "1 and %!d(MISSING)"},
		{"trailing %", nil, "trailing %!(NOVERB)"},
	} {
		if got := sprintf(c.format, c.args...); got != c.want {
			t.Errorf("sprintf(%q) = %q, want %q", c.format, got, c.want)
		}
	}
}
