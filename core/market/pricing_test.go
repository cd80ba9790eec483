package market

import (
	"errors"
	"math"
	mrand "math/rand/v2"
	"strconv"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/core/validate"
)

// The slides' example: three buyers at $1.00 and one at $4.01.
var slideValues = []float64{1, 1, 1, 4.01}

func slideGrid(t testing.TB) []float64 {
	t.Helper()
	g, err := Grid(0.01, 5, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// pFalse is the false-failure probability every statistical test here allows.
const pFalse = 1e-6

func TestGrid(t *testing.T) {
	g := slideGrid(t)
	if len(g) != 500 || g[0] != 0.01 || g[499] != 5 {
		t.Fatalf("grid 0.01:5.00:0.01 has %d prices from %v to %v", len(g), g[0], g[len(g)-1])
	}
	// Every grid price must be the double its decimal spelling parses to, or
	// a buyer valuing the good at "4.01" would not buy at the price "4.01".
	for i, p := range g {
		want, _ := strconv.ParseFloat(strconv.FormatFloat(float64(i+1)/100, 'f', 2, 64), 64)
		if p != want {
			t.Fatalf("grid[%d] = %v, want %v", i, p, want)
		}
	}
	bad := []struct {
		name         string
		lo, hi, step float64
	}{
		{"zero low", 0, 1, 0.1},
		{"negative step", 0.1, 1, -0.1},
		{"hi below lo", 2, 1, 0.1},
		{"NaN high", 0.1, math.NaN(), 0.1},
		{"too many", 1e-6, 1, 1e-6},
		{"too fine to round", 1, 1 + 1e-13, 1e-14},
	}
	for _, b := range bad {
		if _, err := Grid(b.lo, b.hi, b.step); err == nil {
			t.Errorf("%s: Grid(%v, %v, %v) gave no error", b.name, b.lo, b.hi, b.step)
		} else if !errors.As(err, new(*validate.Error)) {
			t.Errorf("%s: error %v is not a *validate.Error", b.name, err)
		}
	}
}

func TestNewPricingRejectsBadInput(t *testing.T) {
	g := []float64{1, 2, 3}
	cases := []struct {
		name   string
		values []float64
		prices []float64
		eps    float64
	}{
		{"no buyers", nil, g, 1},
		{"negative value", []float64{1, -1}, g, 1},
		{"infinite value", []float64{math.Inf(1)}, g, 1},
		{"no prices", []float64{1}, nil, 1},
		{"unsorted prices", []float64{1}, []float64{2, 1}, 1},
		{"zero price", []float64{1}, []float64{0, 1}, 1},
		{"zero epsilon", []float64{1}, g, 0},
		{"NaN epsilon", []float64{1}, g, math.NaN()},
	}
	for _, c := range cases {
		if _, err := NewPricing(c.values, c.prices, c.eps); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	p, err := NewPricing([]float64{1}, g, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, beta := range []float64{0, 1, -0.1, math.NaN()} {
		if _, err := p.Accuracy(beta); err == nil {
			t.Errorf("Accuracy(%v) gave no error", beta)
		}
	}
	if _, err := p.Truthfulness(1); err == nil {
		t.Error("Truthfulness of a buyer who does not exist gave no error")
	}
	if _, err := p.NeighbourLoss(-1, 0); err == nil {
		t.Error("NeighbourLoss(-1) gave no error")
	}
	// An ε so large that e^ε overflows must still give finite bounds.
	huge, err := NewPricing([]float64{0, 3}, g, 800)
	if err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 2; b++ {
		tr, err := huge.Truthfulness(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []float64{tr.SlidesBound, tr.ProofBound, tr.TightBound, tr.MaxGain, tr.TruthfulUtility} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("ε = 800, buyer %d: a bound is %v", b, x)
			}
		}
	}
	if _, err := p.Draw(nil, 10); err == nil {
		t.Error("Draw with a nil source gave no error")
	}
}

func TestSlidesExample(t *testing.T) {
	p, err := NewPricing(slideValues, slideGrid(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	rev := p.Revenue()
	at := func(price float64) float64 { return rev[int(math.Round(price*100))-1] }
	// The slide's figures: $4.00 at a price of $1.00, $4.01 at $4.01, $1.01
	// at $1.01 and nothing at $4.02.
	for _, c := range []struct{ price, want float64 }{{1, 4}, {4.01, 4.01}, {1.01, 1.01}, {4.02, 0}} {
		if got := at(c.price); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("revenue at %v = %v, want %v", c.price, got, c.want)
		}
	}
	if opt, price := p.Optimal(); opt != 4.01 || price != 4.01 {
		t.Errorf("optimum %v at %v, want 4.01 at 4.01", opt, price)
	}
	if p.Sensitivity() != 5 {
		t.Errorf("Δ = %v, want the largest price 5", p.Sensitivity())
	}
}

// bruteProbabilities recomputes the price distribution without market's or
// mech's code: direct counting and a max-shifted softmax.
func bruteProbabilities(values, prices []float64, eps float64) []float64 {
	delta := prices[len(prices)-1]
	rev := make([]float64, len(prices))
	best := math.Inf(-1)
	for j, p := range prices {
		c := 0
		for _, v := range values {
			if v >= p {
				c++
			}
		}
		rev[j] = p * float64(c)
		best = math.Max(best, rev[j])
	}
	w := make([]float64, len(prices))
	z := 0.0
	for j := range w {
		w[j] = math.Exp(eps * (rev[j] - best) / (2 * delta))
		z += w[j]
	}
	for j := range w {
		w[j] /= z
	}
	return w
}

// randomPricing builds the mechanism at ε on a randomInstance.
func randomPricing(t *testing.T, r *mrand.Rand, eps float64) (values, prices []float64, p *Pricing) {
	t.Helper()
	values, prices = randomInstance(r)
	p, err := NewPricing(values, prices, eps)
	if err != nil {
		t.Fatal(err)
	}
	return values, prices, p
}

func randomInstance(r *mrand.Rand) (values, prices []float64) {
	m := 2 + r.IntN(60)
	prices = make([]float64, m)
	p := 0.0
	for j := range prices {
		p += 0.01 + r.Float64()
		prices[j] = p
	}
	n := 1 + r.IntN(30)
	values = make([]float64, n)
	for i := range values {
		switch r.IntN(3) {
		case 0: // exactly on the grid, to exercise v ≥ p at equality
			values[i] = prices[r.IntN(m)]
		case 1:
			values[i] = 0
		default:
			values[i] = r.Float64() * p * 1.2
		}
	}
	return values, prices
}

func TestProbabilitiesMatchBruteForce(t *testing.T) {
	r := rng.Seeded(11)
	for trial := 0; trial < 300; trial++ {
		eps := []float64{0.01, 0.5, 1, 5, 80}[trial%5]
		values, prices, p := randomPricing(t, r, eps)
		want := bruteProbabilities(values, prices, eps)
		got := p.Probabilities()
		expected := 0.0
		for j, q := range got {
			if math.Abs(q-want[j]) > 1e-12*math.Max(1, want[j]) {
				t.Fatalf("trial %d: Pr[%v] = %v, brute force %v", trial, prices[j], q, want[j])
			}
			expected += want[j] * p.Revenue()[j]
		}
		if e := p.ExpectedRevenue(); math.Abs(e-expected) > 1e-9*math.Max(1, expected) {
			t.Fatalf("trial %d: expected revenue %v, brute force %v", trial, e, expected)
		}
	}
	// The slides' instance at several ε.
	for _, eps := range []float64{0.1, 1, 10, 100} {
		p, _ := NewPricing(slideValues, slideGrid(t), eps)
		want := bruteProbabilities(slideValues, slideGrid(t), eps)
		for j, q := range p.Probabilities() {
			if math.Abs(q-want[j]) > 1e-12 {
				t.Fatalf("ε = %v: Pr[%v] = %v, brute force %v", eps, slideGrid(t)[j], q, want[j])
			}
		}
	}
}

func TestPriceSamplerChiSquare(t *testing.T) {
	const draws = 400_000
	p, err := NewPricing(slideValues, slideGrid(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := p.Draw(rng.Seeded(2024), draws)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stats.ChiSquare(counts, p.Probabilities())
	if err != nil {
		t.Fatal(err)
	}
	if res.PValue < pFalse {
		t.Errorf("sampler: χ² = %.1f on %d df, p = %.3g < %g", res.Statistic, res.DF, res.PValue, pFalse)
	}
	// A broken sampler that forgets the 2 in exp(ε·rev/(2Δ)) must fail the
	// same test against the correct probabilities.
	broken, err := mech.NewExponential(mech.Config{Scores: p.Revenue(), Epsilon: 2, Sensitivity: p.Sensitivity()})
	if err != nil {
		t.Fatal(err)
	}
	bc, _ := mech.Draw(broken, rng.Seeded(2024), draws)
	bres, _ := stats.ChiSquare(bc, p.Probabilities())
	if bres.PValue >= pFalse {
		t.Errorf("broken sampler passed: χ² = %.1f, p = %.3g", bres.Statistic, bres.PValue)
	}
	t.Logf("χ²: correct p = %.3g (stat %.1f, %d df); broken p = %.3g", res.PValue, res.Statistic, res.DF, bres.PValue)
}

func TestAccuracyTheorem(t *testing.T) {
	r := rng.Seeded(12)
	for trial := 0; trial < 300; trial++ {
		eps := []float64{0.1, 1, 10, 200}[trial%4]
		_, prices, p := randomPricing(t, r, eps)
		opt, _ := p.Optimal()
		for _, beta := range []float64{0.5, 0.05, 1e-4} {
			a, err := p.Accuracy(beta)
			if err != nil {
				t.Fatal(err)
			}
			if a.ProbabilityBelow > beta {
				t.Fatalf("trial %d, ε = %v: Pr[rev ≤ %v] = %v > β = %v", trial, eps, a.Threshold, a.ProbabilityBelow, beta)
			}
			if gap := opt - p.ExpectedRevenue(); gap > a.ExpectedGap*(1+1e-12) {
				t.Fatalf("trial %d: E[OPT − rev] = %v above its bound %v", trial, gap, a.ExpectedGap)
			}
			wantThr := opt - 2*p.Sensitivity()*math.Log(float64(len(prices))/beta)/eps
			if math.Abs(a.Threshold-wantThr) > 1e-9*math.Max(1, math.Abs(wantThr)) {
				t.Fatalf("threshold %v, want OPT − 2Δ·ln(|R|/β)/ε = %v", a.Threshold, wantThr)
			}
		}
	}
}

func TestNeighbourLoss(t *testing.T) {
	r := rng.Seeded(13)
	worst := 0.0
	for trial := 0; trial < 400; trial++ {
		eps := []float64{0.1, 1, 3, 30}[trial%4]
		values, prices, p := randomPricing(t, r, eps)
		buyer := r.IntN(len(values))
		// The extremes move the most revenue: leave the market or reach the top.
		for _, v := range []float64{0, prices[len(prices)-1], r.Float64() * prices[len(prices)-1]} {
			loss, err := p.NeighbourLoss(buyer, v)
			if err != nil {
				t.Fatal(err)
			}
			if loss > eps*(1+1e-9) {
				t.Fatalf("trial %d: privacy loss %v > ε = %v", trial, loss, eps)
			}
			// Stronger, for pricing: one report moves all revenues one way.
			if loss > eps/2*(1+1e-9) {
				t.Fatalf("trial %d: privacy loss %v > ε/2 = %v", trial, loss, eps/2)
			}
			worst = math.Max(worst, loss/eps)
		}
	}
	t.Logf("largest loss/ε over all pairs: %.4f", worst)
	// A mechanism calibrated to Δ/4 instead of Δ is not ε-DP: a buyer going
	// from 0 to the top price moves its log-probabilities by more than ε.
	prices := []float64{1, 2, 3, 4}
	values := []float64{4, 4, 0}
	scoresOf := func(vs []float64) []float64 { return revenues(vs, prices) }
	a, _ := mech.NewExponential(mech.Config{Scores: scoresOf(values), Epsilon: 1, Sensitivity: 1})
	bvals := append([]float64(nil), values...)
	bvals[2] = 4
	b, _ := mech.NewExponential(mech.Config{Scores: scoresOf(bvals), Epsilon: 1, Sensitivity: 1})
	if loss, _ := mech.PrivacyLoss(a, b); loss <= 1 {
		t.Errorf("broken calibration Δ/4 gave loss %v ≤ ε = 1: the check cannot tell", loss)
	}
}

func TestTruthfulnessWithinBound(t *testing.T) {
	r := rng.Seeded(14)
	positive, ratio := 0, 0.0
	for trial := 0; trial < 400; trial++ {
		eps := []float64{0.05, 0.3, 1, 3, 10}[trial%5]
		values, prices, p := randomPricing(t, r, eps)
		buyer := r.IntN(len(values))
		tr, err := p.Truthfulness(buyer)
		if err != nil {
			t.Fatal(err)
		}
		// MaxGain ≤ TightBound ≤ ProofBound ≤ SlidesBound, each from its own
		// derivation (see Truthfulness), and all from ε-DP alone.
		B := tr.MaxUtility
		if math.Abs(tr.SlidesBound-eps*B) > 1e-12*math.Max(1, eps*B) || math.Abs(tr.ProofBound-(1-math.Exp(-eps))*B) > 1e-12*math.Max(1, B) {
			t.Fatalf("trial %d: slides bound %v (want εB = %v), proof bound %v (want (1 − e^−ε)B = %v)", trial, tr.SlidesBound, eps*B, tr.ProofBound, (1-math.Exp(-eps))*B)
		}
		if want := math.Min(math.Expm1(eps)*tr.TruthfulUtility, math.Tanh(eps/2)*B); math.Abs(tr.TightBound-want) > 1e-12*math.Max(1, want) {
			t.Fatalf("trial %d: tight bound %v, want %v", trial, tr.TightBound, want)
		}
		if tr.MaxGain > tr.TightBound*(1+1e-9)+1e-12 || tr.TightBound > tr.ProofBound*(1+1e-12)+1e-12 || tr.ProofBound > tr.SlidesBound*(1+1e-12)+1e-12 {
			t.Fatalf("trial %d (ε = %v): gain %v, tight bound %v, proof bound %v, slides bound %v", trial, eps, tr.MaxGain, tr.TightBound, tr.ProofBound, tr.SlidesBound)
		}
		// Every single report's gain, not just the best, is within the bound.
		for j, u := range tr.Utilities {
			if u-tr.TruthfulUtility > tr.TightBound*(1+1e-9)+1e-12 {
				t.Fatalf("trial %d: report %v gains %v > %v", trial, tr.Reports[j], u-tr.TruthfulUtility, tr.TightBound)
			}
		}
		if tr.MaxGain > 1e-9 {
			positive++
			ratio = math.Max(ratio, tr.MaxGain/tr.TightBound)
		}
		// Spot-check the utilities against a fresh mechanism on the edited
		// input, including the report 0 that lies below every price.
		v := values[buyer]
		if len(tr.Reports) != len(prices)+1 || tr.Reports[0] != 0 {
			t.Fatalf("trial %d: reports %v…, want 0 then the %d grid prices", trial, tr.Reports[:2], len(prices))
		}
		for _, j := range []int{0, 1, 1 + r.IntN(len(prices)), len(prices)} {
			edited := append([]float64(nil), values...)
			edited[buyer] = tr.Reports[j]
			want := 0.0
			for jj, q := range bruteProbabilities(edited, prices, eps) {
				want += q * math.Max(0, v-prices[jj])
			}
			if math.Abs(tr.Utilities[j]-want) > 1e-9*math.Max(1, want) {
				t.Fatalf("trial %d: utility of report %v = %v, brute force %v", trial, tr.Reports[j], tr.Utilities[j], want)
			}
		}
		best := math.Inf(-1)
		for _, u := range tr.Utilities {
			best = math.Max(best, u)
		}
		if tr.MaxGain != math.Max(0, best-tr.TruthfulUtility) {
			t.Fatalf("trial %d: MaxGain %v, the table's best gain %v", trial, tr.MaxGain, best-tr.TruthfulUtility)
		}
	}
	// Privacy makes lying unprofitable only approximately: some lie must pay,
	// or this test could not tell a bound from a coincidence.
	if positive == 0 {
		t.Error("no instance had a profitable lie")
	}
	t.Logf("%d of 400 instances had a profitable lie; the largest gain used %.3f of its tight bound", positive, ratio)
}

func TestDeterministicPriceIsNotTruthful(t *testing.T) {
	p, err := NewPricing(slideValues, slideGrid(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.Truthfulness(3)
	if err != nil {
		t.Fatal(err)
	}
	d := tr.Deterministic
	// Truthful: price 4.01, the 4.01 buyer gains nothing. Shading to 0.75 ties
	// 0.75·4 with 1.00·3 and the lowest price wins: utility 4.01 − 0.75.
	if d.TruthfulPrice != 4.01 || d.TruthfulUtility != 0 {
		t.Errorf("truthful: price %v utility %v, want 4.01 and 0", d.TruthfulPrice, d.TruthfulUtility)
	}
	if d.BestReport != 0.75 || d.BestPrice != 0.75 || math.Abs(d.Gain-3.26) > 1e-12 {
		t.Errorf("best lie: report %v price %v gain %v, want 0.75, 0.75, 3.26", d.BestReport, d.BestPrice, d.Gain)
	}
	if d.Gain <= tr.TightBound {
		t.Errorf("deterministic gain %v should exceed the ε = 1 bound %v", d.Gain, tr.TightBound)
	}
}

// TestBestPricesBruteForce checks the O(m) prefix/suffix argmax against a
// direct scan for every report of every buyer.
func TestBestPricesBruteForce(t *testing.T) {
	r := rng.Seeded(15)
	for trial := 0; trial < 200; trial++ {
		values, prices := randomInstance(r)
		if trial%3 == 0 { // integer prices and values make ties common
			for j := range prices {
				prices[j] = float64(j + 1)
			}
			for i := range values {
				values[i] = float64(r.IntN(len(prices) + 1))
			}
		}
		p, err := NewPricing(values, prices, 1)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := p.Truthfulness(0)
		if err != nil {
			t.Fatal(err)
		}
		bestAt := func(vs []float64) float64 {
			best, bestRev := 0.0, math.Inf(-1)
			for _, q := range prices {
				c := 0
				for _, v := range vs {
					if v >= q {
						c++
					}
				}
				if rev := q * float64(c); rev > bestRev {
					best, bestRev = q, rev
				}
			}
			return best
		}
		truth := bestAt(values)
		shift, bestU := 0.0, math.Inf(-1)
		for i := range values {
			// Every report: 0 (below every price) and each grid price.
			for _, x := range append([]float64{0}, prices...) {
				edited := append([]float64(nil), values...)
				edited[i] = x
				q := bestAt(edited)
				shift = math.Max(shift, math.Abs(q-truth))
				if i == 0 {
					bestU = math.Max(bestU, math.Max(0, values[0]-q))
				}
			}
		}
		d := tr.Deterministic
		if d.TruthfulPrice != truth || d.MaxShift != shift || d.BestUtility != bestU {
			t.Fatalf("trial %d: got price %v shift %v best utility %v; brute force %v %v %v",
				trial, d.TruthfulPrice, d.MaxShift, d.BestUtility, truth, shift, bestU)
		}
	}
}

// benchMarket returns the benchmarks' market: 300 values drawn uniformly
// from [0, 5) and the 500 prices 0.01, 0.02, …, 5.
func benchMarket(r *mrand.Rand) (values, prices []float64) {
	values = make([]float64, 300)
	for i := range values {
		values[i] = 5 * r.Float64()
	}
	prices, _ = Grid(0.01, 5, 0.01)
	return values, prices
}

func BenchmarkPricing500x300(b *testing.B) {
	r := rng.Seeded(1)
	values, g := benchMarket(r)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := NewPricing(values, g, 1)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Draw(r, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTruthfulness500x300(b *testing.B) {
	r := rng.Seeded(1)
	values, g := benchMarket(r)
	p, err := NewPricing(values, g, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Truthfulness(i % 300); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReportZeroIsIncluded: a report of 0 lies below every grid price, so the
// buyer is counted at no price, as if they had left the market. Truthfulness
// lists it first, MaxGain and the deterministic scan include it, and it never
// beats reporting the lowest price (which only adds weight to the price the
// buyer likes best), in the private mechanism or in the deterministic one.
func TestReportZeroIsIncluded(t *testing.T) {
	r := rng.Seeded(16)
	for trial := 0; trial < 200; trial++ {
		eps := []float64{0.1, 1, 10}[trial%3]
		values, prices, p := randomPricing(t, r, eps)
		buyer := r.IntN(len(values))
		tr, err := p.Truthfulness(buyer)
		if err != nil {
			t.Fatal(err)
		}
		absent := append(append([]float64(nil), values[:buyer]...), values[buyer+1:]...)
		want := 0.0
		if len(absent) > 0 {
			for j, q := range bruteProbabilities(absent, prices, eps) {
				want += q * math.Max(0, values[buyer]-prices[j])
			}
		} else {
			// Nobody left: every revenue is 0 and the price is uniform.
			for _, x := range prices {
				want += math.Max(0, values[buyer]-x) / float64(len(prices))
			}
		}
		if tr.Reports[0] != 0 || math.Abs(tr.Utilities[0]-want) > 1e-9*math.Max(1, want) {
			t.Fatalf("trial %d: report %v has utility %v; the market without the buyer gives %v", trial, tr.Reports[0], tr.Utilities[0], want)
		}
		if tr.Utilities[0] > tr.Utilities[1]*(1+1e-12)+1e-15 {
			t.Fatalf("trial %d: report 0 (%v) beats the lowest price (%v)", trial, tr.Utilities[0], tr.Utilities[1])
		}
	}
	// A buyer whose value is below every price gains nothing from any report;
	// ties go to the first report, 0, in both mechanisms.
	p, err := NewPricing([]float64{0.5, 2, 3}, []float64{1, 2, 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.Truthfulness(0)
	if err != nil {
		t.Fatal(err)
	}
	if tr.BestReport != 0 || tr.MaxGain != 0 || tr.Deterministic.BestReport != 0 || tr.Deterministic.Gain != 0 {
		t.Errorf("value below the grid: best report %v gain %v, deterministic %v gain %v; want 0 everywhere",
			tr.BestReport, tr.MaxGain, tr.Deterministic.BestReport, tr.Deterministic.Gain)
	}
}
