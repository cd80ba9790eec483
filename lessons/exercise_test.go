package lessons

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/number"
)

// exercise is the header of one ```exercise block.
type exercise struct {
	answer   float64
	decimals int // the precision its answer is checked at; 0: exactly
	mistakes [][2]any
	raw      map[string]string
	question string // the text after the header, as the page shows it
}

var (
	reExercise = regexp.MustCompile("(?s)```exercise\n(.*?)\n---\n(.*?)\n```")
	reSlug     = regexp.MustCompile(`(?m)^slug: (\S+)$`)
)

// exercises returns the headers of the lesson's exercise blocks, in order.
func exercises(t *testing.T, slug string) []exercise {
	t.Helper()
	var out []exercise
	for _, m := range reExercise.FindAllStringSubmatch(lessonFile(t, slug), -1) {
		e := exercise{raw: map[string]string{}, question: m[2]}
		for _, line := range strings.Split(m[1], "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok {
				e.raw[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		var err error
		if a, ok := e.raw["answer"]; ok {
			if e.answer, err = strconv.ParseFloat(a, 64); err != nil {
				t.Fatalf("%s: answer %q", slug, a)
			}
		}
		if d, ok := e.raw["decimals"]; ok {
			if e.decimals, err = strconv.Atoi(d); err != nil {
				t.Fatalf("%s: decimals %q", slug, d)
			}
		}
		if ms, ok := e.raw["mistakes"]; ok {
			if err := json.Unmarshal([]byte(ms), &e.mistakes); err != nil {
				t.Fatalf("%s: mistakes is not a JSON list of [value, message]: %v", slug, err)
			}
		}
		out = append(out, e)
	}
	return out
}

// accepts says whether the page's check takes x for an exercise: the rule
// web/widgets/answer.js applies, number.Gives at the exercise's decimals.
func (e exercise) accepts(x float64) bool {
	return number.Gives(x, e.answer, e.decimals)
}

// TestExerciseFeedback checks, for every lesson, that each answer-checked
// exercise accepts its right example and refuses its wrong one, and that no
// targeted mistake falls inside the accepted range (it would never be shown).
func TestExerciseFeedback(t *testing.T) {
	for slug := range lessonFiles(t) {
		for i, e := range exercises(t, slug) {
			if _, ok := e.raw["answer"]; !ok {
				continue
			}
			r, w := typed(t, e.raw["example-right"]), typed(t, e.raw["example-wrong"])
			if !e.accepts(r) || e.accepts(w) {
				t.Errorf("%s exercise %d: right example %v accepted %v, wrong %v accepted %v", slug, i+1, r, e.accepts(r), w, e.accepts(w))
			}
			for _, mk := range e.mistakes {
				v, ok := mk[0].(float64)
				if !ok || e.accepts(v) {
					t.Errorf("%s exercise %d: mistake %v is not a number outside the accepted range", slug, i+1, mk[0])
				}
			}
		}
	}
}

// typed is the value of s read as a person types it (app/number.Typed,
// the rule the page applies to an answer: "3/4" and "0,75" are 0.75).
func typed(t *testing.T, s string) float64 {
	t.Helper()
	r, err := number.Typed(s)
	if err != nil {
		t.Errorf("%q: %v", s, err)
	}
	return r.Value
}

// exerciseAccepts fails t unless the lesson's exercise with the given label
// accepts the computed answer and rejects every one of wrong (the mistakes
// its feedback names).
func exerciseAccepts(t *testing.T, slug, label string, computed float64, wrong ...float64) {
	t.Helper()
	for _, e := range exercises(t, slug) {
		if e.raw["label"] != label {
			continue
		}
		if !e.accepts(computed) {
			t.Errorf("%s, exercise %q: the computed answer %g is not accepted (answer %g at %d decimals)", slug, label, computed, e.answer, e.decimals)
		}
		for _, x := range wrong {
			if e.accepts(x) {
				t.Errorf("%s, exercise %q: the mistake %g is accepted", slug, label, x)
			}
		}
		return
	}
	t.Errorf("%s has no exercise labelled %q", slug, label)
}

// precision is what an exercise's question asks for: an answer rounded to
// some decimals, a whole number, or an exact value (a fraction such as 3/4
// or a decimal that ends).
type precision struct {
	kind   string // "decimals", "whole" or "exact"
	digits int
}

var (
	reDecimals = regexp.MustCompile(`(?i)\b(one|two|three|four|five) decimals?\b`)
	reWhole    = regexp.MustCompile(`(?i)\ba whole number\b`)
	reExact    = regexp.MustCompile(`(?i)\bthe exact value\b`)
	digitWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
)

// askedPrecision reads the precision an exercise's question states; ok is
// false when it states none or more than one.
func askedPrecision(question string) (p precision, ok bool) {
	var found []precision
	for _, m := range reDecimals.FindAllStringSubmatch(question, -1) {
		found = append(found, precision{"decimals", digitWords[strings.ToLower(m[1])]})
	}
	if reWhole.MatchString(question) {
		found = append(found, precision{kind: "whole"})
	}
	if reExact.MatchString(question) {
		found = append(found, precision{kind: "exact"})
	}
	if len(found) != 1 {
		return precision{}, false
	}
	return found[0], true
}

// TestExercisePrecision checks that every exercise states once the
// precision it wants and is checked at that precision (decimals: N for "N
// decimals", none for a whole number or the exact value); and, for an
// exercise with an answer, that the answer rounded as asked is accepted
// while its neighbouring roundings are refused (one unit in the last place
// either side; for a whole number the integers either side, for an exact
// value anything 0.1% away), that a whole number's answer is one, and that
// no listed mistake is accepted, typed in full or rounded as asked, while
// each rounded mistake still gets its own message.
func TestExercisePrecision(t *testing.T) {
	for slug := range lessonFiles(t) {
		for i, e := range exercises(t, slug) {
			name := fmt.Sprintf("%s exercise %d (%s)", slug, i+1, e.raw["label"])
			p, ok := askedPrecision(e.question)
			if !ok {
				t.Errorf("%s: the question does not say once what precision it wants (\"Give two decimals.\", \"a whole number\", \"the exact value\"): %q", name, e.question)
				continue
			}
			if p.kind == "decimals" && e.decimals != p.digits || p.kind != "decimals" && e.decimals != 0 {
				t.Errorf("%s: the question asks for %v but the exercise is checked at decimals: %d", name, p, e.decimals)
			}
			if _, has := e.raw["answer"]; !has {
				continue // a widget's own check, such as audit.smallestDelta
			}
			var right, unit float64
			switch p.kind {
			case "whole":
				if e.answer != math.Round(e.answer) {
					t.Errorf("%s: asks for a whole number, but the answer is %v", name, e.answer)
				}
				right, unit = e.answer, 1
			case "exact":
				right, unit = e.answer, 0.001*math.Max(1, math.Abs(e.answer))
			default:
				unit = math.Pow(10, -float64(p.digits))
				right = round(e.answer, p.digits)
			}
			if !e.accepts(right) || !e.accepts(e.answer) {
				t.Errorf("%s: refuses the answer %v or its rounding %v", name, e.answer, right)
			}
			for _, n := range []float64{right - unit, right + unit} {
				if p.kind == "decimals" {
					n = round(n, p.digits) // the neighbour as typed, free of binary dust
				}
				if e.accepts(n) {
					t.Errorf("%s: accepts %v, a neighbour of the right answer %v", name, n, right)
				}
			}
			for _, mk := range e.mistakes {
				v, ok := mk[0].(float64)
				if !ok {
					continue // TestExerciseFeedback reports it
				}
				typed := v // a whole or exact answer's slips are typed as they are
				if p.kind == "decimals" {
					typed = round(v, p.digits)
				}
				if e.accepts(v) || e.accepts(typed) {
					t.Errorf("%s: the mistake %v (typed %v) is accepted", name, v, typed)
				}
				if !number.Gives(typed, v, e.decimals) {
					t.Errorf("%s: the mistake %v typed as asked, %v, misses its own message", name, v, typed)
				}
			}
		}
	}
}

// The rule itself, on made-up exercises.
func TestAskedPrecision(t *testing.T) {
	for q, want := range map[string]precision{
		"How much? Give two decimals.":          {"decimals", 2},
		"Give it to three decimals.":            {"decimals", 3},
		"How many? Give a whole number.":        {kind: "whole"},
		"Give one decimal, or a whole number.":  {},
		"Give the exact value.":                 {kind: "exact"},
		"How much?":                             {},
		"Give four decimals (or two decimals).": {},
	} {
		got, ok := askedPrecision(q)
		if ok != (want.kind != "") || got != want {
			t.Errorf("askedPrecision(%q) = %v, %v; want %v", q, got, ok, want)
		}
	}
}

// acceptedInterval returns the answers the page accepts for the lesson's
// exercise with the given label, asked to some decimals: those that round to
// the answer's rounding, from lo up to (not including) hi.
func acceptedInterval(t *testing.T, slug, label string) (lo, hi float64) {
	t.Helper()
	for _, e := range exercises(t, slug) {
		if e.raw["label"] == label {
			if e.decimals == 0 {
				t.Fatalf("%s, exercise %q is checked exactly", slug, label)
			}
			u := math.Pow(10, -float64(e.decimals))
			r := round(e.answer, e.decimals)
			return r - u/2, r + u/2
		}
	}
	t.Fatalf("%s has no exercise labelled %q", slug, label)
	return 0, 0
}
