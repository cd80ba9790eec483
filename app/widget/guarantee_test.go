package widget

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
)

// loss is the exact privacy loss of s at ε on the neighbours x and y (Δ = 1).
func loss(t *testing.T, s Selection, eps float64, x, y []float64) float64 {
	t.Helper()
	run := func(scores []float64) mech.Selector {
		m, err := mech.New(s.Mechanism, mech.Config{Scores: scores, Epsilon: s.Factor * eps, Sensitivity: 1})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	l, err := mech.PrivacyLoss(run(x), run(y))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Every selection's stated guarantee holds on the exact output
// probabilities, and the weaker one is no stronger than stated. Two
// candidates with scores (K, 0): a change-one-answer neighbour can move them
// to (K−1, 1); an add-or-remove neighbour of counts to (K+1, 0), (K, 1) or
// (K+1, 1). Report noisy max with Laplace noise of scale Δ/ε loses exactly
// 2ε − ln(1 + ε) at K = 0 (the winner's gap goes from 0 to −2, and
// Pr[Lap(1/ε) − Lap(1/ε) > 2] = ½e^(−2ε)(1 + ε)), and for K ≥ 2 loses
// 2ε + ln((2 + (K−2)ε)/(2 + Kε)), which tends to 2ε as K grows: "ε-private"
// would be false for change-one-answer neighbours.
func TestGuaranteesHoldOnTheExactProbabilities(t *testing.T) {
	for _, eps := range []float64{0.1, 0.5, 1, 3} {
		for _, s := range Selections() {
			worst := 0.0
			for _, k := range []float64{0, 1, 2, 5, 20} {
				x := []float64{k, 0}
				changeOne := loss(t, s, eps, x, []float64{k - 1, 1})
				worst = math.Max(worst, changeOne)
				addRemove := 0.0
				for _, y := range [][]float64{{k + 1, 0}, {k, 1}, {k + 1, 1}} {
					addRemove = math.Max(addRemove, loss(t, s, eps, x, y))
				}
				if addRemove > eps*(1+1e-9) {
					t.Errorf("%s at %v·ε, ε = %v, K = %v: add-or-remove loss %v above ε", s.Mechanism, s.Factor, eps, k, addRemove)
				}
				switch s.Guarantee {
				case AnyScores:
					if changeOne > eps*(1+1e-9) {
						t.Errorf("%s at %v·ε, ε = %v, K = %v: change-one loss %v above ε, yet %q", s.Mechanism, s.Factor, eps, k, changeOne, s.Guarantee)
					}
				case CountsOnly:
					want := 2*eps - math.Log1p(eps)
					if k >= 2 {
						want = 2*eps + math.Log((2+(k-2)*eps)/(2+k*eps))
					}
					if k != 1 && math.Abs(changeOne-want) > 1e-9 {
						t.Errorf("ε = %v, K = %v: loss %v, want %v", eps, k, changeOne, want)
					}
					if changeOne > 2*eps*(1+1e-9) {
						t.Errorf("ε = %v, K = %v: loss %v above 2ε", eps, k, changeOne)
					}
				default:
					t.Errorf("%s: guarantee %q is neither", s.Mechanism, s.Guarantee)
				}
			}
			if s.Guarantee == CountsOnly && !(worst > eps*(1+1e-6)) {
				t.Errorf("%s at %v·ε, ε = %v: worst change-one loss %v, yet only %q", s.Mechanism, s.Factor, eps, worst, s.Guarantee)
			}
		}
	}
}
