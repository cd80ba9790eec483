package widget

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// Kind says how a parameter's text is read.
type Kind int

const (
	Number Kind = iota // a finite number in [Min, Max]
	Int                // a whole number in [Min, Max]
	Enum               // one of Values
	List               // comma-separated finite numbers in [Min, Max], MinLen to MaxLen of them; "" is no list
	Text               // any text of at most MaxLen characters made of Allowed (empty: anything)
)

// Param is one key of a widget's state, as a page link holds it
// (#/slug?ID.KEY=value). The page validates its URL against these
// (web/state/values.js reads them from the module the site build emits) and
// package figures draws from them, so a link means the same in both.
type Param struct {
	Key            string
	Kind           Kind
	Label          string // how the page's notes name the key
	Min, Max       float64
	Values         []string // Enum
	MinLen, MaxLen int      // List and Text
	Allowed        string   // Text: the characters it may contain
	Digits         int      // Number: significant digits kept (0: URLDigits' default)
	Default        string   // as it is written in a URL
}

// URLDigits is how many significant digits of p's numbers a page link keeps
// (web/state/values.js, encode), and so how many Coerce and the page keep of a value
// they read: Digits for a Number (12 without), 12 for an Int, 8 for each
// entry of a List, and 0 for the kinds that hold no number.
func (p Param) URLDigits() int {
	switch p.Kind {
	case Number:
		return cmp.Or(p.Digits, 12)
	case Int:
		return 12
	case List:
		return 8
	}
	return 0
}

// The params every widget that draws seeded batches shares.
func seed(def string) Param {
	return Param{Key: "seed", Kind: Int, Label: "seed", Min: 0, Max: math.MaxUint32, Default: def}
}

func batch(def string, values ...string) Param {
	return Param{Key: "batch", Kind: Enum, Label: "draws per batch", Values: values, Default: def}
}

func step(max float64) Param {
	return Param{Key: "step", Kind: Int, Label: "batches drawn", Min: 0, Max: max, Default: "1"}
}

// src is the page's "your data" key: a CSV file's fingerprint and the
// chosen columns (web/widgets/datapanel.js). The file never leaves the
// browser, so a figure is drawn from the widget's built-in data.
func src() Param {
	return Param{Key: "src", Kind: Text, Label: "your data (file fingerprint and columns)", MaxLen: 60, Allowed: "0123456789abcdef."}
}

func eps(min, max float64, def string) Param {
	return Param{Key: "eps", Kind: Number, Label: "ε", Min: min, Max: max, Digits: 3, Default: def}
}

// auditExpr is the characters a score or sensitivity expression of the
// auditor may contain.
const auditExpr = "-abcdefghijklmnopqrstuvwxyz0123456789_ +*/%()[].,?:<>=!&|^"

var (
	buyersValues = Param{Key: "values", Kind: List, Label: "buyers’ values", Min: 0, Max: 5, MinLen: 1, MaxLen: 40, Default: "1,1,1,4.01"}
	synthK       = Param{Key: "k", Kind: Enum, Label: "attributes", Values: []string{"3", "4", "5"}, Default: "4"}
	synthQ       = Param{Key: "q", Kind: Enum, Label: "queries", Values: []string{"marginals:1", "marginals:2", "marginals:3", "halfspaces"}, Default: "marginals:2"}
	synthEps     = eps(0.05, 50, "1")
)

