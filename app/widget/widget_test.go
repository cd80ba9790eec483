package widget

import (
	"maps"
	"math"
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

// Each data set's Sensitivity is the most one person moves a score: its
// scores are score(count) of its counts, and a neighbour of either notion
// moves each count by at most 1 (change-one: one count down and another up,
// or, in the meeting poll, one colleague's days each by one; add-or-remove:
// one count), so the largest |score(c ± 1) − score(c)| over its counts. A set
// without a score function claims none.
func TestDataSetSensitivity(t *testing.T) {
	for _, d := range append(DataSets(), LossSets()...) {
		if d.score == nil {
			if d.Sensitivity != 0 {
				t.Errorf("%s: sensitivity %v without a score function", d.Name, d.Sensitivity)
			}
			continue
		}
		largest := 0.0
		for i, c := range d.counts {
			if d.Scores[i] != d.score(c) {
				t.Errorf("%s: score %d is %v, not score(%v) = %v", d.Name, i, d.Scores[i], c, d.score(c))
			}
			for _, n := range []float64{c - 1, c + 1} {
				largest = max(largest, math.Abs(d.score(n)-d.score(c)))
			}
		}
		if math.Abs(largest-d.Sensitivity) > 1e-9*d.Sensitivity {
			t.Errorf("%s: sensitivity %v, one person moves a score by up to %v", d.Name, d.Sensitivity, largest)
		}
	}
}
