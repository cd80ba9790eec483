package lessons

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// exercises returns the header fields of every ```exercise block in the
// lesson with the given slug, in order.
func exercises(t *testing.T, slug string) []map[string]string {
	t.Helper()
	files, _ := filepath.Glob("*.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.Contains(s, "\nslug: "+slug+"\n") {
			continue
		}
		var out []map[string]string
		for _, block := range strings.Split(s, "```exercise\n")[1:] {
			head, _, _ := strings.Cut(block, "\n---\n")
			h := map[string]string{}
			for _, line := range strings.Split(head, "\n") {
				if k, v, ok := strings.Cut(line, ":"); ok {
					h[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			out = append(out, h)
		}
		return out
	}
	t.Fatalf("no lesson has slug %q", slug)
	return nil
}

// accepts reports whether an answer-checked exercise accepts v, by the rule
// web/app.js applies: |v − answer| ≤ tolerance·max(1, |answer|).
func accepts(h map[string]string, v float64) bool {
	ans, err1 := strconv.ParseFloat(h["answer"], 64)
	tol, err2 := strconv.ParseFloat(h["tolerance"], 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return math.Abs(v-ans) <= tol*math.Max(1, math.Abs(ans))
}

// exerciseAccepts fails t unless the lesson's exercise with the given label
// accepts the computed answer and its own example-right, and rejects its
// example-wrong and every one of wrong (the mistakes its feedback names).
func exerciseAccepts(t *testing.T, slug, label string, computed float64, wrong ...float64) {
	t.Helper()
	for _, h := range exercises(t, slug) {
		if h["label"] != label {
			continue
		}
		if !accepts(h, computed) {
			t.Errorf("%s, exercise %q: the computed answer %g is not accepted (answer %s ± %s)", slug, label, computed, h["answer"], h["tolerance"])
		}
		r, _ := strconv.ParseFloat(h["example-right"], 64)
		w, _ := strconv.ParseFloat(h["example-wrong"], 64)
		if !accepts(h, r) || accepts(h, w) {
			t.Errorf("%s, exercise %q: example-right %g or example-wrong %g is judged wrongly", slug, label, r, w)
		}
		for _, x := range wrong {
			if accepts(h, x) {
				t.Errorf("%s, exercise %q: the mistake %g is accepted", slug, label, x)
			}
		}
		return
	}
	t.Errorf("%s has no exercise labelled %q", slug, label)
}
