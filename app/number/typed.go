package number

import (
	"math"
	"strings"
	"unicode/utf8"
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
	maxDepth = 32  // nested parentheses, signs and functions
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
// number (1/0, ln 0, exp 1000) MsgInfinite.
func Typed(s string) (Reading, error) {
	s = strings.TrimFunc(s, isSpace)
	if s == "" {
		return Reading{}, &Error{MsgEmpty}
	}
	if utf8.RuneCountInString(s) > MaxTyped || !utf8.ValidString(s) {
		return Reading{}, &Error{MsgUnreadable}
	}
	p := &typedParser{src: []rune(s)}
	v, ok := p.expr()
	p.skipSpace()
	switch {
	case !ok || p.pos != len(p.src):
		if p.infinite {
			return Reading{}, &Error{MsgInfinite}
		}
		return Reading{}, &Error{MsgUnreadable}
	case math.IsInf(v, 0) || math.IsNaN(v) || math.IsInf(RoundSig(v, 10), 0):
		// The last: a value within 1e298 of the largest float64 would be
		// shown as Infinity.
		return Reading{}, &Error{MsgInfinite}
	}
	v += 0 // -0 reads as 0
	return Reading{Value: v, Read: Format(RoundSig(v, 10)), Note: strings.Join(p.notes, " ")}, nil
}

// isSpace is what Typed skips: ASCII white space and the no-break and thin
// spaces a keyboard or a copied number may carry.
func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '\u2007', '\u2009', '\u202f':
		return true
	}
	return false
}

type typedParser struct {
	src      []rune
	pos      int
	depth    int
	notes    []string
	infinite bool // an operand was not finite
}

func (p *typedParser) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

// peek returns the next rune after spaces, or 0 at the end.
func (p *typedParser) peek() rune {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *typedParser) note(n string) {
	for _, m := range p.notes {
		if m == n {
			return
		}
	}
	p.notes = append(p.notes, n)
}

// finite records a value that is not finite, so that the text is reported
// as having no finite value rather than as unreadable.
func (p *typedParser) finite(v float64) (float64, bool) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		p.infinite = true
		return v, false
	}
	return v, true
}

// expr := term (('+' | '-') term)*
func (p *typedParser) expr() (float64, bool) {
	v, ok := p.term()
	for ok {
		switch p.peek() {
		case '+':
			p.pos++
			var w float64
			if w, ok = p.term(); ok {
				v, ok = p.finite(v + w)
			}
		case '-', '−', '–':
			p.pos++
			var w float64
			if w, ok = p.term(); ok {
				v, ok = p.finite(v - w)
			}
		default:
			return v, true
		}
	}
	return v, false
}

// term := unary (('*' | '×' | '·' | '⋅' | '/' | '÷') unary | implicit)*,
// where implicit is a product with an operand that starts with a letter,
// π, √ or '('.
func (p *typedParser) term() (float64, bool) {
	v, ok := p.unary()
	for ok {
		r := p.peek()
		var w float64
		switch {
		case r == '*' && !p.at("**"), r == '×', r == '·', r == '⋅':
			p.pos++
			if w, ok = p.unary(); ok {
				v, ok = p.finite(v * w)
			}
		case r == '/', r == '÷':
			p.pos++
			if w, ok = p.unary(); ok {
				v, ok = p.finite(v / w)
			}
		case r == '(' || r == 'π' || r == '√' || isLetter(r):
			if w, ok = p.power(); ok {
				v, ok = p.finite(v * w)
			}
		default:
			return v, true
		}
	}
	return v, false
}

// at reports whether the text at the current position starts with s.
func (p *typedParser) at(s string) bool {
	rs := []rune(s)
	if p.pos+len(rs) > len(p.src) {
		return false
	}
	for i, r := range rs {
		if p.src[p.pos+i] != r {
			return false
		}
	}
	return true
}

// unary := ('+' | '-') unary | power
func (p *typedParser) unary() (float64, bool) {
	switch p.peek() {
	case '+':
		p.pos++
		return p.nested(p.unary)
	case '-', '−', '–':
		p.pos++
		v, ok := p.nested(p.unary)
		return -v, ok
	}
	return p.power()
}

// nested calls f one level deeper, failing past maxDepth.
func (p *typedParser) nested(f func() (float64, bool)) (float64, bool) {
	if p.depth >= maxDepth {
		return 0, false
	}
	p.depth++
	v, ok := f()
	p.depth--
	return v, ok
}

// power := postfix (('^' | '**') unary)?, so 2^-1 is 1/2 and 2^3^2 is 2^9.
func (p *typedParser) power() (float64, bool) {
	v, ok := p.postfix()
	if !ok {
		return v, false
	}
	switch {
	case p.peek() == '^':
		p.pos++
	case p.at("**"):
		p.pos += 2
	default:
		return v, true
	}
	w, ok := p.nested(p.unary)
	if !ok {
		return 0, false
	}
	return p.finite(math.Pow(v, w))
}

