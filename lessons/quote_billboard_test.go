package lessons

import (
	"fmt"
	"math"
	"testing"

	marketapp "github.com/dpplay/dpplay/app/market"
	"github.com/dpplay/dpplay/core/market"
)

// billboard runs the billboard widget's market (three goods, 40 copies each,
// seed 1) as the widget does.
func billboard(t *testing.T, rounds int, eps float64, counter string) *market.AllocationRun {
	t.Helper()
	run, _, err := marketapp.Billboard([]int{40, 40, 40}, rounds, eps, counter, 1)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func share(run *market.AllocationRun) string {
	return fmt.Sprintf("%.0f%%", 100*run.FeasibleWelfare/run.OptimalWelfare)
}

// share1 is share to one decimal.
func share1(run *market.AllocationRun) string {
	return fmt.Sprintf("%.1f%%", 100*run.FeasibleWelfare/run.OptimalWelfare)
}

func counts[T int | float64](xs []T, format string) string {
	return fmt.Sprintf(format, xs[0], xs[1], xs[2])
}

// tens rounds x to the nearest ten, as the lesson quotes buyer counts.
func tens(x float64) float64 { return math.Round(x/10) * 10 }

func TestQuotedBillboard(t *testing.T) {
	const slug = "billboard-prices"
	run := billboard(t, 64, 1, "auto")
	T := float64(run.Rounds)

	// Round 1: exact and noisy demand.
	noisy := make([]float64, 3)
	for j := range noisy {
		noisy[j] = math.Round(run.NoisyDemand[0][j])
	}
	quoted(t, slug,
		fmt.Sprintf("%d buyers want tea and %d coffee", run.Demand[0][0], run.Demand[0][1]),
		fmt.Sprintf("only %d want cocoa", run.Demand[0][2]),
		counts(noisy, "the billboard sees %.0f, %.0f and %.0f instead"),
		fmt.Sprintf("true demand %d, %d, %d", run.Demand[0][0], run.Demand[0][1], run.Demand[0][2]))

	// Noise: scale, mean miss, random walk, step and price error.
	miss := 0.0
	for r := range run.Demand {
		for j := range run.Demand[r] {
			miss += math.Abs(run.NoisyDemand[r][j] - float64(run.Demand[r][j]))
		}
	}
	miss /= T * 3
	if math.Abs(miss-run.NoiseScale) > 0.1*run.NoiseScale {
		t.Errorf("mean absolute miss %v in this run, far from E|Lap(b)| = b = %v", miss, run.NoiseScale)
	}
	walk := math.Sqrt(2*T) * run.NoiseScale
	if run.Counter != market.CounterPerRound || run.NoiseScale != 2*T/run.Epsilon {
		t.Fatalf("counter %s, scale %v: the lesson says auto picks one release per round with scale 2T/ε", run.Counter, run.NoiseScale)
	}
	quoted(t, slug,
		fmt.Sprintf("$2T/\\varepsilon$ = %.0f (at T = 64 and ε = 1)", run.NoiseScale),
		fmt.Sprintf("misses the true demand by %.0f buyers on average", run.NoiseScale),
		fmt.Sprintf("to about %s buyers by round 64", thousands(tens(walk))),
		fmt.Sprintf("= 1/%.0f", 1/run.Step),
		fmt.Sprintf("a price error of about %.1f in the last round", run.Step*walk),
		fmt.Sprintf("about %.1f of error by round 64", run.Step*walk))

	// The tree at T = 64.
	tree := billboard(t, 64, 1, "tree")
	quoted(t, slug,
		fmt.Sprintf("At T = 64 ($L = %d$) and ε = 1 that is a scale of %.0f against %.0f", tree.Levels, tree.NoiseScale, run.NoiseScale),
		fmt.Sprintf("noise has a standard deviation of about %s buyers with the tree against %s with one release per round", thousands(tens(run.TreeNoiseSD)), thousands(tens(run.PerRoundNoiseSD))))
	for _, rounds := range []int{16, 32, 64, 128} {
		if r := billboard(t, rounds, 1, "auto"); r.Counter != market.CounterPerRound {
			t.Errorf("T = %d: auto picks %s, the lesson says one release per round for every setting", rounds, r.Counter)
		}
	}

	// The allocation: overshoot, its probability, welfare.
	noiseless := billboard(t, 64, 1e12, "auto")
	quoted(t, slug,
		counts(run.Allocated, "The buyers take %d tea, %d coffee and %d cocoa"),
		fmt.Sprintf("coffee is over by %d copies", run.OverAllocation[1]),
		fmt.Sprintf("%.0f%% for tea and %.0f%% for coffee", 100*run.OverSupplyProbability[0], 100*run.OverSupplyProbability[1]),
		fmt.Sprintf("(%.0f%% and %.0f%% chances of overshooting tea and coffee)", 100*run.OverSupplyProbability[0], 100*run.OverSupplyProbability[1]),
		counts(noiseless.Allocated, "hand out %d, %d and %d"),
		counts(run.Allocated, "%d, %d, %d against 40 each"),
		counts(noiseless.Allocated, "%d, %d, %d with no noise"),
		fmt.Sprintf("The allocation's welfare at the default settings is %.1f, but that number counts %d copies of coffee", run.Welfare, run.OverAllocation[1]),
		fmt.Sprintf("the repaired welfare, %.2f against an optimum of %.2f, that is %s", run.FeasibleWelfare, run.OptimalWelfare, share1(run)),
		fmt.Sprintf("The repaired share (%s, not private) is below that of prices at 0 (%s) in this run", share1(run), share(billboard(t, 1, 1, "auto"))))
	if run.FeasibleWelfare/run.OptimalWelfare >= billboard(t, 1, 1, "auto").FeasibleWelfare/run.OptimalWelfare {
		t.Error("the noisy prices do at least as well as prices at 0; the lesson says worse")
	}
	if f := float64(run.Allocated[1]-40) / 40; f < 0.2 || f > 0.3 {
		t.Errorf("coffee is over by %.0f%%; the predict block says about a quarter", 100*f)
	}
	for j := range run.Allocated {
		if j != 1 && run.Allocated[j] > 40 {
			t.Errorf("good %d is over too; the predict block says one good is", j)
		}
	}

	// The clean-up example: 40 holders and one more.
	quoted(t, slug, fmt.Sprintf("probability 1/41 ≈ %.3f", 1.0/41))

	// Shares against the optimum.
	quoted(t, slug, fmt.Sprintf("prices at 0 (%s)", share(billboard(t, 1, 1, "auto"))))

	// The exercises at ε = 2, T = 32: the per-round counter's scale 2T/ε,
	// and the binary tree's block scale 2T·L/ε with L = 6 levels; each is
	// what the widget's privacy line shows, and the ledger adds up to 2.
	ex := func(counter string) *market.AllocationRun {
		r, _, err := marketapp.Billboard([]int{40, 40, 40}, 32, 2, counter, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.EpsilonSpent-2) > 1e-12 {
			t.Errorf("%s: the ledger adds up to %v, the lesson says exactly 2", counter, r.EpsilonSpent)
		}
		return r
	}
	per, tr := ex("per-round"), ex("tree")
	perRelease := per.EpsilonSpent / float64(len(per.Ledger))
	if per.NoiseScale != 2*32/2.0 || tr.Levels != 6 || tr.NoiseScale != 2*32*6/2.0 || len(tr.Ledger) != tr.Levels {
		t.Errorf("per-round scale %v; tree: %d levels, %d charges, scale %v; the exercises derive 32, 6 levels and 192", per.NoiseScale, tr.Levels, len(tr.Ledger), tr.NoiseScale)
	}
	perLevel := tr.EpsilonSpent / float64(tr.Levels)
	quoted(t, slug,
		fmt.Sprintf("answer: %g", per.NoiseScale),
		fmt.Sprintf("so the scale is 64/ε = %g on every count, and each of the 32 releases is charged ε/32 = %g", per.NoiseScale, perRelease),
		fmt.Sprintf("(scale %g at ε = 2, T = 32, common wrong answers 16, 1, %g;", per.NoiseScale, perRelease),
		fmt.Sprintf("answer: %g", tr.NoiseScale),
		fmt.Sprintf("each of the L = %d levels gets ε/%d = 1/3, and the scale is 64/(1/3) = %g", tr.Levels, tr.Levels, tr.NoiseScale),
		fmt.Sprintf("blocks of 1, 2, 4, 8, 16 and 32 rounds make %d levels", tr.Levels),
		fmt.Sprintf("[%.5f, \"That is the ε each level is charged", perLevel),
		fmt.Sprintf("the tree's block scale %g, common wrong answers %g and %g)", tr.NoiseScale, per.NoiseScale, 2*32*5/2.0))
	exerciseAccepts(t, slug, "Laplace scale", per.NoiseScale, 16, 1, perRelease)
	exerciseAccepts(t, slug, "block scale", tr.NoiseScale, per.NoiseScale, 2*32*5/2.0, 2*6/2.0, perLevel)

	// The payment rule, and which guarantee needs which condition.
	quoted(t, slug,
		"receives the good they demanded in it, and pays that round's posted price for it. A buyer's utility is **quasi-linear**",
		"The first is about lies, at any market size.",
		"The second is about welfare, and it needs a large market",
		"So the jointly private allocation, before any repair, is envy-free against one's own round: at its prices nobody prefers what another buyer received",
		"The table's totals, the copies handed out and the chance of overshooting, add up every buyer's demand, buyer $i$'s own included: they are not a jointly private release")
	// The bound on a lie's gain at any market size, with values in [0, 1].
	quoted(t, slug, fmt.Sprintf("At ε = 1 and $V = 1$ the bound is %.2f, most of the range of values", 1-math.Exp(-1)))
}

// seedSpread is the repaired share of the optimum over the seeds 1 … n, in
// percent: its mean, sample standard deviation, least and largest value,
// and each seed's share.
type seedSpread struct {
	mean, sd, min, max float64
	each               []float64
}

// shareSpread runs the billboard widget's market on seeds 1 … n.
func shareSpread(t *testing.T, n, rounds int, eps float64, counter string) seedSpread {
	t.Helper()
	s := seedSpread{min: math.Inf(1), max: math.Inf(-1)}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		run, _, err := marketapp.Billboard([]int{40, 40, 40}, rounds, eps, counter, seed)
		if err != nil {
			t.Fatal(err)
		}
		x := 100 * run.FeasibleWelfare / run.OptimalWelfare
		s.each = append(s.each, x)
		s.mean += x / float64(n)
		s.min, s.max = math.Min(s.min, x), math.Max(s.max, x)
	}
	for _, x := range s.each {
		s.sd += (x - s.mean) * (x - s.mean) / float64(n-1)
	}
	s.sd = math.Sqrt(s.sd)
	return s
}

