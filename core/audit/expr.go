package audit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxExpressionLength bounds the length of a score or sensitivity
// expression in bytes; a score the page's text field holds is far shorter.
const MaxExpressionLength = 400

// maxNodes bounds the number of operators, names and numbers in one
// expression.
const maxNodes = 200

// An Expr is a compiled score or sensitivity expression.
//
// The grammar is arithmetic over the data set's counts, with the usual
// precedence, loosest first:
//
//	c ? a : b                   conditional (c true or false, a and b numbers)
//	a || b, a or b              either
//	a && b, a and b             both
//	== != < <= > >=             comparison of numbers
//	+ -                         sum, difference
//	* / %                       product, quotient, remainder (of whole numbers)
//	- + ! not                   sign, negation
//	a ^ b, a ** b               power (right to left: 2^3^2 = 2^9)
//	count[i]  f(…)  (…)  1.5  r  names, calls, brackets, numbers (1, 0.5, 1e-3)
//
// The names are count (the count vector, indexed from 0), r (the candidate,
// in a score only), n (the total of the counts) and k (the number of
// candidates). The functions are abs, floor, ceil and round of a number,
// min and max of one or more numbers or of count, sum(count) and
// len(count). Every number is a float64; / is true division; % needs whole
// numbers and a divisor other than 0; an index must be a whole number
// from 0 to k − 1. An expression must give a number, not a comparison.
// This is the subset of the expr-lang language (github.com/expr-lang/expr)
// that the auditor offered; a test compares the two on it.
type Expr struct {
	src   string
	param setting
	eval  numFn
}

// exprEnv is what an expression sees.
type exprEnv struct {
	count   []int
	r, n, k float64
}

type (
	numFn  func(*exprEnv) (float64, error)
	boolFn func(*exprEnv) (bool, error)
)

// CompileScore compiles a score u(x, r) written over count (the count
// vector), r (the candidate index), n (the total) and k (the number of
// candidates), for example "count[r] - count[(r+1)%3]". The expression must
// give a number; a bad expression is an error that names the position.
func CompileScore(src string) (*Expr, error) { return compile(scoreSetting, src, true) }

// CompileSensitivity compiles a sensitivity Δ written over count, n and k:
// a number such as "1", or "1/max(n,1)" for the mistake of computing Δ from
// the data set itself.
func CompileSensitivity(src string) (*Expr, error) { return compile(sensitivitySetting, src, false) }

func compile(param setting, src string, withR bool) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, refuse(param, "is empty; write an expression such as count[r]")
	}
	if len(src) > MaxExpressionLength {
		return nil, refuse(param, "is %d characters long; at most %d are allowed", len(src), MaxExpressionLength)
	}
	p := &parser{src: src, withR: withR}
	p.next()
	v, err := p.ternary()
	if p.err != nil {
		err = p.err
	}
	if err == nil && p.tok.kind != tEOF {
		err = p.errorf(p.tok.pos, "unexpected %s", p.tok.describe())
	}
	if err == nil && v.kind != vNum {
		err = p.errorf(0, "the expression gives %s, not a number", v.kind)
	}
	if err != nil {
		return nil, refuse(param, "%s", err.Error())
	}
	return &Expr{src: src, param: param, eval: v.num}, nil
}

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// value runs the expression on env and checks that the result is finite.
func (e *Expr) value(env *exprEnv, at func() string) (float64, error) {
	f, err := e.eval(env)
	if err != nil {
		return 0, refuse(e.param, "%s fails: %s", at(), err.Error())
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, refuse(e.param, "%s gives %v (a division by zero?); scores must be finite numbers", at(), f)
	}
	return f, nil
}

// Score evaluates u(count, r).
func (e *Expr) Score(count []int, r int) (float64, error) {
	n := 0
	for _, c := range count {
		n += c
	}
	return e.value(&exprEnv{count: count, r: float64(r), n: float64(n), k: float64(len(count))}, func() string {
		return "at count = " + ints(count) + ", r = " + itoa(r)
	})
}

