package selection

import (
	"slices"
	"strings"
	"testing"
)

func TestAccount(t *testing.T) {
	charges := []Charge{{"argmax", 0.5, 0}, {"argmax", 0.5, 0}, {"one more", 0.1, 0}}
	l, err := Account(1, 0, charges)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.Accepted, []bool{true, true, false}) {
		t.Errorf("accepted %v, want the third refused", l.Accepted)
	}
	if l.SpentEpsilon != 1 || l.RemainingEpsilon != 0 {
		t.Errorf("spent %v remaining %v, want 1 and 0", l.SpentEpsilon, l.RemainingEpsilon)
	}
	if l.Errors[2] == "" || !strings.Contains(l.Errors[2], "budget") {
		t.Errorf("refusal message %q does not mention the budget", l.Errors[2])
	}
	if _, err := Account(-1, 0, nil); err == nil {
		t.Error("a negative budget was accepted")
	}
}

func TestFromArticle(t *testing.T) {
	eps, err := FromArticle(0.25, 2)
	if err != nil || eps != 1 {
		t.Errorf("FromArticle(0.25, 2) = %v, %v; want 1", eps, err)
	}
}
