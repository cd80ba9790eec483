package main

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/data"
	"github.com/dpplay/dpplay/core/market"
)

// pricingResult is the JSON that `dpplay pricing` prints.
type pricingResult struct {
	Mechanism       string             `json:"mechanism"`
	Values          []float64          `json:"values"`
	Prices          []float64          `json:"prices"`
	Revenue         []float64          `json:"revenue"`
	Epsilon         float64            `json:"epsilon"`
	Sensitivity     float64            `json:"sensitivity"`
	Draws           int                `json:"draws"`
	Seed            *uint64            `json:"seed"`
	Probabilities   []float64          `json:"probabilities"`
	Counts          []int              `json:"counts"`
	ExpectedRevenue float64            `json:"expected_revenue"`
	OptimalRevenue  float64            `json:"optimal_revenue"`
	OptimalPrice    float64            `json:"optimal_price"`
	Accuracy        accuracyJSON       `json:"accuracy"`
	Truthfulness    *truthfulnessJSON  `json:"truthfulness,omitempty"`
	Neighbour       *neighbourLossJSON `json:"neighbour,omitempty"`
}

type accuracyJSON struct {
	Beta             float64 `json:"beta"`
	Threshold        float64 `json:"threshold"`
	ProbabilityBelow float64 `json:"probability_below"`
	ExpectedGapBound float64 `json:"expected_gap_bound"`
}

type truthfulnessJSON struct {
	Buyer           int       `json:"buyer"`
	Value           float64   `json:"value"`
	TruthfulUtility float64   `json:"truthful_utility"`
	Reports         []float64 `json:"reports"`
	Utilities       []float64 `json:"utilities"`
	BestReport      float64   `json:"best_report"`
	MaxGain         float64   `json:"max_gain"`
	MaxUtility      float64   `json:"max_utility"`
	// SlidesBound is ε·B (the slides' theorem), ProofBound (1 − e^−ε)·B
	// (its proof done exactly) and TightBound min((e^ε − 1)·E[u], B·tanh(ε/2)),
	// the smallest; see market.Truthfulness for the derivations.
	SlidesBound   float64              `json:"slides_bound"`
	ProofBound    float64              `json:"proof_bound"`
	TightBound    float64              `json:"tight_bound"`
	Deterministic deterministicLieJSON `json:"deterministic"`
}

type deterministicLieJSON struct {
	TruthfulPrice   float64 `json:"truthful_price"`
	TruthfulUtility float64 `json:"truthful_utility"`
	BestReport      float64 `json:"best_report"`
	BestPrice       float64 `json:"best_price"`
	BestUtility     float64 `json:"best_utility"`
	Gain            float64 `json:"gain"`
	MaxShift        float64 `json:"max_shift"`
	ShiftBuyer      int     `json:"shift_buyer"`
	ShiftReport     float64 `json:"shift_report"`
	ShiftPrice      float64 `json:"shift_price"`
}

type neighbourLossJSON struct {
	Buyer int     `json:"buyer"`
	Value float64 `json:"value"`
	Loss  float64 `json:"privacy_loss"`
}