// Sensitivity evaluates Δ(count), which must be positive.
func (e *Expr) Sensitivity(count []int) (float64, error) {
	n := 0
	for _, c := range count {
		n += c
	}
	at := func() string { return "at count = " + ints(count) }
	d, err := e.value(&exprEnv{count: count, n: float64(n), k: float64(len(count))}, at)
	if err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, refuse(e.param, "%s gives %v; Δ must be positive", at(), d)
	}
	return d, nil
}

// exprError is a compile or run-time error of an expression.
type exprError string

// Error returns the message.
func (e exprError) Error() string { return string(e) }

// --- Tokens.

type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tName
	tOp
)

type token struct {
	kind tokKind
	pos  int // byte offset in the source
	text string
	num  float64
}

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

// ops are the operators and punctuation, longest first where one is a
// prefix of another.
var ops = []string{"**", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "^", "(", ")", "[", "]", ",", "?", ":", "<", ">", "!"}

// --- Values.

type valKind int

const (
	vNum valKind = iota
	vBool
	vList
)

// String names the kind as a message says it.
func (k valKind) String() string {
	switch k {
	case vBool:
		return "true or false (bool)"
	case vList:
		return "the whole count vector"
	}
	return "a number"
}

// val is a compiled subexpression: a number, a truth value or the count
// vector (which only indexing, min, max, sum and len take).
type val struct {
	kind  valKind
	num   numFn
	truth boolFn
}

// --- Parser.

type parser struct {
	src   string
	withR bool
	off   int // next byte to scan
	tok   token
	nodes int
	err   error
}

func (p *parser) errorf(pos int, format string, a ...any) error {
	return exprError(fmt.Sprintf(format, a...) + " (column " + strconv.Itoa(column(p.src, pos)) + ")")
}

// column is the 1-based column, in characters, of byte offset pos.
func column(src string, pos int) int {
	if pos > len(src) {
		pos = len(src)
	}
	return len([]rune(src[:pos])) + 1
}

// next scans the next token into p.tok; a character outside the grammar
// sets p.err.
func (p *parser) next() {
	s := p.src
	for p.off < len(s) && (s[p.off] == ' ' || s[p.off] == '\t' || s[p.off] == '\n' || s[p.off] == '\r') {
		p.off++
	}
	start := p.off
	if start == len(s) {
		p.tok = token{kind: tEOF, pos: start}
		return
	}
	c := s[start]
	switch {
	case c >= '0' && c <= '9' || c == '.' && start+1 < len(s) && s[start+1] >= '0' && s[start+1] <= '9':
		i := start
		digits := func() {
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		}
		digits()
		if i < len(s) && s[i] == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
			digits()
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if j < len(s) && s[j] >= '0' && s[j] <= '9' {
				i = j
				digits()
			}
		}
		f, err := strconv.ParseFloat(s[start:i], 64)
		if err != nil || math.IsInf(f, 0) {
			p.fail(p.errorf(start, "the number %s is too large", s[start:i]))
			return
		}
		p.off = i
		p.tok = token{kind: tNum, pos: start, text: s[start:i], num: f}
		return
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		i := start + 1
		for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
			i++
		}
		p.off = i
		p.tok = token{kind: tName, pos: start, text: s[start:i]}
		switch p.tok.text {
		case "and", "or", "not":
			p.tok.kind = tOp
		}
		return
	case c == '"' || c == '\'' || c == '`':
		p.fail(p.errorf(start, "a string is not a number; scores are arithmetic on count, r, n and k"))
		return
	}
	for _, op := range ops {
		if strings.HasPrefix(s[start:], op) {
			p.off = start + len(op)
			p.tok = token{kind: tOp, pos: start, text: op}
			return
		}
	}
	p.fail(p.errorf(start, "unexpected character %s", "“"+string([]rune(s[start:])[0])+"”"))
}

// fail records the first error and ends the input.
func (p *parser) fail(err error) {
	if p.err == nil {
		p.err = err
	}
	p.tok = token{kind: tEOF, pos: len(p.src)}
	p.off = len(p.src)
}

