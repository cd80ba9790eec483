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
func Medical() (*Data, error) { return readOwnTable(medicalCSV) }

// readOwnTable reads a table the package holds, written as ReadCSV takes it
// but with no quoting, spaces or blank lines: a header of column names,
// then rows of 0 and 1 separated by commas. It is not ReadCSV so that the
// browser module, which reads only this table, does not link encoding/csv
// and, through it, fmt (about 100 KB gzipped); TestMedicalMatchesTheFile checks
// that ReadCSV gives the same data.
func readOwnTable(s string) (*Data, error) {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	rows := make([][]int, 0, len(lines)-1)
	for i, l := range lines[1:] {
		cells := strings.Split(l, ",")
		row := make([]int, len(cells))
		for j, c := range cells {
			switch c {
			case "0":
			case "1":
				row[j] = 1
			default:
				return nil, validate.Errorf(validate.Sprintf("table row %d, column %d", i+2, j+1), "must be 0 or 1, got %q", c)
			}
		}
		rows = append(rows, row)
	}
	return FromRows(strings.Split(lines[0], ","), rows)
}
