// Package arith reads arithmetic that people write: one lexer and one
// recursive-descent parser for every expression language of dpplay, the
// auditor's scores (core/audit) and the numbers a person types
// (app/number). A Language says which names, functions, operators and
// number spellings a text may use; a Builder gives each piece its meaning
// as the parser reduces it, so that one caller compiles an expression to
// run later and another computes its value on the spot.
//
// # Tokens
//
// Spaces, tabs and line breaks separate tokens (with Typographic also form
// feed, vertical tab and the no-break, figure, thin and narrow no-break
// spaces). A number is written in one of two spellings:
//
//   - plain: decimal digits with an optional fraction, 1, 0.5 or .5 (a point
//     needs a digit after it);
//   - with DecimalComma: a run of digits, points and commas, read by the
//     separator rule: no comma and at most one point is the usual form
//     ("5." is 5); a lone comma and no point is a decimal point ("0,3" is
//     0.3, "1,000" is 1, ",5" is 0.5); two or more commas and no point
//     group thousands ("1,234,567"), and so do commas before a single point
//     ("1,234.5"); points before a single comma group thousands and the
//     comma is the decimal point ("1.234,5"). Groups are one to three
//     digits, then exactly three each; any other run is no number.
//
// Either may end in an exponent, e or E, an optional sign (+, -, and with
// Typographic −) and digits ("2.5e-3"); an e without digits after it is
// not part of the number, so "2e" is 2 followed by the name e. A number's
// value is the float64 nearest it, +Inf when it is too large for one and 0
// when it is too small.
//
// A name is a letter followed by letters (with Identifiers: a letter or _
// followed by letters, digits and _); with Typographic, π and √ are names
// of one character each. The operators are
//
//	( ) [ ] , + - * / % ^ ** ? : == != < <= > >= && || !
//
// and, with Logic, the words and, or and not; with Typographic, − and – are
// -, × · and ⋅ are *, and ÷ is /. A string in quotes, or any other
// character, is an error where the parser reaches it.
//
// # Grammar
//
// Loosest first; a part in brackets at the right is there only where the
// Language enables it:
//
//	expr    = or "?" expr ":" expr | or           [Logic; without it expr = sum]
//	or      = and { ("||" | "or") and }            [Logic]
//	and     = compare { ("&&" | "and") compare }   [Logic]
//	compare = sum { ("==" | "!=" | "<" | "<=" | ">" | ">=") sum }  [Logic]
//	sum     = product { ("+" | "-") product }
//	product = unary { ("*" | "/" | "%") unary | power }
//	unary   = ("-" | "+" | "!" | "not") unary | power   ["!", "not": Logic]
//	power   = postfix [ ("^" | "**") unary ]
//	postfix = operand { "[" expr "]" } [ "%" ]        ["[ ]": Index; "%": Percent]
//	operand = number | name | function args | "(" expr ")"
//	args    = "(" [ expr { "," expr } ] ")" | unary   [unary: BareCalls]
//
// In product, "%" is the remainder only without Percent (with it, "%" after
// an operand divides it by 100), and a power that follows with no operator
// is a product only with Implicit, when it starts with "(" or a name ("2π",
// "3(1/4)", "2 ln 2"). So -2^2 is -(2^2), 2^-1 is 2^(-1) and 2^3^2 is
// 2^(3^2). With DecimalComma a comma belongs to a number, so a function
// takes one argument.
package arith

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Language is the set of names, functions, operators and number
// spellings an expression may use (the package comment gives the grammar).
type Language struct {
	Names []string // names of values, in the order messages list them
	Funcs []string // names of functions, likewise

	Identifiers  bool // names may hold digits and _ (count_2); otherwise letters only, so ln2 is ln 2
	FoldCase     bool // names ignore ASCII case: PI is pi
	Logic        bool // comparisons, ?:, || or, && and, ! not
	Index        bool // x[i]
	Percent      bool // a % after an operand divides it by 100; otherwise % is the remainder
	Implicit     bool // a product without an operator: 2π, 3(1/4)
	BareCalls    bool // a function applies to the operand that follows it: ln 2
	DecimalComma bool // numbers may carry commas and points, read by the separator rule
	Typographic  bool // − – × · ⋅ ÷ π √ and the typographic spaces

	// MaxDepth bounds nesting: brackets, signs, exponents, conditions and
	// calls (a call with brackets is two levels). It must be from 1 to
	// MaxDepthLimit.
	MaxDepth int
	// MaxNodes bounds the operators, names and numbers of an expression;
	// 0 is no bound.
	MaxNodes int
}

