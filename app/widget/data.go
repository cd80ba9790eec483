package widget

import (
	"maps"
	"math"
	"slices"
	"strconv"
)

// DataSet is a set of candidates with the scores the selection mechanisms
// rank. Delta is the Δ the widgets start with; Sensitivity is the scores'
// true sensitivity, the most one person moves a score between neighbours of
// either notion (0: the scores come from no function of people's data, as
// the loss chart's two candidates), which the Δ typed into a widget is
// checked against.
type DataSet struct {
	Name        string
	Label       string // the page's choice, saying what a score is
	Title       string // the shorter name figure titles use
	Candidates  []string
	Scores      []float64
	Delta       float64
	Sensitivity float64
	Unit        string // what a score counts

	// Each score is score(count) of the people counted for its candidate:
	// what the tests derive Sensitivity from.
	counts []float64
	score  func(count float64) float64
}

// AdultCounts are the Adult data set's (32,561 people) marital-status
// counts.
var AdultCounts = []float64{14976, 10683, 4443, 1025, 993, 418, 23}

var adultNames = []string{"Married-civ-spouse", "Never-married", "Divorced", "Separated", "Widowed", "Married-spouse-absent", "Married-AF-spouse"}

// dataSets are the candidate sets of the selection widgets, in the page's
// order.
var dataSets = []DataSet{
	{
		Name: "adult", Label: "Adult marital status (score = count ÷ 1000)", Title: "Adult data, marital status",
		Candidates: adultNames, Scores: perThousand(AdultCounts), Delta: 1, Sensitivity: 0.001, Unit: "thousand people",
		counts: AdultCounts, score: thousandths,
	},
	{
		Name: "adult-raw", Label: "Adult marital status (score = raw count)", Title: "Adult data, marital status (raw counts)",
		Candidates: adultNames, Scores: AdultCounts, Delta: 1, Sensitivity: 1, Unit: "people",
		counts: AdultCounts, score: identity,
	},
	{
		Name: "meeting", Label: "Meeting days (score = colleagues free)", Title: "Meeting dates",
		Candidates: []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"},
		Scores:     meetingCounts, Delta: 1, Sensitivity: 1, Unit: "people free",
		counts: meetingCounts, score: identity,
	},
}

// lossSets are the candidate sets of the permute-and-flip widget
// (permute-and-flip-loss): two shared ones and two candidates with scores 1
// and 0, whose expected losses have closed forms (1/(1+e^{ε/2}) and ½e^{−ε/2}).
var lossSets = []DataSet{
	dataSet("meeting"),
	dataSet("adult"),
	{
		Name: "two", Label: "Two candidates (scores 1 and 0)", Title: "Two candidates (scores 1 and 0)",
		Candidates: []string{"A", "B"}, Scores: []float64{1, 0}, Delta: 1, Unit: "score points",
	},
}

// perThousand returns each x/1000. Division by 1000 is correctly rounded,
// so 4443 becomes the double nearest 4.443 and prints as 4.443; 4443·0.001
// would carry 0.001's rounding error into the score (4.4430000000000005).
func perThousand(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = thousandths(x)
	}
	return out
}

func thousandths(x float64) float64 { return x / 1000 }

func identity(x float64) float64 { return x }

// meetingCounts are the meeting poll's colleagues free on each day.
var meetingCounts = []float64{21, 27, 25, 12, 18}

func dataSet(name string) DataSet {
	i := slices.IndexFunc(dataSets, func(d DataSet) bool { return d.Name == name })
	return dataSets[i]
}

func names(sets []DataSet) []string {
	out := make([]string, len(sets))
	for i, d := range sets {
		out[i] = d.Name
	}
	return out
}

// DataSets returns the selection widgets' candidate sets.
func DataSets() []DataSet { return slices.Clone(dataSets) }

// DataSetNames returns the names of DataSets, in order.
func DataSetNames() []string { return names(dataSets) }

// LossSets returns the permute-and-flip widget's candidate sets.
func LossSets() []DataSet { return slices.Clone(lossSets) }

// LossSetNames returns the names of LossSets, in order.
func LossSetNames() []string { return names(lossSets) }

// Find returns the set of sets named name, and whether there is one.
func Find(sets []DataSet, name string) (DataSet, bool) {
	i := slices.IndexFunc(sets, func(d DataSet) bool { return d.Name == name })
	if i < 0 {
		return DataSet{}, false
	}
	return sets[i], true
}

// What the ε of a selection mechanism guarantees: for any scores of
// sensitivity Δ under either neighbour notion, or, for report noisy max with
// Laplace noise of scale Δ/ε, only for counts that one person moves all the
// same way (add-or-remove neighbours); with change-one-answer neighbours or
// other scores that noise is only 2ε-private.
const (
	AnyScores  = "ε-private for any scores that one person moves by at most Δ, with either neighbour notion"
	CountsOnly = "ε-private only for counts with add-or-remove neighbours; otherwise only 2ε-private"
)

// Selection is a selection mechanism as the widgets run it: core mechanism
// Mechanism at Factor·ε (Laplace noise of scale 2Δ/ε is report noisy max at
// ε/2), its name, its noise and what its ε guarantees.
type Selection struct {
	Mechanism string
	Factor    float64
	Title     string // e.g. "Report noisy max, Laplace noise"
	Noise     string // how it draws: "noise scale Δ/ε"
	Short     string // its name in a sampling machine's lane: "Report noisy max (Laplace Δ/ε)"
	Guarantee string // AnyScores or CountsOnly
}

