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
	"expmech":   {"histogram"},
	"rnm":       {"histogram"},
	"epsband":   {"distributions", "logratio"},
	"laplaceem": {"density"},
	"accuracy":  {"cdf"},
	"pfloss":    {"loss"},
	"dlaplace":  {"pmf"},
	"smalldb":   {"levels", "draw"},
	"mwem":      {"rounds"},
	"pricing":   {"revenue", "distribution", "curve"},
	"truthful":  {"utility"},
	"billboard": {"prices"},
	"audit":     {"worst-pair", "logratio"},
	"svtstream": {"stream"},
	"svtaudit":  {"outputs"},
}

// Figures returns the names of the figures of a widget, or nil if it has
// none.
func Figures(name string) []string { return slices.Clone(figureNames[name]) }

// WithFigures returns the widgets that have figures, sorted.
func WithFigures() []string { return slices.Sorted(maps.Keys(figureNames)) }
