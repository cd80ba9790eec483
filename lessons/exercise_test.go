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
	answer, tolerance float64
	mistakes          [][2]any
	raw               map[string]string
	question          string // the text after the header, as the page shows it
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
		e := exercise{tolerance: 1e-9, raw: map[string]string{}, question: m[2]}
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
		if tol, ok := e.raw["tolerance"]; ok {
			if e.tolerance, err = strconv.ParseFloat(tol, 64); err != nil {
				t.Fatalf("%s: tolerance %q", slug, tol)
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
// web/exercises.js and web/widgets/answer.js apply,
// |x − answer| ≤ tolerance·max(1, |answer|).
func (e exercise) accepts(x float64) bool {
	return math.Abs(x-e.answer) <= e.tolerance*math.Max(1, math.Abs(e.answer))
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
			t.Errorf("%s, exercise %q: the computed answer %g is not accepted (answer %g ± %g)", slug, label, computed, e.answer, e.tolerance)
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
// some decimals, to some significant figures, a whole number, or an exact
// value (a fraction such as 3/4 or a decimal that ends).
type precision struct {
	kind   string // "decimals", "figures", "whole" or "exact"
	digits int
}

var (
	reDecimals = regexp.MustCompile(`(?i)\b(one|two|three|four|five) decimals?\b`)
	reFigures  = regexp.MustCompile(`(?i)\b(one|two|three|four|five) significant figures?\b`)
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
	for _, m := range reFigures.FindAllStringSubmatch(question, -1) {
		found = append(found, precision{"figures", digitWords[strings.ToLower(m[1])]})
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

// round returns x as a student gives it at precision p, and the width of
// one unit in its last place.
func (p precision) round(x float64) (rounded, unit float64) {
	switch p.kind {
	case "decimals":
		unit = math.Pow(10, -float64(p.digits))
	case "figures":
		unit = math.Pow(10, math.Floor(math.Log10(math.Abs(x)))-float64(p.digits-1))
	default:
		unit = 1
	}
	return math.Round(x/unit) * unit, unit
}

// near is the page's rule for matching a typed value against a listed
// mistake (web/widgets/answer.js): |x − v| ≤ tolerance·max(1, |v|).
func (e exercise) near(x, v float64) bool {
	return math.Abs(x-v) <= e.tolerance*math.Max(1, math.Abs(v))
}

// TestExercisePrecision checks that every exercise states the precision it
// wants, and, for an exercise with an answer, that the accepted interval
// answer ± tolerance·max(1, |answer|) fits it: every number that rounds, at
// that precision, to the answer's rounding is accepted (so "1.5" is right
// whenever 1.4715 is asked to one decimal), a whole-number answer is a
// whole number, an exact one is held to 0.1%, and no listed mistake is
// accepted, whether typed in full or rounded as asked, while each rounded
// mistake still gets its own message.
func TestExercisePrecision(t *testing.T) {
	for slug := range lessonFiles(t) {
		for i, e := range exercises(t, slug) {
			name := fmt.Sprintf("%s exercise %d (%s)", slug, i+1, e.raw["label"])
			p, ok := askedPrecision(e.question)
			if !ok {
				t.Errorf("%s: the question does not say once what precision it wants (\"Give two decimals.\", \"two significant figures\", \"a whole number\"): %q", name, e.question)
				continue
			}
			if _, has := e.raw["answer"]; !has {
				continue // a widget's own check, such as audit.smallestDelta
			}
			w := e.tolerance * math.Max(1, math.Abs(e.answer))
			lo, hi := e.answer-w, e.answer+w
			switch p.kind {
			case "whole":
				if e.answer != math.Round(e.answer) {
					t.Errorf("%s: asks for a whole number, but the answer is %v", name, e.answer)
				}
				if w >= 0.5 {
					t.Errorf("%s: a whole number, but the accepted interval [%v, %v] holds its neighbours' halves", name, lo, hi)
				}
			case "exact":
				if e.tolerance > 0.001 {
					t.Errorf("%s: asks for the exact value, but accepts anything within %v", name, w)
				}
			default:
				r, u := p.round(e.answer)
				cellLo, cellHi := r-u/2, r+u/2
				if cellLo < lo-1e-12 || cellHi > hi+1e-12 {
					t.Errorf("%s: answers to %d %s round to %v, that is [%v, %v], but only [%.6g, %.6g] is accepted", name, p.digits, p.kind, r, cellLo, cellHi, lo, hi)
				}
			}
			for _, mk := range e.mistakes {
				v, ok := mk[0].(float64)
				if !ok {
					continue // TestExerciseFeedback reports it
				}
				typed := v // a whole or exact answer's slips are typed as they are
				if p.kind == "decimals" || p.kind == "figures" {
					typed, _ = p.round(v)
				}
				if e.accepts(v) || e.accepts(typed) {
					t.Errorf("%s: the mistake %v (typed %v) is accepted", name, v, typed)
				}
				if !e.near(typed, v) {
					t.Errorf("%s: the mistake %v typed as asked, %v, misses its own message (tolerance %v)", name, v, typed, e.tolerance)
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
		"Give two significant figures.":         {"figures", 2},
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
	for _, c := range []struct {
		p       precision
		x, r, u float64
	}{
		{precision{"decimals", 2}, 1.4899, 1.49, 0.01},
		{precision{"figures", 2}, 0.016667, 0.017, 0.001},
		{precision{"figures", 3}, 72.146, 72.1, 0.1},
	} {
		r, u := c.p.round(c.x)
		if math.Abs(r-c.r) > 1e-12 || math.Abs(u-c.u) > 1e-15 {
			t.Errorf("%v.round(%v) = %v, %v; want %v, %v", c.p, c.x, r, u, c.r, c.u)
		}
	}
}

// acceptedInterval returns the answers the page accepts for the lesson's
// exercise with the given label: answer ± tolerance·max(1, |answer|).
func acceptedInterval(t *testing.T, slug, label string) (lo, hi float64) {
	t.Helper()
	for _, e := range exercises(t, slug) {
		if e.raw["label"] == label {
			w := e.tolerance * math.Max(1, math.Abs(e.answer))
			return e.answer - w, e.answer + w
		}
	}
	t.Fatalf("%s has no exercise labelled %q", slug, label)
	return 0, 0
}