var selections = []Selection{
	{"exponential", 1, "Exponential mechanism", "weights exp(ε·u/(2Δ))", "Exponential mechanism", AnyScores},
	{"report-noisy-max-laplace", 1, "Report noisy max, Laplace noise", "noise scale Δ/ε", "Report noisy max (Laplace Δ/ε)", CountsOnly},
	{"report-noisy-max-laplace", 0.5, "Report noisy max, Laplace noise", "noise scale 2Δ/ε", "Report noisy max (Laplace 2Δ/ε)", AnyScores},
	{"report-noisy-max-gumbel", 1, "Report noisy max, Gumbel noise", "noise scale 2Δ/ε", "Report noisy max (Gumbel)", AnyScores},
	{"permute-and-flip", 1, "Report noisy max, exponential noise", "noise scale 2Δ/ε: permute-and-flip", "Permute-and-flip", AnyScores},
}

// Selections returns the selection mechanisms the widgets run, with what
// each one's ε guarantees.
func Selections() []Selection { return slices.Clone(selections) }

// GuaranteeOf returns what ε guarantees for mechanism run at factor·ε, or ""
// for a pair the widgets do not run.
func GuaranteeOf(mechanism string, factor float64) string {
	for _, s := range selections {
		if s.Mechanism == mechanism && s.Factor == factor {
			return s.Guarantee
		}
	}
	return ""
}

// LossCurve is one mechanism of the permute-and-flip widget's loss chart: a
// core mechanism run at Factor·ε (Laplace noise of scale 2Δ/ε is report
// noisy max at ε/2).
type LossCurve struct {
	Mechanism string
	Factor    float64
	Short     string // the chart's legend
	Label     string // the readout's row
	Claim     string // the guarantee in a figure's legend, after Label
}

var lossCurves = []LossCurve{
	{"exponential", 1, "Exponential mechanism", "Exponential mechanism (Gumbel 2Δ/ε)", "ε-DP"},
	{"permute-and-flip", 1, "Permute-and-flip", "Permute-and-flip (exponential 2Δ/ε)", "ε-DP"},
	{"report-noisy-max-laplace", 1, "Noisy max, Laplace Δ/ε", "Noisy max, Laplace Δ/ε", "ε-DP for counts, 2ε in general"},
	{"report-noisy-max-laplace", 0.5, "Noisy max, Laplace 2Δ/ε", "Noisy max, Laplace 2Δ/ε", "ε-DP"},
}

// LossCurves returns the permute-and-flip widget's four curves.
func LossCurves() []LossCurve { return slices.Clone(lossCurves) }

// The permute-and-flip widget's ε axis.
const (
	LossGridMin    float64 = 0.05
	LossGridMax    float64 = 10
	LossGridPoints         = 49
)

// LossGrid returns the permute-and-flip widget's ε axis: LossGridPoints
// values from LossGridMin to LossGridMax, evenly spaced on a log scale,
// each rounded to 4 significant digits.
func LossGrid() []float64 {
	g := make([]float64, LossGridPoints)
	for i := range g {
		x := LossGridMin * math.Pow(LossGridMax/LossGridMin, float64(i)/float64(LossGridPoints-1))
		if i == LossGridPoints-1 {
			x = LossGridMax
		}
		g[i], _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	}
	return g
}

// The price grid of the pricing widgets (pricing, truthful): $PriceStep,
// 2·$PriceStep, …, $MaxPrice.
const (
	MaxPrice  float64 = 5
	PriceStep float64 = 0.01
)

// PollDays are the meeting poll of the ε-band widget (epsilon-band), and
// PollOthers how many of the other eleven students can make each day; Ana's
// answer is added to them.
var (
	PollDays   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	PollOthers = []float64{5, 6, 6, 3, 4}
)

// Choice is one value of an Enum param with the words the page shows for it.
type Choice struct{ Value, Label string }

var auditMechanisms = []Choice{
	{"exponential", "Exponential mechanism"},
	{"report-noisy-max-laplace", "Report noisy max, Laplace Δ/ε"},
	{"report-noisy-max-gumbel", "Report noisy max, Gumbel 2Δ/ε"},
	{"permute-and-flip", "Permute-and-flip"},
	{"report-noisy-max-laplace-value", "Report noisy max, also releasing the value"},
	{"laplace", "Laplace mechanism on every u(x, r)"},
	{"gaussian", "Gaussian noise σ = Δ/ε, claimed ε-DP"},
}

// AuditMechanismChoices returns the mechanisms the auditor widget offers,
// with their names on the page.
func AuditMechanismChoices() []Choice { return slices.Clone(auditMechanisms) }

// AuditMechanisms returns the names of AuditMechanismChoices.
func AuditMechanisms() []string {
	out := make([]string, len(auditMechanisms))
	for i, c := range auditMechanisms {
		out[i] = c.Value
	}
	return out
}

// formulas are formulas a widget shows, in TeX; the site build converts
// them to MathML (internal/site/math.go).
var formulas = map[string]map[string]string{
	"exponential-mechanism": {
		// The notebook's form, ε-DP, and the article's, 2ε_aΔ-DP.
		"dp":      `\Pr[r] \propto \exp\left(\frac{\varepsilon \cdot u(r)}{2\Delta}\right)`,
		"article": `\Pr[r] \propto \exp\left(\varepsilon \cdot q(r)\right)`,
	},
	// The base-measure lemma's event and bound, the caption of its table.
	"measurebound": {
		"event": `\Pr[q \le \mathrm{OPT} - 2t]`,
		"bound": `\exp(-\varepsilon_a t)/\mu(S_t)`,
		"ea":    `\varepsilon_a`,
		"t":     `t`,
	},
}

// Formulas returns the TeX formulas of each widget that shows some, by
// name.
func Formulas() map[string]map[string]string {
	out := map[string]map[string]string{}
	for w, f := range formulas {
		out[w] = maps.Clone(f)
	}
	return out
}
