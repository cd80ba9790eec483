package market

import (
	"fmt"
	"math"
	"math/bits"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// Limits for Allocate: the run records every buyer's choice in
// every round, n × T cells.
const (
	MaxRounds      = 100_000   // T, the billboard rounds
	MaxChoiceCells = 2_000_000 // buyers × rounds: 16 MB of choices
)

// None marks a buyer who demands (or is allocated) no good: every
// vᵢⱼ − pⱼ ≤ 0.
const None = -1

// Counters for the demand: how AllocationConfig counts it privately. Per
// round, the running count Ĉ(t) has
// standard deviation √(2t)·2T/ε; with the tree, √(2·popcount(t))·2TL/ε.
const (
	// CounterAuto picks whichever counter below has the smaller average
	// noise for the number of rounds (a public choice: it depends on T
	// only). It is the default.
	CounterAuto = "auto"
	// CounterTree is the binary-tree continual counter.
	CounterTree = "tree"
	// CounterPerRound releases each round's demand with its own Laplace
	// noise and composes the T releases.
	CounterPerRound = "per-round"
)

// AllocationConfig describes a market of k goods and n unit-demand buyers.
type AllocationConfig struct {
	// Values[i][j] = vᵢⱼ ≥ 0 is buyer i's value for one copy of good j.
	Values [][]float64
	// Supply[j] ≥ 0 is the number of copies of good j.
	Supply []int
	// Rounds T ≥ 1 of posted prices.
	Rounds int
	// Epsilon is the privacy parameter of the whole price sequence.
	Epsilon float64
	// Step is the gradient step η > 0; zero picks DefaultStep.
	Step float64
	// MaxValue V is a public bound on every value (zero means 1). Prices are
	// kept in [0, V] and the default step scales with V. It must not be read
	// off the data: the largest reported value is private, and a price cap
	// computed from it would leak it.
	MaxValue float64
	// Counter is CounterAuto (or ""), CounterTree or CounterPerRound.
	Counter string
}

// DefaultStep returns the step used when AllocationConfig.Step is zero:
// η = 2V/(n·√T), for the public value bound V, n buyers and T
// rounds: the usual step of T rounds of subgradient descent on prices in
// [0, V] with gradients of size up to n, doubled because most markets start
// far from balance. V must be positive and finite, n and T at least 1.
func DefaultStep(maxValue float64, buyers, rounds int) (float64, error) {
	if err := validate.Positive("max value V", maxValue); err != nil {
		return 0, err
	}
	if buyers < 1 || rounds < 1 {
		return 0, validate.Errorf("buyers and rounds", "must be at least 1, got %d and %d", buyers, rounds)
	}
	return 2 * maxValue / (float64(buyers) * math.Sqrt(float64(rounds))), nil
}

// AllocationRun is the full record of one run of Allocate: what was posted on
// the billboard (public), and what each buyer did (each buyer's own, private
// view, kept for teaching).
type AllocationRun struct {
	Goods, Buyers, Rounds int
	Supply                []int
	Epsilon, Step         float64
	MaxValue              float64
	Counter               string

	// Prices[t] are the prices posted in round t+1; Prices[Rounds] are the
	// final prices.
	Prices [][]float64
	// Demand[t][j] is the exact demand for good j in round t+1 (never
	// released). NoisyDemand[t][j] is what the billboard implies about it:
	// the increase of the private cumulative count in that round.
	Demand      [][]int
	NoisyDemand [][]float64
	// Choices[t][i] is buyer i's demanded good in round t+1, or None.
	Choices [][]int

	// Allocation[i] is the good buyer i receives: their choice in a round
	// drawn uniformly from 1..T, or None. Allocated[j] counts copies handed
	// out and OverAllocation[j] = max(0, Allocated[j] − Supply[j]).
	Allocation     []int
	FinalRound     []int // FinalRound[i] ∈ 1..T is the round buyer i's draw picked
	Allocated      []int
	OverAllocation []int
	// Allocation is ε-jointly differentially private (each buyer's good is a
	// function of the public prices, their own values and their own draw of
	// the round), and it may exceed the supply.
	//
	// Welfare is Σᵢ vᵢ(Allocation[i]); ExpectedWelfare is its exact mean over
	// the final draw, (1/T)·Σₜ Σᵢ vᵢ(Choices[t][i]). FeasibleWelfare is the
	// welfare after turning away random excess holders of over-allocated
	// goods (TurnAway), so that no good exceeds its supply. That clean-up is
	// not jointly private: whether a buyer keeps their copy depends on how
	// many others chose the same good.
	Welfare, ExpectedWelfare, FeasibleWelfare float64
	// ExpectedAllocated[j] = Σᵢ qᵢⱼ is the exact mean of Allocated[j] over
	// the final draw, where qᵢⱼ is the share of rounds in which buyer i
	// demanded good j. OverSupplyProbability[j] is the exact probability,
	// over the same draw and given the published prices, that the jointly
	// private allocation hands out more than Supply[j] copies of good j: the
	// upper tail of a Poisson binomial distribution with parameters qᵢⱼ.
	ExpectedAllocated, OverSupplyProbability []float64
	// ExpectedOverDemand[j] is (1/T)·Σₜ max(0, Demand[t][j] − Supply[j]).
	ExpectedOverDemand []float64

	// OptimalWelfare is the best welfare of any feasible allocation (exact
	// assignment), when the instance is small enough; OptimalKnown says so.
	OptimalWelfare float64
	OptimalKnown   bool

	// Levels is L = bits.Len(T) for the tree counter, 1 for per-round, and
	// NoiseScale the Laplace scale b on every coordinate of every release:
	// 2TL/ε for the tree, 2T/ε per round.
	Levels     int
	NoiseScale float64
	// TreeNoiseSD and PerRoundNoiseSD are the standard deviations of the
	// running count Ĉ(t), averaged over the rounds t = 1..T, under each
	// counter whichever ran: √(2·popcount(t))·2TL/ε for the tree against
	// √(2t)·2T/ε per round. A price is off by η times this. The tree wins
	// once T is above about L³ (near 2¹¹); below that the per-round counter's
	// slowly growing error is smaller on average.
	TreeNoiseSD, PerRoundNoiseSD float64
	// EpsilonSpent sums Ledger, the charges this run made.
	EpsilonSpent float64
	Ledger       []account.Charge
	// Nodes are the released counts: the tree's nodes, or one per round.
	Nodes  []Node
	values [][]float64
}

// Allocate runs private price coordination (the slides' billboard algorithm,
// after Hsu, Huang, Roth, Roughgarden and Wu 2014/2016).
//
// Round t = 1..T: the billboard posts prices pᵗ (p¹ = 0); each buyer demands
// the good maximising vᵢⱼ − pⱼ (the lowest index on ties), or nothing if no
// utility is positive; the demand vector dᵗ joins a private running count
// Ĉ(t) ≈ Σ_{τ≤t} d^τ, and the next prices are a gradient step towards supply
// in its "lazy projection" (dual averaging) form,
//
//	pⱼᵗ⁺¹ = min(V, max(0, η·(Ĉⱼ(t) − t·sⱼ))),
//
// which equals pⱼᵗ + η·(dⱼᵗ − sⱼ) until a price hits 0 or V: prices rise on
// over-demanded goods and fall on under-demanded ones. Each price is then off
// by η times the error of one running count, instead of η times the sum of
// t separately clipped noisy gradients; that error still grows with t (a
// random walk of t Laplace draws with the per-round counter), it does not
// average out. Finally each buyer takes their choice in a uniformly drawn
// round.
//
// Privacy. Fix everything released so far; the posted prices, and hence all
// other buyers' demands, are then fixed, and buyer i's values change each
// round's demand vector by at most 2 in L1 norm (one good loses a buyer,
// another gains one). The tree counter (CounterTree) releases, at L = bits.Len(T)
// levels, noisy sums of dyadic blocks of rounds; the blocks of one level are
// disjoint, so over a level the L1 change is at most 2T. Laplace noise of
// scale b = 2TL/ε on every coordinate bounds the log-likelihood ratio of the
// whole transcript by L·2T/b = ε, for every transcript, so the price sequence
// is ε-DP although each round's input depends on earlier noise
// (RunPrivacyLoss checks this on a realised run). CounterPerRound adds
// Laplace(2T/ε) to every round's demand: ε/T per round, ε in all. Ĉ(t) then
// has standard deviation √(2·popcount(t))·2TL/ε with the tree against
// √(2t)·2T/ε per round: a polylog(T) factor against √T, on top of the 2T/ε
// that no counter avoids (a buyer who switches goods changes T rounds of
// demand). Averaged over the rounds the factors cross near T ≈ 2000, so for
// the short runs of the lesson the per-round counter is as good or better:
// CounterAuto, the default, picks the smaller (a function of T alone, so the
// choice leaks nothing), and AllocationRun reports both. Each buyer's
// allocation is computed from the public prices and their own values only,
// so by the billboard lemma the outcome is ε-jointly differentially private:
// the other buyers, even colluding, see an ε-DP function of buyer i's values.
//
// The ε is charged to acct (a fresh accountant with budget ε when acct is
// nil): L charges of ε/L, one per tree level, or T charges of ε/T. When the
// remaining budget is short nothing is charged and nothing runs.
func Allocate(cfg AllocationConfig, r *mrand.Rand, acct *account.Accountant) (*AllocationRun, error) {
	if r == nil {
		return nil, validate.Errorf("random source", "is nil")
	}
	n, k, err := checkMarket(cfg.Values, cfg.Supply)
	if err != nil {
		return nil, err
	}
	if cfg.Rounds < 1 || cfg.Rounds > MaxRounds {
		return nil, validate.Errorf("rounds", "must be between 1 and %d, got %d", MaxRounds, cfg.Rounds)
	}
	if n*cfg.Rounds > MaxChoiceCells {
		return nil, validate.Errorf("rounds", "× buyers = %d; at most %d are recorded", n*cfg.Rounds, MaxChoiceCells)
	}
	if err := validate.Positive("ε (epsilon)", cfg.Epsilon); err != nil {
		return nil, err
	}
	maxValue := cfg.MaxValue
	if maxValue == 0 {
		maxValue = 1
	}
	if err := validate.Positive("max value V", maxValue); err != nil {
		return nil, err
	}
	if math.IsInf(maxValue*float64(n), 0) {
		return nil, validate.Errorf("max value V", "is too large: n·V = %d·%v overflows the welfare", n, maxValue)
	}
	for i, row := range cfg.Values {
		for j, v := range row {
			if v > maxValue {
				return nil, validate.Errorf(fmt.Sprintf("values[%d][%d]", i, j), "is %v, above the public bound V = %v; raise the max value", v, maxValue)
			}
		}
	}
	step := cfg.Step
	if step == 0 {
		if step, err = DefaultStep(maxValue, n, cfg.Rounds); err != nil {
			return nil, err
		}
	}
	if err := validate.Positive("step η", step); err != nil {
		return nil, err
	}
	T := float64(cfg.Rounds)
	L := bits.Len(uint(cfg.Rounds))
	treeSD, perRoundSD := counterNoise(cfg.Rounds, cfg.Epsilon)
	counterName := cfg.Counter
	switch counterName {
	case "", CounterAuto:
		counterName = CounterTree
		if perRoundSD < treeSD {
			counterName = CounterPerRound
		}
	case CounterTree, CounterPerRound:
	default:
		return nil, validate.Errorf("counter", "must be %q, %q or %q, got %q", CounterAuto, CounterTree, CounterPerRound, cfg.Counter)
	}
	levels, scale := L, 2*T*float64(L)/cfg.Epsilon
	if counterName == CounterPerRound {
		levels, scale = 1, 2*T/cfg.Epsilon
	}
	noise, err := rng.NewLaplace(scale)
	if err != nil {
		return nil, validate.Errorf("ε (epsilon)", "gives an unusable noise scale %v", scale)
	}

	// Charge before running, all or nothing: SpendAll applies the
	// accountant's own rule to the whole list before recording any of it, so
	// a run the budget cannot pay for neither runs nor leaves part of its
	// charges behind (a separate pre-check with its own tolerance could pass
	// a run whose last per-round charge the accountant then refuses).
	if acct == nil {
		if acct, err = account.New(cfg.Epsilon, 0); err != nil {
			return nil, err
		}
	}
	parts := L
	if counterName == CounterPerRound {
		parts = cfg.Rounds
	}
	charges := make([]account.Charge, parts)
	for l := range charges {
		label := fmt.Sprintf("demand counter, tree level %d of %d", l, parts)
		if counterName == CounterPerRound {
			label = fmt.Sprintf("demand, round %d of %d", l+1, parts)
		}
		charges[l] = account.Charge{Label: label, Epsilon: cfg.Epsilon / float64(parts)}
	}
	if err := acct.SpendAll(charges); err != nil {
		return nil, fmt.Errorf("the price sequence needs ε = %g: %w", cfg.Epsilon, err)
	}

	run := &AllocationRun{
		Goods: k, Buyers: n, Rounds: cfg.Rounds, Supply: append([]int(nil), cfg.Supply...),
		Epsilon: cfg.Epsilon, Step: step, MaxValue: maxValue, Counter: counterName,
		Levels: levels, NoiseScale: scale,
		TreeNoiseSD: treeSD, PerRoundNoiseSD: perRoundSD,
		Ledger: charges, values: cfg.Values,
	}
	for _, ch := range charges {
		run.EpsilonSpent += ch.Epsilon
	}

	tree := newTreeCounter(k, L, noise)
	prices := make([]float64, k)
	running := make([]float64, k) // per-round counter: Σ of noisy demands
	prevEst := make([]float64, k)
	for t := 1; t <= cfg.Rounds; t++ {
		run.Prices = append(run.Prices, append([]float64(nil), prices...))
		choices := make([]int, n)
		demand := make([]int, k)
		x := make([]float64, k)
		for i := range choices {
			choices[i] = bestResponse(cfg.Values[i], prices)
			if choices[i] != None {
				demand[choices[i]]++
				x[choices[i]]++
			}
		}
		var est []float64
		if counterName == CounterTree {
			est = tree.add(t, x, r)
		} else {
			nd := Node{Level: 0, Start: t, End: t, Exact: x, Noisy: make([]float64, k)}
			for j := range x {
				nd.Noisy[j] = x[j] + noise.Sample(r)
				running[j] += nd.Noisy[j]
			}
			run.Nodes = append(run.Nodes, nd)
			est = append([]float64(nil), running...)
		}
		noisy := make([]float64, k)
		for j := range prices {
			noisy[j] = est[j] - prevEst[j]
			prices[j] = math.Min(maxValue, math.Max(0, step*(est[j]-float64(t)*run.supplyF(j))))
		}
		prevEst = est
		run.Choices = append(run.Choices, choices)
		run.Demand = append(run.Demand, demand)
		run.NoisyDemand = append(run.NoisyDemand, noisy)
	}
	run.Prices = append(run.Prices, append([]float64(nil), prices...))
	if counterName == CounterTree {
		run.Nodes = tree.nodes
	}
	run.finish(r)
	if opt, _, err := OptimalWelfare(cfg.Values, cfg.Supply); err == nil {
		run.OptimalWelfare, run.OptimalKnown = opt, true
	}
	return run, nil
}

// counterNoise returns the standard deviation of the running count Ĉ(t),
// averaged over t = 1..T, for the tree and the per-round counter at ε.
func counterNoise(rounds int, epsilon float64) (tree, perRound float64) {
	T := float64(rounds)
	L := float64(bits.Len(uint(rounds)))
	for t := 1; t <= rounds; t++ {
		tree += math.Sqrt(2 * float64(bits.OnesCount(uint(t))))
		perRound += math.Sqrt(2 * float64(t))
	}
	return tree / T * 2 * T * L / epsilon, perRound / T * 2 * T / epsilon
}

func (run *AllocationRun) supplyF(j int) float64 { return float64(run.Supply[j]) }

// bestResponse returns the good with the largest positive utility vⱼ − pⱼ
// (the lowest index on ties), or None.
func bestResponse(values, prices []float64) int {
	best, bestU := None, 0.0
	for j, v := range values {
		if u := v - prices[j]; u > bestU {
			best, bestU = j, u
		}
	}
	return best
}

// finish draws the final allocation and computes welfare and over-allocation.
func (run *AllocationRun) finish(r *mrand.Rand) {
	n, k, T := run.Buyers, run.Goods, run.Rounds
	run.Allocation = make([]int, n)
	run.Allocated = make([]int, k)
	run.FinalRound = make([]int, n)
	for i := 0; i < n; i++ {
		t := r.IntN(T)
		g := run.Choices[t][i]
		run.Allocation[i], run.FinalRound[i] = g, t+1
		if g != None {
			run.Allocated[g]++
			run.Welfare += run.values[i][g]
		}
	}
	run.OverAllocation = make([]int, k)
	run.ExpectedOverDemand = make([]float64, k)
	for j := range run.OverAllocation {
		run.OverAllocation[j] = max(0, run.Allocated[j]-run.Supply[j])
	}
	for t := 0; t < T; t++ {
		for i, g := range run.Choices[t] {
			if g != None {
				run.ExpectedWelfare += run.values[i][g]
			}
		}
		for j, d := range run.Demand[t] {
			run.ExpectedOverDemand[j] += float64(max(0, d-run.Supply[j]))
		}
	}
	run.ExpectedWelfare /= float64(T)
	for j := range run.ExpectedOverDemand {
		run.ExpectedOverDemand[j] /= float64(T)
	}
	run.ExpectedAllocated = make([]float64, k)
	run.OverSupplyProbability = make([]float64, k)
	q := make([]float64, n)
	for j := 0; j < k; j++ {
		clear(q)
		for t := 0; t < T; t++ {
			for i, g := range run.Choices[t] {
				if g == j {
					q[i]++
				}
			}
		}
		for i := range q {
			q[i] /= float64(T)
			run.ExpectedAllocated[j] += q[i]
		}
		run.OverSupplyProbability[j] = poissonBinomialAbove(q, run.Supply[j])
	}
	run.FeasibleWelfare = 0
	for i, g := range TurnAway(run.Allocation, run.Supply, r) {
		if g != None {
			run.FeasibleWelfare += run.values[i][g]
		}
	}
}

// TurnAway returns a copy of allocation (allocation[i] is buyer i's good or
// None) in which, for every good j held by more than supply[j] buyers,
// holders chosen uniformly at random lose their copy (become None) until
// supply[j] remain. The result is feasible, but it is not
// jointly differentially private: a buyer who joins the holders of a full
// good gives each of them a chance of losing it that was 0 before, an
// unbounded privacy loss for them.
func TurnAway(allocation, supply []int, r *mrand.Rand) []int {
	out := append([]int(nil), allocation...)
	for j, s := range supply {
		var holders []int
		for i, g := range out {
			if g == j {
				holders = append(holders, i)
			}
		}
		if len(holders) <= s {
			continue
		}
		r.Shuffle(len(holders), func(a, b int) { holders[a], holders[b] = holders[b], holders[a] })
		for _, i := range holders[:len(holders)-max(s, 0)] {
			out[i] = None
		}
	}
	return out
}

// poissonBinomialAbove returns Pr[Σᵢ Xᵢ > s] for independent Xᵢ ~
// Bernoulli(q[i]), by the recursion over buyers on the distribution of the
// partial sum truncated at s + 1 (O(n·s)).
func poissonBinomialAbove(q []float64, s int) float64 {
	if s < 0 {
		return 1
	}
	d := make([]float64, s+2) // d[c] = Pr[sum = c] for c ≤ s; d[s+1] = Pr[sum > s]
	d[0] = 1
	for _, p := range q {
		d[s+1] += d[s] * p
		for c := s; c > 0; c-- {
			d[c] = d[c]*(1-p) + d[c-1]*p
		}
		d[0] *= 1 - p
	}
	return min(1, max(0, d[s+1]))
}

// RunPrivacyLoss returns the exact log-likelihood ratio
// |ln P_V(h) − ln P_V′(h)| = |Σ_nodes (abs(noisy − exact′) − abs(noisy − exact))/b|
// of the run's released transcript h (every noisy count) under the true
// values V and under V′, which replaces buyer's row with values. Given h the
// posted prices are fixed, so the buyer's demands under V′ are their best
// responses to those prices, and the other buyers' demands do not change.
// Allocate's proof says the result is at most ε for every buyer and row
// (joint differential privacy; the tests check it).
func (run *AllocationRun) RunPrivacyLoss(buyer int, values []float64) (float64, error) {
	// Only Allocate fills in the private values, the prices and the choices
	// the check replays; a nil or hand-made run has nothing to replay.
	if run == nil || run.values == nil || len(run.Prices) != run.Rounds+1 || len(run.Choices) != run.Rounds {
		return 0, validate.Errorf("run", "is not a run made by Allocate")
	}
	diffs, err := run.nodeChanges(buyer, values)
	if err != nil {
		return 0, err
	}
	logRatio := 0.0
	for m, nd := range run.Nodes {
		for j, d := range diffs[m] {
			if d != 0 {
				alt := nd.Exact[j] + d
				logRatio += (math.Abs(nd.Noisy[j]-alt) - math.Abs(nd.Noisy[j]-nd.Exact[j])) / run.NoiseScale
			}
		}
	}
	return math.Abs(logRatio), nil
}

// nodeChanges returns, for each released node, how its exact counts change
// when buyer's row becomes values and the transcript is held fixed.
func (run *AllocationRun) nodeChanges(buyer int, values []float64) ([][]float64, error) {
	if buyer < 0 || buyer >= run.Buyers {
		return nil, validate.Errorf("buyer", "must be in [0, %d), got %d", run.Buyers, buyer)
	}
	if err := checkRow("values", values, run.Goods); err != nil {
		return nil, err
	}
	out := make([][]float64, len(run.Nodes))
	for m, nd := range run.Nodes {
		d := make([]float64, run.Goods)
		for t := nd.Start; t <= nd.End; t++ {
			if g := bestResponse(values, run.Prices[t-1]); g != None {
				d[g]++
			}
			if g := run.Choices[t-1][buyer]; g != None {
				d[g]--
			}
		}
		out[m] = d
	}
	return out, nil
}

func checkRow(param string, row []float64, k int) error {
	if len(row) != k {
		return validate.Errorf(param, "has %d values for %d goods", len(row), k)
	}
	for j, v := range row {
		if err := validate.NonNegative(validate.Index(param, j), v); err != nil {
			return err
		}
	}
	return nil
}

// checkMarket validates an n × k value matrix and k supplies.
func checkMarket(values [][]float64, supply []int) (n, k int, err error) {
	n = len(values)
	if n == 0 {
		return 0, 0, validate.Errorf("values", "needs at least one buyer")
	}
	k = len(values[0])
	if k == 0 {
		return 0, 0, validate.Errorf("values", "needs at least one good")
	}
	if n > MaxBuyers {
		return 0, 0, validate.Errorf("values", "has %d buyers; at most %d are allowed", n, MaxBuyers)
	}
	for i, row := range values {
		if err := checkRow(fmt.Sprintf("values[%d]", i), row, k); err != nil {
			return 0, 0, err
		}
	}
	if len(supply) != k {
		return 0, 0, validate.Errorf("supply", "has %d entries for %d goods", len(supply), k)
	}
	for j, s := range supply {
		if s < 0 {
			return 0, 0, validate.Errorf(fmt.Sprintf("supply[%d]", j), "must be ≥ 0, got %d", s)
		}
	}
	return n, k, nil
}
