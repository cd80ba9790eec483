package figures

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// ParamKind says how a parameter's text is read.
type ParamKind int

const (
	Number ParamKind = iota // a finite number in [Min, Max]
	Int                     // a whole number in [Min, Max]
	Enum                    // one of Values
	List                    // comma-separated finite numbers in [Min, Max], MinLen to MaxLen of them; "" is no list
	Text                    // any text of at most MaxLen characters matching Allowed (empty: anything)
)

// Param is one key of a widget's state. It mirrors the widget's schema in
// web/widgets/NAME.js: the same key, range and default, so that a figure
// drawn from a link shows what the page shows. The e2e test that exports
// every chart and compares the bytes with `dpplay figures` keeps them equal.
type Param struct {
	Key            string
	Kind           ParamKind
	Min, Max       float64
	Values         []string // Enum
	MinLen, MaxLen int      // List and Text
	Allowed        string   // Text: the characters it may contain
	Digits         int      // Number: significant digits kept, as the page rounds (0: all)
	Default        string   // as it is written in a URL
}

// Values are a widget's parameters, read and checked against its Params.
type Values struct {
	text map[string]string
	num  map[string]float64
	list map[string][]float64
}

// resolve reads every param from raw (or its default), checking its range.
// Keys of raw that are not params are ignored: a page link carries other
// widgets' settings too.
func resolve(params []Param, raw map[string]string) (Values, error) {
	v := Values{text: map[string]string{}, num: map[string]float64{}, list: map[string][]float64{}}
	for _, p := range params {
		s, ok := raw[p.Key]
		if !ok {
			s = p.Default
		}
		s = strings.TrimSpace(s)
		v.text[p.Key] = s
		switch p.Kind {
		case Number, Int:
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return v, validate.Errorf(p.Key, "is not a number: %q", s)
			}
			if p.Kind == Int && x != math.Trunc(x) {
				return v, validate.Errorf(p.Key, "must be a whole number, got %q", s)
			}
			if x < p.Min || x > p.Max {
				return v, validate.Errorf(p.Key, "must be in [%v, %v], got %v", p.Min, p.Max, x)
			}
			if p.Digits > 0 {
				x = roundSig(x, p.Digits)
				v.text[p.Key] = strconv.FormatFloat(x, 'g', -1, 64)
			}
			v.num[p.Key] = x
		case Enum:
			found := false
			for _, e := range p.Values {
				found = found || e == s
			}
			if !found {
				return v, validate.Errorf(p.Key, "must be one of %s, got %q", strings.Join(p.Values, ", "), s)
			}
		case List:
			if s == "" {
				if p.MinLen > 0 {
					return v, validate.Errorf(p.Key, "needs at least %d numbers", p.MinLen)
				}
				v.list[p.Key] = nil
				break
			}
			parts := strings.Split(s, ",")
			if len(parts) < p.MinLen || len(parts) > p.MaxLen {
				return v, validate.Errorf(p.Key, "needs %d to %d numbers, got %d", p.MinLen, p.MaxLen, len(parts))
			}
			xs := make([]float64, len(parts))
			for i, t := range parts {
				x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
				if err != nil || !(x >= p.Min && x <= p.Max) {
					return v, validate.Errorf(fmt.Sprintf("%s[%d]", p.Key, i), "must be a number in [%v, %v], got %q", p.Min, p.Max, t)
				}
				xs[i] = x
			}
			v.list[p.Key] = xs
		case Text:
			if len(s) > p.MaxLen {
				return v, validate.Errorf(p.Key, "is longer than %d characters", p.MaxLen)
			}
			if p.Allowed != "" && strings.Trim(s, p.Allowed) != "" {
				return v, validate.Errorf(p.Key, "may only contain %q, got %q", p.Allowed, s)
			}
		}
	}
	return v, nil
}

// Float returns a Number or Int param.
func (v Values) Float(key string) float64 { return v.num[key] }

// Int returns an Int param, or an Enum whose values are whole numbers.
func (v Values) Int(key string) int {
	if x, ok := v.num[key]; ok {
		return int(x)
	}
	n, _ := strconv.Atoi(v.text[key])
	return n
}

// Seed returns an Int param as a seed.
func (v Values) Seed(key string) uint64 { return uint64(v.num[key]) }

// Str returns a param's text.
func (v Values) Str(key string) string { return v.text[key] }

// List returns a List param; nil when it was empty.
func (v Values) List(key string) []float64 { return v.list[key] }

// Draws returns step × batch: how many draws a widget that draws in batches
// has made.
func (v Values) Draws() int { return v.Int("step") * v.Int("batch") }

// Coerce turns the raw values of a page link (or a lesson block) into values
// Build accepts, with the rule the page applies to its URL (web/state.js,
// coerce): an empty value is the default; a number outside [Min, Max] is
// clamped, an Int is rounded, a value that is not a number, not one of an
// Enum's values, a list of the wrong length or a text with other characters
// is replaced by the default, and list entries are clamped. Each change adds
// a note saying what was changed, prefixed by prefix (e.g. "meet."). Keys
// that are not the widget's params are kept as they are.
func Coerce(widget, prefix string, raw map[string]string) (map[string]string, []string) {
	out := maps.Clone(raw)
	if out == nil {
		out = map[string]string{}
	}
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	for _, p := range charts[widget].params {
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
			out[p.Key] = strconv.FormatFloat(x, 'g', -1, 64)
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
				parts[i] = strconv.FormatFloat(xs[i], 'g', -1, 64)
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
func shown(x float64) string { return strconv.FormatFloat(roundSig(x, 6), 'g', -1, 64) }

// shownText quotes at most 40 characters of a value for a note.
func shownText(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40])
	}
	return `"` + s + `"`
}

// Validate reports whether Build would accept params as the state of
// widget, without drawing anything.
func Validate(widget string, params map[string]string) error {
	c, ok := charts[widget]
	if !ok {
		return validate.Errorf("widget", "%q has no figures", widget)
	}
	_, err := resolve(c.params, params)
	return err
}
