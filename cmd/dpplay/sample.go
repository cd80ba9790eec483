package main

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
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
	u, err := parseFloats("-scores", *scores)
	if err != nil {
		return err
	}
	var mu []float64
	if *measure != "" {
		if mu, err = parseFloats("-measure", *measure); err != nil {
			return err
		}
	}
	if *draws < 0 {
		return usagef("-draws must be ≥ 0, got %d", *draws)
	}
	res := sampleResult{Mechanism: *name, Scores: u, Measure: mu, Epsilon: *eps, Sensitivity: *sen, Draws: *draws}
	r := rng.Crypto()
	if *seed != "" {
		s, err := strconv.ParseUint(*seed, 10, 64)
		if err != nil {
			return usagef("-seed must be a whole number from 0 to 2^64−1, got %q", *seed)
		}
		res.Seed, r = &s, rng.Seeded(s)
	}
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

// parseFloats reads a comma-separated list of numbers.
func parseFloats(flagName, s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	out := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, usagef("%s: entry %d, %q, is not a number", flagName, i+1, p)
		}
		out[i] = v
	}
	return out, nil
}