// postfix := primary '%'?
func (p *typedParser) postfix() (float64, bool) {
	v, ok := p.primary()
	if ok && p.peek() == '%' {
		p.pos++
		v /= 100
	}
	return v, ok
}

// primary := number | constant | function | '(' expr ')'
func (p *typedParser) primary() (float64, bool) {
	r := p.peek()
	switch {
	case r == '(':
		p.pos++
		v, ok := p.nested(p.expr)
		if !ok || p.peek() != ')' {
			return 0, false
		}
		p.pos++
		return v, true
	case isDigitRune(r), r == '.', r == ',':
		return p.number()
	case r == 'π':
		p.pos++
		return math.Pi, true
	case r == '√':
		p.pos++
		return p.apply(math.Sqrt)
	case isLetter(r):
		start := p.pos
		for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
			p.pos++
		}
		switch strings.ToLower(string(p.src[start:p.pos])) {
		case "e":
			return math.E, true
		case "pi":
			return math.Pi, true
		case "exp":
			return p.apply(math.Exp)
		case "ln":
			return p.apply(math.Log)
		case "log":
			p.note(NoteLog)
			return p.apply(math.Log)
		case "sqrt":
			return p.apply(math.Sqrt)
		}
	}
	return 0, false
}

// apply reads a function's argument, a parenthesised expression or else the
// unary operand that follows, and applies f.
func (p *typedParser) apply(f func(float64) float64) (float64, bool) {
	var v float64
	var ok bool
	if p.peek() == '(' {
		v, ok = p.nested(p.primary)
	} else {
		v, ok = p.nested(p.unary)
	}
	if !ok {
		return 0, false
	}
	return p.finite(f(v))
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

func isDigitRune(r rune) bool { return '0' <= r && r <= '9' }

// number reads digits with points and commas, then an optional exponent,
// and resolves the separators (Typed's doc comment gives the rule).
func (p *typedParser) number() (float64, bool) {
	start := p.pos
	for p.pos < len(p.src) && (isDigitRune(p.src[p.pos]) || p.src[p.pos] == '.' || p.src[p.pos] == ',') {
		p.pos++
	}
	mant := string(p.src[start:p.pos])
	exp := ""
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		i := p.pos + 1
		if i < len(p.src) && (p.src[i] == '+' || p.src[i] == '-' || p.src[i] == '−') {
			i++
		}
		j := i
		for i < len(p.src) && isDigitRune(p.src[i]) {
			i++
		}
		if i > j { // otherwise the e is the constant, times the number
			exp = "e" + strings.Replace(string(p.src[p.pos+1:i]), "−", "-", 1)
			p.pos = i
		}
	}
	dec, ok := p.separators(mant)
	if !ok {
		return 0, false
	}
	v, ok := parseDecimal(dec + exp)
	if !ok {
		p.infinite = true
	}
	return v, ok
}

// separators turns digits with points and commas into a decimal with at
// most one point, noting how a comma was read.
func (p *typedParser) separators(m string) (string, bool) {
	commas, points := strings.Count(m, ","), strings.Count(m, ".")
	var whole, frac string
	var hasFrac bool
	switch {
	case commas == 0 && points <= 1:
		whole, frac, hasFrac = strings.Cut(m, ".")
	case commas == 1 && points == 0:
		whole, frac, hasFrac = strings.Cut(m, ",")
		p.note(NoteComma)
	case commas >= 2 && points == 0:
		if !grouped(m, ',') {
			return "", false
		}
		whole = m
		p.note(NoteGrouping)
	case commas >= 1 && points == 1 && strings.LastIndexByte(m, ',') < strings.IndexByte(m, '.'):
		whole, frac, hasFrac = strings.Cut(m, ".")
		if !grouped(whole, ',') {
			return "", false
		}
		p.note(NoteGrouping)
	case commas == 1 && points >= 1 && strings.LastIndexByte(m, '.') < strings.IndexByte(m, ','):
		whole, frac, hasFrac = strings.Cut(m, ",")
		if !grouped(whole, '.') {
			return "", false
		}
		p.note(NoteDotGroup)
	default:
		return "", false
	}
	whole = strings.NewReplacer(",", "", ".", "").Replace(whole)
	if whole == "" && frac == "" {
		return "", false
	}
	if whole == "" {
		whole = "0"
	}
	if !hasFrac || frac == "" {
		return whole, true
	}
	return whole + "." + frac, true
}

// grouped reports whether s is digits in groups separated by sep: a first
// group of one to three digits, then groups of exactly three.
func grouped(s string, sep byte) bool {
	groups := strings.Split(s, string(sep))
	if len(groups) < 2 || len(groups[0]) < 1 || len(groups[0]) > 3 {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return true
}
