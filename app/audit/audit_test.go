package audit

import (
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/audit"
)

var gap = audit.Config{Mechanism: "exponential", Score: "count[r] - count[(r+1)%k]", Sensitivity: "1", Epsilon: 1,
	Candidates: 3, MaxCount: 4, Neighbours: audit.ChangeOne}

func TestSessionChunksGiveTheWholeAudit(t *testing.T) {
	a, _ := audit.New(gap)
	whole, _ := a.All()
	var s Session
	var v View
	var err error
	for from := 0; from < 125; from = v.Next {
		if v, err = s.Run(gap, from, 10); err != nil {
			t.Fatal(err)
		}
	}
	if v.Loss != whole.Loss || v.Pairs != whole.Pairs || v.Total != 125 || v.Holds {
		t.Errorf("chunks %+v, whole %+v", v.Result, whole)
	}
	// The worst pair's distributions give the worst loss at its output.
	if got := math.Abs(v.LogRatio[v.Worst.Output]); math.Abs(got-v.Loss) > 1e-12 {
		t.Errorf("log-ratio at the worst output %v, loss %v", got, v.Loss)
	}
	for i := range v.P {
		if math.Abs(math.Log(v.P[i]/v.Q[i])-v.LogRatio[i]) > 1e-9 {
			t.Errorf("output %d: P %v Q %v ratio %v", i, v.P[i], v.Q[i], v.LogRatio[i])
		}
	}
	if _, err := s.Run(gap, 50, 10); err == nil {
		t.Error("a chunk out of order was accepted")
	}
	if _, err := s.Run(gap, 0, 0); err == nil {
		t.Error("an empty chunk was accepted")
	}
	bad := gap
	bad.Score = "count[r"
	if _, err := s.Run(bad, 0, 10); err == nil {
		t.Error("a bad score was accepted")
	}
}

func TestGrowthRisesWithTheUniverse(t *testing.T) {
	counts, losses, err := Growth(gap, 30)
	if err != nil {
		t.Fatal(err)
	}
	// 3 candidates: (m+1)^3 ≤ 5,000 up to m = 16.
	if len(counts) != 16 || counts[0] != 1 {
		t.Fatalf("counts %v", counts)
	}
	for i := 1; i < len(losses); i++ {
		if losses[i] < losses[i-1] {
			t.Errorf("loss fell from %v to %v at m = %v", losses[i-1], losses[i], counts[i])
		}
	}
	// A person moving from option r+1 to option r raises u(r) by 2 and
	// lowers the other two scores by 1: the numerator of Pr[r] moves by at
	// most e^(ε·2/2) and the normaliser by e^(ε·1/2) the other way, so the
	// loss approaches 1.5ε from below as one of the lowered scores dominates.
	if l := losses[len(losses)-1]; l > 1.5 || l < 1.49 {
		t.Errorf("the largest universe's loss %v, theory: approaching 1.5ε = 1.5", l)
	}
}

// The page reads the auditor's errors in its own words: an oversized
// universe names the widget's controls, in Run and in Growth alike, while
// the command line's wording names its flags.
func TestErrorsAreWordedForThePage(t *testing.T) {
	big := gap
	big.Candidates, big.MaxCount = 6, 60
	const want = "Universe: (60+1)^6 data sets is more than the 16777216 an audit may check; lower “Largest count m” or “Candidates k”"
	var s Session
	if _, err := s.Run(big, 0, 10); err == nil || err.Error() != want {
		t.Errorf("Run: %v, want %q", err, want)
	}
	if _, _, err := Growth(big, 60); err != nil {
		t.Errorf("Growth stops before a universe too large to chart, yet failed: %v", err)
	}
	one := gap
	one.Candidates = 1
	if _, _, err := Growth(one, 8); err == nil || err.Error() != "Candidates k: neighbours that change one person’s choice need at least 2 candidates" {
		t.Errorf("Growth: %v", err)
	}
	bad := gap
	bad.Score = "count[r] / (n - 1)"
	if _, err := s.Run(bad, 0, 1000); err == nil || !strings.HasPrefix(err.Error(), "Score u(x, r): at count = [1 0 0], r = 0 gives +Inf") {
		t.Errorf("a score that fails on a data set: %v", err)
	}
	if _, err := audit.New(big); err == nil || !strings.HasSuffix(err.Error(), "lower -max-count or -candidates") {
		t.Errorf("core's own wording is the command line's: %v", err)
	}
}
