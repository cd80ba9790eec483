package audit

import (
	"math"
	"testing"
)

func lossOf(t *testing.T, c Config) float64 {
	t.Helper()
	return auditAll(t, c).Loss
}

func example(t *testing.T, id string) Example {
	t.Helper()
	for _, e := range Gallery() {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("no gallery example %q", id)
	return Example{}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Every gallery mistake is caught, every fix holds, and the surprise holds
// with its contrast failing.
func TestGalleryVerdicts(t *testing.T) {
	for _, e := range Gallery() {
		claim, other := lossOf(t, e.Claim), lossOf(t, e.Other)
		if e.Surprise {
			if !Holds(claim, e.Claim.Epsilon) || Holds(other, e.Other.Epsilon) {
				t.Errorf("%s: surprise loss %v (must hold), contrast %v (must fail)", e.ID, claim, other)
			}
			continue
		}
		if Holds(claim, e.Claim.Epsilon) {
			t.Errorf("%s: mistake not caught, loss %v ≤ ε = %v", e.ID, claim, e.Claim.Epsilon)
		}
		if !Holds(other, e.Other.Epsilon) {
			t.Errorf("%s: fix fails, loss %v > ε = %v", e.ID, other, e.Other.Epsilon)
		}
	}
}

// A doubled score with Δ = 1 is the exponential mechanism with ε doubled:
// exp(ε·2u/2) = exp(2ε·u/2), so its loss is exactly the loss of the count
// score at 2ε; the fix Δ = 2 gives the loss of the count score at ε.
func TestGalleryTwiceIsDoubledEpsilon(t *testing.T) {
	e := example(t, "twice")
	count := e.Claim
	count.Score, count.Epsilon = "count[r]", 2*e.Claim.Epsilon
	if got, want := lossOf(t, e.Claim), lossOf(t, count); !near(got, want) {
		t.Errorf("loss %v, the count score at 2ε gives %v", got, want)
	}
	count.Epsilon = e.Claim.Epsilon
	if got, want := lossOf(t, e.Other), lossOf(t, count); !near(got, want) {
		t.Errorf("fixed loss %v, the count score at ε gives %v", got, want)
	}
}

// The lead over the next option has true sensitivity 2 under change-one:
// the loss exceeds ε but stays within the 2ε that Δ = 2 bounds.
func TestGalleryGapWithinTwiceEpsilon(t *testing.T) {
	e := example(t, "gap")
	l := lossOf(t, e.Claim)
	if l <= e.Claim.Epsilon || l > 2*e.Claim.Epsilon*(1+1e-12) {
		t.Errorf("loss %v, theory: in (ε, 2ε] = (%v, %v]", l, e.Claim.Epsilon, 2*e.Claim.Epsilon)
	}
}

// A histogram under change-one: two bars move by 1, L1 change 2, so Lap(1/ε)
// loses exactly 2ε and Lap(2/ε) exactly ε.
func TestGalleryHistogramExact(t *testing.T) {
	e := example(t, "histogram")
	eps := e.Claim.Epsilon
	if l := lossOf(t, e.Claim); !near(l, 2*eps) {
		t.Errorf("loss %v, theory 2ε = %v", l, 2*eps)
	}
	if l := lossOf(t, e.Other); !near(l, eps) {
		t.Errorf("fixed loss %v, theory ε = %v", l, eps)
	}
}

// Releasing the noisy maximum: adding one person raises k − 1 of the scores
// n − count[r] together; far left of every score the density of (i, t) is
// the product of k Laplace left tails and the ratio is e^((k−1)ε).
func TestGalleryValueReleaseLosesKMinusOneEpsilon(t *testing.T) {
	e := example(t, "value")
	want := float64(e.Claim.Candidates-1) * e.Claim.Epsilon
	if l := lossOf(t, e.Claim); !near(l, want) {
		t.Errorf("loss %v, theory (k−1)ε = %v", l, want)
	}
}

// Gaussian noise: unbounded loss; Δ computed from the data: unbounded too.
func TestGalleryUnbounded(t *testing.T) {
	for _, id := range []string{"gaussian", "local"} {
		if l := lossOf(t, example(t, id).Claim); !math.IsInf(l, 1) {
			t.Errorf("%s: loss %v, theory +Inf", id, l)
		}
	}
	// The Gaussian's fix is the Laplace mechanism, exact at ε for counts
	// under add-remove (one count moves by 1).
	e := example(t, "gaussian")
	if l := lossOf(t, e.Other); !near(l, e.Other.Epsilon) {
		t.Errorf("Laplace fix: loss %v, theory ε", l)
	}
}

// The one-sided bound: when every score moves the same way by at most D,
// ln Pr[r] = ε·u(r)/(2Δ) − ln Z moves by at most ε·D/(2Δ), so 2·count with
// Δ = 1 (D = 2) under add-remove loses at most ε; under change-one the
// scores move in opposite directions and the usual 2·ε·D/(2Δ) = 2ε bound
// is approached instead.
func TestGalleryMonotoneSurprise(t *testing.T) {
	e := example(t, "monotone")
	l := lossOf(t, e.Claim)
	if l > e.Claim.Epsilon || l < 0.5*e.Claim.Epsilon {
		t.Errorf("monotone loss %v, theory in [ε/2, ε]", l)
	}
	// Larger universes approach ε from below.
	big := e.Claim
	big.MaxCount = 12
	if lb := lossOf(t, big); lb <= l || lb > e.Claim.Epsilon {
		t.Errorf("m = 12: loss %v, want in (%v, ε]", lb, l)
	}
	if lo := lossOf(t, e.Other); lo <= e.Other.Epsilon || lo > 2*e.Other.Epsilon {
		t.Errorf("change-one loss %v, theory in (ε, 2ε]", lo)
	}
}
