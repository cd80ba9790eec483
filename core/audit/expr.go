package audit

import (
	"math"
	"strings"

	"github.com/dpplay/dpplay/core/arith"
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
// that the auditor offered; a test compares the two on it. Package arith
// reads it (its package comment gives the tokens in full).
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
func CompileScore(src string) (*Expr, error) { return compile(scoreSetting, src, &scoreLanguage) }

// CompileSensitivity compiles a sensitivity Δ written over count, n and k:
// a number such as "1", or "1/max(n,1)" for the mistake of computing Δ from
// the data set itself.
func CompileSensitivity(src string) (*Expr, error) {
	return compile(sensitivitySetting, src, &sensitivityLanguage)
}

// The languages of a score and of a sensitivity. The sensitivity has no
// r, since Δ is one number for all candidates.
var (
	scoreLanguage       = exprLanguage("count", "r", "n", "k")
	sensitivityLanguage = exprLanguage("count", "n", "k")
)

// exprLanguage is Expr's grammar over the names given: arith's with Logic
// and indexing, and the functions of Expr's doc comment.
func exprLanguage(names ...string) arith.Language {
	return arith.Language{
		Names:       names,
		Funcs:       []string{"abs", "floor", "ceil", "round", "min", "max", "sum", "len"},
		Identifiers: true, Logic: true, Index: true,
		MaxNodes: maxNodes,
		// Each level of nesting takes a character at least, so no
		// expression of an allowed length is too deep.
		MaxDepth: MaxExpressionLength,
	}
}

func compile(param setting, src string, lang *arith.Language) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, refuse(param, "is empty; write an expression such as count[r]")
	}
	if len(src) > MaxExpressionLength {
		return nil, refuse(param, "is %d characters long; at most %d are allowed", len(src), MaxExpressionLength)
	}
	v, err := arith.Parse(src, lang, compiler{})
	if err == nil && v.kind != vNum {
		err = exprError("the expression gives " + v.kind.String() + ", not a number")
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

// --- The compiler.

// A compiler is arith's Builder for scores: it checks each piece's kind and
// compiles it to a function of the data set.
type compiler struct{}

// want checks that v is of kind k where what (an operator, say) needs one.
func want(k valKind, v val, what string) error {
	if v.kind != k {
		return exprError(what + " needs " + k.String() + ", not " + v.kind.String())
	}
	return nil
}

// Number is a constant.
func (compiler) Number(lit arith.Literal) (val, error) {
	if math.IsInf(lit.Value, 0) {
		return val{}, exprError("the number " + lit.Text + " is too large")
	}
	x := lit.Value
	return val{kind: vNum, num: func(*exprEnv) (float64, error) { return x, nil }}, nil
}

// Name is count, r, n or k.
func (compiler) Name(name string) (val, error) {
	switch name {
	case "count":
		return val{kind: vList}, nil
	case "r":
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.r, nil }}, nil
	case "n":
		return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.n, nil }}, nil
	}
	return val{kind: vNum, num: func(e *exprEnv) (float64, error) { return e.k, nil }}, nil
}

// Cond is c ? x : y.
func (compiler) Cond(c, x, y val) (val, error) {
	if err := want(vBool, c, "“?”"); err != nil {
		return val{}, err
	}
	if err := want(vNum, x, "“?”"); err != nil {
		return val{}, err
	}
	if err := want(vNum, y, "“:”"); err != nil {
		return val{}, err
	}
	cond, a, b := c.truth, x.num, y.num
	return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
		t, err := cond(e)
		if err != nil {
			return 0, err
		}
		if t {
			return a(e)
		}
		return b(e)
	}}, nil
}

// Unary is -x, +x or !x (not x).
func (compiler) Unary(op string, v val) (val, error) {
	what := "“" + op + "”"
	if op == "!" || op == "not" {
		if err := want(vBool, v, what); err != nil {
			return val{}, err
		}
		x := v.truth
		return val{kind: vBool, truth: func(e *exprEnv) (bool, error) {
			t, err := x(e)
			return !t, err
		}}, nil
	}
	if err := want(vNum, v, what); err != nil {
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

// Binary builds a op b.
func (compiler) Binary(op string, a, b val) (val, error) {
	what := "“" + op + "”"
	switch op {
	case "||", "or", "&&", "and":
		if err := want(vBool, a, what); err != nil {
			return val{}, err
		}
		if err := want(vBool, b, what); err != nil {
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
	if err := want(vNum, a, what); err != nil {
		return val{}, err
	}
	if err := want(vNum, b, what); err != nil {
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
	num := func(f func(u, v float64) float64) (val, error) {
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
		return num(func(u, v float64) float64 { return u + v })
	case "-":
		return num(func(u, v float64) float64 { return u - v })
	case "*":
		return num(func(u, v float64) float64 { return u * v })
	case "/":
		return num(func(u, v float64) float64 { return u / v })
	case "^", "**":
		return num(math.Pow)
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

// Index is count[i].
func (compiler) Index(v, i val) (val, error) {
	if v.kind != vList {
		return val{}, exprError("only count can be indexed, not " + v.kind.String())
	}
	if err := want(vNum, i, "an index"); err != nil {
		return val{}, err
	}
	idx := i.num
	return val{kind: vNum, num: func(e *exprEnv) (float64, error) {
		x, err := idx(e)
		if err != nil {
			return 0, err
		}
		if !whole(x) || x < 0 || x >= float64(len(e.count)) {
			return 0, exprError("index " + ftoa(x) + " out of range: count has indexes 0 to " + itoa(len(e.count)-1))
		}
		return float64(e.count[int(x)]), nil
	}}, nil
}

// unaryFuncs are the functions of one number.
var unaryFuncs = map[string]func(float64) float64{"abs": math.Abs, "floor": math.Floor, "ceil": math.Ceil, "round": math.Round}

// Func returns the function named name: abs, floor, ceil and round of a
// number, min and max of numbers or of count, sum and len of count.
func (compiler) Func(name string) (func([]val) (val, error), error) {
	return func(args []val) (val, error) {
		list := len(args) == 1 && args[0].kind == vList
		switch {
		case unaryFuncs[name] != nil:
			if len(args) != 1 || args[0].kind != vNum {
				return val{}, exprError(name + " takes one number")
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
			return val{}, exprError(name + " takes count")
		}
		return minMax(name, args)
	}, nil
}

// minMax is min or max (by name) of args: of the numbers, or of count.
func minMax(name string, args []val) (val, error) {
	sign := 1.0
	if name == "min" {
		sign = -1
	}
	if len(args) == 1 && args[0].kind == vList {
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
		return val{}, exprError(name + " takes one or more numbers")
	}
	fs := make([]numFn, len(args))
	for i, a := range args {
		if a.kind != vNum {
			return val{}, exprError(name + " takes numbers or count, not " + a.kind.String())
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
