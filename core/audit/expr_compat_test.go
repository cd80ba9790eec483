package audit

import (
	"math"
	"testing"

	"github.com/expr-lang/expr"
)

// The auditor's grammar is the subset of the expr-lang language it offered
// before it had its own parser (and the module's size went to that
// library). Wherever both evaluate an expression to a number, they agree.

type exprLangEnv struct {
	Count []int `expr:"count"`
	R     int   `expr:"r"`
	N     int   `expr:"n"`
	K     int   `expr:"k"`
}

// exprLang evaluates src with the expr-lang library as the auditor used it.
func exprLang(src string, count []int, r int) (float64, bool) {
	opts := []expr.Option{expr.Env(exprLangEnv{}), expr.AsFloat64(), expr.DisableAllBuiltins(), expr.MaxNodes(200)}
	for _, b := range []string{"abs", "min", "max", "floor", "ceil", "round", "sum", "len"} {
		opts = append(opts, expr.EnableBuiltin(b))
	}
	p, err := expr.Compile(src, opts...)
	if err != nil {
		return 0, false
	}
	ok := true
	var out any
	func() {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		n := 0
		for _, c := range count {
			n += c
		}
		out, err = expr.Run(p, exprLangEnv{Count: count, R: r, N: n, K: len(count)})
	}()
	f, isNum := out.(float64)
	return f, ok && err == nil && isNum
}

var compatData = [][]int{{3, 1, 0}, {0, 0}, {2, 0, 1, 4}, {5}, {1, 1, 1, 1, 1, 1}}

// compatible reports a disagreement between the two evaluators on src.
func compatible(t *testing.T, src string, mustCompile bool) {
	t.Helper()
	e, err := CompileScore(src)
	if err != nil {
		if mustCompile {
			t.Errorf("%q: %v", src, err)
		}
		return
	}
	for _, count := range compatData {
		for r := range count {
			want, ok := exprLang(src, count, r)
			if !ok || math.IsNaN(want) || math.IsInf(want, 0) || math.Abs(want) > 1<<53 {
				continue
			}
			got, err := e.Score(count, r)
			if err != nil && mustCompile || err == nil && got != want && !(math.Abs(got) > 1<<53) {
				t.Errorf("%q at count = %v, r = %d: %v, %v; expr-lang gives %v", src, count, r, got, err, want)
			}
		}
	}
}

// Every expression the lessons, docs, gallery and tests use, and each
// construct of the grammar, gives what expr-lang gives.
func TestGrammarMatchesExprLang(t *testing.T) {
	for _, src := range []string{
		"count[r]", "count[r] - count[(r+1)%k]", "2*count[r]", "count[r] / max(n, 1)", "1 / max(n, 1)",
		"n - count[r]", "count[r]^2 / 4", "count[r] ** 2", "2^3^2", "-2^2", "2^-1", "count[r] - count[(r+1)%3]",
		"count[r] / n", "n - count[r] + k", "max(count[r], 2) * 1.5", "abs(count[r] - 2)", "r == 0 ? 10 : -1",
		"min(count)", "max(count)", "sum(count)", "len(count)", "floor(n / 3)", "ceil(n / 3)", "round(n / 4)",
		"min(1, r, count[r])", "r > 1 && n > 2 ? 1 : 0", "r > 1 and not (n > 2) ? 1 : 0", "r < 1 || r >= 2 ? r : -r",
		"r != 1 or !(n <= 3) ? 1e-3 : .5", "-7 % 3 + r", "(r + 1) % k - 1", "r ? 1 : 2", "count[r - 1]",
		"1 < 2 ? 3 < 4 ? 5 : 6 : 7", "+r - -r", "count[r] % 2 == 0 ? count[r] / 2 : 0",
	} {
		compatible(t, src, src != "r ? 1 : 2" && src != "count[r - 1]")
	}
}

func FuzzGrammarMatchesExprLang(f *testing.F) {
	for _, s := range []string{"count[r]", "count[r] - count[(r+1)%k]", "count[r]/max(n,1)", "2^r^2", "r == 1 ? n : -k", "min(count) + sum(count)", "round(r / 3) * ceil(1.5e0)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { compatible(t, src, false) })
}
