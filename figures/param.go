package figures

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/number"
	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/validate"
)

// Values are a widget's parameters, read and checked against its Params.
type Values struct {
	text map[string]string
	num  map[string]float64
	list map[string][]float64
}

// resolve reads every param from raw (or its default), checking its range;
// numbers follow the link grammar (number.Link).
// Keys of raw that are not params are ignored: a page link carries other
// widgets' settings too.
func resolve(params []widget.Param, raw map[string]string) (Values, error) {
	v := Values{text: map[string]string{}, num: map[string]float64{}, list: map[string][]float64{}}
	for _, p := range params {
		s, ok := raw[p.Key]
		if !ok {
			s = p.Default
		}
		s = strings.TrimSpace(s)
		v.text[p.Key] = s
		switch p.Kind {
		case widget.Number, widget.Int:
			x, ok := number.Link(s)
			if !ok {
				return v, validate.Errorf(p.Key, "is not a number: %q", s)
			}
			if p.Kind == widget.Int && x != math.Trunc(x) {
				return v, validate.Errorf(p.Key, "must be a whole number, got %q", s)
			}
			if x < p.Min || x > p.Max {
				return v, validate.Errorf(p.Key, "must be in [%v, %v], got %v", p.Min, p.Max, x)
			}
			if p.Digits > 0 {
				x = number.RoundSig(x, p.Digits)
				v.text[p.Key] = strconv.FormatFloat(x, 'g', -1, 64)
			}
			v.num[p.Key] = x
		case widget.Enum:
			found := false
			for _, e := range p.Values {
				found = found || e == s
			}
			if !found {
				return v, validate.Errorf(p.Key, "must be one of %s, got %q", strings.Join(p.Values, ", "), s)
			}
		case widget.List:
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
				x, ok := number.Link(t)
				if !ok || x < p.Min || x > p.Max {
					return v, validate.Errorf(fmt.Sprintf("%s[%d]", p.Key, i), "must be a number in [%v, %v], got %q", p.Min, p.Max, t)
				}
				xs[i] = x
			}
			v.list[p.Key] = xs
		case widget.Text:
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
