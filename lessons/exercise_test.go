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

var reExercise = regexp.MustCompile("(?s)```exercise\n(.*?)\n---\n")

// exercises returns the headers of the lesson's exercise blocks.
func exercises(t *testing.T, slug string) []exercise {
	t.Helper()
	var out []exercise
	for _, m := range reExercise.FindAllStringSubmatch(lessonFile(t, slug), -1) {
		e := exercise{tolerance: 1e-9, raw: map[string]string{}}
		for _, line := range strings.Split(m[1], "\n") {
			k, v, _ := strings.Cut(line, ":")
			e.raw[strings.TrimSpace(k)] = strings.TrimSpace(v)
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

// accepts says whether the page's check (relative tolerance, as web/app.js
// and web/widgets/answer.js apply it) takes x for an exercise.
func (e exercise) accepts(x float64) bool {
	return math.Abs(x-e.answer) <= e.tolerance*math.Max(1, math.Abs(e.answer))
}

// TestExerciseFeedback checks, for every lesson, that each exercise accepts
// its right example and refuses its wrong one, and that no targeted mistake
// falls inside the accepted range (it would never be shown).
func TestExerciseFeedback(t *testing.T) {
	for _, slug := range []string{"permute-and-flip", "small-database", "private-pricing", "billboard-prices"} {
		for i, e := range exercises(t, slug) {
			if _, ok := e.raw["answer"]; !ok {
				continue
			}
			r, _ := strconv.ParseFloat(e.raw["example-right"], 64)
			w, _ := strconv.ParseFloat(e.raw["example-wrong"], 64)
			if !e.accepts(r) || e.accepts(w) {
				t.Errorf("%s exercise %d: right example %v accepted %v, wrong %v accepted %v", slug, i+1, r, e.accepts(r), w, e.accepts(w))
			}
			for _, m := range e.mistakes {
				v, ok := m[0].(float64)
				if !ok || e.accepts(v) {
					t.Errorf("%s exercise %d: mistake %v is not a number outside the accepted range", slug, i+1, m[0])
				}
			}
		}
	}
}
