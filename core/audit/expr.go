package audit

import (
	"math"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/dpplay/dpplay/core/validate"
)

// MaxExpressionLength bounds the length of a score or sensitivity
// expression in bytes; a score the page's text field holds is far shorter.
const MaxExpressionLength = 400

// scoreEnv is what a score expression sees: the data set's counts, the
// candidate r, the total n and the number of candidates k.
type scoreEnv struct {
	Count []int `expr:"count"`
	R     int   `expr:"r"`
	N     int   `expr:"n"`
	K     int   `expr:"k"`
}

// sensitivityEnv is what a sensitivity expression sees: the score's
// variables but r, because Δ is one number for all candidates.
type sensitivityEnv struct {
	Count []int `expr:"count"`
	N     int   `expr:"n"`
	K     int   `expr:"k"`
}

// builtins are the expression library's functions a score may call; the
// rest (strings, dates, JSON, maps) have no use on counts.
var builtins = []string{"abs", "min", "max", "floor", "ceil", "round", "sum", "len"}

// An Expr is a compiled score or sensitivity expression, evaluated by the
// expr-lang library (github.com/expr-lang/expr) with a reused machine.
type Expr struct {
	src     string
	param   string
	program *vm.Program
	machine vm.VM
}

// CompileScore compiles a score u(x, r) written over count (the count
// vector), r (the candidate index), n (the total) and k (the number of
// candidates), for example "count[r] - count[(r+1)%3]". The expression must
// give a number; a bad expression is an error that names the position.
func CompileScore(src string) (*Expr, error) { return compile("score", src, scoreEnv{}) }

// CompileSensitivity compiles a sensitivity Δ written over count, n and k:
// a number such as "1", or "1/max(n,1)" for the mistake of computing Δ from
// the data set itself.
func CompileSensitivity(src string) (*Expr, error) {
	return compile("sensitivity", src, sensitivityEnv{})
}

func compile(param, src string, env any) (*Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, validate.Errorf(param, "is empty; write an expression such as count[r]")
	}
	if len(src) > MaxExpressionLength {
		return nil, validate.Errorf(param, "is %d characters long; at most %d are allowed", len(src), MaxExpressionLength)
	}
	opts := []expr.Option{expr.Env(env), expr.AsFloat64(), expr.DisableAllBuiltins(), expr.MaxNodes(200)}
	for _, b := range builtins {
		opts = append(opts, expr.EnableBuiltin(b))
	}
	p, err := expr.Compile(src, opts...)
	if err != nil {
		return nil, validate.Errorf(param, "%s", oneLine(err.Error()))
	}
	return &Expr{src: src, param: param, program: p}, nil
}

// oneLine keeps the library's message and its position but drops the
// source excerpt it draws under it, which the page shows beside the field.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// eval runs the program on env and checks that the result is a finite number.
func (e *Expr) eval(env any, at func() string) (v float64, err error) {
	defer func() {
		// The library turns runtime failures into errors; a panic that
		// escapes it must not take the auditor down either.
		if r := recover(); r != nil {
			v, err = 0, validate.Errorf(e.param, "%s fails: %v", at(), r)
		}
	}()
	out, err := e.machine.Run(e.program, env)
	if err != nil {
		return 0, validate.Errorf(e.param, "%s fails: %s", at(), oneLine(err.Error()))
	}
	f, ok := out.(float64)
	if !ok {
		return 0, validate.Errorf(e.param, "%s gives %T, not a number", at(), out)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, validate.Errorf(e.param, "%s gives %v (a division by zero?); scores must be finite numbers", at(), f)
	}
	return f, nil
}

// Score evaluates u(count, r).
func (e *Expr) Score(count []int, r int) (float64, error) {
	n := 0
	for _, c := range count {
		n += c
	}
	return e.eval(scoreEnv{Count: count, R: r, N: n, K: len(count)}, func() string {
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
	d, err := e.eval(sensitivityEnv{Count: count, N: n, K: len(count)}, at)
	if err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, validate.Errorf(e.param, "%s gives %v; Δ must be positive", at(), d)
	}
	return d, nil
}
