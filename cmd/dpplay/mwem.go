package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/dpplay/dpplay/core/synth"
)

type mwemRoundJSON struct {
	Round       int     `json:"round"`
	Query       string  `json:"query"`
	Estimate    float64 `json:"estimate"`
	Measurement float64 `json:"measurement"`
	Updated     float64 `json:"updated"`
	MaxError    float64 `json:"max_error"`
}

type weightedRowJSON struct {
	Row    []int   `json:"row"`
	Weight float64 `json:"weight"`
}

// chargeJSON is one line of a privacy ledger: a charge of ε, or with Count
// set, Count consecutive equal charges (dpplay allocate groups its T
// per-round charges into one line).
type chargeJSON struct {
	Label   string  `json:"label"`
	Epsilon float64 `json:"epsilon"`
	Count   int     `json:"count,omitempty"`
}

type mwemJSON struct {
	synthInputJSON
	RoundsCount  int               `json:"rounds_count"`
	Replays      int               `json:"replays"`
	Epsilon      float64           `json:"epsilon"`
	EpsilonSpent float64           `json:"epsilon_spent"`
	Seed         *uint64           `json:"seed"`
	Synthetic    []weightedRowJSON `json:"synthetic"`
	MaxError     float64           `json:"max_error"`
	TrueAnswers  []float64         `json:"true_answers"`
	Answers      []float64         `json:"synthetic_answers"`
	Rounds       []mwemRoundJSON   `json:"rounds"`
	Ledger       []chargeJSON      `json:"ledger"`
	Halfspace    *halfspaceJSON    `json:"halfspace,omitempty"`
}

func runMWEM(args []string, stdout io.Writer) error {
	fs := newFlagSet("mwem")
	in := addSynthFlags(fs)
	rounds := fs.Int("rounds", 10, "T, the number of rounds (each spends ε/(2T) twice)")
	replays := fs.Int("replays", 0, "extra update passes over all measurements after each round (free post-processing)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	d, qs, r, seed, err := in.load()
	if err != nil {
		return err
	}
	res, err := synth.MWEM(context.Background(), synth.MWEMConfig{Data: d, Queries: qs, Rounds: *rounds, Epsilon: *in.epsilon, Replays: *replays}, r)
	if err != nil {
		return usagef("%v", err)
	}
	names := qs.Names()
	out := mwemJSON{
		synthInputJSON: synthInput("mwem", d, qs),
		RoundsCount:    *rounds, Replays: *replays, Epsilon: *in.epsilon, EpsilonSpent: res.EpsilonSpent, Seed: seed,
		MaxError: res.MaxError, TrueAnswers: res.TrueAnswers, Answers: res.Answers,
	}
	// MWEM releases a distribution, not rows: list every point with its
	// weight (multiply by the row count for synthetic counts).
	for p, w := range res.Distribution {
		row, _ := d.Point(p)
		out.Synthetic = append(out.Synthetic, weightedRowJSON{Row: row, Weight: w})
	}
	for _, rd := range res.Rounds {
		out.Rounds = append(out.Rounds, mwemRoundJSON{
			Round: rd.Round, Query: names[rd.Query], Estimate: rd.Estimate,
			Measurement: rd.Measurement, Updated: rd.Updated, MaxError: rd.MaxError,
		})
	}
	for _, c := range res.Ledger {
		out.Ledger = append(out.Ledger, chargeJSON{Label: c.Label, Epsilon: c.Epsilon})
	}
	if out.Halfspace, err = halfspace(*in.queries, res.Distribution, d); err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(out)
}
