package number

import (
	"errors"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/dpplay/dpplay/core/arith"
)

// Reading is a number a person typed, as Typed read it.
type Reading struct {
	Value float64 // finite
	// Read is the value as read, for the page to show before it is used:
	// Format(RoundSig(Value, 10)), e.g. "0.3" for "0,3".
	Read string
	// Note says how the text was read where that is not its literal
	// reading (a comma taken for a decimal point, say), or is "".
	Note string
}

// What Typed says when it cannot read a text. The page shows these words.
const (
	MsgEmpty      = "Type a number."
	MsgUnreadable = "Not a number I can read."
	MsgInfinite   = "That has no finite value."
)

// Notes on how a text was read.
const (
	NoteComma    = "A comma is read as a decimal point."
	NoteGrouping = "The comma groups thousands."
	NoteDotGroup = "The point groups thousands and the comma is a decimal point."
	NoteLog      = "log is read as ln, the natural logarithm."
)

// Limits on what Typed reads.
const (
	MaxTyped = 200 // characters
	maxDepth = 32  // nested parentheses, signs, exponents and functions (arith's MaxDepth)
)

// Error is why Typed could not read a text; Error() is one of MsgEmpty,
// MsgUnreadable and MsgInfinite.
type Error struct{ Message string }

// Error returns the message the page shows.
func (e *Error) Error() string { return e.Message }

// Typed reads a number as a person types it, in a widget's number box, an
// exercise's answer or a lecture form; web/base/number.js (readTyped) is the same
// rule for the page. It understands:
//
//   - a decimal comma: a lone comma is a decimal point ("0,3" is 0.3, "1,000"
//     is 1); commas that group thousands before a decimal point ("1,234.5")
//     or in several groups ("1,234,567"); a point grouping thousands before a
//     decimal comma ("1.234,5");
//   - exponents (2.5e-3), percentages (12.5% is 0.125), signs, spaces, and the
//     minus, times and division signs − × · ÷;
//   - fractions and simple expressions: + − * / ^ (or **) with parentheses;
//     the constants e and pi (π); the functions exp, ln (log is read as ln),
//     sqrt (√), applied to a parenthesised expression or to the operand that
//     follows ("ln 2"); a number times a constant, a function or a
//     parenthesis without a sign ("2π", "3(1/4)").
//
// Identifiers ignore case. Anything else, text longer than MaxTyped
// characters or nested deeper than 32 levels, is an *Error with
// MsgUnreadable; an empty text MsgEmpty; a value that is not a finite
// number (1/0, ln 0, exp 1000) MsgInfinite. The text is read by
// core/arith and computed as it is read, so a part without a finite value
// before an unreadable one makes the whole MsgInfinite ("1/0 2").
func Typed(s string) (Reading, error) {
	s = strings.TrimFunc(s, typed.IsSpace)
	if s == "" {
		return Reading{}, &Error{MsgEmpty}
	}
	if utf8.RuneCountInString(s) > MaxTyped || !utf8.ValidString(s) {
		return Reading{}, &Error{MsgUnreadable}
	}
	r := &reader{}
	v, err := arith.Parse(s, &typed, r)
	switch {
	case errors.Is(err, errInfinite):
		return Reading{}, &Error{MsgInfinite}
	case err != nil:
		return Reading{}, &Error{MsgUnreadable}
	case !finite(v) || math.IsInf(RoundSig(v, 10), 0):
		// The last: a value within 1e298 of the largest float64 would be
		// shown as Infinity.
		return Reading{}, &Error{MsgInfinite}
	}
	v += 0 // -0 reads as 0
	return Reading{Value: v, Read: Format(RoundSig(v, 10)), Note: strings.Join(r.notes, " ")}, nil
}

// typed is the language of Typed: arith's grammar with the decimal comma,
// the typographic signs, percentages, implicit products and functions
// without brackets; names are letters only and ignore case.
var typed = arith.Language{
	Names:        []string{"e", "pi", "π"},
	Funcs:        []string{"exp", "ln", "log", "sqrt", "√"},
	FoldCase:     true,
	Percent:      true,
	Implicit:     true,
	BareCalls:    true,
	DecimalComma: true,
	Typographic:  true,
	MaxDepth:     maxDepth,
}

// errInfinite is a reader's error for a value that is not a finite number,
// so that Typed says the text has no finite value rather than that it is
// unreadable. Every other error of a reader or of arith is MsgUnreadable.
var (
	errInfinite   = errors.New(MsgInfinite)
	errUnreadable = errors.New(MsgUnreadable)
)

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// checked returns x, or errInfinite if it is not finite.
func checked(x float64) (float64, error) {
	if !finite(x) {
		return 0, errInfinite
	}
	return x, nil
}

// A reader computes a typed text's value as arith reads it, and collects
// the notes on how it read it, each once, in reading order.
type reader struct{ notes []string }

func (r *reader) note(n string) {
	for _, m := range r.notes {
		if m == n {
			return
		}
	}
	r.notes = append(r.notes, n)
}

// separatorNotes says how Typed read each spelling of a number's points
// and commas.
var separatorNotes = map[arith.Separators]string{
	arith.DecimalComma: NoteComma,
	arith.CommaGroups:  NoteGrouping,
	arith.PointGroups:  NoteDotGroup,
}

// Number is a number's value, noting how its commas were read.
func (r *reader) Number(lit arith.Literal) (float64, error) {
	if n := separatorNotes[lit.Separators]; n != "" {
		r.note(n)
	}
	return checked(lit.Value)
}

// Name is the value of a constant: e, or pi (π).
func (r *reader) Name(name string) (float64, error) {
	if name == "e" {
		return math.E, nil
	}
	return math.Pi, nil
}

var typedFuncs = map[string]func(float64) float64{"exp": math.Exp, "ln": math.Log, "log": math.Log, "sqrt": math.Sqrt, "√": math.Sqrt}

// Func applies exp, ln (log, noted), or sqrt (√) to one number.
func (r *reader) Func(name string) (func([]float64) (float64, error), error) {
	f := typedFuncs[name]
	if name == "log" {
		r.note(NoteLog)
	}
	return func(args []float64) (float64, error) {
		if len(args) != 1 {
			return 0, errUnreadable
		}
		return checked(f(args[0]))
	}, nil
}

// Unary is -x, +x or x% (x/100).
func (r *reader) Unary(op string, x float64) (float64, error) {
	switch op {
	case "-":
		return -x, nil
	case "%":
		return x / 100, nil
	}
	return x, nil
}

// Binary is x + y, x - y, x * y, x / y or x ^ y, which must be finite.
func (r *reader) Binary(op string, x, y float64) (float64, error) {
	switch op {
	case "+":
		return checked(x + y)
	case "-":
		return checked(x - y)
	case "*":
		return checked(x * y)
	case "/":
		return checked(x / y)
	}
	return checked(math.Pow(x, y))
}

// Cond is not in Typed's language.
func (r *reader) Cond(c, x, y float64) (float64, error) { return 0, errUnreadable }

// Index is not in Typed's language either.
func (r *reader) Index(x, i float64) (float64, error) { return 0, errUnreadable }
