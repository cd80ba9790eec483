package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/dpplay/dpplay/core/mech"
)

func init() {
	register("sample", "draw from a selection mechanism and print counts and exact probabilities", runSample)
}

// sampleResult is the JSON that `dpplay sample` prints.
type sampleResult struct {
	Mechanism        string    `json:"mechanism"`
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
	seed := fs.String("seed", "", "seed for a reproducible run; omitted, the cryptographic source is used")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *scores == "" {
		return usagef("-scores is required")
	}
	u, err := parseNumberList("-scores", *scores)
	if err != nil {
		return err
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
	res := sampleResult{Mechanism: *name, Scores: u, Measure: mu, Epsilon: *eps, Sensitivity: *sen, Draws: *draws}
	r, seedp, err := seededOrCrypto(*seed)
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