// is reports whether the current token is the operator op.
func (p *parser) is(op string) bool { return p.tok.kind == tOp && p.tok.text == op }

// node counts one more node against maxNodes.
func (p *parser) node() error {
	if p.err != nil {
		return p.err
	}
	p.nodes++
	if p.nodes > maxNodes {
		return p.errorf(p.tok.pos, "the expression has more than %d operators, names and numbers", maxNodes)
	}
	return nil
}

func (p *parser) want(kind valKind, v val, pos int, what string) error {
	if v.kind != kind {
		return p.errorf(pos, "%s needs %s, not %s", what, kind, v.kind)
	}
	return nil
}

// ternary parses c ? a : b (right to left) or a looser expression.
func (p *parser) ternary() (val, error) {
	c, err := p.binary(0)
	if err != nil || !p.is("?") {
		return c, err
	}
	pos := p.tok.pos
	if err := p.want(vBool, c, pos, "“?”"); err != nil {
		return val{}, err
	}
	p.next()
	a, err := p.ternary()
	if err != nil {
		return val{}, err
	}
	if !p.is(":") {
		return val{}, p.errorf(p.tok.pos, "expected “:” of the “?” at column %d, found %s", column(p.src, pos), p.tok.describe())
	}
	p.next()
	b, err := p.ternary()
	if err != nil {
		return val{}, err
	}
	if err := p.want(vNum, a, pos, "“?”"); err != nil {
		return val{}, err
	}
	if err := p.want(vNum, b, pos, "“:”"); err != nil {
		return val{}, err
	}
	cond, x, y := c.truth, a.num, b.num
	return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
		t, err := cond(e)
		if err != nil {
			return 0, err
		}
		if t {
			return x(e)
		}
		return y(e)
	}}, nil
}

// levels are the binary operators by precedence, loosest first.
var levels = [][]string{{"||", "or"}, {"&&", "and"}, {"==", "!=", "<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

// binary parses the left-to-right binary operators of levels[l:].
func (p *parser) binary(l int) (val, error) {
	if l == len(levels) {
		return p.unary()
	}
	a, err := p.binary(l + 1)
	for err == nil {
		op, pos := p.tok.text, p.tok.pos
		if p.tok.kind != tOp || !contains(levels[l], op) {
			break
		}
		if err = p.node(); err != nil {
			break
		}
		p.next()
		var b val
		if b, err = p.binary(l + 1); err != nil {
			break
		}
		a, err = p.combine(op, pos, a, b)
	}
	return a, err
}

// combine builds a op b.
func (p *parser) combine(op string, pos int, a, b val) (val, error) {
	what := "“" + op + "”"
	switch op {
	case "||", "or", "&&", "and":
		if err := p.want(vBool, a, pos, what); err != nil {
			return val{}, err
		}
		if err := p.want(vBool, b, pos, what); err != nil {
			return val{}, err
		}
		x, y, and := a.truth, b.truth, op == "&&" || op == "and"
		return val{kind: vBool, truth: func(e *exprEnv) (bool, error) {
			t, err := x(e)
			if err != nil || t != and {
				return t, err
			}
			return y(e)
		}}, nil
	}
	if err := p.want(vNum, a, pos, what); err != nil {
		return val{}, err
	}
	if err := p.want(vNum, b, pos, what); err != nil {
		return val{}, err
	}
	x, y := a.num, b.num
	both := func(e *exprEnv) (float64, float64, error) {
		u, err := x(e)
		if err != nil {
			return 0, 0, err
		}
		v, err := y(e)
		return u, v, err
	}
	cmp := func(f func(u, v float64) bool) (val, error) {
		return val{kind: vBool, truth: func(e *exprEnv) (bool, error) {
			u, v, err := both(e)
			return err == nil && f(u, v), err
		}}, nil
	}
	arith := func(f func(u, v float64) float64) (val, error) {
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
			u, v, err := both(e)
			return f(u, v), err
		}}, nil
	}
	switch op {
	case "==":
		return cmp(func(u, v float64) bool { return u == v })
	case "!=":
		return cmp(func(u, v float64) bool { return u != v })
	case "<":
		return cmp(func(u, v float64) bool { return u < v })
	case "<=":
		return cmp(func(u, v float64) bool { return u <= v })
	case ">":
		return cmp(func(u, v float64) bool { return u > v })
	case ">=":
		return cmp(func(u, v float64) bool { return u >= v })
	case "+":
		return arith(func(u, v float64) float64 { return u + v })
	case "-":
		return arith(func(u, v float64) float64 { return u - v })
	case "*":
		return arith(func(u, v float64) float64 { return u * v })
	case "/":
		return arith(func(u, v float64) float64 { return u / v })
	case "^", "**":
		return arith(math.Pow)
	}
	// "%": the remainder of whole numbers, with the sign of the dividend.
	return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
		u, v, err := both(e)
		if err != nil {
			return 0, err
		}
		if !whole(u) || !whole(v) {
			return 0, exprError("“%” needs whole numbers, not " + ftoa(u) + " % " + ftoa(v))
		}
		if v == 0 {
			return 0, exprError("integer divide by zero (" + ftoa(u) + " % 0)")
		}
		return math.Mod(u, v), nil
	}}, nil
}

