package widget

import (
	"fmt"
	"slices"
	"strings"
)

// Fixing names the settings a link may add beside a widget's schema keys:
// "hide" (controls not shown) and "lock" (controls shown but fixed), each a
// comma-separated list of schema keys (w.hide=eps,seed). No schema uses
// these names (TestFixingNamesFree). web/state/values.js reads them the same way.
var Fixing = []string{"hide", "lock"}

// maxKeys is how many names of a hide or lock list are read.
const maxKeys = 64

// Keys returns the keys of widget's schema that raw, the value of a hide or
// lock setting, names: comma-separated, each trimmed of spaces, tabs and
// line breaks, empty names skipped, each key once, in the order given, at
// most 64 names read. A name that is not one of the widget's keys is left
// out with one note for all of them, starting with label. It is the page's
// rule (web/state/values.js, readKeys).
func Keys(widget, label, raw string) (keys, notes []string) {
	parts := strings.SplitN(raw, ",", maxKeys+1)
	if len(parts) > maxKeys {
		parts = parts[:maxKeys]
	}
	var unknown []string
	for _, part := range parts {
		k := strings.Trim(part, " \t\n\r")
		if k == "" {
			continue
		}
		known := slices.ContainsFunc(schemas[widget], func(p Param) bool { return p.Key == k })
		switch {
		case !known && !slices.Contains(unknown, k):
			unknown = append(unknown, k)
		case known && !slices.Contains(keys, k):
			keys = append(keys, k)
		}
	}
	if n := len(unknown); n > 0 {
		names := make([]string, 0, 3)
		for _, k := range unknown[:min(n, 3)] {
			names = append(names, shownText(k))
		}
		list := strings.Join(names, ", ")
		if n > 3 {
			list += fmt.Sprintf(" and %d more", n-3)
		}
		if n == 1 {
			notes = append(notes, fmt.Sprintf("%s: %s is not a setting of this widget, so it was ignored.", label, list))
		} else {
			notes = append(notes, fmt.Sprintf("%s: %s are not settings of this widget, so they were ignored.", label, list))
		}
	}
	return keys, notes
}
