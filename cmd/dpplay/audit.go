package main

import (
	"encoding/json"
	"io"
	"math"
	"strings"

	"github.com/dpplay/dpplay/core/audit"
)

// auditResult is the JSON that `dpplay audit` prints. JSON has no infinity:
// an unbounded loss is "worst_loss": null with "unbounded": true, and a
// log-probability of an impossible output (or of an output only approached
// far in a tail) is null.
type auditResult struct {
	Mechanism      string     `json:"mechanism"`
	Score          string     `json:"score"`
	Sensitivity    string     `json:"sensitivity"`
	ClaimedEpsilon float64    `json:"claimed_epsilon"`
	Neighbours     string     `json:"neighbours"`
	Candidates     int        `json:"candidates"`
	MaxCount       int        `json:"max_count"`
	WorstLoss      *float64   `json:"worst_loss"`
	Unbounded      bool       `json:"unbounded"`
	Holds          bool       `json:"holds"`
	Worst          auditWorst `json:"worst"`
	PairsChecked   int64      `json:"pairs_checked"`
	DataSets       int64      `json:"data_sets"`
}

type auditWorst struct {
	Data          []int     `json:"data"`
	Neighbour     []int     `json:"neighbour"`
	Output        int       `json:"output"`
	OutputPoint   []float64 `json:"output_point,omitempty"`
	Description   string    `json:"output_description"`
	PData         *float64  `json:"p_data"`
	PNeighbour    *float64  `json:"p_neighbour"`
	LogPData      *float64  `json:"log_p_data"`
	LogPNeighbour *float64  `json:"log_p_neighbour"`
}

// finite returns &x, or nil (JSON null) when x is ±Inf or NaN.
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// exp returns e^l as a JSON number: null for NaN (no point to report),
// 0 for −Inf (an impossible output).
func expOf(l float64) *float64 {
	if math.IsNaN(l) {
		return nil
	}
	return finite(math.Exp(l))
}

func runAudit(args []string, stdout io.Writer) error {
	fs := newFlagSet("audit")
	name := fs.String("mechanism", "exponential", "one of "+strings.Join(audit.Mechanisms(), ", "))
	score := fs.String("score", "", "score u(x, r) over count, r, n and k, e.g. 'count[r] - count[(r+1)%3]' (required)")
	sen := fs.String("sensitivity", "1", "claimed sensitivity Δ: a number, or an expression over count, n and k")
	eps := fs.Float64("epsilon", 1, "claimed privacy parameter ε (> 0)")
	k := fs.Int("candidates", 3, "number of candidates k: data sets are count vectors of length k")
	m := fs.Int("max-count", 3, "each count runs over 0..max-count")
	nb := fs.String("neighbours", audit.ChangeOne, audit.AddRemove+" (one count ±1) or "+audit.ChangeOne+" (one person moves)")
	measure := fs.String("measure", "", "optional comma-separated base measure μ of the exponential mechanism")
	bench := fs.String("benchmark", "", "instead of an audit, the exact loss of every mechanism of a published benchmark, "+
		"with the pair and figures its tool reports, as a JSON array: dpsniper (DP-Sniper, logistic regression), dpsniper-neural or statdp")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *bench != "" {
		return printBenchmark(*bench, stdout)
	}
	if *score == "" {
		return usagef("-score is required")
	}
	c := audit.Config{Mechanism: *name, Score: *score, Sensitivity: *sen, Epsilon: *eps, Candidates: *k, MaxCount: *m, Neighbours: *nb}
	if *measure != "" {
		mu, err := parseNumberList("-measure", *measure)
		if err != nil {
			return err
		}
		c.Measure = mu
	}
	a, err := audit.New(c)
	if err != nil {
		return usagef("%v", err)
	}
	res, err := a.All()
	if err != nil {
		// A score that fails on some data set (a division by zero) is a bad
		// -score flag too.
		return usagef("%v", err)
	}
	w := res.Worst
	out := auditResult{Mechanism: c.Mechanism, Score: c.Score, Sensitivity: c.Sensitivity, ClaimedEpsilon: c.Epsilon,
		Neighbours: c.Neighbours, Candidates: c.Candidates, MaxCount: c.MaxCount,
		WorstLoss: finite(res.Loss), Unbounded: math.IsInf(res.Loss, 1), Holds: audit.Holds(res.Loss, c.Epsilon),
		PairsChecked: res.Pairs, DataSets: res.DataSets,
		Worst: auditWorst{Data: w.Data, Neighbour: w.Neighbour, Output: w.Output, OutputPoint: w.Point, Description: w.Description,
			PData: expOf(w.LogPData), PNeighbour: expOf(w.LogPNeighbour), LogPData: finite(w.LogPData), LogPNeighbour: finite(w.LogPNeighbour)}}
	return json.NewEncoder(stdout).Encode(out)
}
