package market

import (
	"errors"
	"math"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/account"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
)

func loadValuations(t testing.TB, name string) *Valuations {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := ParseValuations(f)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// bruteOptimum tries every allocation: each buyer takes one of k goods or none.
func bruteOptimum(values [][]float64, supply []int) float64 {
	n, k := len(values), len(supply)
	best := 0.0
	choice := make([]int, n)
	used := make([]int, k)
	var rec func(i int, w float64)
	rec = func(i int, w float64) {
		if i == n {
			best = math.Max(best, w)
			return
		}
		choice[i] = None
		rec(i+1, w)
		for j := 0; j < k; j++ {
			if used[j] < supply[j] {
				used[j]++
				rec(i+1, w+values[i][j])
				used[j]--
			}
		}
	}
	rec(0, 0)
	return best
}

func randomMarket(r *mrand.Rand, maxBuyers, maxGoods, maxSupply int) ([][]float64, []int) {
	n, k := 1+r.IntN(maxBuyers), 1+r.IntN(maxGoods)
	values := make([][]float64, n)
	for i := range values {
		values[i] = make([]float64, k)
		for j := range values[i] {
			if r.IntN(4) > 0 {
				values[i][j] = math.Round(r.Float64()*100) / 100
			}
		}
	}
	supply := make([]int, k)
	for j := range supply {
		supply[j] = r.IntN(maxSupply + 1)
	}
	return values, supply
}

func TestOptimalWelfareBruteForce(t *testing.T) {
	r := rng.Seeded(21)
	for trial := 0; trial < 300; trial++ {
		values, supply := randomMarket(r, 7, 3, 3)
		got, alloc, err := OptimalWelfare(values, supply)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteOptimum(values, supply)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d: Hungarian %v, brute force %v (values %v, supply %v)", trial, got, want, values, supply)
		}
		// The allocation it returns must be feasible and worth what it says.
		used := make([]int, len(supply))
		w := 0.0
		for i, g := range alloc {
			if g != None {
				used[g]++
				w += values[i][g]
			}
		}
		for j := range used {
			if used[j] > supply[j] {
				t.Fatalf("trial %d: good %d allocated %d times, supply %d", trial, j, used[j], supply[j])
			}
		}
		if math.Abs(w-got) > 1e-9 {
			t.Fatalf("trial %d: allocation is worth %v, reported %v", trial, w, got)
		}
	}
	v := loadValuations(t, "known_optimum.csv")
	if got, _, err := OptimalWelfare(v.Values, []int{1, 2}); err != nil || got != 10 {
		t.Errorf("known_optimum.csv: optimum %v (%v), want 10", got, err)
	}
}

func TestParseValuations(t *testing.T) {
	good := []struct {
		name, text string
		goods      []string
		values     [][]float64
	}{
		{"plain", "1,2\n3,4\n", []string{"good 1", "good 2"}, [][]float64{{1, 2}, {3, 4}}},
		{"header, comments, blanks, spaces", "# c\n\n A , B \n 1 , 0.5\n# more\n0,2\n", []string{"A", "B"}, [][]float64{{1, 0.5}, {0, 2}}},
		{"one good", "3\n4\n", []string{"good 1"}, [][]float64{{3}, {4}}},
	}
	for _, g := range good {
		v, err := ParseValuations(strings.NewReader(g.text))
		if err != nil {
			t.Errorf("%s: %v", g.name, err)
			continue
		}
		if !reflect.DeepEqual(v.Goods, g.goods) || !reflect.DeepEqual(v.Values, g.values) {
			t.Errorf("%s: got %v %v, want %v %v", g.name, v.Goods, v.Values, g.goods, g.values)
		}
	}
	bad := []struct{ name, text, mention string }{
		{"empty", "", "no buyers"},
		{"header only", "A,B\n", "no buyers"},
		{"ragged", "1,2\n3\n", "line 2"},
		{"ragged against header", "A,B\n1,2,3\n", "line 2"},
		{"not a number", "1,2\n3,x\n", "line 2, column 2"},
		{"negative", "1,-2\n", "≥ 0"},
		{"NaN", "1,NaN\n", "finite"},
		{"infinite", "Inf,1\n", "finite"},
	}
	for _, b := range bad {
		_, err := ParseValuations(strings.NewReader(b.text))
		if err == nil || !strings.Contains(err.Error(), b.mention) {
			t.Errorf("%s: error %v, want one mentioning %q", b.name, err, b.mention)
		}
	}
}

