// Package number holds the two rules for reading numbers that come from
// outside: Link, the grammar of a number in a page link, and Typed, the rule
// for a number a person types. web/base/number.js implements the same two rules
// for the page, and a test runs both on the same random strings.
//
// Format and RoundSig write numbers as the page does, so that what a link
// says and what a page shows agree digit for digit.
package number

import (
	"math"
	"strconv"
	"strings"
)

// Link reads s as a number in a page link: an optional sign, decimal digits
// with at most one decimal point, and an optional exponent
// ([+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?), after trimming ASCII spaces, tabs and
// line breaks. Hexadecimal, binary, underscores, other spaces, non-ASCII
// digits, Infinity and NaN are not numbers in a link; nor is a value too
// large for a float64. The value is the float64 nearest the decimal (both
// strconv and JavaScript's Number round correctly, so the page reads the same
// value).
func Link(s string) (float64, bool) {
	s = strings.Trim(s, linkSpace)
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := i
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
		if i == j {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	return parseDecimal(s)
}

// linkSpace is what Link trims from either end of a value.
const linkSpace = " \t\n\r"

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseDecimal is strconv.ParseFloat on text the grammar has checked: an
// underflow is 0, as in JavaScript; an overflow is not a number.
func parseDecimal(s string) (float64, bool) {
	x, err := strconv.ParseFloat(s, 64)
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, false
	}
	if err != nil && x != 0 {
		return 0, false
	}
	return x, true
}

// Format writes x as JavaScript's String(x) does, which is how the page's
// URL and notes write numbers: positional from 1e-6 up to 1e21, otherwise
// with an exponent (1e-7, 1e+21); NaN, Infinity and -Infinity as named.
func Format(x float64) string {
	switch {
	case x == 0:
		return "0"
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	if a := math.Abs(x); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	return mant + "e" + exp[:1] + strings.TrimLeft(exp[1:], "0")
}

// RoundSig rounds x to digits significant digits, as JavaScript's
// +x.toPrecision(digits) does: to the nearest number of that many digits,
// and the larger one when x lies exactly halfway (strconv rounds such a tie
// to even).
func RoundSig(x float64, digits int) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	if math.IsInf(x, 0) || math.IsNaN(x) || digits < 1 {
		return y
	}
	// x's exact decimal value ends in the digit after the last one kept,
	// a 5, only if its shortest form does and that form is exact.
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	ds := strings.Replace(mant, ".", "", 1)
	if len(ds) != digits+1 || ds[digits] != '5' {
		return y
	}
	// The exact decimal value of a float64 has at most 767 significant
	// digits, which strconv writes exactly at that precision.
	exact, exactExp, _ := strings.Cut(strconv.FormatFloat(math.Abs(x), 'e', 800, 64), "e")
	if strings.TrimSuffix(strings.TrimRight(exact, "0"), ".") != mant || exactExp != exp {
		return y
	}
	n, _ := strconv.ParseUint(ds[:digits], 10, 64)
	e, _ := strconv.Atoi(exp)
	up, _ := strconv.ParseFloat(strconv.FormatUint(n+1, 10)+"e"+strconv.Itoa(e-digits+1), 64)
	return math.Copysign(up, x)
}
