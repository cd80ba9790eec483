package market

import (
	"math"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/validate"
)

// MaxTruthGrid bounds the grid for Truthfulness, which builds one exact price
// distribution per possible report: O(m²) work.
const MaxTruthGrid = 4000

// Truthfulness compares one buyer's exact expected utility when reporting the
// true value with every other report.
//
// The seller posts the drawn price p̂ and every buyer then buys if and only if
// their true value reaches it, so a report matters only through the price it
// helps to draw. Buyer i's utility is u(p) = (vᵢ − p)·1[vᵢ ≥ p], which lies in
// [0, B] with B = max over the grid of u(p). The reports tried are 0, which
// lies below every price (the buyer is counted at no price, as if absent),
// and every grid price; any other report reaches the same prices as one of
// these, so the maximum over them is the maximum over all reports.
//
// The bounds. A report x changes one buyer's input, so the two price
// distributions P_v (truthful) and P_x are ε-DP neighbours: P_x(p) ≤
// e^ε·P_v(p) and P_v(p) ≤ e^ε·P_x(p) for every p. Write gain = E_x[u] − E_v[u].
//
//  1. The slides' theorem (McSherry and Talwar 2007): an ε-DP mechanism is
//     ε·B-approximately dominant-strategy truthful. Its proof, done exactly:
//     E_v[u] ≥ e^−ε·E_x[u] because u ≥ 0, so gain ≤ (1 − e^−ε)·E_x[u] ≤
//     (1 − e^−ε)·B, and 1 − e^−ε ≤ ε gives the slides' ε·B. SlidesBound is
//     ε·B and ProofBound is (1 − e^−ε)·B.
//  2. The other direction: E_x[u] ≤ e^ε·E_v[u], so gain ≤ (e^ε − 1)·E_v[u].
//     It uses the truthful utility, so it is small for a buyer who expects
//     little, but (e^ε − 1)·B on its own would exceed B once ε > ln 2.
//  3. Let A = {p : P_x(p) > P_v(p)}, a = P_x(A), b = P_v(A). Because u is in
//     [0, B], gain = Σ (P_x − P_v)·u ≤ B·(a − b). DP gives a ≤ e^ε·b and
//     1 − b ≤ e^ε·(1 − a), so a − b ≤ min(a·(1 − e^−ε), (1 − a)·(e^ε − 1)):
//     the first grows with a and the second falls, so the largest value is
//     where they meet, at a = e^ε/(1 + e^ε), and it is (e^ε − 1)/(e^ε + 1) =
//     tanh(ε/2). So gain ≤ B·tanh(ε/2), below (1 − e^−ε)·B for every ε > 0
//     (their ratio is e^ε/(e^ε + 1) < 1).
//
// TightBound = min((e^ε − 1)·E_v[u], B·tanh(ε/2)) is the tightest of them;
// every bound here holds for any ε-DP mechanism, not just this one,
// and MaxGain ≤ TightBound ≤ ProofBound ≤ SlidesBound.
type Truthfulness struct {
	Buyer int
	// Value is the buyer's true value vᵢ.
	Value float64
	// Reports are the reports tried: 0 (below every price) and then every
	// grid price, so Reports[j+1] is the j-th price.
	Reports []float64
	// Utilities[j] is the exact E[u(p̂)] when the buyer reports Reports[j].
	Utilities []float64
	// TruthfulUtility is E[u(p̂)] when the buyer reports vᵢ.
	TruthfulUtility float64
	// BestReport is the report with the highest expected utility (the first
	// in Reports on ties), and MaxGain = max(0, its utility −
	// TruthfulUtility).
	BestReport, MaxGain float64
	// MaxUtility is B = max_p (vᵢ − p)·1[vᵢ ≥ p] over the grid.
	MaxUtility float64
	// SlidesBound is ε·B, the slides' theorem; ProofBound is (1 − e^−ε)·B,
	// what the slides' proof gives; TightBound is min((e^ε − 1)·
	// TruthfulUtility, B·tanh(ε/2)). See the type's comment for each
	// derivation.
	SlidesBound, ProofBound, TightBound float64
	// Deterministic is the same buyer's view of the non-private mechanism
	// that posts the best price.
	Deterministic DeterministicLie
}

