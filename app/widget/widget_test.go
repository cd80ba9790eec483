package widget

import (
	"maps"
	"reflect"
	"strconv"
	"testing"
)

// The page's note for the docs' example, and what Coerce leaves alone.
func TestCoerce(t *testing.T) {
	got, notes := Coerce("exponential-mechanism", "meet.", map[string]string{"eps": "50", "seed": "1e10", "data": "nope", "other": "x", "step": ""})
	want := map[string]string{"eps": "20", "seed": "4294967295", "other": "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Coerce = %v, want %v", got, want)
	}
	wantNotes := []string{
		`meet.data: "nope" is not one of adult, adult-raw, meeting, so "adult" is used.`,
		"meet.eps = 50 is outside 0.01 … 20, so 20 is used.",
		"meet.seed = 10000000000 is outside 0 … 4294970000, so 4294970000 is used.",
	}
	if !reflect.DeepEqual(notes, wantNotes) {
		t.Errorf("notes %q, want %q", notes, wantNotes)
	}
}

// A number read from a link keeps the digits the link written from it
// keeps (URLDigits): 8 for each list entry, a Number's Digits, an Int's
// whole value; each rounding is said in a note, as a clamp is, and a value
// that already fits (ε = 0.30000000000000004 at 17 digits) is kept as it is.
func TestCoerceRoundsToURLDigits(t *testing.T) {
	got, notes := Coerce("exponential-mechanism", "", map[string]string{
		"u":     "0.12345678901234567,-123456.78901234567,3",
		"delta": "1.2345678901234567",
		"seed":  "12345678.5",
		"eps":   "0.30000000000000004",
	})
	want := map[string]string{"u": "0.12345679,-123456.79,3", "delta": "1.235", "seed": "12345679", "eps": "0.30000000000000004"}
	wantNotes := []string{
		"u: values were kept to 8 significant digits.",
		"delta = 1.2345678901234567 is kept to 4 significant digits, so 1.235 is used.",
		"seed = 12345678.5 must be a whole number, so 12345679 is used.",
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(notes, wantNotes) {
		t.Errorf("Coerce = %v %q, want %v %q", got, notes, want, wantNotes)
	}
}

// Every widget's params are well formed: unique keys, defaults that Coerce
// keeps unchanged, enum defaults among the values.
// Every former widget name leads to a widget that exists now.
func TestFormerNamesNameWidgets(t *testing.T) {
	for old, now := range formerNames {
		if Name(old) != now || Schema(now) == nil || Schema(old) != nil {
			t.Errorf("%s → %s: no schema under the new name, or one left under the old", old, Name(old))
		}
	}
	if Name("accuracy") != "accuracy" {
		t.Error("a name now is changed")
	}
}

func TestSchemasWellFormed(t *testing.T) {
	for _, w := range WithSchema() {
		seen := map[string]bool{}
		raw := map[string]string{}
		for _, p := range Schema(w) {
			if seen[p.Key] || p.Label == "" {
				t.Errorf("%s.%s: repeated or without a label", w, p.Key)
			}
			seen[p.Key] = true
			if p.Default != "" {
				raw[p.Key] = p.Default
			}
		}
		if got, notes := Coerce(w, w+".", raw); len(notes) > 0 || !maps.Equal(got, raw) {
			t.Errorf("%s: its defaults %v are changed to %v: %q", w, raw, got, notes)
		}
	}
}

// Every built-in score is the decimal it stands for, with no binary dust
// when the page prints it (the Adult scores are counts in thousands: 4.443,
// never 4.4430000000000005).
func TestDataSetScoresPrintClean(t *testing.T) {
	for _, d := range dataSets {
		for i, s := range d.Scores {
			got := strconv.FormatFloat(s, 'g', -1, 64)
			if want := strconv.FormatFloat(s, 'g', 6, 64); got != want {
				t.Errorf("%s, %s: the score prints as %s, not %s", d.Name, d.Candidates[i], got, want)
			}
		}
	}
}
