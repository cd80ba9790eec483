package lessons

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// exercise is the header of one ```exercise block.
type exercise struct {
	answer, tolerance float64
	mistakes          [][2]any
	raw               map[string]string
}

var (
	reExercise = regexp.MustCompile("(?s)```exercise\n(.*?)\n---\n")
	reSlug     = regexp.MustCompile(`(?m)^slug: (\S+)$`)
)

// exercises returns the headers of the lesson's exercise blocks, in order.
func exercises(t *testing.T, slug string) []exercise {
	t.Helper()
	var out []exercise
	for _, m := range reExercise.FindAllStringSubmatch(lessonFile(t, slug), -1) {
		e := exercise{tolerance: 1e-9, raw: map[string]string{}}
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
			r, _ := strconv.ParseFloat(e.raw["example-right"], 64)
			w, _ := strconv.ParseFloat(e.raw["example-wrong"], 64)
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
