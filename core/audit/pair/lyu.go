package pair

import (
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// A Variant is one of the sparse vector techniques Lyu, Su and Li (2017)
// compare, built for a privacy parameter ε, a cutoff c and a threshold T,
// with queries of sensitivity Δ = 1.
type Variant struct {
	Algorithm int    // 1 … 6, their numbering
	Source    string // who published it
	// Claim is the ε its authors claimed for it (always ε), Proven what
	// Lyu et al. prove: ε for 1 and 2, ((1+6c)/4)·ε for 4, +Inf for 3, 5 and 6.
	Claim, Proven float64
	SVT           SVT
}

// Lyu returns Algorithm k (1 … 6) of Lyu, Su and Li, "Understanding the
// Sparse Vector Technique for Differential Privacy" (PVLDB 10(6), 2017),
// for privacy ε, cutoff c and threshold T. With ε₁ the threshold's share of
// ε and ε₂ = ε − ε₁:
//
//  1. ε₁ = ε/2, ρ ~ Lap(1/ε₁), ν ~ Lap(2c/ε₂), halt after c ⊤. ε-DP.
//  2. (Dwork and Roth) ε₁ = ε/2, ρ ~ Lap(c/ε₁) redrawn after each ⊤,
//     ν ~ Lap(2c/ε₂), halt after c ⊤. ε-DP.
//  3. (Roth's lecture notes) as 1 but ν ~ Lap(c/ε₂) and each ⊤ published
//     with its noisy answer. Not private for any ε independent of the
//     number of queries.
//  4. (Lee and Clifton) ε₁ = ε/4, ρ ~ Lap(1/ε₁), ν ~ Lap(1/ε₂), halt after
//     c ⊤. ((1+6c)/4)·ε-DP.
//  5. (Stoddard et al.) ε₁ = ε/2, ρ ~ Lap(1/ε₁), no query noise, no cutoff.
//     Not private.
//  6. (Chen et al.) ε₁ = ε/2, ρ ~ Lap(1/ε₁), ν ~ Lap(1/ε₂), no
//     cutoff. Not private.
func Lyu(k int, eps float64, c int, t float64) (Variant, error) {
	if err := validate.Positive("ε (epsilon)", eps); err != nil {
		return Variant{}, err
	}
	if c < 1 {
		return Variant{}, validate.Errorf("cutoff c", "must be at least 1, got %d", c)
	}
	cf := float64(c)
	half := eps / 2
	v := Variant{Algorithm: k, Claim: eps}
	switch k {
	case 1:
		v.Source, v.Proven = "Lyu, Su and Li (2017)", eps
		v.SVT = SVT{Threshold: t, ThresholdScale: 1 / half, QueryScale: 2 * cf / half, Cutoff: c}
	case 2:
		v.Source, v.Proven = "Dwork and Roth (2014)", eps
		v.SVT = SVT{Threshold: t, ThresholdScale: cf / half, QueryScale: 2 * cf / half, Cutoff: c, Resample: true}
	case 3:
		v.Source, v.Proven = "Roth's lecture notes (2011)", math.Inf(1)
		v.SVT = SVT{Threshold: t, ThresholdScale: 1 / half, QueryScale: cf / half, Cutoff: c, Release: ReleaseNoisy}
	case 4:
		e1 := eps / 4
		v.Source, v.Proven = "Lee and Clifton (2014)", (1+6*cf)/4*eps
		v.SVT = SVT{Threshold: t, ThresholdScale: 1 / e1, QueryScale: 1 / (eps - e1), Cutoff: c}
	case 5:
		v.Source, v.Proven = "Stoddard et al. (2014)", math.Inf(1)
		v.SVT = SVT{Threshold: t, ThresholdScale: 1 / half}
	case 6:
		v.Source, v.Proven = "Chen et al. (2015)", math.Inf(1)
		v.SVT = SVT{Threshold: t, ThresholdScale: 1 / half, QueryScale: 1 / half}
	default:
		return Variant{}, validate.Errorf("algorithm", "must be 1 to 6, got %d", k)
	}
	return v, nil
}
