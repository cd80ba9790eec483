package pair

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/internal/reference"
	"github.com/dpplay/dpplay/core/mech"
)

// independent returns the loss of a benchmark case computed apart from the
// package (brute_test.go), as the larger of the two directions, and the
// tolerance of that computation (a grid is a lower bound: lowOnly).
func independent(t *testing.T, m Mechanism, x, y []float64) (up, down, tol float64, lowOnly bool) {
	t.Helper()
	switch m := m.(type) {
	case LaplaceVector:
		if m.PrefixSums {
			// The density of the running sums is ∏ f(sᵢ − sᵢ₋₁ − xᵢ); at the
			// running sums of x (of y) the log-ratio is Σ|xᵢ − yᵢ|/b (its
			// negative), and no output does better (TestPrefixSumsDensity).
			at := func(s, v []float64) float64 {
				d, prev, run := 0.0, 0.0, 0.0
				for i := range s {
					run += s[i]
					d += math.Log(reference.LaplacePDF(run-prev-v[i], m.Scale))
					prev = run
				}
				return d
			}
			return at(x, x) - at(x, y), at(y, y) - at(y, x), 1e-12, false
		}
		u, d := bruteLaplaceVectorLoss(x, y, m.Scale, m.Copies)
		return u, d, 1e-9, false
	case TruncatedGeometric:
		k := math.Ceil(math.Log(2 / m.Epsilon))
		alpha := math.Pow(2, k) / (math.Pow(2, k) + 1)
		pr := func(c, z int) float64 {
			switch {
			case z == 0:
				return math.Pow(alpha, float64(c)) / (1 + alpha)
			case z == m.N:
				return math.Pow(alpha, float64(m.N-c)) / (1 + alpha)
			}
			return (1 - alpha) / (1 + alpha) * math.Pow(alpha, math.Abs(float64(z-c)))
		}
		for z := 0; z <= m.N; z++ {
			r := math.Log(pr(int(x[0]), z) / pr(int(y[0]), z))
			up, down = math.Max(up, r), math.Max(down, -r)
		}
		return up, down, 1e-12, false
	case NoisyMax:
		if m.Value && m.Noise == Exponential {
			// Supports [max x, ∞) and [max y, ∞).
			mx, my := math.Inf(-1), math.Inf(-1)
			for i := range x {
				mx, my = math.Max(mx, x[i]), math.Max(my, y[i])
			}
			if mx < my {
				return math.Inf(1), 0, 0, false
			}
			return 0, math.Inf(1), 0, false
		}
		if m.Value {
			v := bruteMaxValueLoss(x, y, m.Scale)
			return v, v, 1e-6, true
		}
		var lp, lq []float64
		if m.Noise == Laplace {
			for _, v := range [][]float64{x, y} {
				r, err := mech.NewReportNoisyMax(mech.Config{Scores: v, Epsilon: 1, Sensitivity: m.Scale}, mech.LaplaceNoise)
				if err != nil {
					t.Fatal(err)
				}
				lp, lq = lq, r.Probabilities()
			}
		} else {
			lp, lq = reference.PermuteAndFlip(x, 2/m.Scale, 1), reference.PermuteAndFlip(y, 2/m.Scale, 1)
		}
		if m.Noise == Laplace {
			lp, lq = lq, lp
		}
		for i := range lp {
			r := math.Log(lp[i] / lq[i])
			up, down = math.Max(up, r), math.Max(down, -r)
		}
		return up, down, 1e-9, false
	case SVT:
		switch m.Release {
		case ReleaseNoisy:
			u, d := bruteNoisyLoss(t, m, x, y)
			return u, d, 2e-3, true
		case ReleaseFresh:
			u, d := bruteFreshLoss(t, m, x, y)
			return u, d, 1e-9, false
		}
		u, d := bruteSVTLoss(t, m, x, y)
		return u, d, 1e-8, false
	case RAPPOR:
		one := func(bit bool) float64 {
			keep := 0.0
			if bit {
				keep = 1
			}
			b := m.F/2 + (1-m.F)*keep // Pr[permanent bit 1]
			if m.OneTime {
				return b
			}
			return b*m.Q + (1-b)*m.P
		}
		bx, by := m.Bits(x[0]), m.Bits(y[0])
		for i := range bx {
			a, b := one(bx[i]), one(by[i])
			up += math.Max(math.Log(a/b), math.Log((1-a)/(1-b)))
			down += math.Max(math.Log(b/a), math.Log((1-b)/(1-a)))
		}
		return up, down, 1e-12, false
	case Parallel:
		low := false
		for _, p := range m.Parts {
			u, d, tl, lo := independent(t, p, x, y)
			up, down, tol, low = up+u, down+d, tol+tl, low || lo
		}
		return up, down, tol, low
	}
	t.Fatalf("no independent computation for %T", m)
	return 0, 0, 0, false
}

// Every exact loss of every run against its independent computation.
// Under -short, each mechanism only on the first pair it has (its SVTs on
// ten queries take the longest; TestSVTPatternsAgainstQuadrature checks
// every variant on four); make test runs them all natively.
func TestBenchmarkAgainstIndependent(t *testing.T) {
	seen := map[string]bool{}
	eachCase(t, func(run string, c Case, l Loss) {
		if seen[c.Mechanism] && testing.Short() {
			return
		}
		seen[c.Mechanism] = true
		up, down, tol, lowOnly := independent(t, c.M, c.Pair[0], c.Pair[1])
		want := math.Max(up, down)
		got := l.Value()
		ok := near(got, want, tol)
		if lowOnly {
			ok = got >= want-1e-9 && got <= want+tol
		}
		if !ok {
			t.Errorf("%s %s %v: exact %.12g, independent %.12g", run, c.Mechanism, c.Pair, got, want)
		}
	})
}

