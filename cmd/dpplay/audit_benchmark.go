package main

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/dpplay/dpplay/core/audit/pair"
)

// The benchmarks `dpplay audit -benchmark` prints: DP-Sniper's evaluation
// with its logistic-regression classifier (the paper's first
// configuration), with its neural network, and StatDP's two runs in that
// evaluation.
var benchmarks = map[string][]string{
	"dpsniper":        {pair.RunDPSniperLogistic},
	"dpsniper-neural": {pair.RunDPSniperNeural},
	"statdp":          {pair.RunStatDP1, pair.RunStatDP2},
}

// A dpsniperRow or statdpRow is one object of `dpplay audit -benchmark`:
// the keys every row has (benchmarkCase), then the tool's own keys, named
// after the tool. JSON has no infinity: an unbounded exact loss is null with
// "unbounded": true, and an infinite estimate (StatDP's, when it saw an
// output under one input only) is null.
type dpsniperRow struct {
	benchmarkCase
	Estimate   *float64 `json:"dpsniper_estimate"`
	LowerBound float64  `json:"dpsniper_lower_bound"`
	Method     string   `json:"method"`
}

type statdpRow struct {
	benchmarkCase
	Estimate   *float64 `json:"statdp_estimate"`
	LowerBound float64  `json:"statdp_lower_bound"`
	Run        int      `json:"statdp_run"`
	Method     string   `json:"method"`
}

// benchmarkCase is the first keys of every row: the case and its exact loss.
type benchmarkCase struct {
	Mechanism      string       `json:"mechanism"`
	ClaimedEpsilon float64      `json:"claimed_epsilon"`
	Pair           [2][]float64 `json:"pair"`
	ExactLoss      *float64     `json:"exact_loss"`
	Unbounded      bool         `json:"unbounded"`
}

// benchmarkRows computes the exact loss of every case of the named
// benchmark.
func benchmarkRows(name string) ([]any, error) {
	runs, ok := benchmarks[name]
	if !ok {
		return nil, usagef("-benchmark must be dpsniper, dpsniper-neural or statdp, got %q", name)
	}
	var rows []any
	for k, run := range runs {
		cases, err := pair.Benchmark(run)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			l, err := c.M.Loss(c.Pair[0], c.Pair[1])
			if err != nil {
				return nil, err
			}
			method := l.Method
			if l.Err > 1e-12 {
				method += "; exact to within " + strconv.FormatFloat(l.Err, 'g', 2, 64)
			}
			bc := benchmarkCase{c.Mechanism, c.Claimed, c.Pair, finite(l.Value()), l.Unbounded()}
			if name == "statdp" {
				rows = append(rows, statdpRow{bc, finite(c.Estimate), c.LowerBound, k + 1, method})
			} else {
				rows = append(rows, dpsniperRow{bc, finite(c.Estimate), c.LowerBound, method})
			}
		}
	}
	return rows, nil
}

// printBenchmark writes the benchmark's rows as one JSON array, an object
// per line.
func printBenchmark(name string, stdout io.Writer) error {
	rows, err := benchmarkRows(name)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(stdout, "[\n"); err != nil {
		return err
	}
	for i, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == len(rows)-1 {
			sep = "\n"
		}
		if _, err := stdout.Write(append(b, sep...)); err != nil {
			return err
		}
	}
	_, err = io.WriteString(stdout, "]\n")
	return err
}
