package synth

import "github.com/dpplay/dpplay/core/validate"

// HalfspaceFit is the article's use case for a released database: learn the
// halfspace Σ πᵢxᵢ ≥ x_k that
// the most rows satisfy from the synthetic data, then see how well it does
// on the real data.
type HalfspaceFit struct {
	Learned Halfspace
	Name    string
	// SyntheticAgreement and RealAgreement are the fractions of synthetic and
	// real rows satisfying the learned halfspace.
	SyntheticAgreement, RealAgreement float64
	// Best is the halfspace a non-private learner would pick from the real
	// data, and BestAgreement its fraction on the real data.
	Best          Halfspace
	BestName      string
	BestAgreement float64
}

// LearnHalfspace picks π ∈ {−1, 0, 1}^{k−1} maximising the weight of
// synthetic (a distribution over {0,1}^k, e.g. SyntheticData.Fractions() or
// MWEM's output) that satisfies Σ πᵢxᵢ ≥ x_k, and scores it on real. Ties go
// to the first π in HalfspaceGrid order. If the synthetic data answers every
// halfspace query within α, the learned halfspace's real agreement is at
// least BestAgreement − 2α.
func LearnHalfspace(synthetic []float64, real *Data) (HalfspaceFit, error) {
	if err := real.check(); err != nil {
		return HalfspaceFit{}, err
	}
	k := real.K()
	if len(synthetic) != real.UniverseSize() {
		return HalfspaceFit{}, validate.Errorf("synthetic", "has %d weights for %d points", len(synthetic), real.UniverseSize())
	}
	total := 0.0
	for i, w := range synthetic {
		if err := validate.NonNegative(validate.Index("synthetic", i), w); err != nil {
			return HalfspaceFit{}, err
		}
		total += w
	}
	if total <= 0 {
		return HalfspaceFit{}, validate.Errorf("synthetic", "has no weight")
	}
	grid, err := HalfspaceGrid(k)
	if err != nil {
		return HalfspaceFit{}, err
	}
	realW := real.Fractions()
	agree := func(h Halfspace, w []float64) float64 {
		s := 0.0
		for x, v := range w {
			if v != 0 && h.Holds(x, k) {
				s += v
			}
		}
		return s
	}
	fit := HalfspaceFit{SyntheticAgreement: -1, BestAgreement: -1}
	for _, h := range grid {
		if a := agree(h, synthetic) / total; a > fit.SyntheticAgreement {
			fit.Learned, fit.SyntheticAgreement = h, a
		}
		if a := agree(h, realW); a > fit.BestAgreement {
			fit.Best, fit.BestAgreement = h, a
		}
	}
	fit.RealAgreement = agree(fit.Learned, realW)
	fit.Name = fit.Learned.name(real.columns)
	fit.BestName = fit.Best.name(real.columns)
	return fit, nil
}
