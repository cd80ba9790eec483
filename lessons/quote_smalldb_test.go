package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	synthapp "github.com/dpplay/dpplay/app/synth"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/synth"
)

// smallDBLevels scores the small-database widget's default instance (4
// attributes, all 2-way marginals, m rows) as the widget's stepper does and
// returns its setup and exact error levels at ε.
func smallDBLevels(t *testing.T, m int, eps float64) (*synthapp.Setup, []synth.Level) {
	t.Helper()
	s, err := synthapp.NewSetup(4, "marginals:2")
	if err != nil {
		t.Fatal(err)
	}
	st, err := synth.NewSmallDBStepper(synth.SmallDBConfig{Data: s.Data, Queries: s.Queries, Size: m, Epsilon: eps}, rng.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	for st.Stage() < synth.StageLevels {
		if err := st.Step(synth.DefaultChunk); err != nil {
			t.Fatal(err)
		}
	}
	levels, err := st.LevelsAt(eps)
	if err != nil {
		t.Fatal(err)
	}
	return s, levels
}

func TestQuotedSmallDB(t *testing.T) {
	const slug = "small-database"
	s, levels := smallDBLevels(t, 6, 1)
	X, Q, n := s.Data.UniverseSize(), s.Queries.Len(), s.Data.N()
	if X != 16 || Q != 24 || n != 120 {
		t.Fatalf("|X| = %d, |Q| = %d, n = %d; the lesson says 16, 24, 120", X, Q, n)
	}
	count := func(x, m int) uint64 {
		c, err := synth.CandidateCount(x, m)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	quoted(t, slug,
		// In TeX a comma is punctuation; {,} groups the digits.
		fmt.Sprintf("$C(|X| + m - 1, m) = C(23, 8) = %s$", strings.ReplaceAll(commas(count(16, 8)), ",", "{,}")),
		fmt.Sprintf("- [x] %s: multisets of 8 rows from 16.", commas(count(16, 8))),
		fmt.Sprintf("Raise m to 8: %s candidates", commas(count(16, 8))),
		fmt.Sprintf("(%s candidates)", commas(count(16, 6))),
		fmt.Sprintf("m = 8: %.1f million candidates", float64(count(32, 8))/1e6),
		fmt.Sprintf("five attributes and m = 8 already make %.1f million", float64(count(32, 8))/1e6))
	quoted(t, "mwem", fmt.Sprintf("with five yes/no attributes and $m = 8$ that is already %.1f million", float64(count(32, 8))/1e6),
		fmt.Sprintf("the candidate count for 5 attributes and m = 8 (%.1f million)", float64(count(32, 8))/1e6))

	// The sensitivity exercise.
	quoted(t, slug, fmt.Sprintf("answer: %.7f", 1/float64(n)), fmt.Sprintf("1/120 ≈ %.4f", 1/float64(n)),
		fmt.Sprintf("[[%.6f, \"That is 2/n.", 2/float64(n)), fmt.Sprintf("[%.5f, \"That is 1/m,", 1.0/6))

	// Stage 5 over ε: expected error, a uniformly random candidate's mean
	// error (what ε → 0 gives), best level.
	var ref synthapp.Reference
	expected := func(eps float64) (float64, float64) {
		e, q, _, err := ref.Expected(4, "marginals:2", 6, eps)
		if err != nil {
			t.Fatal(err)
		}
		return e, q
	}
	e01, _ := expected(0.1)
	e1, q1 := expected(1)
	_, q10 := expected(10)
	var total, sum float64
	for _, l := range levels {
		total += float64(l.Candidates)
		sum += float64(l.Candidates) * l.MaxError
	}
	uniform := sum / total
	_, l10 := smallDBLevels(t, 6, 10)
	best := l10[0]
	quoted(t, slug,
		fmt.Sprintf("At ε = 0.1 the expected error is about %.2f, against %.2f for a candidate drawn uniformly at random", e01, uniform),
		fmt.Sprintf("At ε = 1 it sits near the best (about %.2f)", e1),
		fmt.Sprintf("at ε = 10 the best level, %.3f, holds %.0f%% of the probability", best.MaxError, 100*best.Probability),
		fmt.Sprintf("fall from %.2f to nearly the floor of %.3f", e01, best.MaxError))
	if best.Probability > 0.995 {
		t.Errorf("the best level holds %v at ε = 10; the lesson says it is not all", best.Probability)
	}
	if (uniform-e01)/uniform < 0.1 {
		t.Errorf("at ε = 0.1 the expected error %v is within 10%% of a random candidate's %v; the lesson calls it a clear lean", e01, uniform)
	}

	// The exercise on the two best levels at ε = 1: a level's probability
	// is its count times exp(−εn·error/2), and the levels are 1/120 apart.
	l0, l1 := levels[0], levels[1]
	if math.Abs(l0.MaxError*float64(n)-14) > 1e-9 || math.Abs(l1.MaxError*float64(n)-15) > 1e-9 || l0.Candidates != 2 || l1.Candidates != 8 {
		t.Fatalf("the two best levels are %v (%d candidates) and %v (%d); the question says 14/120 with 2 and 15/120 with 8", l0.MaxError, l0.Candidates, l1.MaxError, l1.Candidates)
	}
	ratio := l0.Probability / l1.Probability
	derived := float64(l0.Candidates) / float64(l1.Candidates) * math.Exp(0.5)
	if math.Abs(ratio-derived) > 1e-9 {
		t.Errorf("the widget's levels stand %v to 1; (2/8)·e^(1/2) = %v", ratio, derived)
	}
	quoted(t, slug,
		fmt.Sprintf("answer: %.5f", ratio),
		fmt.Sprintf("the ratio is (2/8) × e^(1/2) ≈ %.3f", ratio),
		fmt.Sprintf("P(max-error ≤ x) is %.3f at the best level and %.3f at the next: steps of %.3f and %.3f", l0.Probability, l0.Probability+l1.Probability, l0.Probability, l1.Probability),
		fmt.Sprintf("[[%.4f, \"That is e^(1/2)", math.Exp(0.5)),
		fmt.Sprintf("[%.5f, \"That is (2/8) × e:", 0.25*math.E),
		fmt.Sprintf("[%.5f, \"That is (2/8) × e^(−1/2)", 0.25*math.Exp(-0.5)),
		fmt.Sprintf("[%.4f, \"That divides the other way", 1/ratio),
		fmt.Sprintf("$(2/8) \\times e^{1/2} \\approx %.3f$ for the two best levels", ratio))
	exerciseAccepts(t, slug, "ratio of levels", ratio, math.Exp(0.5), 0.25, 0.25*math.E, 0.25*math.Exp(-0.5), 1/ratio)
	exerciseAccepts(t, slug, "ratio of levels", round(ratio, 3))
	exerciseAccepts(t, slug, "Δu", 1/float64(n), 2/float64(n), 1, 1.0/6)
	exerciseAccepts(t, slug, "Δu", 0.0083)
	exerciseAccepts(t, slug, "Δu", 0.00833)
	// The question reads one way: the utility is the negated largest
	// error, and Δu is how far it moves for a fixed candidate.
	quoted(t, slug, fmt.Sprintf("SmallDB's utility is the largest error over the queries, negated: $u(x, y) = -\\max_f |f(x) - f(y)|$. With n = %d patients and change-one-answer neighbours, how far can $u(x, y)$ move when one record of $x$ changes, for a fixed candidate $y$? That is its sensitivity Δu.", n))

	// Proposition 4.4 at m = 6 and the exact quantiles.
	alpha, err := synth.AlphaForSize(Q, 6)
	if err != nil {
		t.Fatal(err)
	}
	prop := func(m int, eps float64) float64 {
		a, err := synth.AlphaForSize(Q, m)
		if err != nil {
			t.Fatal(err)
		}
		p, err := synth.Prop44Bound(X, Q, n, eps, a, synthapp.Beta)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	_ = e1
	quoted(t, slug,
		fmt.Sprintf("α = %.2f, and the bound is %.3f at ε = 1", alpha, prop(6, 1)),
		fmt.Sprintf("and %.2f at ε = 10. The exact error of the same runs is far smaller: its 95%% quantile is %.2f at ε = 1 and %.3f at ε = 10", prop(6, 10), q1, q10),
		fmt.Sprintf("at m = 6 it is %.3f at ε = 1 and %.2f at ε = 10, against an exact 95%% quantile of %.2f and %.3f", prop(6, 1), prop(6, 10), q1, q10))

	// Theorem 4.5.
	thm := func(x, q int, eps float64) (float64, int) {
		a, err := synth.Thm45Bound(x, q, n, eps, synthapp.Beta)
		if err != nil {
			t.Fatal(err)
		}
		m, err := synth.Thm45Size(q, a)
		if err != nil {
			t.Fatal(err)
		}
		return a, m
	}
	a1, m1 := thm(X, Q, 1)
	a10, m10 := thm(X, Q, 10)
	if a1 <= 1 || prop(m1, 1) <= a1 {
		t.Errorf("at ε = 1: α = %v, Proposition 4.4 at m = %d is %v; the lesson says α > 1 and the proposition above it", a1, m1, prop(m1, 1))
	}
	quoted(t, slug,
		fmt.Sprintf("the theorem gives %.2f at ε = 10, for $m = %d$ rows", a10, m10),
		fmt.Sprintf("Its α comes out at %.3f", a1),
		fmt.Sprintf("rounding it up to %d rows", m1),
		fmt.Sprintf("Proposition 4.4 at $m = %d$, the exact promise for that run, is %.3f, above the theorem's own %.3f", m1, prop(m1, 1), a1),
		fmt.Sprintf("which m it needs at ε = 10 (%d rows). At ε = 1 it asks for %d rows but its α is %.3f > 1, and Proposition 4.4 at m = %d is %.3f", m10, m1, a1, m1, prop(m1, 1)))

	// Three attributes, 1-way marginals, ε = 50.
	s3, err := synthapp.NewSetup(3, "marginals:1")
	if err != nil {
		t.Fatal(err)
	}
	a50, m50 := thm(s3.Data.UniverseSize(), s3.Queries.Len(), 50)
	res, err := synth.SmallDB(t.Context(), synth.SmallDBConfig{Data: s3.Data, Queries: s3.Queries, Size: 1, Epsilon: 50}, rng.Seeded(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	worst1 := math.Inf(1) // the best any 1-row database can do
	for _, l := range res.Levels {
		worst1 = math.Min(worst1, l.MaxError)
	}
	quoted(t, slug, fmt.Sprintf("the theorem gives %.2f for $m = %d$, while SmallDB with $m = 1$ errs by at least %.2f in every run", a50, m50, worst1))

	// Halfspaces: a finite class on {0,1}^k, so ln|Q| is not useless there.
	quoted(t, slug, "on rows in $\\{0,1\\}^k$ they cut out at most $2^{k^2}$ different sets, so $\\ln|Q| = O(k^2)$: about $k$ times the VC dimension")

	// Eq. 4.3 at α = 0.1, ε = 1.
	rows, err := synth.Thm45MinRows(X, Q, 1, 0.1, synthapp.Beta)
	if err != nil {
		t.Fatal(err)
	}
	size, err := synth.Thm45Size(Q, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	quoted(t, slug, fmt.Sprintf("patients: about %s for α = 0.1 at ε = 1, with synthetic databases of %s rows",
		commas(uint64(math.Round(rows/1000)*1000)), commas(uint64(size))))
}

// commas writes x with thousands separators.
func commas(x uint64) string {
	s := fmt.Sprint(x)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
