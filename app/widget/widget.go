// Package widget defines the page's widgets as plain data, once, for every
// part that needs to know them without computing them: each widget's params
// (the keys, ranges and defaults of its URL state) and the clamp rule that
// reads them (Coerce), the data sets, grids and formulas widgets share, and
// the names of the figures package figures draws. The site builder emits all
// of it for the page as the module gen/widgets.js.
package widget

import (
	"maps"
	"slices"
)

// figureNames maps a widget module (web/widgets/NAME.js) to the names of the
// figures package figures draws of it, in the order it draws them.
var figureNames = map[string][]string{
	"exponential-mechanism":    {"histogram"},
	"report-noisy-max":         {"histogram"},
	"epsilon-band":             {"distributions", "logratio"},
	"laplace-from-exponential": {"density"},
	"accuracy":                 {"cdf"},
	"permute-and-flip-loss":    {"loss"},
	"discrete-laplace":         {"pmf"},
	"smalldb":                  {"levels", "draw"},
	"mwem":                     {"rounds"},
	"pricing":                  {"revenue", "distribution", "curve"},
	"truthful":                 {"utility"},
	"billboard":                {"prices"},
	"audit":                    {"worst-pair", "logratio"},
	"svtstream":                {"stream"},
	"svtaudit":                 {"outputs"},
}

// formerNames maps the abbreviated names widget modules had before to their
// names now, so that a figure request written with an old name
// (#widget=expmech&…) still draws its widget.
var formerNames = map[string]string{
	"expmech":     "exponential-mechanism",
	"rnm":         "report-noisy-max",
	"epsband":     "epsilon-band",
	"laplaceem":   "laplace-from-exponential",
	"pfloss":      "permute-and-flip-loss",
	"dlaplace":    "discrete-laplace",
	"floatattack": "floating-point-attack",
}

// Name returns the name now of the widget module called name, which may be
// a name it had before; any other name is returned as it is.
func Name(name string) string {
	if now, ok := formerNames[name]; ok {
		return now
	}
	return name
}

// Figures returns the names of the figures of a widget, or nil if it has
// none.
func Figures(name string) []string { return slices.Clone(figureNames[name]) }

// WithFigures returns the widgets that have figures, sorted.
func WithFigures() []string { return slices.Sorted(maps.Keys(figureNames)) }