func runPricing(args []string, stdout io.Writer) error {
	fs := newFlagSet("pricing")
	valuesFlag := fs.String("values", "", "comma-separated values, one per buyer, each ≥ 0 (required)")
	pricesFlag := fs.String("prices", "0.01:5.00:0.01", "price grid: lo:hi:step, or a comma-separated increasing list")
	eps := fs.Float64("epsilon", 1, "privacy parameter ε (> 0); prices are drawn ∝ exp(ε·revenue/(2Δ)), Δ = highest price")
	draws := fs.Int("draws", 10000, "number of prices to draw (≥ 0)")
	seed := seedFlag(fs)
	beta := fs.Float64("beta", 0.05, "β for the accuracy bound OPT − 2Δ·ln(|R|/β)/ε, in (0, 1)")
	buyer := fs.Int("buyer", -1, "0-based index of a buyer whose truthfulness to analyse (-1: none)")
	neighbour := fs.String("neighbour", "", "i=v: also print the privacy loss when buyer i reports v instead")
	dataFile := fs.String("data", "", "CSV file to take the buyers' values from, instead of -values")
	column := fs.String("column", "", "with -data: the column of values, one row per buyer")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var values []float64
	var err error
	switch {
	case *dataFile != "" && *valuesFlag != "":
		return usagef("give -values or -data, not both")
	case *dataFile != "":
		t, err := readTable(*dataFile, data.HeaderAuto)
		if err != nil {
			return err
		}
		j, err := tableColumn(*dataFile, t, "-column", *column)
		if err != nil {
			return err
		}
		if values, err = t.NumbersIn(j, 0, math.MaxFloat64); err != nil {
			return usagef("%s: %v", *dataFile, err)
		}
	case *valuesFlag == "":
		return usagef("-values (or -data FILE.csv -column NAME) is required, e.g. -values 1,1,1,4.01")
	default:
		if values, err = parseNumberList("-values", *valuesFlag); err != nil {
			return err
		}
	}
	prices, err := parseGrid(*pricesFlag)
	if err != nil {
		return err
	}
	if *draws < 0 {
		return usagef("-draws must be ≥ 0, got %d", *draws)
	}
	r, seedp, err := seed()
	if err != nil {
		return err
	}
	p, err := market.NewPricing(values, prices, *eps)
	if err != nil {
		return usagef("%v", err)
	}
	acc, err := p.Accuracy(*beta)
	if err != nil {
		return usagef("%v", err)
	}
	res := pricingResult{
		Mechanism: "exponential mechanism on revenue (McSherry–Talwar pricing)",
		Values:    values, Prices: prices, Revenue: p.Revenue(), Epsilon: *eps, Sensitivity: p.Sensitivity(),
		Draws: *draws, Seed: seedp, Probabilities: p.Probabilities(), ExpectedRevenue: p.ExpectedRevenue(),
		Accuracy: accuracyJSON{Beta: acc.Beta, Threshold: acc.Threshold, ProbabilityBelow: acc.ProbabilityBelow, ExpectedGapBound: acc.ExpectedGap},
	}
	res.OptimalRevenue, res.OptimalPrice = p.Optimal()
	if res.Counts, err = p.Draw(r, *draws); err != nil {
		return usagef("%v", err)
	}
	if *buyer != -1 {
		tr, err := p.Truthfulness(*buyer)
		if err != nil {
			return usagef("-buyer: %v", err)
		}
		d := tr.Deterministic
		res.Truthfulness = &truthfulnessJSON{
			Buyer: tr.Buyer, Value: tr.Value, TruthfulUtility: tr.TruthfulUtility, Reports: tr.Reports, Utilities: tr.Utilities,
			BestReport: tr.BestReport, MaxGain: tr.MaxGain, MaxUtility: tr.MaxUtility,
			SlidesBound: tr.SlidesBound, ProofBound: tr.ProofBound, TightBound: tr.TightBound,
			Deterministic: deterministicLieJSON{
				TruthfulPrice: d.TruthfulPrice, TruthfulUtility: d.TruthfulUtility, BestReport: d.BestReport, BestPrice: d.BestPrice,
				BestUtility: d.BestUtility, Gain: d.Gain, MaxShift: d.MaxShift, ShiftBuyer: d.ShiftBuyer, ShiftReport: d.ShiftReport, ShiftPrice: d.ShiftPrice,
			},
		}
	}
	if *neighbour != "" {
		i, v, ok := strings.Cut(*neighbour, "=")
		idx, err1 := strconv.Atoi(strings.TrimSpace(i))
		val, err2 := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err1 != nil || err2 != nil {
			return usagef("-neighbour must look like 3=0.5 (buyer index = new value), got %q", *neighbour)
		}
		loss, err := p.NeighbourLoss(idx, val)
		if err != nil {
			return usagef("-neighbour: %v", err)
		}
		res.Neighbour = &neighbourLossJSON{Buyer: idx, Value: val, Loss: loss}
	}
	return json.NewEncoder(stdout).Encode(res)
}

// parseGrid reads lo:hi:step (through market.Grid, which rounds each price
// to the decimal it names) or an increasing comma-separated list.
func parseGrid(s string) ([]float64, error) {
	if strings.Contains(s, ":") {
		parts := strings.Split(s, ":")
		if len(parts) != 3 {
			return nil, usagef("-prices: want lo:hi:step, got %q", s)
		}
		xs, err := parseNumberList("-prices", strings.Join(parts, ","))
		if err != nil {
			return nil, err
		}
		g, err := market.Grid(xs[0], xs[1], xs[2])
		if err != nil {
			return nil, usagef("-prices: %v", err)
		}
		return g, nil
	}
	return parseNumberList("-prices", s)
}