// MaxDepthLimit is the largest MaxDepth that Parse accepts: deeper
// recursion could exhaust the stack.
const MaxDepthLimit = 1000

// IsSpace reports whether r separates tokens in l.
func (l *Language) IsSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r':
		return true
	case '\f', '\v', '\u00a0', '\u2007', '\u2009', '\u202f':
		return l.Typographic
	}
	return false
}

// Separators says how a number's points and commas were read.
type Separators int

const (
	Plain        Separators = iota // no comma, at most one point: 1.5
	DecimalComma                   // a lone comma is the decimal point: 0,3
	CommaGroups                    // commas group thousands: 1,234,567 or 1,234.5
	PointGroups                    // points group thousands before a decimal comma: 1.234,5
)

// A Literal is a number as the text writes it.
type Literal struct {
	Text       string     // as written, exponent included
	Value      float64    // the nearest float64; +Inf if too large, 0 if too small
	Separators Separators // how its points and commas were read
}

// A Builder gives an expression's pieces their meaning. Parse calls it as
// it reduces each piece, left to right, so a value computed on the spot is
// computed in reading order; the first error a method returns ends the
// parse, and Parse reports it at the piece's position.
//
// An op is the operator as the grammar writes it ("-" for a typed −, "**"
// and "^" alike, "and" and "&&" alike), with "%" in Unary for a percent
// sign and "*" in Binary for an implicit product. Func is called when a
// function's name is read, before its arguments, and returns what applies
// it to them.
type Builder[V any] interface {
	Number(lit Literal) (V, error)
	Name(name string) (V, error)
	Func(name string) (func(args []V) (V, error), error)
	Unary(op string, x V) (V, error)
	Binary(op string, x, y V) (V, error)
	Cond(c, x, y V) (V, error)
	Index(x, i V) (V, error)
}

// An Error is why Parse refused a text: a syntax error, or (in Err) the
// error a Builder returned, at the piece it was building.
type Error struct {
	Pos    int    // byte offset in the text
	Column int    // the same position in characters, from 1
	Msg    string // what is wrong, without the position
	Err    error  // the Builder's error, or nil for a syntax error
}

// Error returns the message and its column: "unexpected “)” (column 4)".
func (e *Error) Error() string { return e.Msg + " (column " + strconv.Itoa(e.Column) + ")" }

// Unwrap returns the Builder's error, or nil.
func (e *Error) Unwrap() error { return e.Err }

// Parse reads src in the language l and returns the value b builds for the
// whole text. Its errors are *Error, except for a Language it cannot use
// (MaxDepth outside 1 to MaxDepthLimit, MaxNodes below 0) or a nil l or b.
// Time and memory grow linearly with len(src).
func Parse[V any](src string, l *Language, b Builder[V]) (V, error) {
	var zero V
	switch {
	case l == nil || b == nil:
		return zero, errors.New("arith: Parse needs a Language and a Builder")
	case l.MaxDepth < 1 || l.MaxDepth > MaxDepthLimit:
		return zero, errors.New("arith: Language.MaxDepth must be from 1 to " + strconv.Itoa(MaxDepthLimit))
	case l.MaxNodes < 0:
		return zero, errors.New("arith: Language.MaxNodes must not be negative")
	}
	p := &parser[V]{lex: lexer{src: src, l: l}, l: l, b: b}
	p.next()
	v, err := p.expr()
	if err == nil && p.tok.kind != tEOF {
		err = p.unexpected()
	}
	if err != nil {
		return zero, err
	}
	return v, nil
}