// DeterministicLie shows that posting the revenue-maximising price
// p* = argmax_p p·#{i : vᵢ ≥ p} (ties to the lowest) is not truthful: a
// buyer can lower the price by shading their report.
type DeterministicLie struct {
	// TruthfulPrice and TruthfulUtility: everyone reports truthfully.
	TruthfulPrice, TruthfulUtility float64
	// BestReport is the chosen buyer's most profitable report (0 or a grid
	// price, the lowest on ties), BestPrice the price it produces,
	// BestUtility the buyer's utility at that price and Gain =
	// max(0, BestUtility − TruthfulUtility).
	BestReport, BestPrice, BestUtility, Gain float64
	// MaxShift is the furthest any single buyer can move the posted price
	// with one report (0 or a grid price): |p*(x, v₋ᵢ) − p*(v)|, achieved by
	// ShiftBuyer reporting ShiftReport, which posts ShiftPrice.
	MaxShift                float64
	ShiftBuyer              int
	ShiftReport, ShiftPrice float64
}

// Truthfulness computes the exact expected utility of buyer (0-based index
// into the values) for the truthful report, for a report of 0 and for every
// report on the grid, the largest gain a lie buys, its bounds, and the
// deterministic comparison.
func (p *Pricing) Truthfulness(buyer int) (*Truthfulness, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if buyer < 0 || buyer >= len(p.values) {
		return nil, validate.Errorf("buyer", "must be in [0, %d), got %d", len(p.values), buyer)
	}
	m := len(p.prices)
	if m > MaxTruthGrid {
		return nil, validate.Errorf("prices", "has %d prices; the truthfulness table allows at most %d", m, MaxTruthGrid)
	}
	v := p.values[buyer]
	others := othersCounts(p.values, p.prices, buyer)
	util := make([]float64, m)
	for j, price := range p.prices {
		util[j] = math.Max(0, v-price)
	}
	// Report 0 reaches no price; report prices[j] reaches the first j+1.
	reports := append([]float64{0}, p.prices...)
	t := &Truthfulness{Buyer: buyer, Value: v, Reports: reports, Utilities: make([]float64, m+1)}
	for _, u := range util {
		t.MaxUtility = math.Max(t.MaxUtility, u)
	}
	// A report matters only through k = #{grid prices ≤ report}, so the truthful
	// report shares its distribution with the grid report of the same k.
	byReach := make(map[int]float64, m+1)
	expected := func(k int) (float64, error) {
		if e, ok := byReach[k]; ok {
			return e, nil
		}
		scores := make([]float64, m)
		for j, price := range p.prices {
			c := others[j]
			if j < k {
				c++
			}
			scores[j] = price * float64(c)
		}
		em, err := mech.NewExponential(mech.Config{Scores: scores, Epsilon: p.epsilon, Sensitivity: p.Sensitivity()})
		if err != nil {
			return 0, err
		}
		e := 0.0
		for j, q := range em.Probabilities() {
			e += q * util[j]
		}
		byReach[k] = e
		return e, nil
	}
	var err error
	if t.TruthfulUtility, err = expected(reach(p.prices, v)); err != nil {
		return nil, err
	}
	best := math.Inf(-1)
	for j, x := range reports {
		if t.Utilities[j], err = expected(j); err != nil {
			return nil, err
		}
		if t.Utilities[j] > best {
			best, t.BestReport = t.Utilities[j], x
		}
	}
	t.MaxGain = math.Max(0, best-t.TruthfulUtility)
	// e^ε overflows only for ε > 709, where the bounds say nothing; capping
	// keeps 0·growth at 0 instead of NaN, and ε·B at a finite number.
	growth := math.Min(math.Expm1(p.epsilon), math.MaxFloat64)
	t.SlidesBound = math.Min(p.epsilon*t.MaxUtility, math.MaxFloat64)
	t.ProofBound = -math.Expm1(-p.epsilon) * t.MaxUtility
	t.TightBound = math.Min(growth*t.TruthfulUtility, math.Tanh(p.epsilon/2)*t.MaxUtility)
	t.Deterministic = p.deterministic(buyer, others, util)
	return t, nil
}

