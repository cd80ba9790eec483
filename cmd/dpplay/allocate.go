package main

import (
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/market"
)

// allocateResult is the JSON that `dpplay allocate` prints. Demand (exact)
// and choices are each buyer's private view, printed for teaching; only
// prices and noisy counts are public.
type allocateResult struct {
	Goods              []string            `json:"goods"`
	Buyers             int                 `json:"buyers"`
	Supply             []int               `json:"supply"`
	Rounds             int                 `json:"rounds"`
	Epsilon            float64             `json:"epsilon"`
	EpsilonSpent       float64             `json:"epsilon_spent"`
	Ledger             []chargeJSON        `json:"ledger"`
	Counter            string              `json:"counter"`
	Step               float64             `json:"step"`
	MaxValue           float64             `json:"max_value"`
	NoiseScale         float64             `json:"noise_scale"`
	Levels             int                 `json:"levels"`
	TreeNoiseSD        float64             `json:"tree_noise_sd"`
	PerRoundNoiseSD    float64             `json:"per_round_noise_sd"`
	Seed               *uint64             `json:"seed"`
	Trace              []allocateRoundJSON `json:"trace"`
	FinalPrices        []float64           `json:"final_prices"`
	Allocation         []int               `json:"allocation"`
	Allocated          []int               `json:"allocated"`
	OverAllocation     []int               `json:"over_allocation"`
	ExpectedOverDemand []float64           `json:"expected_over_demand"`
	Welfare            float64             `json:"welfare"`
	ExpectedWelfare    float64             `json:"expected_welfare"`
	FeasibleWelfare    float64             `json:"feasible_welfare"`
	OptimalWelfare     *float64            `json:"optimal_welfare"`
	Choices            [][]int             `json:"choices,omitempty"`
}

type allocateRoundJSON struct {
	Round       int       `json:"round"`
	Prices      []float64 `json:"prices"`
	Demand      []int     `json:"demand"`
	NoisyDemand []float64 `json:"noisy_demand"`
}

func runAllocate(args []string, stdout io.Writer) error {
	fs := newFlagSet("allocate")
	file := fs.String("values", "", "valuation file (required): CSV, one line per buyer, one column per good, optional header naming the goods, '#' comments")
	supplyFlag := fs.String("supply", "1", "copies of each good: one number for all goods, or one per good, comma-separated")
	rounds := fs.Int("rounds", 128, "T, the number of billboard rounds")
	eps := fs.Float64("epsilon", 1, "privacy parameter ε of the whole price sequence (> 0)")
	step := fs.Float64("step", 0, "gradient step η (0: 2V/(n·√T))")
	maxValue := fs.Float64("max-value", 1, "public bound V on every value; prices stay in [0, V]")
	counter := fs.String("counter", market.CounterAuto, "demand counter: auto, tree or per-round")
	seed := seedFlag(fs)
	choices := fs.Bool("choices", false, "also print every buyer's demand in every round")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return usagef("-values is required: a CSV file, one line per buyer, one column per good")
	}
	f, err := os.Open(*file)
	if err != nil {
		return usagef("-values: %v", err)
	}
	vals, err := market.ParseValuations(f)
	f.Close()
	if err != nil {
		return usagef("-values %s: %v", *file, err)
	}
	supply, err := parseSupply(*supplyFlag, len(vals.Goods))
	if err != nil {
		return err
	}
	r, seedp, err := seed()
	if err != nil {
		return err
	}
	acct, err := account.New(*eps, 0)
	if err != nil {
		return usagef("-epsilon: %v", err)
	}
	run, err := market.Allocate(market.AllocationConfig{
		Values: vals.Values, Supply: supply, Rounds: *rounds, Epsilon: *eps,
		Step: *step, MaxValue: *maxValue, Counter: *counter,
	}, r, acct)
	if err != nil {
		return usagef("%v", err)
	}
	spent, _ := acct.Spent()
	res := allocateResult{
		Goods: vals.Goods, Buyers: run.Buyers, Supply: run.Supply, Rounds: run.Rounds,
		Epsilon: run.Epsilon, EpsilonSpent: spent, Counter: run.Counter, Step: run.Step, MaxValue: run.MaxValue,
		NoiseScale: run.NoiseScale, Levels: run.Levels, TreeNoiseSD: run.TreeNoiseSD, PerRoundNoiseSD: run.PerRoundNoiseSD,
		Seed: seedp, FinalPrices: run.Prices[run.Rounds], Allocation: run.Allocation, Allocated: run.Allocated,
		OverAllocation: run.OverAllocation, ExpectedOverDemand: run.ExpectedOverDemand,
		Welfare: run.Welfare, ExpectedWelfare: run.ExpectedWelfare, FeasibleWelfare: run.FeasibleWelfare,
	}
	if run.OptimalKnown {
		res.OptimalWelfare = &run.OptimalWelfare
	}
	for _, ch := range acct.Ledger() {
		if n := len(res.Ledger); n > 0 && res.Ledger[n-1].Epsilon == ch.Epsilon && sameKind(res.Ledger[n-1].Label, ch.Label) {
			res.Ledger[n-1].Count++
			continue
		}
		res.Ledger = append(res.Ledger, chargeJSON{Label: ch.Label, Epsilon: ch.Epsilon, Count: 1})
	}
	for i := range res.Ledger {
		if res.Ledger[i].Count > 1 {
			res.Ledger[i].Label = "demand, one charge per round"
		}
	}
	for t := 0; t < run.Rounds; t++ {
		res.Trace = append(res.Trace, allocateRoundJSON{Round: t + 1, Prices: run.Prices[t], Demand: run.Demand[t], NoisyDemand: run.NoisyDemand[t]})
	}
	if *choices {
		res.Choices = run.Choices
	}
	return json.NewEncoder(stdout).Encode(res)
}

// sameKind reports whether two ledger labels differ only in their numbers
// ("demand, round 3 of 50" and "demand, round 4 of 50").
func sameKind(a, b string) bool {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return -1
			}
			return r
		}, s)
	}
	return strip(a) == strip(b) && strings.HasPrefix(a, "demand, round")
}

// parseSupply reads one supply for all goods or one per good.
func parseSupply(s string, goods int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != goods {
		return nil, usagef("-supply: give one number or %d (one per good), got %d", goods, len(parts))
	}
	out := make([]int, goods)
	for j := range out {
		p := strings.TrimSpace(parts[min(j, len(parts)-1)])
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, usagef("-supply: %q is not a whole number ≥ 0", p)
		}
		out[j] = v
	}
	return out, nil
}
