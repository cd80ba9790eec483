package synth

import (
	_ "embed"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// Reweight moves a stepper whose scoring has finished back to StageLevels
// with the exact error-level distribution at another ε, and forgets any
// draw. Scoring does not depend on ε (the counts per level and the member
// each level keeps are drawn without it), so the next Step draws from the
// exponential mechanism at the new ε without scoring again. If the caller
// also rewinds the random source to where it stood when scoring finished
// (a math/rand/v2 ChaCha8 can be saved with MarshalBinary), that draw is
// exactly the one a fresh run at the new ε with the same seed makes, so a
// reweighted run stays reproducible from its seed.
func (s *SmallDBStepper) Reweight(epsilon float64) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.stage < StageLevels {
		return validate.Errorf("stepper", "has not finished scoring (stage %v)", s.stage)
	}
	if err := validate.Positive("ε", epsilon); err != nil {
		return err
	}
	levels, index, err := s.e.levels(s.cfg.Data.N(), epsilon, s.lambda)
	if err != nil {
		return err
	}
	s.cfg.Epsilon = epsilon
	s.levels, s.levelIndex, s.result = levels, index, nil
	s.stage = StageLevels
	return nil
}

// Epsilon returns the ε the stepper currently draws with, in
// exp(ε·u/(2Δu)) (0 for a nil or zero stepper).
func (s *SmallDBStepper) Epsilon() float64 {
	if s.check() != nil {
		return 0
	}
	return s.cfg.Epsilon
}

//go:embed testdata/medical.csv
var medicalCSV string

// Medical returns a table of 120 invented patients in the style of
// the notes' medical-records example, with the 0/1 columns sex (1 = male),
// smoker, lung_cancer, over_150lb and over_50 (the file
// core/synth/testdata/medical.csv, built into the package so that the
// browser module needs no download).
func Medical() (*Data, error) { return ReadCSV(strings.NewReader(medicalCSV)) }
