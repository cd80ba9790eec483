package number

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestLink(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.5", 0.5, true},
		{"-3", -3, true},
		{"+2", 2, true},
		{".25", 0.25, true},
		{"5.", 5, true},
		{"1e-7", 1e-7, true},
		{"1e+21", 1e21, true},
		{"2E3", 2000, true},
		{" 7\t", 7, true},
		{"0.30000000000000004", 0.30000000000000004, true},
		{"1e-400", 0, true},
		{"1e400", 0, false},
		{"0x10", 0, false},
		{"0b11", 0, false},
		{"0X1P-2", 0, false},
		{"1_0", 0, false},
		{"Infinity", 0, false},
		{"NaN", 0, false},
		{"", 0, false},
		{".", 0, false},
		{"-", 0, false},
		{"1e", 0, false},
		{"1,5", 0, false},
		{"\u00a05", 0, false},
		{"٣", 0, false},
		{"1 0", 0, false},
		{"--1", 0, false},
	} {
		got, ok := Link(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("Link(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestTyped(t *testing.T) {
	tenth := 0.1 // a variable, so that 0.1 + 0.2 is computed in float64
	for _, c := range []struct {
		in   string
		want float64
		read string
		note string
	}{
		{"0.3", 0.3, "0.3", ""},
		{"0,3", 0.3, "0.3", NoteComma},
		{" 4,5 ", 4.5, "4.5", NoteComma},
		{"1,05", 1.05, "1.05", NoteComma},
		{"0,0625", 0.0625, "0.0625", NoteComma},
		{"1,000", 1, "1", NoteComma},
		{",5", 0.5, "0.5", NoteComma},
		{"1,234,567", 1234567, "1234567", NoteGrouping},
		{"1,234.5", 1234.5, "1234.5", NoteGrouping},
		{"1.234,5", 1234.5, "1234.5", NoteDotGroup},
		{"1/16", 0.0625, "0.0625", ""},
		{"3/4", 0.75, "0.75", ""},
		{"1 / 16", 0.0625, "0.0625", ""},
		{"4/e", 4 / math.E, "1.471517765", ""},
		{"exp(0.401)", math.Exp(0.401), "1.493317268", ""},
		{"exp(0,401)", math.Exp(0.401), "1.493317268", NoteComma},
		{"ln 2", math.Ln2, "0.6931471806", ""},
		{"ln(2)/2", math.Ln2 / 2, "0.3465735903", ""},
		{"log(2)", math.Ln2, "0.6931471806", NoteLog},
		{"2π", 2 * math.Pi, "6.283185307", ""},
		{"2 pi", 2 * math.Pi, "6.283185307", ""},
		{"PI/2", math.Pi / 2, "1.570796327", ""},
		{"2e", 2 * math.E, "5.436563657", ""},
		{"2e3", 2000, "2000", ""},
		{"2.5e-3", 0.0025, "0.0025", ""},
		{"2e−3", 0.002, "0.002", ""},
		{"12.5%", 0.125, "0.125", ""},
		{"50 %", 0.5, "0.5", ""},
		{"−0.5", -0.5, "-0.5", ""},
		{"-2^2", -4, "-4", ""},
		{"2^-1", 0.5, "0.5", ""},
		{"2**3", 8, "8", ""},
		{"2^3^2", 512, "512", ""},
		{"3 × 4", 12, "12", ""},
		{"3·4", 12, "12", ""},
		{"1 ÷ 4", 0.25, "0.25", ""},
		{"3(1/4)", 0.75, "0.75", ""},
		{"√2", math.Sqrt2, "1.414213562", ""},
		{"sqrt(2)^2", math.Pow(math.Sqrt2, 2), "2", ""},
		{"exp(1)^2", math.Pow(math.E, 2), "7.389056099", ""},
		{"ln 2^3", math.Log(8), "2.079441542", ""},
		{"0.1+0.2", tenth + 2*tenth, "0.3", ""},
		{"-0", 0, "0", ""},
		{"1e-7", 1e-7, "1e-7", ""},
		{"5.", 5, "5", ""},
	} {
		r, err := Typed(c.in)
		if err != nil || r.Value != c.want || r.Read != c.read || r.Note != c.note || r.Value == 0 && math.Signbit(r.Value) {
			t.Errorf("Typed(%q) = %+v, %v; want %v %q %q", c.in, r, err, c.want, c.read, c.note)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"", MsgEmpty},
		{"   ", MsgEmpty},
		{"abc", MsgUnreadable},
		{"1 000", MsgUnreadable},
		{"2 3", MsgUnreadable},
		{"1..2", MsgUnreadable},
		{"1,2,3", MsgUnreadable},
		{"1.234.567", MsgUnreadable},
		{"1,23.4", MsgUnreadable},
		{"0x10", MsgUnreadable},
		{"1_0", MsgUnreadable},
		{"٣", MsgUnreadable},
		{"(1", MsgUnreadable},
		{"1)", MsgUnreadable},
		{"e2", MsgUnreadable},
		{"exp", MsgUnreadable},
		{"sin(1)", MsgUnreadable},
		{".", MsgUnreadable},
		{",", MsgUnreadable},
		{"Infinity", MsgUnreadable},
		{"NaN", MsgUnreadable},
		{"<b>1</b>", MsgUnreadable},
		{strings.Repeat("1", MaxTyped+1), MsgUnreadable},
		{strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40), MsgUnreadable},
		{strings.Repeat("-", 40) + "1", MsgUnreadable},
		{"1/0", MsgInfinite},
		{"0/0", MsgInfinite},
		{"1/0 2", MsgInfinite}, // computed as read: the infinite part comes first
		{"2 1/0", MsgUnreadable},
		{"ln 0", MsgInfinite},
		{"ln(-1)", MsgInfinite},
		{"exp(1000)", MsgInfinite},
		{"1e999", MsgInfinite},
		{"10^400", MsgInfinite},
	} {
		r, err := Typed(c.in)
		if err == nil || err.Error() != c.msg {
			t.Errorf("Typed(%q) = %+v, %v; want the error %q", c.in, r, err, c.msg)
		}
	}
	// The limits are on characters, not bytes, and nesting within the limit reads.
	if _, err := Typed(strings.Repeat("π", MaxTyped)); err != nil {
		t.Errorf("%d π: %v", MaxTyped, err)
	}
	if r, err := Typed(strings.Repeat("(", 30) + "1" + strings.Repeat(")", 30)); err != nil || r.Value != 1 {
		t.Errorf("30 parentheses: %+v, %v", r, err)
	}
}

// A number the page writes (Format) is read back by both rules as itself
// (by Typed below 1e300: it refuses what it would show as Infinity).
func TestFormatReadsBack(t *testing.T) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e-7, 1.5e-6, 123456789, 1e21, 1.7976931348623157e308, 5e-324, 0.30000000000000004, -2.5e-10} {
		s := Format(x)
		if y, ok := Link(s); !ok || y != x {
			t.Errorf("Link(Format(%v) = %q) = %v, %v", x, s, y, ok)
		}
		if r, err := Typed(s); x < 1e300 && (err != nil || r.Value != x) {
			t.Errorf("Typed(Format(%v) = %q) = %+v, %v", x, s, r, err)
		}
	}
}

