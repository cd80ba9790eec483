package lessons

import (
	"fmt"
	"math"
	"strings"
	"testing"

	auditapp "github.com/dpplay/dpplay/app/audit"
	"github.com/dpplay/dpplay/core/audit"
)

const checkSlug = "check-a-mechanism"

// auditLoss audits every data set of c's universe through app/audit's
// Session, the code the widget calls, in one chunk.
func auditLoss(t *testing.T, c audit.Config) audit.Result {
	t.Helper()
	var s auditapp.Session
	v, err := s.Run(c, 0, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	return v.Result
}

func galleryExample(t *testing.T, id string) audit.Example {
	t.Helper()
	for _, e := range audit.Gallery() {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("no gallery example %q", id)
	return audit.Example{}
}

// lossCell is how the gallery table writes a loss: ∞, or at most three
// decimals with trailing zeros dropped.
func lossCell(l float64) string {
	if math.IsInf(l, 1) {
		return "∞"
	}
	return fmt.Sprint(math.Round(l*1000) / 1000)
}

// The widget's starting audit (the lead over the next option) and its
// predict block, and how the loss grows with the universe.
func TestQuotedLeadScore(t *testing.T) {
	gap := galleryExample(t, "gap").Claim
	r := auditLoss(t, gap)
	from, to := moved(r.Worst.Data, r.Worst.Neighbour)
	quoted(t, checkSlug,
		fmt.Sprintf("a loss of %.3f on the universe with counts up to 3 (%d pairs of %d data sets)", r.Loss, r.Pairs, r.DataSets),
		fmt.Sprintf("The loss the auditor finds on counts up to 3 is %.3f, not 2", r.Loss),
		fmt.Sprintf("moves one person from option %d to option %d", from, to))
	// The widget's growth chart, and the universe with counts up to 20.
	counts, losses, err := auditapp.Growth(gap, 8) // the widget draws to max(m, 8)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(losses); i++ {
		if losses[i] <= losses[i-1] || losses[i] >= 1.5 {
			t.Errorf("growth chart: loss %v after %v, not climbing below 1.5", losses[i], losses[i-1])
		}
	}
	gap.MaxCount = 20
	last := auditLoss(t, gap).Loss
	if last >= 1.5 || last < 1.5-1e-7 {
		t.Fatalf("m = 20: loss %v, not just below 1.5", last)
	}
	quoted(t, checkSlug, fmt.Sprintf("Its last point, at counts up to %g unless you raise the largest count, is %.4f; with counts up to 20 the verdict reads %s.",
		counts[len(counts)-1], losses[len(losses)-1], trunc8(last)))
}

// moved returns the option a person left and the one they joined.
func moved(x, y []int) (from, to int) {
	for i := range x {
		if y[i] < x[i] {
			from = i
		}
		if y[i] > x[i] {
			to = i
		}
	}
	return from, to
}

// trunc8 writes x with its first 8 decimals, cut rather than rounded
// (1.4999999928 is "1.49999999", never "1.5").
func trunc8(x float64) string { return fmt.Sprintf("%.8f", math.Floor(x*1e8)/1e8) }

func TestQuotedGallery(t *testing.T) {
	for _, row := range []struct {
		id, title, neighbours string
	}{
		{"twice", "Twice the count, Δ kept at 1", "change-one"},
		{"local", "Δ computed from the data: shares count/n with Δ = 1/n", "add-remove"},
		{"histogram", "A histogram with Lap(1/ε) on every bar", "change-one"},
		{"value", "Report noisy max that also releases the winning value, score n − count[r]", "add-remove"},
		{"gaussian", "Gaussian noise claimed as pure ε-DP", "add-remove"},
	} {
		e := galleryExample(t, row.id)
		if e.Claim.Neighbours != row.neighbours || e.Claim.Epsilon != 1 || e.Claim.MaxCount != 3 {
			t.Errorf("%s: the table's setting differs from the gallery's %+v", row.id, e.Claim)
		}
		quoted(t, checkSlug, fmt.Sprintf("| %s (%s) | %s |", row.title, row.neighbours, lossCell(auditLoss(t, e.Claim).Loss)))
	}
	twice := auditLoss(t, galleryExample(t, "twice").Claim).Loss
	quoted(t, checkSlug, fmt.Sprintf("its worst loss, %.3f, is that mechanism's", twice),
		fmt.Sprintf("the loss is %.3f again", twice))
	h := galleryExample(t, "histogram")
	quoted(t, checkSlug,
		fmt.Sprintf("Lap(1/ε) loses exactly %s. With Lap(2/ε) the loss is exactly %s", lossCell(auditLoss(t, h.Claim).Loss), lossCell(auditLoss(t, h.Other).Loss)),
		fmt.Sprintf("| Lap(2/ε), loss %s |", lossCell(auditLoss(t, h.Other).Loss)))
	v := galleryExample(t, "value")
	quoted(t, checkSlug, fmt.Sprintf("raises two of the three scores, and the loss is exactly %s", lossCell(auditLoss(t, v.Claim).Loss)))
}

func TestQuotedMonotoneSurprise(t *testing.T) {
	mono := galleryExample(t, "monotone").Claim
	small := auditLoss(t, mono).Loss
	mono.MaxCount = 20
	big := auditLoss(t, mono).Loss
	if big >= 1 {
		t.Fatalf("m = 20: loss %v, not below ε", big)
	}
	quoted(t, checkSlug, fmt.Sprintf("the worst loss is %.3f with counts up to 3, and still only %s with counts up to 20", small, trunc8(big)))
}

// Shares count/n under change-one neighbours: n is public there, but the
// released shares have L1 sensitivity 2/n, so scale (1/n)/ε loses 2ε.
func TestQuotedSharesChangeOne(t *testing.T) {
	c := galleryExample(t, "local").Claim
	c.Neighbours = audit.ChangeOne
	half := auditLoss(t, c).Loss
	c.Sensitivity = "2 / max(n, 1)"
	full := auditLoss(t, c).Loss
	quoted(t, checkSlug, fmt.Sprintf("With two options and change-one neighbours the auditor reports a loss of %s for scale $(1/n)/\\varepsilon$ and %s for $(2/n)/\\varepsilon$",
		lossCell(half), lossCell(full)))
}

// The StatDP paper's first author is Zeyu Ding (CCS 2018).
func TestCheckAMechanismReference(t *testing.T) {
	const slug = "check-a-mechanism"
	quoted(t, slug, "StatDP (Ding, Wang, Wang, Zhang and Kifer, 2018)",
		"Zeyu Ding, Yuxin Wang, Guanhong Wang, Danfeng Zhang and Daniel Kifer. Detecting violations of differential privacy.")
	if strings.Contains(lessonFile(t, slug), "Zeyuan") {
		t.Error("the StatDP reference names Zeyuan Ding; the author is Zeyu Ding")
	}
}