// The shares the lesson compares are averages over 40 seeds, with their
// seedSpread: one run of a market this noisy says little.
func TestQuotedBillboardSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("240 market runs, about a minute; make test runs it")
	}
	const slug, seeds = "billboard-prices", 40
	zero := shareSpread(t, seeds, 1, 1, "auto")
	noisy := shareSpread(t, seeds, 64, 1, "auto")
	better := 0
	for i := range noisy.each {
		if noisy.each[i] > zero.each[i] {
			better++
		}
	}
	t16, t128 := shareSpread(t, seeds, 16, 1, "auto"), shareSpread(t, seeds, 128, 1, "auto")
	tree, eps10 := shareSpread(t, seeds, 64, 1, "tree"), shareSpread(t, seeds, 64, 10, "auto")
	quoted(t, slug,
		fmt.Sprintf("Over %d seeds (mean, standard deviation in brackets), prices held at 0 give %.1f%% (%.1f) of the optimum", seeds, zero.mean, zero.sd),
		fmt.Sprintf("the noisy prices at ε = 1 and T = 64 give %.1f%% (%.1f; from %.0f%% to %.0f%%)", noisy.mean, noisy.sd, noisy.min, noisy.max),
		fmt.Sprintf("better in %d of the %d runs", better, seeds),
		fmt.Sprintf("%.1f%% at T = 16 (%.1f), %.1f%% at T = 128 (%.1f), and %.1f%% with the tree at T = 64 (%.1f)", t16.mean, t16.sd, t128.mean, t128.sd, tree.mean, tree.sd),
		fmt.Sprintf("%.0f%% on average at ε = 10", eps10.mean),
		fmt.Sprintf("over %d seeds the noisy prices average %.1f%% against %.1f%%, and beat prices at 0 in %d runs", seeds, noisy.mean, zero.mean, better),
		fmt.Sprintf("Compare ε = 10 (%.0f%% on average) and T = 16 (%.1f%%)", eps10.mean, t16.mean))
	if noisy.mean >= zero.mean || better == 0 || better == seeds {
		t.Errorf("noisy prices average %.1f%% against %.1f%% at 0, better in %d of %d runs: the lesson says worse on average, not always", noisy.mean, zero.mean, better, seeds)
	}
	if !(t16.mean > noisy.mean && noisy.mean > t128.mean) {
		t.Errorf("the average share does not fall with T: %.1f, %.1f, %.1f", t16.mean, noisy.mean, t128.mean)
	}
}