func TestRoundSigAsToPrecision(t *testing.T) {
	for _, c := range []struct {
		x      float64
		digits int
		want   float64
	}{
		{250.5, 3, 251}, {-250.5, 3, -251}, {50.125, 4, 50.13}, {0.125, 2, 0.13}, {2.5, 1, 3},
		{2.505, 3, 2.5}, // the double is just below 2.505
		{1.2345678, 3, 1.23}, {1.2355, 3, 1.24}, {0, 3, 0}, {4294967295, 3, 4290000000},
		{0.135, 2, 0.14}, {1234567, 6, 1234570}, {0.30000000000000004, 10, 0.3},
	} {
		if got := RoundSig(c.x, c.digits); got != c.want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", c.x, c.digits, got, c.want)
		}
	}
}

func TestFormatAsJavaScript(t *testing.T) {
	for x, want := range map[float64]string{
		4294967295: "4294967295", 1e21: "1e+21", 1.5e22: "1.5e+22", 1e-7: "1e-7", 0.000001: "0.000001",
		-2.5e-9: "-2.5e-9", 0: "0", 1e6: "1000000", 0.1: "0.1", -20: "-20",
		math.Inf(1): "Infinity", math.Inf(-1): "-Infinity",
	} {
		if got := Format(x); got != want {
			t.Errorf("Format(%v) = %q, want %q", x, got, want)
		}
	}
}

