package mech

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

// neighbourPairs returns score vectors v with every |vᵢ − uᵢ| ≤ Δ: random
// corners of the box around u, and the adversarial one that raises one
// candidate and lowers all the others.
func neighbourPairs(u []float64, sen float64, seed uint64, monotone bool) [][]float64 {
	r := rng.Seeded(seed)
	var out [][]float64
	for k := 0; k < 40; k++ {
		v := make([]float64, len(u))
		up := r.IntN(2) == 0
		for i := range u {
			dir := r.IntN(2) == 0
			if monotone {
				dir = up
			}
			shift := sen
			if monotone {
				shift = sen * r.Float64()
			}
			if dir {
				v[i] = u[i] + shift
			} else {
				v[i] = u[i] - shift
			}
		}
		out = append(out, v)
	}
	if !monotone {
		for j := range u {
			v := make([]float64, len(u))
			for i := range u {
				v[i] = u[i] - sen
			}
			v[j] = u[j] + sen
			out = append(out, v)
		}
	}
	return out
}

func TestPrivacyLossWithinEpsilon(t *testing.T) {
	for _, name := range Names() {
		// Report noisy max with Lap(Δ/ε) is ε-DP for monotone scores (counts,
		// where adding a person moves every score the same way); the others
		// are ε-DP for any neighbours.
		monotone := name == NameReportNoisyMaxLaplace
		for _, eps := range []float64{0.1, 1, 3} {
			const sen = 1
			u := spread
			a := mustNew(t, name, Config{Scores: u, Epsilon: eps, Sensitivity: sen})
			worst := 0.0
			for _, v := range neighbourPairs(u, sen, 9, monotone) {
				if err := CheckNeighbours(u, v, sen); err != nil {
					t.Fatal(err)
				}
				b := mustNew(t, name, Config{Scores: v, Epsilon: eps, Sensitivity: sen})
				loss, err := PrivacyLoss(a, b)
				if err != nil {
					t.Fatal(err)
				}
				worst = math.Max(worst, loss)
			}
			if worst > eps*(1+1e-9) {
				t.Errorf("%s ε = %v: privacy loss %v exceeds ε", name, eps, worst)
			}
			// The adversarial pairs come close to ε: the check has teeth.
			if !monotone && worst < 0.5*eps {
				t.Errorf("%s ε = %v: worst loss %v is suspiciously small", name, eps, worst)
			}
		}
	}
}

func TestMisScaledMechanismBreaksPrivacy(t *testing.T) {
	const eps, sen = 1.0, 1.0
	u := spread
	v := append([]float64(nil), u...)
	for i := range v {
		v[i] -= sen
	}
	v[5] += 2 * sen // raise the least likely candidate, lower the rest
	for _, name := range []string{NameExponential, NamePermuteAndFlip} {
		// ε/Δ in place of ε/(2Δ) is the correct mechanism at 2ε.
		a := mustNew(t, name, Config{Scores: u, Epsilon: 2 * eps, Sensitivity: sen})
		b := mustNew(t, name, Config{Scores: v, Epsilon: 2 * eps, Sensitivity: sen})
		loss, err := PrivacyLoss(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if loss <= eps*1.5 {
			t.Errorf("%s mis-scaled: privacy loss %v, want well above ε = %v", name, loss, eps)
		}
	}
}

func TestLaplaceNoiseMaxIsNotEpsilonDPForArbitraryScores(t *testing.T) {
	// Lap(Δ/ε) suffices only for monotone scores; moving two scores in
	// opposite directions costs up to 2ε, as the doc comment says.
	const eps, sen = 1.0, 1.0
	u, v := []float64{0, -8}, []float64{-1, -7}
	a := mustNew(t, NameReportNoisyMaxLaplace, Config{Scores: u, Epsilon: eps, Sensitivity: sen})
	b := mustNew(t, NameReportNoisyMaxLaplace, Config{Scores: v, Epsilon: eps, Sensitivity: sen})
	loss, err := PrivacyLoss(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if loss <= eps || loss > 2*eps {
		t.Errorf("loss %v, want in (ε, 2ε]", loss)
	}
}

func TestCheckNeighbours(t *testing.T) {
	if err := CheckNeighbours([]float64{1, 2}, []float64{2, 1}, 1); err != nil {
		t.Error(err)
	}
	if err := CheckNeighbours([]float64{1, 2}, []float64{2.5, 1}, 1); err == nil {
		t.Error("a move of 1.5 > Δ = 1 accepted")
	}
	if err := CheckNeighbours([]float64{1, 2}, []float64{1}, 1); err == nil {
		t.Error("different lengths accepted")
	}
}

func TestPrivacyLossUnbounded(t *testing.T) {
	a := mustNew(t, NameExponential, Config{Scores: []float64{1, 2}, Epsilon: 1, Sensitivity: 1, Measure: []float64{1, 0}})
	b := mustNew(t, NameExponential, Config{Scores: []float64{1, 2}, Epsilon: 1, Sensitivity: 1})
	if _, err := PrivacyLoss(a, b); err != ErrUnboundedLoss {
		t.Errorf("got %v, want ErrUnboundedLoss", err)
	}
}
