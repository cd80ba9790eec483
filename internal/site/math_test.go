package site

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// testMath is the one TeX renderer of the package's tests.
var testMath *Math

func TestMain(m *testing.M) {
	var err error
	if testMath, err = StartMath(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := testMath.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "the TeX renderer:", err)
		code = 1
	}
	os.Exit(code)
}

// The MathML of the formulas the lessons write sets them as TeX does:
// brackets at text size unless \left…\right sizes them, a minus before a
// number or letter as a sign (no binary spacing), function names upright
// and applied, a letter's prime beside it at text size, a comma between
// digits as punctuation and thousands grouped with {,}, display math a
// block; and it carries its TeX as written.
func TestMathSetsTeXAsTeXDoes(t *testing.T) {
	tests := []struct {
		tex     string
		display bool
		want    []string
	}{
		{`\Pr[r]`, false, []string{`<mi>Pr</mi><mo>⁡</mo>`, `stretchy="false">[</mo>`, `stretchy="false">]</mo>`}},
		{`u(x, r)`, false, []string{`stretchy="false">(</mo>`, `stretchy="false">)</mo>`}},
		{`\exp\left(\frac{a}{2}\right)`, false, []string{`<mi>exp</mi><mo>⁡</mo>`, `stretchy="true">(</mo>`, `stretchy="true">)</mo>`}},
		{`[-\varepsilon, \varepsilon]`, false, []string{`<mo form="prefix" stretchy="false">−</mo><mi>ε</mi>`}},
		{`\ln 2`, false, []string{`<mi>ln</mi><mo>⁡</mo>`}},
		{`14{,}976`, false, []string{`<mn>14,976</mn>`}},
		{`M(x')`, false, []string{`<mrow><mi>x</mi><mo lspace="0em" rspace="0em">′</mo></mrow>`}},
		{`\{0,1\}^k`, false, []string{`<mn>0</mn><mo separator="true">,</mo><mn>1</mn>`, `x-tex">\{0,1\}^k</annotation>`}},
		{`f(1,234) + \text{1,000 rows}`, false, []string{`<mn>1</mn><mo separator="true">,</mo><mn>234</mn>`, `<mtext>1,000`}},
		{`\Delta`, false, []string{`<mi mathvariant="normal">Δ</mi>`}},
		{`x < y`, false, []string{`<mo>&lt;</mo>`}},
		{`\max_{o} x`, true, []string{`display="block"`, `<munder><mi>max</mi><mi>o</mi></munder>`}},
		{`e^{-t}`, false, []string{`<msup><mi>e</mi>`, `<mo form="prefix" stretchy="false" lspace="0em" rspace="0em">−</mo><mi>t</mi>`}},
	}
	for _, tt := range tests {
		got, err := testMath.MathML(tt.tex, tt.display)
		if err != nil {
			t.Errorf("%q: %v", tt.tex, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q (display %v):\n got %s\nwant it to contain %s", tt.tex, tt.display, got, w)
			}
		}
		if !strings.Contains(got, `<annotation encoding="application/x-tex">`) {
			t.Errorf("%q: no TeX annotation in %s", tt.tex, got)
		}
		if tt.display != strings.Contains(got, `display="block"`) {
			t.Errorf("%q: display attribute wrong in %s", tt.tex, got)
		}
	}
}

// TestMathScriptsTakeOneBase checks that every script element of a formula
// has the children MathML requires: a function with a limit or an index
// (\max_r, \log_2) is its name under or beside the script, then the
// function application, not three children, which Firefox refuses as
// invalid markup.
func TestMathScriptsTakeOneBase(t *testing.T) {
	arity := map[string]int{"msub": 2, "msup": 2, "munder": 2, "mover": 2, "msubsup": 3, "munderover": 3, "mfrac": 2, "mroot": 2}
	for _, tt := range []struct {
		tex     string
		display bool
	}{
		{`\max_{x \sim x', o} \frac{\Pr[M(x) = o]}{\Pr[M(x') = o]}`, true},
		{`\max_{x \sim x', o} u`, false},
		{`\mathrm{OPT} = \max_r u(x, r)`, false},
		{`\log_2 n`, false},
		{`\operatorname*{arg\,max}_{r \in \mathcal{R}} u(x, r)`, true},
		{`\sup_{t}^{T} f`, true},
		{`\exp^{2}(x)`, false},
		{`\sqrt[3]{x}`, false},
	} {
		got, err := testMath.MathML(tt.tex, tt.display)
		if err != nil {
			t.Errorf("%q: %v", tt.tex, err)
			continue
		}
		d := xml.NewDecoder(strings.NewReader(got))
		var open []string
		children := map[int]int{}
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%q: %v in %s", tt.tex, err, got)
			}
			switch e := tok.(type) {
			case xml.StartElement:
				children[len(open)-1]++
				open = append(open, e.Name.Local)
				children[len(open)-1] = 0
			case xml.EndElement:
				name := open[len(open)-1]
				if n, ok := arity[name]; ok && children[len(open)-1] != n {
					t.Errorf("%q (display %v): <%s> has %d children, want %d, in\n%s", tt.tex, tt.display, name, children[len(open)-1], n, got)
				}
				open = open[:len(open)-1]
			}
		}
	}
}

// An unknown command or malformed TeX is an error that names the formula,
// and the renderer goes on with the next formula.
func TestMathErrors(t *testing.T) {
	for _, tex := range []string{`\nosuch`, `\frac{a}`, `{x`, `x}`, `x^`, `x^1^2`, `\left( x`} {
		got, err := testMath.MathML(tex, false)
		if err == nil {
			t.Errorf("%q: want an error, got %s", tex, got)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("math %q", tex)) || strings.ContainsRune(err.Error(), '\u0332') {
			t.Errorf("%q: the error %q does not name the formula plainly", tex, err)
		}
	}
	if _, err := testMath.MathML(`x`, false); err != nil {
		t.Errorf("after the errors: %v", err)
	}
}

// A nil renderer leaves formulas as their TeX, escaped.
func TestNilMath(t *testing.T) {
	var m *Math
	if got, err := m.MathML(`a < b`, false); err != nil || got != `a &lt; b` {
		t.Errorf("nil Math: %q, %v", got, err)
	}
}

// The font is cut to what the formulas draw: their tokens' characters, a
// single letter's italic form, and a root's sign, which no token holds.
func TestMathChars(t *testing.T) {
	for _, c := range []struct {
		tex      string
		has, not string
	}{
		{`\rho + 2\sqrt{\rho}`, "ρ+2√𝜌", ""},
		{`\sqrt[3]{x}`, "3√𝑥", ""},
		{`x + 1`, "x+1𝑥", "√"},
	} {
		mathml, err := testMath.MathML(c.tex, false)
		if err != nil {
			t.Fatal(err)
		}
		got := mathChars([]string{mathml})
		for _, r := range c.has {
			if !strings.ContainsRune(got, r) {
				t.Errorf("%s: the font's characters %q lack %q", c.tex, got, r)
			}
		}
		for _, r := range c.not {
			if strings.ContainsRune(got, r) {
				t.Errorf("%s: the font's characters %q hold %q", c.tex, got, r)
			}
		}
	}
}