// othersCounts returns #{i′ ≠ buyer : vᵢ′ ≥ p} for each grid price.
func othersCounts(values, prices []float64, buyer int) []int {
	c := buyerCounts(values, prices)
	k := reach(prices, values[buyer])
	for j := 0; j < k; j++ {
		c[j]--
	}
	return c
}

// bestPrices returns, for every k in 0..m, the index of the deterministic best
// price (ties to the lowest) when one buyer is counted at exactly the first k
// grid prices and the others give counts c. One pass of prefix maxima of
// p·(c+1) and suffix maxima of p·c makes all m+1 answers cost O(m).
func bestPrices(prices []float64, c []int) []int {
	m := len(prices)
	prefIdx := make([]int, m+1) // best j < k of p·(c+1); −1 when k = 0
	prefIdx[0] = -1
	for k := 1; k <= m; k++ {
		j := k - 1
		prefIdx[k] = prefIdx[k-1]
		if a := prices[j] * float64(c[j]+1); prefIdx[k] < 0 || a > prices[prefIdx[k]]*float64(c[prefIdx[k]]+1) {
			prefIdx[k] = j
		}
	}
	sufIdx := make([]int, m+1) // best j ≥ k of p·c, ties to the lowest j
	sufIdx[m] = -1
	for k := m - 1; k >= 0; k-- {
		sufIdx[k] = sufIdx[k+1]
		if b := prices[k] * float64(c[k]); sufIdx[k] < 0 || b >= prices[sufIdx[k]]*float64(c[sufIdx[k]]) {
			sufIdx[k] = k
		}
	}
	best := make([]int, m+1)
	for k := 0; k <= m; k++ {
		a, b := prefIdx[k], sufIdx[k]
		switch {
		case a < 0:
			best[k] = b
		case b < 0:
			best[k] = a
		case prices[a]*float64(c[a]+1) >= prices[b]*float64(c[b]):
			// a < k ≤ b, so on a tie a is the lower price.
			best[k] = a
		default:
			best[k] = b
		}
	}
	return best
}

func (p *Pricing) deterministic(buyer int, others []int, util []float64) DeterministicLie {
	_, truthPrice := p.Optimal()
	jTruth := reach(p.prices, truthPrice) - 1
	d := DeterministicLie{TruthfulPrice: truthPrice, TruthfulUtility: util[jTruth]}
	best := bestPrices(p.prices, others)
	d.BestUtility = math.Inf(-1)
	// k = 0 is the report 0, which reaches no price.
	for k := 0; k <= len(p.prices); k++ {
		if u := util[best[k]]; u > d.BestUtility {
			d.BestUtility, d.BestReport, d.BestPrice = u, reportAt(p.prices, k), p.prices[best[k]]
		}
	}
	d.Gain = math.Max(0, d.BestUtility-d.TruthfulUtility)

	// Buyers with the same reach see the same counts from the others, so one
	// pass per distinct reach covers everyone.
	all := buyerCounts(p.values, p.prices)
	seen := make(map[int]bool)
	d.ShiftBuyer = -1
	for i, v := range p.values {
		k := reach(p.prices, v)
		if seen[k] {
			continue
		}
		seen[k] = true
		c := clone64(all)
		for j := 0; j < k; j++ {
			c[j]--
		}
		bp := bestPrices(p.prices, c)
		for x := 0; x <= len(p.prices); x++ {
			if s := math.Abs(p.prices[bp[x]] - truthPrice); d.ShiftBuyer < 0 || s > d.MaxShift {
				d.MaxShift, d.ShiftBuyer, d.ShiftReport, d.ShiftPrice = s, i, reportAt(p.prices, x), p.prices[bp[x]]
			}
		}
	}
	return d
}

func clone64(xs []int) []int { return append([]int(nil), xs...) }

// reportAt returns the report that reaches exactly the first k grid prices:
// 0 for k = 0 (below every price), otherwise the k-th price.
func reportAt(prices []float64, k int) float64 {
	if k == 0 {
		return 0
	}
	return prices[k-1]
}
