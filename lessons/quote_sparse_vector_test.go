package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/audit/sparse"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/audit/pair"
)

const svtSlug = "sparse-vector"

// The stream widget's opening state: ε = 1, c = 1, T = 8 on its default
// answers (app/widget's svtstream schema).
var svtAnswers = []float64{3, 6, 2, 9, 4, 12, 5, 8, 2, 11}

func TestQuotedSVTStream(t *testing.T) {
	s, err := sparse.NewStream(svtAnswers, 1, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	pct := func(p float64) string { return fmt.Sprintf("%.1f%%", 100*p) }
	quoted(t, svtSlug,
		fmt.Sprintf("query 4 (answer 9) is answered ⊤ in %s of runs, but so is query 1 (answer 3) in %s", pct(s.Above[3]), pct(s.Above[0])),
		fmt.Sprintf("Query 2, in %s of runs, just ahead of query 4 at %s; query 6 gets %s", pct(s.Above[1]), pct(s.Above[3]), pct(s.Above[5])),
		fmt.Sprintf("Only %s of runs reach query 10, and %s have halted by the end of it", pct(1-s.Halted[9]), pct(s.Halted[9]+s.Above[9])),
		fmt.Sprintf("it gives α = %.1f, wider than all the answers", s.Alpha),
		fmt.Sprintf("every answer is right to within 5 with probability %s; the only larger errors are a ⊤ on one of the two answers of 2, in %s of runs", pct(1-s.MissAt(5)), pct(s.MissAt(5))),
		fmt.Sprintf("Within %g every output is right, since no answer is more than %g from $T$", s.Exact, svtFarthest()),
		fmt.Sprintf("answered ⊤ in %s of runs although its answer is 3", pct(s.Above[0])),
		fmt.Sprintf("α = %.1f from the bound against the exact distribution: every answer right to within 5 in %s of runs", s.Alpha, pct(1-s.MissAt(5))))
	// The errors larger than 5 are exactly the ⊤ answers on the two
	// answers of 2 (queries 3 and 9; with c = 1 at most one ⊤ occurs),
	// and none is larger than 6.
	if m, top2 := s.MissAt(5), s.Above[2]+s.Above[8]; svtAnswers[2] != 2 || svtAnswers[8] != 2 || math.Abs(m-top2) > 1e-12 {
		t.Errorf("errors beyond 5 have probability %v, a ⊤ on the answers of 2 %v", m, top2)
	}
	if m := s.MissAt(6); m != 0 || s.Exact != 6 || svtFarthest() != 6 {
		t.Errorf("beyond 6: probability %v; the widget's exact α %v; farthest answer %v from T", m, s.Exact, svtFarthest())
	}
	// The accuracy bound for c answers ⊤ has 8c in place of 8.
	if a1, a2 := sparse.Alpha(10, 1, 1, 0.05), sparse.Alpha(10, 2, 1, 0.05); math.Abs(a2-2*a1) > 1e-12 {
		t.Errorf("α for c = 2 is %v, not twice %v", a2, a1)
	}
	parts := make([]string, len(svtAnswers))
	for i, a := range svtAnswers {
		parts[i] = fmt.Sprint(a)
	}
	quoted(t, svtSlug, "Ten queries arrive with answers "+strings.Join(parts, ", ")+"; AboveThreshold runs with ε = 1 and $T = 8$",
		fmt.Sprintf("with query noise of scale %g an early query", s.QueryScale))
	for _, p := range widget.Schema("svtstream") {
		if want := map[string]string{"answers": strings.Join(parts, ","), "eps": "1", "c": "1", "t": "8"}[p.Key]; p.Default != want {
			t.Errorf("svtstream's default %s is %q, the lesson's stream has %q", p.Key, p.Default, want)
		}
	}
	if s.Beta != 0.05 {
		t.Errorf("β = %v, the lesson says 0.05", s.Beta)
	}
}

// svtFarthest returns how far the lesson's answer farthest from T = 8 lies.
func svtFarthest() float64 {
	d := 0.0
	for _, a := range svtAnswers {
		d = math.Max(d, math.Abs(a-8))
	}
	return d
}

// The staircase pair: x = (0, …, 0, 1) and x′ = (1, …, 1, 0).
func staircase(n int) (x, y []float64) {
	x, y = make([]float64, n), make([]float64, n)
	for i := range y {
		y[i] = 1
	}
	x[n-1], y[n-1] = 1, 0
	return x, y
}

// The audits' parameters: privacy ε, cutoff c and threshold T.
const svtAuditEps, svtAuditC, svtAuditT = 1, 1, 1

// svtAuditParams is how the lesson states them.
var svtAuditParams = fmt.Sprintf("ε = %v, $c$ = %v", svtAuditEps, svtAuditC)

func svtLoss(t *testing.T, k, n int) sparse.Audit {
	t.Helper()
	x, y := staircase(n)
	a, err := sparse.NewAudit(k, svtAuditEps, svtAuditC, svtAuditT, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func lossCell3(l float64) string {
	if math.IsInf(l, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.3f", l)
}

func TestQuotedSVTGrowth(t *testing.T) {
	quoted(t, svtSlug, fmt.Sprintf("the hardest case for the argument (%s, $T$ = %v):", svtAuditParams, svtAuditT))
	for _, n := range []int{2, 4, 6, 10} {
		a1, a3 := svtLoss(t, 1, n), svtLoss(t, 3, n)
		if !a1.Holds || a1.Loss >= 1 {
			t.Errorf("n = %d: AboveThreshold loses %v", n, a1.Loss)
		}
		quoted(t, svtSlug, fmt.Sprintf("| %d | %s | %s |", n, lossCell3(a1.Loss), lossCell3(a3.Loss)))
	}
}

func TestQuotedSVTVariants(t *testing.T) {
	// The widget's opening pair is the staircase of ten queries.
	x, y := staircase(10)
	if got := lessonText(t, svtSlug); !strings.Contains(got, "x: 0,0,0,0,0,0,0,0,0,1 y: 1,1,1,1,1,1,1,1,1,0") {
		t.Error("the variants widget does not open on the staircase pair")
	}
	cell := func(l float64) string {
		if math.IsInf(l, 1) {
			return "∞"
		}
		return fmt.Sprint(math.Round(l*1000) / 1000)
	}
	for k := 1; k <= 6; k++ {
		a, err := sparse.NewAudit(k, svtAuditEps, svtAuditC, svtAuditT, x, y)
		if err != nil {
			t.Fatal(err)
		}
		if a.Holds != (k <= 2) {
			t.Errorf("Algorithm %d: holds %v", k, a.Holds)
		}
		proved := map[bool]string{true: "ε", false: "$(1+6c)\\varepsilon/4$"}[a.Variant.Proven == svtAuditEps]
		if math.IsInf(a.Variant.Proven, 1) {
			proved = "∞"
		} else if k == 4 && a.Variant.Proven != (1+6*svtAuditC)*svtAuditEps/4.0 {
			t.Errorf("Algorithm 4: Lyu et al. prove %v", a.Variant.Proven)
		}
		quoted(t, svtSlug, fmt.Sprintf("| %s | %s | %s |", proved, cell(a.Loss), a.Worst.Text))
	}
	quoted(t, svtSlug, fmt.Sprintf("The widget audits each on the same pair, with %s and $T$ = %v.", svtAuditParams, svtAuditT))
	// What the table says each variant does, at c = 2 so that each factor c
	// shows: ε₁ = ε₂ = ε/2 except in Algorithm 4 (ε₁ = ε/4); Cutoff 0 is
	// no cutoff, QueryScale 0 no query noise.
	const eps, c = 1.0, 2
	e1, e2 := eps/2, eps/2
	want := map[int]pair.SVT{
		1: {ThresholdScale: 1 / e1, QueryScale: 2 * c / e2, Cutoff: c},
		2: {ThresholdScale: c / e1, QueryScale: 2 * c / e1, Cutoff: c, Resample: true},
		3: {ThresholdScale: 1 / e1, QueryScale: c / e2, Cutoff: c, Release: pair.ReleaseNoisy},
		4: {ThresholdScale: 1 / (eps / 4), QueryScale: 1 / (eps - eps/4), Cutoff: c},
		5: {ThresholdScale: 1 / e1},
		6: {ThresholdScale: 1 / e1, QueryScale: 1 / e2},
	}
	for k, w := range want {
		v, err := pair.Lyu(k, eps, c, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := v.SVT
		got.ReleaseScale = 0
		if got != w {
			t.Errorf("Algorithm %d is %+v, the lesson's table describes %+v", k, got, w)
		}
	}
	// Algorithm 5 on x = (0, 1) and x′ = (1, 0): ⊥⊤ is possible under x
	// only.
	x5, y5 := []float64{0, 1}, []float64{1, 0}
	v5, err := pair.Lyu(5, svtAuditEps, svtAuditC, svtAuditT)
	if err != nil {
		t.Fatal(err)
	}
	lp, errp := v5.SVT.LogProbability(x5, "FT")
	lq, errq := v5.SVT.LogProbability(y5, "FT")
	if errp != nil || errq != nil || math.IsInf(lp, -1) || !math.IsInf(lq, -1) {
		t.Errorf("Algorithm 5, ⊥⊤: log-probabilities %v (%v) on x and %v (%v) on x′", lp, errp, lq, errq)
	}
	quoted(t, svtSlug, fmt.Sprintf("On $x$ = (%v, %v) the noisy threshold lands there with positive probability; on the neighbour $x'$ = (%v, %v) it would need $%v < \\hat T \\le %v$",
		x5[0], x5[1], y5[0], y5[1], y5[0], y5[1]))
	a4 := svtLoss(t, 4, 10)
	v4, _ := pair.Lyu(4, 1, 1, 1)
	quoted(t, svtSlug, fmt.Sprintf("Lyu et al. prove $(1+6c)\\varepsilon/4$, %g here; the pair reaches %.3f", v4.Proven, a4.Loss))
}

// The exercise: Algorithm 1 with ε = 1 split equally and c = 3 gives each
// query Lap(2c/ε₂) = Lap(12).
func TestSVTExerciseScale(t *testing.T) {
	v, err := pair.Lyu(1, 1, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v.SVT.QueryScale != 12 {
		t.Errorf("query scale %v, the exercise's answer is 12", v.SVT.QueryScale)
	}
	ab, _ := pair.Lyu(1, 1, 1, 0)
	if ab.SVT.ThresholdScale != 2 || ab.SVT.QueryScale != 4 {
		t.Errorf("AboveThreshold at ε = 1: scales %v and %v, the lesson says 2/ε and 4/ε", ab.SVT.ThresholdScale, ab.SVT.QueryScale)
	}
	quoted(t, "glossary", fmt.Sprintf("draw $\\hat T = T + \\mathrm{Lap}(%g/\\varepsilon)$ once, add fresh $\\mathrm{Lap}(%g/\\varepsilon)$ noise to each query",
		ab.SVT.ThresholdScale, ab.SVT.QueryScale))
}

// Algorithm 6 on the table's staircase stays below 1.5 at every length the
// widget takes, one threshold shift covering every ⊤; on the pair whose ⊤
// answers move against its ⊥ answers, each ⊤ pays and the loss grows.
func TestQuotedSVTAlgorithm6(t *testing.T) {
	for n := 2; n <= sparse.MaxQueries; n++ {
		if l := svtLoss(t, 6, n).Loss; l >= 1.5 {
			t.Errorf("Algorithm 6 on the staircase of %d queries loses %v, not below 1.5", n, l)
		}
	}
	halves := func(n int) sparse.Audit {
		x, y := make([]float64, n), make([]float64, n)
		for i := 0; i < n/2; i++ {
			x[i], y[n/2+i] = 1, 1
		}
		a, err := sparse.NewAudit(6, svtAuditEps, svtAuditC, svtAuditT, x, y)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	ten := halves(10)
	if ten.Worst.Text != "⊥⊥⊥⊥⊥⊤⊤⊤⊤⊤" {
		t.Errorf("the worst output on the halves pair is %s", ten.Worst.Text)
	}
	quoted(t, svtSlug,
		fmt.Sprintf("its loss, %.3f for ten queries, is already above the claimed 1, but stays below 1.5 whatever the number of queries", svtLoss(t, 6, 10).Loss),
		fmt.Sprintf("the output %s loses %.3f.", ten.Worst.Text, ten.Loss),
		fmt.Sprintf("the loss is %.3f for six queries and %.3f for twelve", halves(6).Loss, halves(sparse.MaxQueries).Loss))
	if sparse.MaxQueries != 12 {
		t.Errorf("the widget takes up to %d queries; the lesson says twelve", sparse.MaxQueries)
	}
	for n := 4; n <= sparse.MaxQueries; n += 2 {
		if halves(n).Loss <= halves(n-2).Loss {
			t.Errorf("on the halves pair the loss does not grow from %d to %d queries", n-2, n)
		}
	}
}
