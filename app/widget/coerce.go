package widget

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Coerce turns the raw values of a page link (or a lesson block) into values
// package figures accepts, with the rule the page applies to its URL
// (web/state.js, coerce): an empty value is the default; a number outside [Min, Max] is
// clamped, an Int is rounded, a value that is not a number, not one of an
// Enum's values, a list of the wrong length or a text with other characters
// is replaced by the default, and list entries are clamped. Numbers and list
// entries are then rounded to URLDigits significant digits, so a value read
// from a link is the one the link written from it holds. Each change adds
// a note saying what was changed, prefixed by prefix (e.g. "meet."). Keys
// that are not the widget's params are kept as they are.
func Coerce(widget, prefix string, raw map[string]string) (map[string]string, []string) {
	out := maps.Clone(raw)
	if out == nil {
		out = map[string]string{}
	}
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	for _, p := range schemas[widget] {
		s, ok := raw[p.Key]
		s = strings.TrimSpace(s)
		if !ok || s == "" {
			delete(out, p.Key)
			continue
		}
		label := prefix + p.Key
		switch p.Kind {
		case Number, Int:
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				note("%s: %s is not a number, so the default %s is used.", label, shownText(s), p.Default)
				delete(out, p.Key)
				continue
			}
			if p.Kind == Int {
				x = math.Floor(x + 0.5) // as JavaScript's Math.round
			}
			if x < p.Min || x > p.Max {
				c := min(max(x, p.Min), p.Max)
				note("%s = %s is outside %s … %s, so %s is used.", label, shown(x), shown(p.Min), shown(p.Max), shown(c))
				x = c
			}
			out[p.Key] = Format(RoundSig(x, p.URLDigits()))
		case Enum:
			if !slices.Contains(p.Values, s) {
				note("%s: %s is not one of %s, so %s is used.", label, shownText(s), strings.Join(p.Values, ", "), shownText(p.Default))
				delete(out, p.Key)
			}
		case List:
			parts := strings.Split(s, ",")
			xs := make([]float64, 0, len(parts))
			for _, t := range parts {
				x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					break
				}
				xs = append(xs, x)
			}
			if len(xs) < len(parts) || len(parts) < max(p.MinLen, 1) || len(parts) > p.MaxLen {
				note("%s: the list was not %d–%d numbers, so the default is used.", label, max(p.MinLen, 1), p.MaxLen)
				delete(out, p.Key)
				continue
			}
			clamped := false
			for i, x := range xs {
				if c := min(max(x, p.Min), p.Max); c != x {
					xs[i], clamped = c, true
				}
				parts[i] = Format(RoundSig(xs[i], p.URLDigits()))
			}
			if clamped {
				note("%s: values outside %s … %s were clamped.", label, shown(p.Min), shown(p.Max))
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
func shown(x float64) string { return Format(RoundSig(x, 6)) }

// shownText quotes at most 40 characters of a value for a note.
func shownText(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40])
	}
	return `"` + s + `"`
}

// RoundSig rounds x to digits significant digits, as JavaScript's
// +x.toPrecision(digits) does: to the nearest number of that many digits,
// and the larger one when x lies exactly halfway (strconv rounds such a tie
// to even).
func RoundSig(x float64, digits int) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	if math.IsInf(x, 0) || math.IsNaN(x) || digits < 1 {
		return y
	}
	// x's exact decimal value ends in the digit after the last one kept,
	// a 5, only if its shortest form does and that form is exact.
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	ds := strings.Replace(mant, ".", "", 1)
	if len(ds) != digits+1 || ds[digits] != '5' {
		return y
	}
	if r, ok := new(big.Rat).SetString(s); !ok || r.Cmp(new(big.Rat).SetFloat64(math.Abs(x))) != 0 {
		return y
	}
	n, _ := strconv.ParseUint(ds[:digits], 10, 64)
	e, _ := strconv.Atoi(exp)
	up, _ := strconv.ParseFloat(strconv.FormatUint(n+1, 10)+"e"+strconv.Itoa(e-digits+1), 64)
	return math.Copysign(up, x)
}

// URLText writes v, a value decoded from JSON (a number, a string, a list of
// them or null), as the page's URL does (web/state.js, encode): numbers as
// Format writes them, list entries joined by commas, null as "".
func URLText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return Format(x)
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

// Format writes x as JavaScript's String(x) does, which is how the page's
// URL and notes write numbers: positional from 1e-6 up to 1e21, otherwise
// with an exponent (1e-7, 1e+21).
func Format(x float64) string {
	if x == 0 {
		return "0"
	}
	if a := math.Abs(x); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
}