// --- Tokens.

type tokKind uint8

const (
	tEOF tokKind = iota
	tNum
	tName
	tOp
	tBad // a character or number l cannot read; text is why
)

type token struct {
	kind tokKind
	pos  int    // byte offset in the source
	text string // the operator, the name (case folded), the number as written, or why it is bad
	lit  Literal
}

// describe names t as a message says it.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of the expression"
	case tNum:
		return "number " + t.text
	case tName:
		return "name " + t.text
	}
	return "“" + t.text + "”"
}

// ops are the ASCII operators, longest first where one is a prefix of
// another.
var ops = []string{"**", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "^", "(", ")", "[", "]", ",", "?", ":", "<", ">", "!"}

// typographic maps the typographic operators to their ASCII spelling.
var typographic = map[rune]string{'−': "-", '–': "-", '×': "*", '·': "*", '⋅': "*", '÷': "/"}

type lexer struct {
	src string
	off int // next byte to scan
	l   *Language
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// digitAt reports whether s has a digit at byte i.
func digitAt(s string, i int) bool { return i < len(s) && isDigit(s[i]) }

// next scans the next token. A character or number it cannot read is a
// tBad token, which the parser reports when it reaches it: a value a
// Builder computes before that point is computed, and its error wins.
func (x *lexer) next() token {
	s := x.src
	for x.off < len(s) {
		r, n := utf8.DecodeRuneInString(s[x.off:])
		if !x.l.IsSpace(r) {
			break
		}
		x.off += n
	}
	start := x.off
	if start == len(s) {
		return token{kind: tEOF, pos: start}
	}
	c := s[start]
	r, n := utf8.DecodeRuneInString(s[start:])
	switch {
	case isDigit(c) || c == '.' && (x.l.DecimalComma || digitAt(s, start+1)) || c == ',' && x.l.DecimalComma:
		return x.number(start)
	case isLetter(c) || c == '_' && x.l.Identifiers:
		i := start + 1
		for i < len(s) && (isLetter(s[i]) || x.l.Identifiers && (s[i] == '_' || isDigit(s[i]))) {
			i++
		}
		x.off = i
		name := s[start:i]
		if x.l.FoldCase {
			name = strings.ToLower(name)
		}
		if x.l.Logic && (name == "and" || name == "or" || name == "not") {
			return token{kind: tOp, pos: start, text: name}
		}
		return token{kind: tName, pos: start, text: name}
	case x.l.Typographic && (r == 'π' || r == '√'):
		x.off += n
		return token{kind: tName, pos: start, text: string(r)}
	case c == '"' || c == '\'' || c == '`':
		x.off = len(s)
		return token{kind: tBad, pos: start, text: "a string is not a number; an expression is arithmetic on " + list(x.l.Names)}
	}
	if op, ok := typographic[r]; ok && x.l.Typographic {
		x.off += n
		return token{kind: tOp, pos: start, text: op}
	}
	for _, op := range ops {
		if strings.HasPrefix(s[start:], op) {
			x.off += len(op)
			return token{kind: tOp, pos: start, text: op}
		}
	}
	x.off = len(s)
	return token{kind: tBad, pos: start, text: "unexpected character “" + string(r) + "”"}
}

// number scans a number from start in l's spelling.
func (x *lexer) number(start int) token {
	s := x.src
	i := start
	if x.l.DecimalComma {
		for i < len(s) && (isDigit(s[i]) || s[i] == '.' || s[i] == ',') {
			i++
		}
	} else {
		for digitAt(s, i) {
			i++
		}
		if i < len(s) && s[i] == '.' && digitAt(s, i+1) {
			for i++; digitAt(s, i); i++ {
			}
		}
	}
	mant, exp := s[start:i], ""
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j, sign := i+1, ""
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			sign = s[j : j+1]
			j++
		} else if x.l.Typographic && strings.HasPrefix(s[j:], "−") {
			sign = "-"
			j += len("−")
		}
		k := j
		for digitAt(s, k) {
			k++
		}
		if k > j {
			exp = "e" + sign + s[j:k]
			i = k
		}
	}
	x.off = i
	dec, sep := mant, Plain
	if x.l.DecimalComma {
		var ok bool
		if dec, sep, ok = separators(mant); !ok {
			return token{kind: tBad, pos: start, text: "the points and commas of " + s[start:i] + " make no number"}
		}
	}
	// The grammar has checked the syntax, so an error is a range error:
	// ParseFloat then gives ±Inf or 0, as the Literal says.
	v, _ := strconv.ParseFloat(dec+exp, 64)
	return token{kind: tNum, pos: start, text: s[start:i], lit: Literal{Text: s[start:i], Value: v, Separators: sep}}
}

