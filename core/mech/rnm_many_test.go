package mech

import (
	"math"
	"sort"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
)

// The shared quadrature gives every candidate the log-probability that the
// per-candidate one (rnm_reference_test.go) gives, on score vectors with
// ties, clusters and gaps, at accuracies from pure noise to near-certainty.
func TestReportNoisyMaxSharedMatchesPerCandidate(t *testing.T) {
	r := rng.Seeded(11)
	sizes := []int{1, 2, 5, 20, 64, 100}
	if testing.Short() {
		// The per-candidate reference costs O(n²) per node. Up to 20
		// candidates the vectors already have ties, clusters and gaps;
		// the full run (make test, natively) adds 64 and 100.
		sizes = sizes[:4]
	}
	for _, n := range sizes {
		for _, spreadTo := range []float64{0.5, 5, 50, 5000} {
			scores := make([]float64, n)
			for i := range scores {
				// Rounded to 0.1 so that larger vectors have ties.
				scores[i] = math.Round(r.Float64()*spreadTo*10) / 10
			}
			for _, eps := range []float64{0.1, 1, 3} {
				c := Config{Scores: scores, Epsilon: eps, Sensitivity: 1}
				for _, noise := range []Noise{LaplaceNoise, ExponentialNoise} {
					m, err := NewReportNoisyMax(c, noise)
					if err != nil {
						t.Fatalf("n = %d, %v noise: %v", n, noise, err)
					}
					var want []float64
					if noise == LaplaceNoise {
						want, err = refLaplaceMaxLogProbabilities(m.s)
					} else {
						want, err = refExponentialMaxLogProbabilities(m.s)
					}
					if err != nil {
						t.Fatal(err)
					}
					// The reference is normalised the same way as the constructor.
					for i := range want {
						want[i] = math.Max(want[i], -math.MaxFloat64)
					}
					sum := math.Inf(-1)
					for _, w := range want {
						sum = logAddExp(sum, w)
					}
					for i, got := range m.LogProbabilities() {
						if w := want[i] - sum; math.Abs(got-w) > 1e-9*math.Max(1, math.Abs(w)) {
							t.Errorf("n = %d, scores up to %v, ε = %v, %v noise: ln p[%d] = %.12g, per-candidate quadrature %.12g",
								n, spreadTo, eps, noise, i, got, w)
						}
					}
				}
			}
		}
	}
}

// MaxExactCandidates tied candidates are equally likely, with either noise.
func TestReportNoisyMaxManyTied(t *testing.T) {
	scores := make([]float64, MaxExactCandidates)
	for _, noise := range []Noise{LaplaceNoise, ExponentialNoise} {
		m, err := NewReportNoisyMax(Config{Scores: scores, Epsilon: 1, Sensitivity: 1}, noise)
		if err != nil {
			t.Fatal(err)
		}
		want := -math.Log(float64(len(scores)))
		for i, lp := range m.LogProbabilities() {
			if math.Abs(lp-want) > 1e-12*math.Abs(want) {
				t.Fatalf("%v noise: ln p[%d] = %v, want ln(1/n) = %v", noise, i, lp, want)
			}
		}
	}
}

// At MaxExactCandidates distinct scores the probabilities sum to 1, a
// higher score is never less likely, and a candidate alone far above the
// rest wins with the two-candidate probability against the best of them.
func TestReportNoisyMaxManyCandidates(t *testing.T) {
	r := rng.Seeded(12)
	scores := make([]float64, MaxExactCandidates)
	for i := range scores {
		scores[i] = r.Float64() * 40
	}
	for _, noise := range []Noise{LaplaceNoise, ExponentialNoise} {
		m, err := NewReportNoisyMax(Config{Scores: scores, Epsilon: 1, Sensitivity: 1}, noise)
		if err != nil {
			t.Fatal(err)
		}
		p := m.Probabilities()
		sum := 0.0
		for _, x := range p {
			sum += x
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%v noise: probabilities sum to %.15f", noise, sum)
		}
		order := make([]int, len(scores))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, b int) bool { return scores[order[a]] < scores[order[b]] })
		lp := m.LogProbabilities()
		for k := 1; k < len(order); k++ {
			if lp[order[k]] < lp[order[k-1]]-1e-12*math.Abs(lp[order[k-1]]) {
				t.Fatalf("%v noise: score %v has ln p %v, below the lower score %v's %v",
					noise, scores[order[k]], lp[order[k]], scores[order[k-1]], lp[order[k-1]])
			}
		}
	}
}

// Draws of the mechanism itself (the noise really added) over 1,000
// candidates agree with the exact probabilities, pooled into cells of
// candidates of neighbouring scores; the mechanism at 2ε fails the same test.
func TestReportNoisyMaxManyCandidatesChiSquare(t *testing.T) {
	const n = 1000
	draws := 20_000
	if testing.Short() {
		// A tenth of the draws still rejects the mechanism at 2ε with
		// p below 1e-100; the full run (make test, natively) takes all.
		draws = 2_000
	}
	r := rng.Seeded(13)
	scores := make([]float64, n)
	for i := range scores {
		scores[i] = r.Float64() * 8
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	for k, noise := range []Noise{LaplaceNoise, ExponentialNoise} {
		m, err := NewReportNoisyMax(Config{Scores: scores, Epsilon: 1, Sensitivity: 1}, noise)
		if err != nil {
			t.Fatal(err)
		}
		// Cells in score order, each with an expected count of at least 50.
		cell := make([]int, n)
		var probs []float64
		acc := 0.0
		for _, i := range order {
			cell[i] = len(probs)
			acc += m.Probabilities()[i]
			if acc*float64(draws) >= 50 {
				probs, acc = append(probs, acc), 0
			}
		}
		if acc > 0 {
			probs[len(probs)-1] += acc
			for _, i := range order {
				cell[i] = min(cell[i], len(probs)-1)
			}
		}
		test := func(sel *ReportNoisyMax, seed uint64) stats.Result {
			counts := make([]int, len(probs))
			src := rng.Seeded(seed)
			for d := 0; d < draws; d++ {
				counts[cell[sel.Sample(src)]]++
			}
			res, err := stats.ChiSquare(counts, probs)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if res := test(m, uint64(20+k)); res.PValue < alpha {
			t.Errorf("%v noise: correct mechanism rejected: χ² = %.1f, df = %d, p = %.3g", noise, res.Statistic, res.DF, res.PValue)
		}
		broken, err := NewReportNoisyMax(Config{Scores: scores, Epsilon: 2, Sensitivity: 1}, noise)
		if err != nil {
			t.Fatal(err)
		}
		if res := test(broken, uint64(30+k)); res.PValue >= alpha {
			t.Errorf("%v noise: the mechanism at 2ε passed: χ² = %.1f, p = %.3g", noise, res.Statistic, res.PValue)
		}
	}
}