// whole reports whether x is a whole number that a float64 holds exactly.
func whole(x float64) bool { return x == math.Trunc(x) && math.Abs(x) <= 1<<53 }

// unary parses a sign or a negation, then a power.
func (p *parser) unary() (val, error) {
	if p.is("-") || p.is("+") || p.is("!") || p.is("not") {
		op, pos := p.tok.text, p.tok.pos
		if err := p.node(); err != nil {
			return val{}, err
		}
		p.next()
		v, err := p.unary()
		if err != nil {
			return val{}, err
		}
		if op == "-" || op == "+" {
			if err := p.want(vNum, v, pos, "“"+op+"”"); err != nil {
				return val{}, err
			}
			if op == "+" {
				return v, nil
			}
			x := v.num
			return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
				u, err := x(e)
				return -u, err
			}}, nil
		}
		if err := p.want(vBool, v, pos, "“"+op+"”"); err != nil {
			return val{}, err
		}
		x := v.truth
		return val{kind: vBool, truth: func(e *exprEnv) (bool, error) {
			t, err := x(e)
			return !t, err
		}}, nil
	}
	return p.power()
}

// power parses a ^ b, right to left; b may carry a sign.
func (p *parser) power() (val, error) {
	a, err := p.postfix()
	if err != nil || !(p.is("^") || p.is("**")) {
		return a, err
	}
	op, pos := p.tok.text, p.tok.pos
	if err := p.node(); err != nil {
		return val{}, err
	}
	p.next()
	b, err := p.unary()
	if err != nil {
		return val{}, err
	}
	return p.combine(op, pos, a, b)
}

// postfix parses an operand followed by indexes.
func (p *parser) postfix() (val, error) {
	v, err := p.operand()
	for err == nil && p.is("[") {
		pos := p.tok.pos
		if err = p.node(); err != nil {
			break
		}
		if v.kind != vList {
			return val{}, p.errorf(pos, "only count can be indexed, not %s", v.kind)
		}
		p.next()
		var i val
		if i, err = p.ternary(); err != nil {
			break
		}
		if err = p.want(vNum, i, pos, "an index"); err != nil {
			break
		}
		if !p.is("]") {
			return val{}, p.errorf(p.tok.pos, "expected “]”, found %s", p.tok.describe())
		}
		p.next()
		idx := i.num
		v = val{kind: vNum, num: func(e *exprEnv) (float64, error) {
			x, err := idx(e)
			if err != nil {
				return 0, err
			}
			if !whole(x) || x < 0 || x >= float64(len(e.count)) {
				return 0, exprError("index " + ftoa(x) + " out of range: count has indexes 0 to " + itoa(len(e.count)-1))
			}
			return float64(e.count[int(x)]), nil
		}}
	}
	return v, err
}

