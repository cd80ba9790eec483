package audit

// An Example is one entry of the gallery of mistakes: a mechanism as a
// student writes it, and the fix beside it. Surprise marks the entry that
// goes the other way: a claim that looks wrong but holds.
type Example struct {
	ID, Title string
	// Mistake explains what is wrong (for a surprise, why it holds);
	// Fix explains the repair (for a surprise, where the claim fails).
	// Claim is the mechanism as written; Other is the repaired one (for a
	// surprise, the variant that fails).
	Mistake, Fix string
	Claim, Other Config
	Surprise     bool
}

func universe3(mechanism, score, sensitivity, neighbours string) Config {
	return Config{Mechanism: mechanism, Score: score, Sensitivity: sensitivity, Epsilon: 1,
		Candidates: 3, MaxCount: 3, Neighbours: neighbours}
}

// Gallery returns the mistakes the lesson offers as one-click examples, in
// the lesson's order. Each is checked by a test against the loss the theory
// predicts.
func Gallery() []Example {
	local := Config{Mechanism: NameLaplace, Score: "count[r] / max(n, 1)", Sensitivity: "1 / max(n, 1)", Epsilon: 1,
		Candidates: 2, MaxCount: 3, Neighbours: AddRemove}
	localFix := local
	localFix.Sensitivity = "1"
	twice := universe3("exponential", "2*count[r]", "1", ChangeOne)
	twiceFix := twice
	twiceFix.Sensitivity = "2"
	gap := universe3("exponential", "count[r] - count[(r+1)%k]", "1", ChangeOne)
	gapFix := gap
	gapFix.Sensitivity = "2"
	hist := universe3(NameLaplace, "count[r]", "1", ChangeOne)
	histFix := hist
	histFix.Sensitivity = "2"
	value := universe3(NameReportNoisyMaxWithValue, "n - count[r]", "1", AddRemove)
	valueFix := value
	valueFix.Mechanism = "report-noisy-max-laplace"
	gauss := universe3(NameGaussian, "count[r]", "1", AddRemove)
	gaussFix := gauss
	gaussFix.Mechanism = NameLaplace
	mono := universe3("exponential", "2*count[r]", "1", AddRemove)
	monoOther := mono
	monoOther.Neighbours = ChangeOne
	return []Example{
		{ID: "twice", Title: "Twice the count, Δ kept at 1",
			Mistake: "The score 2·count moves by 2 when one person changes their choice, so Δ = 1 is half the truth: the mechanism is the one with ε doubled.",
			Fix:     "Δ = 2.", Claim: twice, Other: twiceFix},
		{ID: "gap", Title: "The lead over the next option",
			Mistake: "count[r] − count[r+1] moves by 2 when a person leaves option r+1 for option r: one count goes up, the other down.",
			Fix:     "Δ = 2.", Claim: gap, Other: gapFix},
		{ID: "local", Title: "Δ computed from the data",
			Mistake: "The shares count/n move by at most 1/n on this data set, but n itself changes between neighbours: the noise scale gives the data away, and the loss is unbounded.",
			Fix:     "Δ = 1, the global sensitivity, the same for every data set.", Claim: local, Other: localFix},
		{ID: "histogram", Title: "A histogram with Lap(1/ε) under change-one",
			Mistake: "When one person changes their choice two bars move, one up and one down: the L1 sensitivity of the histogram is 2, and the loss is 2ε.",
			Fix:     "Δ = 2: noise Lap(2/ε) on every bar.", Claim: hist, Other: histFix},
		{ID: "value", Title: "Report noisy max that also releases the winning value",
			Mistake: "Releasing the noisy maximum itself lets every other score's noise show through: when one person is added, k − 1 scores rise together and the loss is (k − 1)ε.",
			Fix:     "Release only the winner's index.", Claim: value, Other: valueFix},
		{ID: "gaussian", Title: "Gaussian noise claimed as pure ε-DP",
			Mistake: "Two Gaussians with different means have a log-ratio linear in the output: far in the tail it exceeds every ε. Gaussian noise gives (ε, δ)-DP, never pure ε-DP.",
			Fix:     "Laplace noise of the same scale.", Claim: gauss, Other: gaussFix},
		{ID: "monotone", Title: "Surprise: Δ too small, and still private", Surprise: true,
			Mistake: "2·count has sensitivity 2, yet with Δ = 1 the loss stays below ε when people are only added or removed: every score moves the same way, so the numerator's change and the normaliser's change cancel, and the exponential mechanism needs only half its usual ε.",
			Fix:     "Under change-one neighbours the scores move in opposite directions and the claim fails.", Claim: mono, Other: monoOther},
	}
}