// separators turns digits with points and commas into a decimal with at
// most one point, by the rule of the package comment.
func separators(m string) (string, Separators, bool) {
	commas, points := strings.Count(m, ","), strings.Count(m, ".")
	var whole, frac string
	sep := Plain
	switch {
	case commas == 0 && points <= 1:
		whole, frac, _ = strings.Cut(m, ".")
	case commas == 1 && points == 0:
		whole, frac, _ = strings.Cut(m, ",")
		sep = DecimalComma
	case commas >= 2 && points == 0:
		if !grouped(m, ',') {
			return "", 0, false
		}
		whole, sep = m, CommaGroups
	case commas >= 1 && points == 1 && strings.LastIndexByte(m, ',') < strings.IndexByte(m, '.'):
		whole, frac, _ = strings.Cut(m, ".")
		if !grouped(whole, ',') {
			return "", 0, false
		}
		sep = CommaGroups
	case commas == 1 && points >= 1 && strings.LastIndexByte(m, '.') < strings.IndexByte(m, ','):
		whole, frac, _ = strings.Cut(m, ",")
		if !grouped(whole, '.') {
			return "", 0, false
		}
		sep = PointGroups
	default:
		return "", 0, false
	}
	whole = strings.NewReplacer(",", "", ".", "").Replace(whole)
	switch {
	case whole == "" && frac == "":
		return "", 0, false
	case whole == "":
		whole = "0"
	}
	if frac == "" {
		return whole, sep, true
	}
	return whole + "." + frac, sep, true
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

// list writes names as a sentence does: "a, b and c".
func list(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// --- Parser.

type parser[V any] struct {
	lex   lexer
	l     *Language
	b     Builder[V]
	tok   token
	depth int
	nodes int
}

func (p *parser[V]) next() { p.tok = p.lex.next() }

// is reports whether the current token is the operator op.
func (p *parser[V]) is(op string) bool { return p.tok.kind == tOp && p.tok.text == op }

func (p *parser[V]) errorAt(pos int, msg string) *Error {
	return &Error{Pos: pos, Column: utf8.RuneCountInString(p.lex.src[:pos]) + 1, Msg: msg}
}

// built returns what a Builder method returned, its error placed at pos.
func (p *parser[V]) built(pos int, v V, err error) (V, error) {
	if err != nil {
		e := p.errorAt(pos, err.Error())
		e.Err = err
		var zero V
		return zero, e
	}
	return v, nil
}

// unexpected reports the current token where the grammar has no place for
// it; a tBad token says what is wrong with it.
func (p *parser[V]) unexpected() error {
	if p.tok.kind == tBad {
		return p.errorAt(p.tok.pos, p.tok.text)
	}
	return p.errorAt(p.tok.pos, "unexpected "+p.tok.describe())
}

// expected reports that want should stand where the current token is.
func (p *parser[V]) expected(want string) error {
	if p.tok.kind == tBad {
		return p.unexpected()
	}
	return p.errorAt(p.tok.pos, "expected "+want+", found "+p.tok.describe())
}

// node counts one more operator, name or number against l.MaxNodes.
func (p *parser[V]) node() error {
	p.nodes++
	if p.l.MaxNodes > 0 && p.nodes > p.l.MaxNodes {
		return p.errorAt(p.tok.pos, "the expression has more than "+strconv.Itoa(p.l.MaxNodes)+" operators, names and numbers")
	}
	return nil
}

// nested calls f one level deeper, failing past l.MaxDepth.
func (p *parser[V]) nested(f func() (V, error)) (V, error) {
	if p.depth >= p.l.MaxDepth {
		var zero V
		return zero, p.errorAt(p.tok.pos, "the expression nests more than "+strconv.Itoa(p.l.MaxDepth)+" levels deep")
	}
	p.depth++
	v, err := f()
	p.depth--
	return v, err
}

// expr parses a condition, or a sum in a language without Logic.
func (p *parser[V]) expr() (V, error) {
	if !p.l.Logic {
		return p.sum()
	}
	c, err := p.logic(0)
	if err != nil || !p.is("?") {
		return c, err
	}
	pos := p.tok.pos
	p.next()
	x, err := p.nested(p.expr)
	if err != nil {
		return x, err
	}
	if !p.is(":") {
		var zero V
		return zero, p.expected("“:” of the “?” at column " + strconv.Itoa(utf8.RuneCountInString(p.lex.src[:pos])+1))
	}
	p.next()
	y, err := p.nested(p.expr)
	if err != nil {
		return y, err
	}
	v, err := p.b.Cond(c, x, y)
	return p.built(pos, v, err)
}

// logicLevels are Logic's binary operators by precedence, loosest first.
var logicLevels = [][]string{{"||", "or"}, {"&&", "and"}, {"==", "!=", "<", "<=", ">", ">="}}

// logic parses the operators of logicLevels[l:], then a sum.
func (p *parser[V]) logic(l int) (V, error) {
	if l == len(logicLevels) {
		return p.sum()
	}
	return p.left(logicLevels[l], func() (V, error) { return p.logic(l + 1) })
}

func (p *parser[V]) sum() (V, error) { return p.left([]string{"+", "-"}, p.product) }

// left parses operands joined left to right by the operators ops.
func (p *parser[V]) left(ops []string, operand func() (V, error)) (V, error) {
	x, err := operand()
	for err == nil && p.tok.kind == tOp && contains(ops, p.tok.text) {
		op, pos := p.tok.text, p.tok.pos
		if err = p.node(); err != nil {
			break
		}
		p.next()
		var y V
		if y, err = operand(); err != nil {
			break
		}
		x, err = p.b.Binary(op, x, y)
		x, err = p.built(pos, x, err)
	}
	return x, err
}

// product parses unary operands joined by *, / and (without Percent) %,
// and with Implicit by nothing before "(" or a name.
func (p *parser[V]) product() (V, error) {
	x, err := p.unary()
	for err == nil {
		op, pos := p.tok.text, p.tok.pos
		var y V
		switch {
		case p.is("*") || p.is("/") || p.is("%") && !p.l.Percent:
			if err = p.node(); err != nil {
				return x, err
			}
			p.next()
			y, err = p.unary()
		case p.l.Implicit && (p.is("(") || p.tok.kind == tName):
			op = "*"
			y, err = p.power()
		default:
			return x, nil
		}
		if err == nil {
			x, err = p.b.Binary(op, x, y)
			x, err = p.built(pos, x, err)
		}
	}
	return x, err
}

// unary parses a sign or a negation, then a power.
func (p *parser[V]) unary() (V, error) {
	if !(p.is("-") || p.is("+") || p.l.Logic && (p.is("!") || p.is("not"))) {
		return p.power()
	}
	op, pos := p.tok.text, p.tok.pos
	if err := p.node(); err != nil {
		var zero V
		return zero, err
	}
	p.next()
	x, err := p.nested(p.unary)
	if err != nil {
		return x, err
	}
	x, err = p.b.Unary(op, x)
	return p.built(pos, x, err)
}

// power parses x ^ y, right to left; y may carry a sign.
func (p *parser[V]) power() (V, error) {
	x, err := p.postfix()
	if err != nil || !(p.is("^") || p.is("**")) {
		return x, err
	}
	op, pos := p.tok.text, p.tok.pos
	if err := p.node(); err != nil {
		return x, err
	}
	p.next()
	y, err := p.nested(p.unary)
	if err != nil {
		return y, err
	}
	x, err = p.b.Binary(op, x, y)
	return p.built(pos, x, err)
}

// postfix parses an operand, its indexes and its percent sign.
func (p *parser[V]) postfix() (V, error) {
	x, err := p.operand()
	for err == nil && p.l.Index && p.is("[") {
		pos := p.tok.pos
		if err = p.node(); err != nil {
			break
		}
		p.next()
		var i V
		if i, err = p.nested(p.expr); err != nil {
			break
		}
		if !p.is("]") {
			return i, p.expected("“]”")
		}
		p.next()
		x, err = p.b.Index(x, i)
		x, err = p.built(pos, x, err)
	}
	if err == nil && p.l.Percent && p.is("%") {
		pos := p.tok.pos
		p.next()
		x, err = p.b.Unary("%", x)
		x, err = p.built(pos, x, err)
	}
	return x, err
}

// operand parses a number, a name, a call or a bracketed expression.
func (p *parser[V]) operand() (V, error) {
	var zero V
	if err := p.node(); err != nil {
		return zero, err
	}
	t := p.tok
	switch {
	case t.kind == tNum:
		p.next()
		v, err := p.b.Number(t.lit)
		return p.built(t.pos, v, err)
	case t.kind == tName:
		p.next()
		switch {
		case contains(p.l.Funcs, t.text):
			return p.call(t)
		case contains(p.l.Names, t.text):
			v, err := p.b.Name(t.text)
			return p.built(t.pos, v, err)
		case p.is("(") && !p.l.Implicit:
			return zero, p.errorAt(t.pos, "unknown function "+t.text+"; the functions are "+list(p.l.Funcs))
		}
		return zero, p.errorAt(t.pos, "unknown name "+t.text+"; the names are "+list(p.l.Names))
	case p.is("("):
		p.next()
		v, err := p.nested(p.expr)
		if err != nil {
			return v, err
		}
		if !p.is(")") {
			return zero, p.expected("“)”")
		}
		p.next()
		return v, nil
	}
	return zero, p.unexpected()
}

// call parses the arguments of the function named by t and applies it.
func (p *parser[V]) call(t token) (V, error) {
	var zero V
	f, err := p.b.Func(t.text)
	if err != nil {
		return p.built(t.pos, zero, err)
	}
	var args []V
	switch {
	case p.is("("):
		_, err = p.nested(func() (V, error) {
			p.next()
			for !p.is(")") {
				if len(args) > 0 {
					if !p.is(",") {
						return zero, p.expected("“,” or “)”")
					}
					p.next()
				}
				a, err := p.nested(p.expr)
				if err != nil {
					return zero, err
				}
				args = append(args, a)
			}
			p.next()
			return zero, nil
		})
	case p.l.BareCalls:
		var a V
		a, err = p.nested(p.unary)
		args = []V{a}
	default:
		err = p.errorAt(t.pos, t.text+" takes its arguments in brackets: "+t.text+"(…)")
	}
	if err != nil {
		return zero, err
	}
	v, err := f(args)
	return p.built(t.pos, v, err)
}
