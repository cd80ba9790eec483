// Package market uses differential privacy as a tool for mechanism design,
// after the slides' "privacy as a tool for mechanism design" part.
//
// Pricing. A seller offers a digital good (unlimited copies) at one
// price p from a grid R. Buyer i buys when vᵢ ≥ p, so the revenue is
//
//	rev(p) = p·#{i : vᵢ ≥ p}.
//
// One buyer changes the count at p by at most one, so rev(p) moves by at most
// p ≤ Δ = max R. NewPricing draws p with the exponential mechanism
// Pr[p] ∝ exp(ε·rev(p)/(2Δ)) (the notebook's parametrisation, ε-DP; core/mech
// does the arithmetic) and reports the exact price distribution, the expected
// and optimal revenue and the accuracy bound
// rev(p̂) ≥ OPT − 2Δ·ln(|R|/β)/ε with probability ≥ 1 − β. Truthfulness
// measures how much a buyer gains by misreporting, against the bound that
// ε-DP implies.
//
// Allocation. k goods with sᵢ copies each and n unit-demand
// buyers. A public billboard posts prices; buyers best-respond; the demand
// for each good is counted privately, by a binary-tree continual counter or
// by per-round Laplace noise, whichever is less noisy for the number of
// rounds, so that the whole price sequence is ε-DP; prices take a gradient
// step towards supply; each buyer finally takes the good they demanded in a
// round drawn at random. Other buyers see only the prices and their own
// goods, so the outcome is ε-jointly differentially private (the billboard
// lemma). OptimalWelfare computes the exact non-private benchmark.
package market
