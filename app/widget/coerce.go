package widget

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dpplay/dpplay/app/number"
)

// Coerce turns the raw values of a page link (or a lesson block) into values
// package figures accepts, with the rule the page applies to its URL
// (web/state/values.js, coerce): an empty value is the default; a number outside [Min, Max] is
// clamped, an Int is rounded, a value that is not a number, not one of an
// Enum's values, a list of the wrong length or a text with other characters
// is replaced by the default, and list entries are clamped. Numbers and list
// entries are then rounded to URLDigits significant digits, so a value read
// from a link is the one the link written from it holds. Each change, the
// rounding of an Int to a whole number and of a number to its digits too,
// adds a note saying what was changed, prefixed by prefix (e.g. "meet."). A hide
// or lock setting (Fixing) keeps the schema keys it names (Keys), with a
// note for the others; figures draw without it. Other keys that are not the
// widget's params are kept as they are.
func Coerce(widget, prefix string, raw map[string]string) (map[string]string, []string) {
	out := maps.Clone(raw)
	if out == nil {
		out = map[string]string{}
	}
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	for _, f := range Fixing {
		s, ok := raw[f]
		if !ok {
			continue
		}
		keys, changed := Keys(widget, prefix+f, s)
		notes = append(notes, changed...)
		if len(keys) == 0 {
			delete(out, f)
		} else {
			out[f] = strings.Join(keys, ",")
		}
	}
	for _, p := range schemas[widget] {
		s, ok := raw[p.Key]
		s = strings.Trim(s, " \t\n\r")
		if !ok || s == "" {
			delete(out, p.Key)
			continue
		}
		label := prefix + p.Key
		switch p.Kind {
		case Number, Int:
			x, ok := number.Link(s)
			if !ok {
				note("%s: %s is not a number, so the default %s is used.", label, shownText(s), p.Default)
				delete(out, p.Key)
				continue
			}
			if p.Kind == Int && x != math.Floor(x+0.5) {
				r := math.Floor(x + 0.5) // as JavaScript's Math.round
				note("%s = %s must be a whole number, so %s is used.", label, number.Format(x), number.Format(r))
				x = r
			}
			if x < p.Min || x > p.Max {
				c := min(max(x, p.Min), p.Max)
				note("%s = %s is outside %s … %s, so %s is used.", label, shown(x), shown(p.Min), shown(p.Max), shown(c))
				x = c
			}
			if r := number.RoundSig(x, p.URLDigits()); r != x {
				note("%s = %s is kept to %d significant digits, so %s is used.", label, number.Format(x), p.URLDigits(), number.Format(r))
				x = r
			}
			out[p.Key] = number.Format(x)
		case Enum:
			if !slices.Contains(p.Values, s) {
				note("%s: %s is not one of %s, so %s is used.", label, shownText(s), strings.Join(p.Values, ", "), shownText(p.Default))
				delete(out, p.Key)
			}
		case List:
			parts := strings.Split(s, ",")
			xs := make([]float64, 0, len(parts))
			for _, t := range parts {
				x, ok := number.Link(t)
				if !ok {
					break
				}
				xs = append(xs, x)
			}
			if len(xs) < len(parts) || len(parts) < max(p.MinLen, 1) || len(parts) > p.MaxLen {
				note("%s: the list was not %d–%d numbers, so the default is used.", label, max(p.MinLen, 1), p.MaxLen)
				delete(out, p.Key)
				continue
			}
			clamped, rounded := false, false
			for i, x := range xs {
				if c := min(max(x, p.Min), p.Max); c != x {
					xs[i], clamped = c, true
				}
				if r := number.RoundSig(xs[i], p.URLDigits()); r != xs[i] {
					xs[i], rounded = r, true
				}
				parts[i] = number.Format(xs[i])
			}
			if clamped {
				note("%s: values outside %s … %s were clamped.", label, shown(p.Min), shown(p.Max))
			}
			if rounded {
				note("%s: values were kept to %d significant digits.", label, p.URLDigits())
			}
			out[p.Key] = strings.Join(parts, ",")
		case Text:
			if len(s) > p.MaxLen {
				s = s[:p.MaxLen]
			}
			if p.Allowed != "" && strings.Trim(s, p.Allowed) != "" {
				note("%s: %s is not valid here, so the default is used.", label, shownText(s))
				delete(out, p.Key)
				continue
			}
			out[p.Key] = s
		}
	}
	return out, notes
}

// shown writes a number in a note as the page does: at most 6 significant
// digits.
func shown(x float64) string { return number.Format(number.RoundSig(x, 6)) }

// shownText quotes at most 40 characters of a value for a note.
func shownText(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40])
	}
	return `"` + s + `"`
}

// URLText writes v, a value decoded from JSON (a number, a string, a list of
// them or null), as the page's URL does (web/state/values.js, encode): numbers as
// Format writes them, list entries joined by commas, null as "".
func URLText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return number.Format(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = URLText(e)
		}
		return strings.Join(parts, ",")
	default:
		return fmt.Sprint(x)
	}
}