func TestAllocateRejectsBadInput(t *testing.T) {
	ok := AllocationConfig{Values: [][]float64{{1, 0.5}}, Supply: []int{1, 1}, Rounds: 8, Epsilon: 1}
	mod := func(f func(*AllocationConfig)) AllocationConfig {
		c := ok
		f(&c)
		return c
	}
	cases := map[string]AllocationConfig{
		"no buyers":         mod(func(c *AllocationConfig) { c.Values = nil }),
		"ragged":            mod(func(c *AllocationConfig) { c.Values = [][]float64{{1, 1}, {1}} }),
		"supply length":     mod(func(c *AllocationConfig) { c.Supply = []int{1} }),
		"negative supply":   mod(func(c *AllocationConfig) { c.Supply = []int{1, -1} }),
		"zero rounds":       mod(func(c *AllocationConfig) { c.Rounds = 0 }),
		"zero epsilon":      mod(func(c *AllocationConfig) { c.Epsilon = 0 }),
		"negative step":     mod(func(c *AllocationConfig) { c.Step = -1 }),
		"unknown counter":   mod(func(c *AllocationConfig) { c.Counter = "abacus" }),
		"above value bound": mod(func(c *AllocationConfig) { c.Values = [][]float64{{2, 0}} }),
		"negative value":    mod(func(c *AllocationConfig) { c.Values = [][]float64{{-1, 0}} }),
		"overflowing bound": mod(func(c *AllocationConfig) { c.Values = [][]float64{{1, 0}, {1, 0}}; c.MaxValue = math.MaxFloat64 }),
	}
	for name, c := range cases {
		if _, err := Allocate(c, rng.Seeded(1), nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Allocate(ok, nil, nil); err == nil {
		t.Error("nil random source: no error")
	}
	if _, err := Allocate(ok, rng.Seeded(1), nil); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

func TestAllocateWelfareOnKnownOptima(t *testing.T) {
	// Distinct tastes: buyer i values only good i mod k, at 0.5 + i/(2n). With
	// supply s each good goes to its s keenest fans.
	distinct := func(n, k, s int) ([][]float64, []int, float64) {
		values := make([][]float64, n)
		fans := make([][]float64, k)
		for i := range values {
			values[i] = make([]float64, k)
			v := 0.5 + float64(i)/float64(2*n)
			values[i][i%k] = v
			fans[i%k] = append(fans[i%k], v)
		}
		opt := 0.0
		for _, f := range fans {
			// Values rise with i, so the keenest fans are the last ones.
			for _, v := range f[max(0, len(f)-s):] {
				opt += v
			}
		}
		supply := make([]int, k)
		for j := range supply {
			supply[j] = s
		}
		return values, supply, opt
	}
	known := loadValuations(t, "known_optimum.csv")
	market := loadValuations(t, "market300.csv")
	dv, ds, dopt := distinct(300, 3, 40)
	cases := []struct {
		name string
		cfg  AllocationConfig
		opt  float64 // 0: only the Hungarian optimum is known
		// The feasible welfare must reach minShare·OPT, and the mean
		// over-demand Σⱼ max(0, dⱼ − sⱼ) over the last half of the rounds
		// must stay under maxTail.
		minShare, maxTail float64
	}{
		{"known_optimum.csv, no noise to speak of", AllocationConfig{Values: known.Values, Supply: []int{1, 2}, Rounds: 1024, Epsilon: 1e9, MaxValue: 5, Step: 0.02}, 10, 0.99, 0.2},
		{"distinct tastes, no noise to speak of", AllocationConfig{Values: dv, Supply: ds, Rounds: 1024, Epsilon: 1e9, Step: 2 * 2 / (300 * 32)}, dopt, 0.97, 3}, // twice DefaultStep(1, 300, 1024)
		{"distinct tastes, ε = 20", AllocationConfig{Values: dv, Supply: ds, Rounds: 256, Epsilon: 20}, dopt, 0.9, 30},
		{"distinct tastes, ε = 20, tree counter", AllocationConfig{Values: dv, Supply: ds, Rounds: 256, Epsilon: 20, Counter: CounterTree}, dopt, 0.85, 60},
		{"market300.csv, no noise to speak of", AllocationConfig{Values: market.Values, Supply: []int{40, 40, 40}, Rounds: 1024, Epsilon: 1e9}, 0, 0.95, 5},
		{"market300.csv, ε = 20, per-round counter", AllocationConfig{Values: market.Values, Supply: []int{40, 40, 40}, Rounds: 256, Epsilon: 20, Counter: CounterPerRound}, 0, 0.85, 30},
	}
	for _, c := range cases {
		run, err := Allocate(c.cfg, rng.Seeded(31), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !run.OptimalKnown {
			t.Fatalf("%s: optimum not computed", c.name)
		}
		if c.opt != 0 && math.Abs(run.OptimalWelfare-c.opt) > 1e-9 {
			t.Fatalf("%s: optimum %v, want %v", c.name, run.OptimalWelfare, c.opt)
		}
		tail := 0.0
		for _, d := range run.Demand[run.Rounds/2:] {
			for j, x := range d {
				tail += float64(max(0, x-run.Supply[j]))
			}
		}
		tail /= float64(run.Rounds - run.Rounds/2)
		t.Logf("%s (%s counter): welfare expected %.2f, drawn %.2f, feasible %.2f, optimum %.2f; late over-demand %.2f/round; over-allocation %v",
			c.name, run.Counter, run.ExpectedWelfare, run.Welfare, run.FeasibleWelfare, run.OptimalWelfare, tail, run.OverAllocation)
		if run.FeasibleWelfare < c.minShare*run.OptimalWelfare {
			t.Errorf("%s: feasible welfare %v below %v·OPT = %v", c.name, run.FeasibleWelfare, c.minShare, c.minShare*run.OptimalWelfare)
		}
		if run.FeasibleWelfare > run.OptimalWelfare+1e-9 {
			t.Errorf("%s: a feasible allocation worth %v beats the optimum %v", c.name, run.FeasibleWelfare, run.OptimalWelfare)
		}
		if tail > c.maxTail {
			t.Errorf("%s: late over-demand %v per round, more than %v", c.name, tail, c.maxTail)
		}
	}
}

func TestAllocateIsReproducible(t *testing.T) {
	v := loadValuations(t, "known_optimum.csv")
	cfg := AllocationConfig{Values: v.Values, Supply: []int{1, 2}, Rounds: 64, Epsilon: 2, MaxValue: 5}
	a, err := Allocate(cfg, rng.Seeded(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Allocate(cfg, rng.Seeded(5), nil)
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs with the same seed differ")
	}
}

func TestPrivacyAccountingAddsUp(t *testing.T) {
	v := loadValuations(t, "known_optimum.csv")
	acct, err := account.New(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rounds, levels int
		eps            float64
	}{{1, 1, 0.5}, {100, 7, 1}, {1024, 11, 0.7}} {
		before, _ := acct.Spent()
		run, err := Allocate(AllocationConfig{Values: v.Values, Supply: []int{1, 2}, Rounds: c.rounds, Epsilon: c.eps, MaxValue: 5, Counter: CounterTree}, rng.Seeded(1), acct)
		if err != nil {
			t.Fatal(err)
		}
		after, _ := acct.Spent()
		if run.Levels != c.levels || len(run.Ledger) != c.levels {
			t.Fatalf("T = %d: %d levels, %d charges; want %d", c.rounds, run.Levels, len(run.Ledger), c.levels)
		}
		sum := 0.0
		for _, ch := range run.Ledger {
			sum += ch.Epsilon
			if ch.Delta != 0 {
				t.Errorf("charge %q has δ = %v, want pure DP", ch.Label, ch.Delta)
			}
		}
		if math.Abs(sum-c.eps) > 1e-12 || math.Abs(run.EpsilonSpent-c.eps) > 1e-12 || math.Abs(after-before-c.eps) > 1e-12 {
			t.Errorf("T = %d: ledger sums to %v, run says %v, accountant moved %v; want ε = %v", c.rounds, sum, run.EpsilonSpent, after-before, c.eps)
		}
		// The noise is what the ledger pays for: b = 2TL/ε.
		if want := 2 * float64(c.rounds*c.levels) / c.eps; math.Abs(run.NoiseScale-want) > 1e-12*want {
			t.Errorf("T = %d: noise scale %v, want 2TL/ε = %v", c.rounds, run.NoiseScale, want)
		}
		// One node per round: the tree releases exactly T nodes.
		if len(run.Nodes) != c.rounds {
			t.Errorf("T = %d: %d nodes released", c.rounds, len(run.Nodes))
		}
	}
	// The per-round counter pays ε/T for each of T rounds.
	run, err := Allocate(AllocationConfig{Values: v.Values, Supply: []int{1, 2}, Rounds: 50, Epsilon: 0.5, MaxValue: 5, Counter: CounterPerRound}, rng.Seeded(1), acct)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, ch := range run.Ledger {
		sum += ch.Epsilon
	}
	if len(run.Ledger) != 50 || math.Abs(sum-0.5) > 1e-12 || run.NoiseScale != 2*50/0.5 || len(run.Nodes) != 50 {
		t.Errorf("per-round: %d charges summing to %v, scale %v, %d releases; want 50, 0.5, 200, 50", len(run.Ledger), sum, run.NoiseScale, len(run.Nodes))
	}
	if spent, _ := acct.Spent(); math.Abs(spent-2.7) > 1e-12 {
		t.Errorf("accountant spent %v in all, want 0.5 + 1 + 0.7 + 0.5 = 2.7", spent)
	}
	// 0.3 of the budget remains: a run asking for 1 must be refused and charge nothing.
	ledger := acct.Ledger()
	_, err = Allocate(AllocationConfig{Values: v.Values, Supply: []int{1, 2}, Rounds: 8, Epsilon: 1, MaxValue: 5}, rng.Seeded(1), acct)
	if !errors.Is(err, account.ErrBudget) {
		t.Errorf("over-budget run: error %v, want ErrBudget", err)
	}
	if len(acct.Ledger()) != len(ledger) {
		t.Error("a refused run left charges on the ledger")
	}
}

// levelSensitivity returns, per counter level, Σ over that level's released
// counts of their L1 change when buyer's row is replaced by alt, holding the
// released transcript (hence the prices) fixed.
func levelSensitivity(t *testing.T, run *AllocationRun, buyer int, alt []float64) []float64 {
	t.Helper()
	diffs, err := run.nodeChanges(buyer, alt)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, run.Levels)
	for m, nd := range run.Nodes {
		for _, d := range diffs[m] {
			out[nd.Level] += math.Abs(d)
		}
	}
	return out
}

func TestRunPrivacyLoss(t *testing.T) {
	r := rng.Seeded(41)
	worst := 0.0
	for trial := 0; trial < 60; trial++ {
		values, supply := randomMarket(r, 12, 3, 4)
		cfg := AllocationConfig{Values: values, Supply: supply, Rounds: 1 + r.IntN(200), Epsilon: []float64{0.5, 5, 50}[trial%3],
			Counter: []string{CounterTree, CounterPerRound}[trial%2], Step: 0.002 + 0.05*r.Float64()}
		run, err := Allocate(cfg, rng.Seeded(uint64(trial)), nil)
		if err != nil {
			t.Fatal(err)
		}
		for buyer := range values {
			for try := 0; try < 4; try++ {
				alt := make([]float64, len(supply))
				for j := range alt {
					alt[j] = r.Float64()
				}
				loss, err := run.RunPrivacyLoss(buyer, alt)
				if err != nil {
					t.Fatal(err)
				}
				if loss > cfg.Epsilon*(1+1e-9) {
					t.Fatalf("trial %d, buyer %d: transcript log-ratio %v > ε = %v", trial, buyer, loss, cfg.Epsilon)
				}
				worst = math.Max(worst, loss/cfg.Epsilon)
				// Per level the L1 change is at most 2T (all levels, tree), or
				// 2 per round summed over T rounds (per-round counter).
				for l, s := range levelSensitivity(t, run, buyer, alt) {
					if s > 2*float64(run.Rounds)+1e-9 {
						t.Fatalf("trial %d, buyer %d, level %d: L1 change %v > 2T = %v", trial, buyer, l, s, 2*run.Rounds)
					}
				}
			}
		}
	}
	t.Logf("largest realised log-ratio: %.3f·ε", worst)

	// A broken counter calibrated as if each buyer touched one round (event
	// level, b = 2L/ε, i.e. the right mechanism run at ε·T) is not ε-DP for
	// buyers: a buyer who wants the other good in every round moves the
	// transcript's likelihood by far more than e^ε.
	values := [][]float64{{0.9, 0.1}, {0.8, 0.3}, {0.2, 0.7}}
	const eps, rounds = 1.0, 128
	run, err := Allocate(AllocationConfig{Values: values, Supply: []int{1, 1}, Rounds: rounds, Epsilon: eps * rounds}, rng.Seeded(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := run.RunPrivacyLoss(0, []float64{0.1, 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if loss <= eps {
		t.Errorf("event-level calibration gave log-ratio %v ≤ ε = %v: the check cannot tell", loss, eps)
	}
	t.Logf("event-level calibration: log-ratio %.1f against ε = %v", loss, eps)
}

// TestTreeCounterNoise checks the counter's error distribution: at t = 4 one
// node answers (Laplace(b)), at t = 3 two do (the sum of two Laplace(b),
// CDF 1 − ¼·e^(−x/b)·(2 + x/b) for x ≥ 0).
func TestTreeCounterNoise(t *testing.T) {
	const trials, b = 20_000, 2.0
	noise, _ := rng.NewLaplace(b)
	r := rng.Seeded(51)
	laplaceCDF := func(x float64) float64 {
		if x < 0 {
			return 0.5 * math.Exp(x/b)
		}
		return 1 - 0.5*math.Exp(-x/b)
	}
	twoCDF := func(x float64) float64 {
		tail := 0.25 * math.Exp(-math.Abs(x)/b) * (2 + math.Abs(x)/b)
		if x < 0 {
			return tail
		}
		return 1 - tail
	}
	err3, err4, single := make([]float64, trials), make([]float64, trials), make([]float64, trials)
	for i := 0; i < trials; i++ {
		c := newTreeCounter(1, 3, noise)
		sum := 0.0
		for step := 1; step <= 4; step++ {
			x := float64(step)
			sum += x
			est := c.add(step, []float64{x}, r)
			switch step {
			case 3:
				err3[i] = est[0] - sum
			case 4:
				err4[i] = est[0] - sum
			}
		}
		// A counter that noised each prefix sum once would look like this.
		single[i] = noise.Sample(r)
	}
	for _, c := range []struct {
		name    string
		samples []float64
		cdf     func(float64) float64
		pass    bool
	}{
		{"t = 4 vs Laplace", err4, laplaceCDF, true},
		{"t = 3 vs two Laplace", err3, twoCDF, true},
		{"one noise term vs two Laplace (broken)", single, twoCDF, false},
	} {
		res, err := stats.KS(c.samples, c.cdf)
		if err != nil {
			t.Fatal(err)
		}
		if (res.PValue >= pFalse) != c.pass {
			t.Errorf("%s: KS D = %.4f, p = %.3g", c.name, res.Statistic, res.PValue)
		}
	}
	// With negligible noise every prefix estimate is the exact prefix sum.
	tiny, _ := rng.NewLaplace(1e-12)
	c := newTreeCounter(2, 4, tiny)
	sum := []float64{0, 0}
	for step := 1; step <= 15; step++ {
		x := []float64{float64(step % 3), -float64(step % 2)}
		sum[0] += x[0]
		sum[1] += x[1]
		est := c.add(step, x, r)
		for j := range est {
			if math.Abs(est[j]-sum[j]) > 1e-9 {
				t.Fatalf("t = %d: estimate %v, exact %v", step, est, sum)
			}
		}
	}
}

func BenchmarkAllocate300x3(b *testing.B) {
	v := loadValuations(b, "market300.csv")
	cfg := AllocationConfig{Values: v.Values, Supply: []int{40, 40, 40}, Rounds: 256, Epsilon: 10}
	r := rng.Seeded(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Allocate(cfg, r, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAllocateNeverHalfCharges runs Allocate at the edge of the budget, where
// the accountant's tolerance decides: ε a hair above what remains, split into
// many equal charges whose floating-point sum can land either side of the
// limit. Whatever happens, a run either charges all its parts or none.
func TestAllocateNeverHalfCharges(t *testing.T) {
	v := loadValuations(t, "known_optimum.csv")
	refused, accepted := 0, 0
	for _, budget := range []float64{1, 0.3, 7} {
		for _, rounds := range []int{3, 7, 100, 999} {
			for _, counter := range []string{CounterPerRound, CounterTree} {
				for _, rel := range []float64{0.999e-9, 1e-9, 1.0000001e-9, 1.001e-9} {
					for ulps := 0; ulps < 8; ulps++ {
						eps := budget * (1 + rel)
						for i := 0; i < ulps; i++ {
							eps = math.Nextafter(eps, 2*eps)
						}
						acct, _ := account.New(budget, 0)
						run, err := Allocate(AllocationConfig{Values: v.Values, Supply: []int{1, 2}, Rounds: rounds, Epsilon: eps, MaxValue: 5, Counter: counter}, rng.Seeded(1), acct)
						n := len(acct.Ledger())
						switch {
						case err == nil && n == len(run.Ledger) && n > 0:
							accepted++
						case err != nil && errors.Is(err, account.ErrBudget) && n == 0:
							refused++
						default:
							t.Fatalf("budget %v, ε = %v, T = %d, %s: error %v with %d charges on the ledger", budget, eps, rounds, counter, err, n)
						}
					}
				}
			}
		}
	}
	t.Logf("%d runs accepted, %d refused, none half-charged", accepted, refused)
	if accepted == 0 || refused == 0 {
		t.Errorf("the grid should straddle the limit: %d accepted, %d refused", accepted, refused)
	}
}
