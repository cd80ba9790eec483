package sparse

import (
	"math"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/audit/pair"
)

// Each query is answered ⊤, answered ⊥ or not reached; the three add up
// to 1, and a sampled stream agrees with the exact marginals.
func TestStream(t *testing.T) {
	ans := []float64{3, 6, 2, 9, 4, 12, 5, 8, 2, 11}
	for _, c := range []int{1, 2, 3} {
		s, err := NewStream(ans, 1, c, 8)
		if err != nil {
			t.Fatal(err)
		}
		if s.ThresholdScale != 2 || s.QueryScale != 4*float64(c) {
			t.Errorf("c = %d: scales %v and %v, want 2/ε and 4c/ε", c, s.ThresholdScale, s.QueryScale)
		}
		for i := range ans {
			if sum := s.Above[i] + s.Below[i] + s.Halted[i]; math.Abs(sum-1) > 1e-9 {
				t.Errorf("c = %d, query %d: probabilities add up to %v", c, i, sum)
			}
		}
		if s.ExpectedTops > float64(c)+1e-9 {
			t.Errorf("c = %d: %v ⊤ expected, more than c", c, s.ExpectedTops)
		}
		// Sampled runs: each query's share of ⊤ within 6 standard errors.
		r := mrand.New(mrand.NewPCG(1, uint64(c)))
		lap := func(b float64) float64 { return b * (r.ExpFloat64() - r.ExpFloat64()) }
		const n = 40000
		tops := make([]int, len(ans))
		for k := 0; k < n; k++ {
			rho, seen := lap(s.ThresholdScale), 0
			for i, a := range ans {
				if a+lap(s.QueryScale) >= 8+rho {
					tops[i]++
					if seen++; seen == c {
						break
					}
				}
			}
		}
		for i := range ans {
			p := s.Above[i]
			if d := math.Abs(float64(tops[i])/n - p); d > 6*math.Sqrt(p*(1-p)/n)+1e-4 {
				t.Errorf("c = %d, query %d: sampled ⊤ share %v, exact %v", c, i, float64(tops[i])/n, p)
			}
		}
		// The union bound's α is far above the exact α at the same β.
		if s.Alpha != Alpha(len(ans), c, 1, Beta) || !(s.Exact < s.Alpha) || s.Miss > Beta {
			t.Errorf("c = %d: α = %v, exact %v, miss %v", c, s.Alpha, s.Exact, s.Miss)
		}
	}
	if _, err := NewStream(ans, 1, 9, 8); err == nil {
		t.Error("c = 9 accepted")
	}
}

// Dwork and Roth's Theorem 3.24: for c = 1, α = 8(ln k + ln(2/β))/ε.
func TestAlphaIsDworkRoth(t *testing.T) {
	if a, want := Alpha(10, 1, 1, 0.05), 8*(math.Log(10)+math.Log(40)); math.Abs(a-want) > 1e-12 {
		t.Errorf("α = %v, want %v", a, want)
	}
}

// The audit reports what core/audit/pair computes, with the verdict
// against each variant's claim.
func TestAudit(t *testing.T) {
	x := []float64{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	y := []float64{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}
	for k := 1; k <= 6; k++ {
		a, err := NewAudit(k, 1, 1, 1, x, y)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := pair.Lyu(k, 1, 1, 1)
		l, _ := v.SVT.Loss(x, y)
		if a.Loss != l.Value() || a.Holds != (k <= 2) || len(a.Rows) == 0 || len(a.Rows) > MaxRows {
			t.Errorf("Algorithm %d: loss %v (pair: %v), holds %v, %d rows", k, a.Loss, l.Value(), a.Holds, len(a.Rows))
		}
		for i := 1; i < len(a.Rows); i++ {
			if math.Abs(a.Rows[i].LogRatio) > math.Abs(a.Rows[i-1].LogRatio) {
				t.Errorf("Algorithm %d: rows out of order", k)
			}
		}
	}
	if _, err := NewAudit(1, 1, 1, 1, []float64{0, 2}, []float64{1, 0}); err == nil {
		t.Error("answers 2 apart accepted as neighbours")
	}
}

// Each challenge's starting pair keeps the claim, and its answer breaks it;
// malformed outputs are refused.
func TestChallenges(t *testing.T) {
	for _, c := range Challenges() {
		v, _ := pair.Lyu(c.Algorithm, c.Epsilon, c.Cutoff, c.Threshold)
		patterns, _ := v.SVT.Patterns(len(c.X))
		for _, p := range patterns {
			// An output impossible under both inputs is refused; no other breaks the claim.
			if a, err := c.Try(c.X, c.Y, p); err == nil && a.Breaks {
				t.Errorf("%s: the starting pair breaks the claim with %s (%v)", c.ID, p, err)
			}
		}
		a, err := c.Try(c.AnswerX, c.AnswerY, c.Answer)
		if err != nil || !a.Breaks {
			t.Errorf("%s: the answer gives loss %v (%v), not above ε = %v", c.ID, a.Loss, err, c.Epsilon)
		}
		for _, bad := range []string{"", "TX", "TTTTT", "F"} {
			if _, err := c.Try(c.X, c.Y, bad); err == nil {
				t.Errorf("%s: output %q accepted", c.ID, bad)
			}
		}
	}
	if _, err := FindChallenge("nope"); err == nil {
		t.Error("unknown challenge found")
	}
}

func TestChallengeHalts(t *testing.T) {
	want := map[string]int{"svt-no-noise": 0, "svt-no-cutoff": 0, "svt-small-noise": 1}
	for _, c := range Challenges() {
		if c.Halts() != want[c.ID] {
			t.Errorf("%s halts after %d ⊤, want %d", c.ID, c.Halts(), want[c.ID])
		}
	}
}

func TestVariantsListsLyuSuLi(t *testing.T) {
	vs, err := Variants(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 6 {
		t.Fatalf("%d variants, want Lyu, Su and Li's six", len(vs))
	}
	for i, v := range vs {
		w, err := pair.Lyu(i+1, 1, 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v.Source != w.Source || v.Claim != w.Claim || v.Proven != w.Proven || v.SVT.QueryScale != w.SVT.QueryScale ||
			v.SVT.ThresholdScale != w.SVT.ThresholdScale || v.SVT.Cutoff != w.SVT.Cutoff || v.SVT.Release != w.SVT.Release {
			t.Errorf("variant at index %d: %+v, not Algorithm %d as pair.Lyu gives it", i, v, i+1)
		}
	}
	if vs[2].SVT.Release != pair.ReleaseNoisy {
		t.Errorf("Algorithm 3 releases %v; it publishes the noisy answer", vs[2].SVT.Release)
	}
}

// Algorithm 4 at ε = 5, c = 3 and T = −100 asks for probabilities below
// what float64 can resolve: the audit says so in words that name the page's
// controls, not the arithmetic's.
func TestAuditCancellationMessage(t *testing.T) {
	x := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	y := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 0}
	_, err := NewAudit(4, 5, 3, -100, x, y)
	if err == nil {
		t.Fatal("the audit at T = −100 succeeded; if it is now exact, the lesson may quote it")
	}
	msg := err.Error()
	for _, want := range []string{"threshold T", "so unlikely", "16 digits", "Move T closer to the answers, or lower ε."} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	for _, jargon := range []string{"float64", "integral"} {
		if strings.Contains(msg, jargon) {
			t.Errorf("message %q says %q", msg, jargon)
		}
	}
	if _, err := NewAudit(4, 5, 3, -50, x, y); err != nil {
		t.Errorf("at T = −50 the audit fails too: %v", err)
	}
}