// unaryFuncs are the functions of one number.
var unaryFuncs = map[string]func(float64) float64{"abs": math.Abs, "floor": math.Floor, "ceil": math.Ceil, "round": math.Round}

// operand parses a number, a name, a call or a bracketed expression.
func (p *parser) operand() (val, error) {
	if err := p.node(); err != nil {
		return val{}, err
	}
	t := p.tok
	switch {
	case t.kind == tNum:
		p.next()
		x := t.num
		return val{kind: vNum, num: func(*exprEnv) (float64, error) { return x, nil }}, nil
	case t.kind == tOp && t.text == "(":
		p.next()
		v, err := p.ternary()
		if err != nil {
			return val{}, err
		}
		if !p.is(")") {
			return val{}, p.errorf(p.tok.pos, "expected “)”, found %s", p.tok.describe())
		}
		p.next()
		return v, nil
	case t.kind != tName:
		if p.err != nil {
			return val{}, p.err
		}
		return val{}, p.errorf(t.pos, "unexpected %s", t.describe())
	}
	p.next()
	if p.is("(") {
		return p.call(t)
	}
	switch t.text {
	case "count":
		return val{kind: vList}, nil
	case "n":
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.n, nil }}, nil
	case "k":
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.k, nil }}, nil
	case "r":
		if p.withR {
			return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.r, nil }}, nil
		}
	}
	names := "count, r, n and k"
	if !p.withR {
		names = "count, n and k (Δ is one number for all candidates, so not r)"
	}
	return val{}, p.errorf(t.pos, "unknown name %s; the names are %s", t.text, names)
}

// call parses the arguments of the function named by t and builds the call.
func (p *parser) call(t token) (val, error) {
	p.next() // "("
	var args []val
	for !p.is(")") {
		if len(args) > 0 {
			if !p.is(",") {
				return val{}, p.errorf(p.tok.pos, "expected “,” or “)”, found %s", p.tok.describe())
			}
			p.next()
		}
		a, err := p.ternary()
		if err != nil {
			return val{}, err
		}
		args = append(args, a)
	}
	p.next()
	name := t.text
	list := len(args) == 1 && args[0].kind == vList
	switch {
	case unaryFuncs[name] != nil:
		if len(args) != 1 || args[0].kind != vNum {
			return val{}, p.errorf(t.pos, "%s takes one number", name)
		}
		f, x := unaryFuncs[name], args[0].num
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
			u, err := x(e)
			return f(u), err
		}}, nil
	case (name == "sum" || name == "len") && list:
		if name == "len" {
			return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.k, nil }}, nil
		}
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.n, nil }}, nil
	case name == "sum" || name == "len":
		return val{}, p.errorf(t.pos, "%s takes count", name)
	case name == "min" || name == "max":
		sign := 1.0
		if name == "min" {
			sign = -1
		}
		if list {
			return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
				if len(e.count) == 0 {
					return 0, exprError(name + " of an empty count vector")
				}
				m := float64(e.count[0])
				for _, c := range e.count[1:] {
					if sign*(float64(c)-m) > 0 {
						m = float64(c)
					}
				}
				return m, nil
			}}, nil
		}
		if len(args) == 0 {
			return val{}, p.errorf(t.pos, "%s takes one or more numbers", name)
		}
		fs := make([]numFn, len(args))
		for i, a := range args {
			if a.kind != vNum {
				return val{}, p.errorf(t.pos, "%s takes numbers or count, not %s", name, a.kind)
			}
			fs[i] = a.num
		}
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
			m, err := fs[0](e)
			for _, f := range fs[1:] {
				if err != nil {
					break
				}
				var u float64
				if u, err = f(e); sign*(u-m) > 0 || math.IsNaN(u) {
					m = u
				}
			}
			return m, err
		}}, nil
	}
	return val{}, p.errorf(t.pos, "unknown function %s; the functions are abs, floor, ceil, round, min, max, sum and len", name)
}
