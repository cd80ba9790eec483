package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/dpplay/dpplay/app/data"
	"github.com/dpplay/dpplay/core/mech"
)

// sampleResult is the JSON that `dpplay sample` prints.
type sampleResult struct {
	Mechanism        string    `json:"mechanism"`
	Candidates       []string  `json:"candidates,omitempty"`
	Scores           []float64 `json:"scores"`
	Measure          []float64 `json:"measure,omitempty"`
	Epsilon          float64   `json:"epsilon"`
	Sensitivity      float64   `json:"sensitivity"`
	Draws            int       `json:"draws"`
	Seed             *uint64   `json:"seed,omitempty"`
	Counts           []int     `json:"counts"`
	Probabilities    []float64 `json:"probabilities"`
	LogProbabilities []float64 `json:"log_probabilities"`
}

func runSample(args []string, stdout io.Writer) error {
	fs := newFlagSet("sample")
	name := fs.String("mechanism", mech.NameExponential, "one of "+strings.Join(mech.Names(), ", "))
	scores := fs.String("scores", "", "comma-separated scores, one per candidate (required)")
	measure := fs.String("measure", "", "optional comma-separated base measure μ, one weight per candidate")
	eps := fs.Float64("epsilon", 1, "privacy parameter ε (> 0)")
	sen := fs.Float64("sensitivity", 1, "sensitivity Δ of the scores (> 0)")
	draws := fs.Int("draws", 10000, "number of draws (≥ 0)")
	seed := seedFlag(fs)
	dataFile := fs.String("data", "", "CSV file to take the candidates from, instead of -scores")
	column := fs.String("column", "", "with -data: the column of categories, counted into scores (or the candidates' names, with -score-column)")
	scoreColumn := fs.String("score-column", "", "with -data: a column of scores, one row per candidate named in -column")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var u []float64
	var names []string
	var err error
	switch {
	case *dataFile != "" && *scores != "":
		return usagef("give -scores or -data, not both")
	case *dataFile != "":
		if names, u, err = candidatesFromFile(*dataFile, *column, *scoreColumn); err != nil {
			return err
		}
	case *scores == "":
		return usagef("-scores (or -data FILE.csv -column NAME) is required")
	default:
		if u, err = parseNumberList("-scores", *scores); err != nil {
			return err
		}
	}
	var mu []float64
	if *measure != "" {
		if mu, err = parseNumberList("-measure", *measure); err != nil {
			return err
		}
	}
	if *draws < 0 {
		return usagef("-draws must be ≥ 0, got %d", *draws)
	}
	res := sampleResult{Mechanism: *name, Candidates: names, Scores: u, Measure: mu, Epsilon: *eps, Sensitivity: *sen, Draws: *draws}
	r, seedp, err := seed()
	if err != nil {
		return err
	}
	res.Seed = seedp
	m, err := mech.New(*name, mech.Config{Scores: u, Epsilon: *eps, Sensitivity: *sen, Measure: mu})
	if err != nil {
		return usagef("%v", err)
	}
	if res.Counts, err = mech.Draw(m, r, *draws); err != nil {
		return usagef("%v", err)
	}
	res.Probabilities, res.LogProbabilities = m.Probabilities(), m.LogProbabilities()
	enc := json.NewEncoder(stdout)
	return enc.Encode(res)
}

// candidatesFromFile reads the candidates of `dpplay sample -data`: the
// distinct values of column, most frequent first, scored by their counts,
// or with scoreColumn one candidate per row and its score.
func candidatesFromFile(path, column, scoreColumn string) ([]string, []float64, error) {
	t, err := readTable(path, data.HeaderAuto)
	if err != nil {
		return nil, nil, err
	}
	j, err := tableColumn(path, t, "-column", column)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var u []float64
	if scoreColumn == "" {
		names, u, err = t.Categories(j, maxCategories)
	} else {
		var s int
		if s, err = tableColumn(path, t, "-score-column", scoreColumn); err != nil {
			return nil, nil, err
		}
		names, u, err = t.Scores(j, s, maxCategories)
	}
	if err != nil {
		return nil, nil, usagef("%s: %v", path, err)
	}
	return names, u, nil
}
