package arith

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// calc evaluates as it reads: truth is 1 or 0, x[i] is 10x + i, and f is
// the sum of its arguments. It records each call, so that a test can check
// the order in which Parse makes them.
type calc struct{ calls []string }

var errCalc = errors.New("calc refuses 13")

func (c *calc) log(s string) { c.calls = append(c.calls, s) }

func (c *calc) Number(lit Literal) (float64, error) {
	c.log(lit.Text)
	if lit.Value == 13 {
		return 0, errCalc
	}
	return lit.Value, nil
}

func (c *calc) Name(name string) (float64, error) {
	c.log(name)
	return map[string]float64{"x": 2, "y": 3, "e": math.E, "π": math.Pi}[name], nil
}

func (c *calc) Func(name string) (func([]float64) (float64, error), error) {
	c.log(name + "(")
	return func(args []float64) (float64, error) {
		c.log(")")
		s := 0.0
		for _, a := range args {
			s += a
		}
		return s, nil
	}, nil
}

func truth(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (c *calc) Unary(op string, x float64) (float64, error) {
	c.log("u" + op)
	switch op {
	case "-":
		return -x, nil
	case "!", "not":
		return truth(x == 0), nil
	case "%":
		return x / 100, nil
	}
	return x, nil
}

func (c *calc) Binary(op string, x, y float64) (float64, error) {
	c.log(op)
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/":
		return x / y, nil
	case "%":
		return math.Mod(x, y), nil
	case "^", "**":
		return math.Pow(x, y), nil
	case "<":
		return truth(x < y), nil
	case "<=":
		return truth(x <= y), nil
	case ">":
		return truth(x > y), nil
	case ">=":
		return truth(x >= y), nil
	case "==":
		return truth(x == y), nil
	case "!=":
		return truth(x != y), nil
	case "&&", "and":
		return truth(x != 0 && y != 0), nil
	}
	return truth(x != 0 || y != 0), nil // "||", "or"
}

func (c *calc) Cond(b, x, y float64) (float64, error) {
	c.log("?")
	if b != 0 {
		return x, nil
	}
	return y, nil
}

func (c *calc) Index(x, i float64) (float64, error) {
	c.log("[]")
	return 10*x + i, nil
}

// formal is a language in the style of a programming language; typed, one
// in the style of what a person types.
var (
	formal = Language{Names: []string{"x", "y"}, Funcs: []string{"f"}, Identifiers: true, Logic: true, Index: true, MaxDepth: 20, MaxNodes: 30}
	typed  = Language{Names: []string{"e", "π", "x"}, Funcs: []string{"f", "√"}, FoldCase: true, Percent: true, Implicit: true,
		BareCalls: true, DecimalComma: true, Typographic: true, MaxDepth: 8}
)

func TestGrammar(t *testing.T) {
	for _, c := range []struct {
		lang *Language
		src  string
		want float64
	}{
		{&formal, "1 + 2 * 3", 7}, {&formal, "(1 + 2) * 3", 9}, {&formal, "7 - 2 - 1", 4},
		{&formal, "8 / 4 / 2", 1}, {&formal, "7 % 4 * 2", 6}, {&formal, "-2^2", -4},
		{&formal, "2^-1", 0.5}, {&formal, "2^3^2", 512}, {&formal, "2**3", 8},
		{&formal, "--x", 2}, {&formal, "x[1][2]", 212}, {&formal, "f()", 0},
		{&formal, "f(1, x, y)", 6}, {&formal, "1 < 2 == 1", 1}, {&formal, "1 || 0 && 0", 1},
		{&formal, "0 or not 0", 1}, {&formal, "!1 ? 5 : x > 1 ? 6 : 7", 6}, {&formal, ".5 + 1e1 + 2.5E-1", 10.75},
		{&formal, "1e-400", 0}, {&typed, "2π", 2 * math.Pi}, {&typed, "3(1/4)", 0.75},
		{&typed, "2 f 3", 6},
		{&typed, "√4x", 8}, // √ (calc's sum) applies to 4, and the product is implicit
		{&typed, "f(2)^2", 4}, {&typed, "f 2^2", 4}, {&typed, "12.5%", 0.125},
		{&typed, "50% x", 1}, {&typed, "0,5 + 1.234,5 + 1,000 + 1,234,567", 0.5 + 1234.5 + 1 + 1234567}, {&typed, "1,5e2", 150},
		{&typed, "2e−3", 0.002}, {&typed, "2e", 2 * math.E}, {&typed, "3 × 4 ÷ 2 · 1 ⋅ 1 − 1 – 1", 4},
		{&typed, "\u00a0X\u2009+\u202f1", 3}, {&typed, "5.", 5},
	} {
		got, err := Parse(c.src, c.lang, &calc{})
		if err != nil || got != c.want {
			t.Errorf("%q: %v, %v; want %v", c.src, got, err, c.want)
		}
	}
}