// eachCase calls f with every case of every run and its exact loss.
func eachCase(t *testing.T, f func(run string, c Case, l Loss)) {
	t.Helper()
	for _, run := range Runs() {
		cases, err := Benchmark(run)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			l, err := c.M.Loss(c.Pair[0], c.Pair[1])
			if err != nil {
				t.Fatalf("%s %s: %v", run, c.Mechanism, err)
			}
			f(run, c, l)
		}
	}
}

// The lower bounds that exceed the exact loss, each with its cause (see
// docs/audit.md). Any other bound above an exact value fails the test.
var boundAboveExact = map[string]string{
	// DP-Sniper's RAPPOR draws its instantaneous response from a numpy
	// Generator created once in the mechanism object and sent to every
	// parallel worker with it: each worker replays the same draws, so the
	// 2·10⁸ samples are far from independent and the Clopper–Pearson
	// bound is too narrow. The exact loss is 6·ln(0.5125/0.4875) (six
	// filter bits differ between "1" and "0").
	RunDPSniperNeural + " Rappor": "samples not independent",
	// StatDP's event "first entry below 0.951" has probabilities
	// ½e^{−0.49} and ½e^{−10.49} exactly, a ratio of e^10; its 2·10⁸
	// samples saw the second 1.8 standard deviations less often than
	// expected, and a 90%-confidence bound fails that way about one run
	// in twenty.
	RunStatDP2 + " NoisyHist2": "a 90% confidence bound that failed",
}

// Every exact loss is at least every published lower bound, but for the
// two explained above; those two exceed it by less than 0.003.
func TestBenchmarkAboveLowerBounds(t *testing.T) {
	eachCase(t, func(run string, c Case, l Loss) {
		_, known := boundAboveExact[run+" "+c.Mechanism]
		above := c.LowerBound > l.Value()+l.Err
		if above != known {
			t.Errorf("%s %s: exact %v, lower bound %v (known exception: %v)", run, c.Mechanism, l.Value(), c.LowerBound, known)
		}
		if above && c.LowerBound-l.Value() > 0.003 {
			t.Errorf("%s %s: the bound %v exceeds the exact %v by more than sampling explains", run, c.Mechanism, c.LowerBound, l.Value())
		}
	})
	// StatDP's NoisyHist2 event, exactly: entry 0 of (1,…) and (2,…) plus
	// Lap(0.1) below 0.9510247959663243.
	const e = 0.9510247959663243
	p1, p2 := reference.LaplaceCDF(e-1, 0.1), reference.LaplaceCDF(e-2, 0.1)
	if r := math.Log(p1 / p2); math.Abs(r-10) > 1e-9 {
		t.Errorf("the event's exact log-ratio is %v, not 10", r)
	}
	// The run's logged frequency of the event under (2,…): 1.3445e-05 of
	// 2·10⁸ samples, against the exact p2.
	const n, seen = 2e8, 1.3445e-05 * 2e8
	if z := (seen - n*p2) / math.Sqrt(n*p2); z > -1.5 || z < -2.5 {
		t.Errorf("z-score %v of StatDP's count", z)
	}
}

// The benchmark is complete: every mechanism of DP-Sniper's evaluation
// (dpsniper/experiments/exp_default.py), in every run that reports it.
func TestBenchmarkCoversTheEvaluation(t *testing.T) {
	want := []string{"LaplaceMechanism", "TruncatedGeometricMechanism", "NoisyHist1", "NoisyHist2",
		"ReportNoisyMax1", "ReportNoisyMax2", "ReportNoisyMax3", "ReportNoisyMax4",
		"SparseVectorTechnique1", "SparseVectorTechnique2", "SparseVectorTechnique3", "SparseVectorTechnique4",
		"SparseVectorTechnique5", "SparseVectorTechnique6", "Rappor", "OneTimeRappor", "LaplaceParallel",
		"SVT34Parallel", "PrefixSum", "NumericalSVT"}
	for _, run := range Runs() {
		cases, _ := Benchmark(run)
		have := map[string]bool{}
		for _, c := range cases {
			have[c.Mechanism] = true
		}
		for _, w := range want {
			// StatDP's runs report no NumericalSVT (its log has none).
			if !have[w] && !(w == "NumericalSVT" && (run == RunStatDP1 || run == RunStatDP2)) {
				t.Errorf("%s: no %s", run, w)
			}
		}
	}
}

// Every pair of every run obeys its case's neighbour notion, and its exact
// loss is at most the ε proved for the mechanism under that notion: a
// lower bound can never exceed what is proved.
func TestBenchmarkProved(t *testing.T) {
	for _, run := range Runs() {
		cs, err := Benchmark(run)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Proved <= 0 {
				t.Errorf("%s %s: proved ε %v", run, c.Mechanism, c.Proved)
			}
			x, y := c.Pair[0], c.Pair[1]
			differ := 0
			for i := range x {
				if d := math.Abs(x[i] - y[i]); d > 1 {
					t.Errorf("%s %s: entry %d differs by %v", run, c.Mechanism, i, d)
				} else if d > 0 {
					differ++
				}
			}
			if c.Neighbours == OneEntry && differ > 1 {
				t.Errorf("%s %s: %d entries differ under %q", run, c.Mechanism, differ, c.Neighbours)
			}
			l, err := c.M.Loss(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if l.Value() > c.Proved*(1+1e-9) {
				t.Errorf("%s %s: the exact loss %v exceeds the proved ε %v", run, c.Mechanism, l.Value(), c.Proved)
			}
		}
	}
}