// Envy-freeness as the lesson states it: at the prices of the round a buyer
// drew, no buyer prefers another buyer's good to their own (or to none),
// while two buyers who drew different rounds may pay different prices for
// the same good.
func TestBillboardEnvyOwnRound(t *testing.T) {
	run := billboard(t, 64, 1, "auto")
	tea, err := market.TeaMarket()
	if err != nil {
		t.Fatal(err)
	}
	utility := func(i, good int, prices []float64) float64 {
		if good == market.None {
			return 0
		}
		return tea.Values[i][good] - prices[good]
	}
	cheaper := false
	for i, g := range run.Allocation {
		prices := run.Prices[run.FinalRound[i]-1]
		for k, h := range run.Allocation {
			if utility(i, h, prices) > utility(i, g, prices)+1e-12 {
				t.Fatalf("buyer %d envies buyer %d at the prices of round %d", i, k, run.FinalRound[i])
			}
			if h == g && g != market.None && run.Prices[run.FinalRound[k]-1][g] < prices[g] {
				cheaper = true
			}
		}
		if utility(i, market.None, prices) > utility(i, g, prices)+1e-12 {
			t.Fatalf("buyer %d would rather have nothing at the prices of round %d", i, run.FinalRound[i])
		}
	}
	if !cheaper {
		t.Error("no two buyers paid different prices for the same good; the lesson says one who drew a cheaper round may have")
	}
}
