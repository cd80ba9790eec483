package audit

import (
	"slices"
	"testing"

	"github.com/dpplay/dpplay/app/audit/sparse"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/audit"
)

// Each challenge's answer breaks the claim, exactly as the auditor's worst
// pair does; pairs that are not neighbours are refused.
func TestChallenges(t *testing.T) {
	for _, c := range Challenges() {
		if c.Config.Mechanism == "" {
			t.Fatalf("%s: no gallery example", c.ID)
		}
		a, err := c.Try(c.AnswerX, c.AnswerY, c.Answer)
		if err != nil || !a.Breaks {
			t.Errorf("%s: answer gives %+v, %v", c.ID, a, err)
		}
		au, _ := audit.New(c.Config)
		r, _ := au.All()
		if a.Loss > r.Loss+1e-12 {
			t.Errorf("%s: answer's loss %v above the audit's worst %v", c.ID, a.Loss, r.Loss)
		}
		for out := 0; out < c.Config.Candidates; out++ {
			if a, err := c.Try(c.X, c.Y, out); err != nil || a.Breaks {
				t.Errorf("%s: the starting pair gives %+v, %v for candidate %d", c.ID, a, err, out)
			}
		}
		if _, err := c.Try([]int{1, 1, 1}, []int{1, 1, 1}, 0); err == nil {
			t.Errorf("%s: equal data sets accepted as neighbours", c.ID)
		}
		for _, bad := range [][2][]int{{{1, 1, 1}, {1, 1, 2}}, {{1, 1}, {1, 1}}, {{4, 0, 0}, {3, 1, 0}}} {
			if _, err := c.Try(bad[0], bad[1], 0); err == nil {
				t.Errorf("%s: %v accepted", c.ID, bad)
			}
		}
		if _, err := c.Try(c.AnswerX, c.AnswerY, 3); err == nil {
			t.Errorf("%s: candidate 3 accepted", c.ID)
		}
	}
}

// The challenge widget's schema offers exactly the challenges of both
// lessons.
func TestChallengeSchema(t *testing.T) {
	var want []string
	for _, c := range sparse.Challenges() {
		want = append(want, c.ID)
	}
	for _, c := range Challenges() {
		want = append(want, c.ID)
	}
	for _, p := range widget.Schema("challenge") {
		if p.Key == "which" && !slices.Equal(p.Values, want) {
			t.Errorf("schema values %v, challenges %v", p.Values, want)
		}
	}
}
