package mech

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

func TestNaiveLaplaceCouldOutputFindsRealOutputs(t *testing.T) {
	// Every output the sampler really produces must be judged reachable from
	// its own input: otherwise the attack below would be a bug, not a leak.
	for _, tc := range []struct{ q, scale float64 }{{0, 1}, {1, 1}, {0, 10}, {5, 0.5}, {-3.25, 2}} {
		l, _ := NewLaplace(tc.q, tc.scale, 1)
		r := rng.Seeded(91)
		for i := 0; i < 5000; i++ {
			x := l.Sample(r)
			ok, err := NaiveLaplaceCouldOutput(x, tc.q, tc.scale)
			if err != nil || !ok {
				t.Fatalf("q = %v, b = %v: real output %v judged unreachable (%v)", tc.q, tc.scale, x, err)
			}
		}
	}
}

func TestFloatingPointAttack(t *testing.T) {
	// Counts 0 and 1 at ε = 1: a large share of outputs from q = 0 could
	// never come from q = 1.
	ruledOut, err := FloatingPointAttack(0, 1, 1, 1, 20_000, rng.Seeded(92))
	if err != nil {
		t.Fatal(err)
	}
	if ruledOut < 20_000/10 {
		t.Errorf("only %d of 20000 outputs ruled out the neighbour", ruledOut)
	}
	t.Logf("%d of 20000 naive outputs rule out q′ = 1", ruledOut)
}

func TestDiscreteLaplaceMechanism(t *testing.T) {
	m, err := NewDiscreteLaplace(3, 1, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Epsilon(); e > 0.7 || e < 0.7*(1-1e-3) {
		t.Errorf("achieved ε = %v for requested 0.7", e)
	}
	n, _ := NewDiscreteLaplace(4, 1, 0.7)
	worst := 0.0
	for y := int64(-50); y <= 50; y++ {
		worst = math.Max(worst, math.Abs(m.LogPMF(y)-n.LogPMF(y)))
	}
	if worst > m.Epsilon()*(1+1e-12) || worst < m.Epsilon()*(1-1e-12) {
		t.Errorf("neighbours' worst log-ratio %v, want exactly ε = %v", worst, m.Epsilon())
	}
	r := rng.Seeded(93)
	sum := 0.0
	for i := 0; i < 100_000; i++ {
		sum += float64(m.Sample(r))
	}
	// Mean 3, variance 2e^{−1/σ}/(1−e^{−1/σ})² ≈ 2σ²: the sample mean is
	// within 6 standard errors with probability 1 − 2e-9.
	s := m.Scale()
	v := 2 * math.Exp(-1/s) / math.Pow(-math.Expm1(-1/s), 2)
	if mean := sum / 100_000; math.Abs(mean-3) > 6*math.Sqrt(v/100_000) {
		t.Errorf("sample mean %v, want 3", mean)
	}
	for _, bad := range []struct {
		v, s int64
		e    float64
	}{{0, 0, 1}, {0, 1, 0}, {1 << 60, 1, 1}, {0, 1, math.NaN()}} {
		if _, err := NewDiscreteLaplace(bad.v, bad.s, bad.e); err == nil {
			t.Errorf("NewDiscreteLaplace(%v): no error", bad)
		}
	}
}