// FuzzTyped: Typed never panics; what it reads is finite, not negative
// zero, and Read is its value to 10 digits, which both rules read back.
func FuzzTyped(f *testing.F) {
	for _, s := range []string{"0,3", "1/16", "4/e", "exp(0.401)", "12.5%", "2π", "1,234.5", "1.234,5", "-2^2", "√2", "((1))", "1e999", "ln 0", "log 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Typed(s)
		if err != nil {
			switch err.Error() {
			case MsgEmpty, MsgUnreadable, MsgInfinite:
			default:
				t.Fatalf("Typed(%q): unexpected error %v", s, err)
			}
			return
		}
		if math.IsInf(r.Value, 0) || math.IsNaN(r.Value) || (r.Value == 0 && math.Signbit(r.Value)) {
			t.Fatalf("Typed(%q) = %v", s, r.Value)
		}
		if r.Read != Format(RoundSig(r.Value, 10)) {
			t.Fatalf("Typed(%q): Read %q for %v", s, r.Read, r.Value)
		}
		if y, ok := Link(r.Read); !ok || y != RoundSig(r.Value, 10) {
			t.Fatalf("Typed(%q): Read %q reads back as %v, %v", s, r.Read, y, ok)
		}
	})
}

// FuzzLink: Link never panics, and what it reads is finite and is what
// strconv reads from the trimmed text.
func FuzzLink(f *testing.F) {
	for _, s := range []string{"0.5", "-1e-7", "0x10", "1_0", " 3 ", "1e400", ".5", "5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, ok := Link(s)
		if !ok {
			return
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			t.Fatalf("Link(%q) = %v", s, x)
		}
		y, _ := strconv.ParseFloat(strings.Trim(s, linkSpace), 64)
		if y != x {
			t.Fatalf("Link(%q) = %v, strconv %v", s, x, y)
		}
	})
}

// Gives takes the answers right at the asked precision and no neighbour.
func TestGives(t *testing.T) {
	for _, c := range []struct {
		x, target float64
		decimals  int
		want      bool
	}{
		{0.167, 1.0 / 6, 3, true},
		{0.1666, 1.0 / 6, 3, true},
		{1.0 / 6, 1.0 / 6, 3, true},
		{0.166, 1.0 / 6, 3, false},
		{0.168, 1.0 / 6, 3, false},
		{0.17, 1.0 / 6, 3, false},
		{11.21, 11.2103, 2, true},
		{11.2, 11.2103, 2, false},
		{11.22, 11.2103, 2, false},
		{-0.5, -0.5, 1, true},
		{-0.4, -0.5, 1, false},
		{101, 101, 0, true},
		{101.4, 101, 0, false},
		{100, 101, 0, false},
		{1.5000000001, 1.5, 0, true},
		{1.51, 1.5, 0, false},
		{0.333, 1.0 / 3, 9, false}, // beyond MaxDecimals only the exact value gives it
		{1.0 / 3, 1.0 / 3, 9, true},
	} {
		if got := Gives(c.x, c.target, c.decimals); got != c.want {
			t.Errorf("Gives(%v, %v, %d) = %v, want %v", c.x, c.target, c.decimals, got, c.want)
		}
	}
}
