package arith_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/dpplay/dpplay/core/arith"
)

// eval computes an expression's value as Parse reads it, with x = 4.
type eval struct{}

func (eval) Number(lit arith.Literal) (float64, error) { return lit.Value, nil }
func (eval) Name(string) (float64, error)              { return 4, nil } // the one name, x
func (eval) Func(string) (func([]float64) (float64, error), error) {
	return func(args []float64) (float64, error) { return math.Sqrt(args[0]), nil }, nil // the one function, sqrt
}
func (eval) Unary(op string, x float64) (float64, error) {
	if op == "-" {
		return -x, nil
	}
	return x, nil
}
func (eval) Binary(op string, x, y float64) (float64, error) {
	if op == "/" && y == 0 {
		return 0, errors.New("division by zero")
	}
	return map[string]float64{"+": x + y, "-": x - y, "*": x * y, "/": x / y, "^": math.Pow(x, y)}[op], nil
}
func (eval) Cond(c, x, y float64) (float64, error) { return 0, errors.New("no conditions") }
func (eval) Index(x, i float64) (float64, error)   { return 0, errors.New("no indexes") }

func ExampleParse() {
	lang := &arith.Language{Names: []string{"x"}, Funcs: []string{"sqrt"}, DecimalComma: true, Implicit: true, MaxDepth: 10}
	for _, src := range []string{"1 + 2x^2", "sqrt(x) / 0,5", "3(x - 1)", "1 / (x - 4)", "y + 1"} {
		v, err := arith.Parse(src, lang, eval{})
		fmt.Println(src, "=", v, err)
	}
	// Output:
	// 1 + 2x^2 = 33 <nil>
	// sqrt(x) / 0,5 = 4 <nil>
	// 3(x - 1) = 9 <nil>
	// 1 / (x - 4) = 0 division by zero (column 3)
	// y + 1 = 0 unknown name y; the names are x (column 1)
}