// The Builder is called as each piece is reduced, in reading order, and a
// function's name before its arguments.
func TestCallOrder(t *testing.T) {
	c := &calc{}
	if _, err := Parse("f(1, -x) + 2 * y[0]", &formal, c); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(c.calls, " "), "f( 1 x u- ) 2 y 0 [] * +"; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	c = &calc{}
	if _, err := Parse("f 2%", &typed, c); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(c.calls, " "), "f( 2 u% )"; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		lang      *Language
		src, want string
		column    int
	}{
		{&formal, "1 +", "unexpected end of the expression", 4},
		{&formal, "(1", "expected “)”, found end of the expression", 3},
		{&formal, "f(1 2)", "expected “,” or “)”, found number 2", 5},
		{&formal, "x[1", "expected “]”, found end of the expression", 4},
		{&formal, "1 ? 2", "expected “:” of the “?” at column 3, found end of the expression", 6},
		{&formal, "z", "unknown name z; the names are x and y", 1},
		{&formal, "g(1)", "unknown function g; the functions are f", 1},
		{&formal, "f 1", "f takes its arguments in brackets: f(…)", 1},
		{&formal, "1 $", "unexpected character “$”", 3},
		{&formal, "é + 1", "unexpected character “é”", 1},
		{&formal, "x + 'a'", "a string is not a number; an expression is arithmetic on x and y", 5},
		{&formal, "5.", "unexpected character “.”", 2},
		{&formal, "1 2", "unexpected number 2", 3},
		{&formal, "1 + 13", "calc refuses 13", 5},
		{&formal, strings.Repeat("(", 21) + "1" + strings.Repeat(")", 21), "the expression nests more than 20 levels deep", 22},
		{&formal, strings.Repeat("1+", 16) + "1", "the expression has more than 30 operators, names and numbers", 31},
		{&typed, "1..2", "the points and commas of 1..2 make no number", 1},
		{&typed, "1,2,3", "the points and commas of 1,2,3 make no number", 1},
		{&typed, "x 2", "unexpected number 2", 3},
		{&typed, "1 < 2", "unexpected “<”", 3},
		{&typed, "ππ 13", "unexpected number 13", 4},
		// A value built before an unreadable character is built, and its error wins.
		{&typed, "13 $", "calc refuses 13", 1},
	} {
		_, err := Parse(c.src, c.lang, &calc{})
		var e *Error
		if !errors.As(err, &e) || e.Msg != c.want || e.Column != c.column {
			t.Errorf("%q: %v; want %q at column %d", c.src, err, c.want, c.column)
			continue
		}
		if (c.want == errCalc.Error()) != errors.Is(err, errCalc) {
			t.Errorf("%q: Unwrap gives %v", c.src, e.Unwrap())
		}
	}
	for _, l := range []*Language{nil, {MaxDepth: 0}, {MaxDepth: MaxDepthLimit + 1}, {MaxDepth: 1, MaxNodes: -1}} {
		if _, err := Parse("1", l, &calc{}); err == nil {
			t.Errorf("Parse with %+v: no error", l)
		}
	}
	if _, err := Parse[float64]("1", &formal, nil); err == nil {
		t.Error("Parse without a Builder: no error")
	}
}

func TestSeparators(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		sep  Separators
		ok   bool
	}{
		{"1.5", "1.5", Plain, true}, {"5.", "5", Plain, true}, {".5", "0.5", Plain, true},
		{"0,3", "0.3", DecimalComma, true}, {",5", "0.5", DecimalComma, true}, {"1,000", "1.000", DecimalComma, true},
		{"1,234,567", "1234567", CommaGroups, true}, {"1,234.5", "1234.5", CommaGroups, true},
		{"1.234,5", "1234.5", PointGroups, true}, {"1.234.567,8", "1234567.8", PointGroups, true},
		{".", "", Plain, false}, {",", "", Plain, false}, {"1,2,3", "", Plain, false}, {"1.2.3", "", Plain, false},
		{"1,23.4", "", Plain, false}, {"1234,567.8", "", Plain, false}, {"1.2,3,4", "", Plain, false},
	} {
		got, sep, ok := separators(c.in)
		if got != c.want || sep != c.sep || ok != c.ok {
			t.Errorf("separators(%q) = %q, %v, %v; want %q, %v, %v", c.in, got, sep, ok, c.want, c.sep, c.ok)
		}
	}
}

// FuzzParse: in any language, Parse never panics; its errors are *Error
// at a position inside the text with the column of that position; and a
// text it reads reads the same with spaces around it and in brackets.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1 + 2 * x", "f(1, 2)[0] % 3", "x ? 1 : -y^2", "2π(1,5)", "√2 e", "1.234,5%", "'s'", "((1)", "2e−3 × 4"} {
		f.Add(s, uint16(0))
		f.Add(s, uint16(0xffff))
	}
	f.Fuzz(func(t *testing.T, src string, flags uint16) {
		bit := func(i int) bool { return flags&(1<<i) != 0 }
		l := &Language{Names: []string{"x", "y", "e", "π"}, Funcs: []string{"f", "√"},
			Identifiers: bit(0), FoldCase: bit(1), Logic: bit(2), Index: bit(3), Percent: bit(4), Implicit: bit(5),
			BareCalls: bit(6), DecimalComma: bit(7), Typographic: bit(8), MaxDepth: 1 + int(flags>>9)%MaxDepthLimit}
		v, err := Parse(src, l, &calc{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: %v is not an *Error", src, err)
			}
			if e.Pos < 0 || e.Pos > len(src) || e.Column != utf8.RuneCountInString(src[:e.Pos])+1 {
				t.Fatalf("%q: error at byte %d, column %d", src, e.Pos, e.Column)
			}
			return
		}
		if l.MaxDepth == MaxDepthLimit {
			return // no room for the brackets
		}
		deeper := *l // the brackets take a level
		deeper.MaxDepth++
		for _, c := range []struct {
			src  string
			lang *Language
		}{{" " + src + " ", l}, {"(" + src + ")", &deeper}} {
			w, err := Parse(c.src, c.lang, &calc{})
			if err != nil || w != v && !(math.IsNaN(v) && math.IsNaN(w)) {
				t.Fatalf("%q reads as %v but %q as %v, %v", src, v, c.src, w, err)
			}
		}
	})
}
