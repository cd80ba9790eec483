package mech

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

// Report noisy max with Laplace noise on two candidates G apart: with
// g = G·ε/Δ the runner-up wins with probability (2 + g)·e^−g/4 (the
// difference of two unit Laplace draws exceeds g), so the expected loss is
// G·(2 + g)·e^−g/4 in closed form, independent of the package's integrals.
func TestExpectedLossReportNoisyMaxLaplaceTwoCandidates(t *testing.T) {
	for _, gap := range []float64{0.1, 1, 3, 10, 40} {
		for _, p := range []struct{ eps, sen float64 }{{1, 1}, {0.5, 2}, {3, 0.7}} {
			scores := []float64{5, 5 - gap}
			m := mustNew(t, NameReportNoisyMaxLaplace, Config{Scores: scores, Epsilon: p.eps, Sensitivity: p.sen})
			got, err := ExpectedLoss(m, scores)
			if err != nil {
				t.Fatal(err)
			}
			g := gap * p.eps / p.sen
			want := gap * (2 + g) * math.Exp(-g) / 4
			if math.Abs(got-want) > 1e-9*want+1e-15 {
				t.Errorf("gap %v, ε = %v, Δ = %v: expected loss %.15g, closed form %.15g", gap, p.eps, p.sen, got, want)
			}
		}
	}
}

// monteCarloLoss runs the mechanism's own sampler (noise added to every
// score, argmax taken: no integral involved) n times and returns the mean
// loss OPT − u(output).
func monteCarloLoss(s Selector, scores []float64, seed uint64, n int) float64 {
	opt, _, _ := OptimalCount(scores)
	r := rng.Seeded(seed)
	sum := 0.0
	for i := 0; i < n; i++ {
		sum += opt - scores[s.Sample(r)]
	}
	return sum / float64(n)
}

// lossSD is the standard deviation of one draw's loss under probs.
func lossSD(probs, scores []float64) float64 {
	opt, _, _ := OptimalCount(scores)
	mean, sq := 0.0, 0.0
	for i, p := range probs {
		l := opt - scores[i]
		mean += p * l
		sq += p * l * l
	}
	return math.Sqrt(sq - mean*mean)
}

// On more candidates, against the mean loss of the mechanism actually run.
// The mean of 200,000 bounded draws is within 5 standard errors of its
// expectation except with probability below 6e-7 (normal approximation),
// and the mis-scaled mechanism (2ε, half the noise) lands far outside.
func TestExpectedLossReportNoisyMaxLaplaceMonteCarlo(t *testing.T) {
	const n = 200_000
	for i, scores := range [][]float64{spread, {14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023}, {2, 2, 1.5, 0}} {
		c := Config{Scores: scores, Epsilon: 1, Sensitivity: 1}
		m := mustNew(t, NameReportNoisyMaxLaplace, c)
		exact, err := ExpectedLoss(m, scores)
		if err != nil {
			t.Fatal(err)
		}
		tol := 5 * lossSD(m.Probabilities(), scores) / math.Sqrt(n)
		if got := monteCarloLoss(m, scores, uint64(300+i), n); math.Abs(got-exact) > tol {
			t.Errorf("%v: Monte Carlo loss %v, exact %v (tolerance %.3g)", scores, got, exact, tol)
		}
		c.Epsilon *= 2
		broken := mustNew(t, NameReportNoisyMaxLaplace, c)
		if got := monteCarloLoss(broken, scores, uint64(400+i), n); math.Abs(got-exact) <= tol {
			t.Errorf("%v: mis-scaled Monte Carlo loss %v passed against exact %v (tolerance %.3g)", scores, got, exact, tol)
		}
	}
}

// Permute-and-flip is never worse than the exponential mechanism and at
// most twice as good (McKenna and Sheldon 2020): the ratio of
// expected losses EM/PF lies in [1, 2] for every score vector and ε.
func TestPermuteAndFlipVersusExponentialLoss(t *testing.T) {
	vectors := [][]float64{
		spread,
		{14.976, 10.683, 4.443, 1.025, 0.993, 0.418, 0.023},
		{1, 0},
		{3, 3, 0},           // a tie at the top
		{0, -1, -1, -1, -1}, // many equal runners-up
		{10, 9.9, 9.8, 0, -50},
	}
	r := rng.Seeded(12)
	for k := 0; k < 20; k++ {
		v := make([]float64, 2+r.IntN(8))
		for i := range v {
			v[i] = 10 * r.Float64()
		}
		vectors = append(vectors, v)
	}
	for _, scores := range vectors {
		for _, eps := range []float64{0.01, 0.1, 0.5, 1, 2, 5, 10, 20} {
			c := Config{Scores: scores, Epsilon: eps, Sensitivity: 1}
			em, _ := ExpectedLoss(mustNew(t, NameExponential, c), scores)
			pf, _ := ExpectedLoss(mustNew(t, NamePermuteAndFlip, c), scores)
			if pf <= 0 {
				t.Fatalf("%v ε = %v: permute-and-flip loss %v", scores, eps, pf)
			}
			if ratio := em / pf; ratio < 1-1e-9 || ratio > 2+1e-9 {
				t.Errorf("%v ε = %v: loss(EM)/loss(PF) = %v, outside [1, 2]", scores, eps, ratio)
			}
		}
	}
	// Two candidates G apart, a = εG/(2Δ): EM picks the loser with
	// probability e^−a/(1 + e^−a), PF with e^−a/2, so PF/EM = (1 + e^−a)/2,
	// falling from 1 towards ½ as ε grows.
	prev := 1.0
	for _, eps := range []float64{0.01, 0.1, 1, 2, 5, 10, 20} {
		c := Config{Scores: []float64{1, 0}, Epsilon: eps, Sensitivity: 1}
		em, _ := ExpectedLoss(mustNew(t, NameExponential, c), c.Scores)
		pf, _ := ExpectedLoss(mustNew(t, NamePermuteAndFlip, c), c.Scores)
		ratio := pf / em
		if want := (1 + math.Exp(-eps/2)) / 2; math.Abs(ratio-want) > 1e-9 {
			t.Errorf("ε = %v: loss(PF)/loss(EM) = %v, closed form %v", eps, ratio, want)
		}
		if ratio > prev+1e-12 {
			t.Errorf("ε = %v: loss(PF)/loss(EM) = %v rose from %v", eps, ratio, prev)
		}
		prev = ratio
	}
	if math.Abs(prev-0.5) > 1e-3 {
		t.Errorf("at ε = 20 loss(PF)/loss(EM) = %v, want within 1e-3 of ½", prev)
	}
}