// schemas maps a widget module (web/widgets/NAME.js) to its params, in the
// order the page writes them into its URL.
var schemas = map[string][]Param{
	"exponential-mechanism": {
		{Key: "data", Kind: Enum, Label: "data set", Values: DataSetNames(), Default: "adult"},
		{Key: "u", Kind: List, Label: "edited scores", Min: -1e6, Max: 1e6, MaxLen: 64},
		// A base measure μ, one weight per candidate (fixed before the data
		// are seen); otherwise uniform.
		{Key: "mu", Kind: List, Label: "base measure μ", Min: 0.001, Max: 1e6, MaxLen: 64},
		{Key: "form", Kind: Enum, Label: "parametrisation", Values: []string{"dp", "article"}, Default: "dp"},
		// 17 digits: the URL keeps ε exactly (the shortest decimal that reads
		// back to the same double), so a value converted by the formula
		// switch survives a reload.
		{Key: "eps", Kind: Number, Label: "ε", Min: 0.01, Max: 20, Digits: 17, Default: "1"},
		{Key: "delta", Kind: Number, Label: "Δ", Min: 0.001, Max: 10000, Digits: 4, Default: "1"},
		batch("1000", "1", "10", "100", "1000", "10000"),
		seed("1"),
		step(1000),
		src(),
	},
	"report-noisy-max": {
		{Key: "data", Kind: Enum, Label: "data set", Values: DataSetNames(), Default: "meeting"},
		eps(0.01, 20, "1"),
		batch("1000", "10", "100", "1000", "10000"),
		seed("1"),
		step(200),
		src(),
	},
	"epsilon-band": {
		eps(0.05, 5, "1"),
		{Key: "ax", Kind: List, Label: "Ana’s days in x", Min: 0, Max: 1, MinLen: 5, MaxLen: 5, Default: "0,0,0,1,0"},
		{Key: "ay", Kind: List, Label: "Ana’s days in x′", Min: 0, Max: 1, MinLen: 5, MaxLen: 5, Default: "1,1,1,0,1"},
		{Key: "scale", Kind: Enum, Label: "weights", Values: []string{"right", "broken"}, Default: "right"},
		batch("10000", "1000", "10000", "100000"),
		seed("3"),
		step(100),
	},
	"laplace-from-exponential": {
		{Key: "q", Kind: Number, Label: "q(x)", Min: 0, Max: 100, Digits: 4, Default: "50"},
		{Key: "dq", Kind: Number, Label: "Δq", Min: 0.1, Max: 20, Digits: 3, Default: "1"},
		eps(0.05, 5, "1"),
		{Key: "range", Kind: Enum, Label: "output range", Values: []string{"wide", "bounded"}, Default: "wide"},
		{Key: "mode", Kind: Enum, Label: "outputs", Values: []string{"line", "grid"}, Default: "line"},
		{Key: "h", Kind: Number, Label: "grid spacing", Min: 0.1, Max: 10, Digits: 3, Default: "1"},
		{Key: "run", Kind: Enum, Label: "ε used in the weights", Values: []string{"general", "tight"}, Default: "general"},
		{Key: "draws", Kind: Enum, Label: "draws", Values: []string{"0", "1000", "10000", "100000"}, Default: "10000"},
		seed("2"),
	},
	"accuracy": {
		eps(0.05, 10, "1"),
		{Key: "n", Kind: Int, Label: "number of candidates |R|", Min: 2, Max: 1000, Default: "50"},
		{Key: "t", Kind: Number, Label: "t", Min: 0, Max: 8, Digits: 3, Default: "1"},
		batch("1000", "100", "1000", "10000"),
		seed("1"),
		step(100),
	},
	"permute-and-flip-loss": {
		{Key: "data", Kind: Enum, Label: "data set", Values: LossSetNames(), Default: "meeting"},
		eps(0.05, 20, "1"),
		src(),
	},
	"discrete-laplace": {
		{Key: "value", Kind: Int, Label: "true count", Min: -1000000, Max: 1000000, Default: "0"},
		eps(0.2, 5, "1"),
		batch("1000", "100", "1000", "10000"),
		seed("1"),
		step(100),
	},
	"floating-point-attack": {
		{Key: "q", Kind: Int, Label: "true count q", Min: -1000000, Max: 1000000, Default: "0"},
		eps(0.05, 10, "1"),
		{Key: "draws", Kind: Enum, Label: "draws", Values: []string{"100", "1000", "5000", "20000"}, Default: "1000"},
		seed("1"),
	},
	"budget": {
		{Key: "budget", Kind: Number, Label: "total budget", Min: 0.1, Max: 10, Digits: 3, Default: "1"},
		{Key: "eps", Kind: Number, Label: "ε per selection", Min: 0.01, Max: 5, Digits: 3, Default: "0.25"},
		{Key: "n", Kind: Int, Label: "number of candidates n", Min: 2, Max: 50, Default: "5"},
		{Key: "log", Kind: Text, Label: "ledger", MaxLen: 200, Allowed: "ah"},
	},
	"measurebound": {
		{Key: "ea", Kind: Number, Label: "ε_a", Min: 1, Max: 500, Digits: 3, Default: "100"},
		{Key: "t", Kind: Number, Label: "t", Min: 0.01, Max: 0.25, Digits: 3, Default: "0.1"},
	},
	"machine": {
		{Key: "data", Kind: Enum, Label: "data set", Values: DataSetNames(), Default: "meeting"},
		{Key: "second", Kind: Enum, Label: "second mechanism", Values: []string{"none", "report-noisy-max-laplace", "permute-and-flip"}, Default: "report-noisy-max-laplace"},
		// The page's neighbour notion: with change-one-answer neighbours
		// report noisy max runs with Laplace noise of scale 2Δ/ε, since Δ/ε
		// is only 2ε-private there.
		{Key: "nb", Kind: Enum, Label: "neighbours", Values: []string{"change-one", "add-remove"}, Default: "change-one"},
		{Key: "eps", Kind: Number, Label: "ε", Min: 0.01, Max: 10, Digits: 3, Default: "1"},
		{Key: "seed", Kind: Int, Label: "seed", Min: 0, Max: 1 << 31, Default: "7"},
	},
	"smalldb": {
		synthK, synthQ,
		{Key: "m", Kind: Int, Label: "m", Min: 1, Max: 12, Default: "6"},
		synthEps,
		seed("1"),
		// The stages a run can stop at (scoring is passed through).
		{Key: "stage", Kind: Enum, Label: "stage", Values: []string{"data", "queries", "count", "levels", "draw", "compare"}, Default: "data"},
		src(),
	},
	"mwem": {
		synthK, synthQ, synthEps,
		{Key: "rounds", Kind: Int, Label: "rounds T", Min: 1, Max: 40, Default: "10"},
		{Key: "replays", Kind: Enum, Label: "replays", Values: []string{"0", "10"}, Default: "10"},
		{Key: "m", Kind: Int, Label: "SmallDB’s m", Min: 1, Max: 8, Default: "6"},
		seed("1"),
		{Key: "t", Kind: Int, Label: "rounds run", Min: 0, Max: 40, Default: "0"},
		src(),
	},
	"pricing": {
		buyersValues,
		eps(0.1, 100, "1"),
		{Key: "draws", Kind: Enum, Label: "draws", Values: []string{"0", "1000", "10000", "100000"}, Default: "100000"},
		seed("1"),
		src(),
	},
	"truthful": {
		buyersValues,
		eps(0.1, 100, "1"),
		{Key: "buyer", Kind: Int, Label: "buyer", Min: 1, Max: 40, Default: "4"},
		{Key: "report", Kind: Number, Label: "report", Min: 0, Max: 5, Digits: 3, Default: "4.01"},
	},
	"billboard": {
		eps(0.1, 100, "1"),
		{Key: "rounds", Kind: Enum, Label: "rounds T", Values: []string{"16", "32", "64", "128"}, Default: "64"},
		{Key: "supply", Kind: Int, Label: "copies of each good", Min: 1, Max: 300, Default: "40"},
		{Key: "counter", Kind: Enum, Label: "counter", Values: []string{"auto", "tree", "per-round"}, Default: "auto"},
		{Key: "buyer", Kind: Int, Label: "your buyer", Min: 1, Max: 300, Default: "1"},
		seed("1"),
		{Key: "t", Kind: Int, Label: "round shown", Min: 1, Max: 129, Default: "1"},
	},
	"audit": {
		{Key: "mech", Kind: Enum, Label: "mechanism", Values: AuditMechanisms(), Default: "exponential"},
		{Key: "score", Kind: Text, Label: "score", MaxLen: 400, Allowed: auditExpr, Default: "count[r] - count[(r+1)%k]"},
		{Key: "sens", Kind: Text, Label: "sensitivity", MaxLen: 100, Allowed: auditExpr, Default: "1"},
		eps(0.05, 10, "1"),
		{Key: "k", Kind: Int, Label: "candidates", Min: 1, Max: 6, Default: "3"},
		{Key: "m", Kind: Int, Label: "largest count", Min: 1, Max: 60, Default: "3"},
		{Key: "nb", Kind: Enum, Label: "neighbours", Values: []string{"change-one", "add-remove"}, Default: "change-one"},
	},
	"svtstream": {
		eps(0.05, 5, "1"),
		{Key: "c", Kind: Int, Label: "cutoff c", Min: 1, Max: 5, Default: "1"},
		{Key: "t", Kind: Number, Label: "threshold T", Min: -100, Max: 100, Digits: 4, Default: "8"},
		{Key: "answers", Kind: List, Label: "query answers", Min: -100, Max: 100, MinLen: 1, MaxLen: 12, Default: "3,6,2,9,4,12,5,8,2,11"},
	},
	"svtaudit": {
		{Key: "alg", Kind: Enum, Label: "variant", Values: []string{"1", "2", "3", "4", "5", "6"}, Default: "1"},
		eps(0.05, 5, "1"),
		{Key: "c", Kind: Int, Label: "cutoff c", Min: 1, Max: 3, Default: "1"},
		{Key: "t", Kind: Number, Label: "threshold T", Min: -100, Max: 100, Digits: 4, Default: "1"},
		{Key: "x", Kind: List, Label: "answers on x", Min: -100, Max: 100, MinLen: 1, MaxLen: 10, Default: "0,0,0,0,0,0,0,0,0,1"},
		{Key: "y", Kind: List, Label: "answers on x′", Min: -100, Max: 100, MinLen: 1, MaxLen: 10, Default: "1,1,1,1,1,1,1,1,1,0"},
	},
	"challenge": {
		{Key: "which", Kind: Enum, Label: "challenge", Values: []string{"svt-no-noise", "svt-no-cutoff", "svt-small-noise", "gallery-twice", "gallery-gap"}, Default: "svt-no-noise"},
		{Key: "x", Kind: List, Label: "your x", Min: -100, Max: 100, MaxLen: 10},
		{Key: "y", Kind: List, Label: "your x′", Min: -100, Max: 100, MaxLen: 10},
		{Key: "out", Kind: Text, Label: "your output", MaxLen: 12, Allowed: "TF0123456789"},
	},
	"classrun": {
		{Key: "activity", Kind: Enum, Label: "activity", Values: []string{"meeting-day", "pricing", "histogram"}, Default: "meeting-day"},
	},
}

// Schema returns the params of a widget, or nil if it has none.
func Schema(name string) []Param { return slices.Clone(schemas[name]) }

// WithSchema returns the widgets that have params, sorted.
func WithSchema() []string { return slices.Sorted(maps.Keys(schemas)) }
