package data

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func mustParse(t *testing.T, s string, h Header) *Table {
	t.Helper()
	tab, err := Parse([]byte(s), h)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return tab
}

func TestParseGoodFiles(t *testing.T) {
	want := [][]string{{"Monday", "Tuesday, late", `the "big" day`}, {"21", "27", "25"}}
	for name, s := range map[string]string{
		"comma":        "day,free\nMonday,21\n\"Tuesday, late\",27\n\"the \"\"big\"\" day\",25\n",
		"semicolon":    "day;free\nMonday;21\n\"Tuesday, late\";27\n\"the \"\"big\"\" day\";25",
		"tab":          "day\tfree\nMonday\t21\n\"Tuesday, late\"\t27\n\"the \"\"big\"\" day\"\t25\n",
		"bom and crlf": "\ufeffday,free\r\nMonday,21\r\n\"Tuesday, late\",27\r\n\"the \"\"big\"\" day\",25\r\n",
		"empty lines":  "\n\nday,free\n\nMonday,21\n\n\n\"Tuesday, late\",27\n , \n\"the \"\"big\"\" day\",25\n\n",
		"spaces":       "day , free\n  Monday ,  21\n \"Tuesday, late\", 27\n\"the \"\"big\"\" day\",25  \n",
	} {
		t.Run(name, func(t *testing.T) {
			tab := mustParse(t, s, HeaderAuto)
			if !tab.HasHeader || !reflect.DeepEqual(tab.Names, []string{"day", "free"}) {
				t.Fatalf("header %v %q", tab.HasHeader, tab.Names)
			}
			if !reflect.DeepEqual(tab.Cols, want) {
				t.Fatalf("cols %q, want %q", tab.Cols, want)
			}
			u, err := tab.Numbers(1)
			if err != nil || !reflect.DeepEqual(u, []float64{21, 27, 25}) {
				t.Fatalf("Numbers: %v %v", u, err)
			}
		})
	}
}

func TestParseLinesAndDelimiter(t *testing.T) {
	tab := mustParse(t, "a;b\n\n\"x\ny\";1\nz;2\n", HeaderAuto)
	if tab.Delimiter != ';' || !reflect.DeepEqual(tab.Lines, []int{3, 5}) || tab.HeaderLine != 1 {
		t.Fatalf("delimiter %q lines %v header line %d", tab.Delimiter, tab.Lines, tab.HeaderLine)
	}
	if tab.Cols[0][0] != "x\ny" {
		t.Fatalf("multi-line field %q", tab.Cols[0][0])
	}
	// Decimal commas with ';' files.
	tab = mustParse(t, "v;w\n3,5;1\n-0,25;2\n", HeaderAuto)
	if x, err := tab.Numbers(0); err != nil || !reflect.DeepEqual(x, []float64{3.5, -0.25}) {
		t.Fatalf("decimal comma: %v %v", x, err)
	}
}

func TestHeaderDetection(t *testing.T) {
	for _, c := range []struct {
		s      string
		h      Header
		header bool
	}{
		{"status\nmarried\nsingle\nmarried\n", HeaderAuto, true},
		{"married\nsingle\nmarried\n", HeaderAuto, false}, // "married" occurs again: data
		{"Monday,21\nTuesday,27\n", HeaderAuto, false},    // a number in the first row: data
		{"1.5\n2\n3\n", HeaderAuto, false},
		{"a,,c\n1,2,3\n", HeaderAuto, false}, // an empty name: data
		{"married\nsingle\nmarried\n", HeaderYes, true},
		{"status\nmarried\n", HeaderNo, false},
	} {
		tab := mustParse(t, c.s, c.h)
		if tab.HasHeader != c.header {
			t.Errorf("%q (%d): header %v, want %v", c.s, c.h, tab.HasHeader, c.header)
		}
		if !c.header && tab.Names[0] != "column 1" {
			t.Errorf("%q: names %q", c.s, tab.Names)
		}
	}
	tab := mustParse(t, "x,x,\n1,2,3\n", HeaderYes)
	if !reflect.DeepEqual(tab.Names, []string{"x", "x (2)", "column 3"}) {
		t.Errorf("names %q", tab.Names)
	}
}

// TestBadFiles checks every bad file the issue lists: each gives an *Error
// naming the line (and the column where there is one) and a message a
// student can act on.
func TestBadFiles(t *testing.T) {
	big := bytes.Repeat([]byte("1\n"), MaxBytes/2+1)
	for _, c := range []struct {
		name string
		in   []byte
		line int
		want string
	}{
		{"empty", nil, 0, "the file is empty"},
		{"only blank lines", []byte("\r\n\n  \n"), 0, "the file is empty"},
		{"only a BOM", []byte("\ufeff"), 0, "the file is empty"},
		{"header only", []byte("a,b\n"), 1, "no data rows"},
		{"over the size limit", big, 0, "the limit is 16.0 MB"},
		{"binary", []byte("a,b\n1,2\n\x89PNG\x00\x01"), 3, "binary file"},
		{"latin-1", []byte("a\ncaf\xe9\n"), 2, "not UTF-8"},
		{"utf-16", []byte("\xff\xfea\x00"), 1, "UTF-16"},
		{"ragged short", []byte("a,b,c\n1,2,3\n4,5\n"), 3, "has 2 fields but line 1 has 3"},
		{"ragged long", []byte("a,b\n1,2\n\n3,4,5\n"), 4, "has 3 fields but line 1 has 2"},
		{"bare quote", []byte("a,b\n1,x\"y\n"), 2, "quote inside a field"},
		{"unclosed quote", []byte("a,b\n1,\"open\n2,3\n"), 2, "never closed"},
		{"too many columns", []byte(strings.Repeat("x,", MaxColumns) + "x\n"), 1, "the limit is 256"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.in, HeaderAuto)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if e.Line != c.line || !strings.Contains(e.Error(), c.want) {
				t.Fatalf("got line %d %q, want line %d containing %q", e.Line, e.Error(), c.line, c.want)
			}
			if c.line > 0 && !strings.HasPrefix(e.Error(), "line "+strconv.Itoa(c.line)) {
				t.Fatalf("%q does not start with its line", e.Error())
			}
		})
	}
}

func TestColumnErrors(t *testing.T) {
	tab := mustParse(t, "name,score,ok\nA,1,yes\nB,,no\n\nC,x2,maybe\nA,4,1\n", HeaderAuto)
	check := func(err error, want string) {
		t.Helper()
		if err == nil || err.Error() != want {
			t.Fatalf("error %v, want %q", err, want)
		}
	}
	_, err := tab.Numbers(1)
	check(err, "line 3, column 2 (score): is empty; a number is needed")
	tab.Cols[1][1] = "2"
	_, err = tab.Numbers(1)
	check(err, "line 5, column 2 (score): “x2” is not a number")
	_, err = tab.Bits([]int{0, 2})
	check(err, "line 2, column 1 (name): “A” is not 0/1, yes/no or true/false")
	_, err = tab.Bits([]int{2})
	check(err, "line 5, column 3 (ok): “maybe” is not 0/1, yes/no or true/false")
	_, _, err = tab.Categories(0, 2)
	check(err, "line 5, column 1 (name): “C” is category 3; this lesson takes at most 2 (is this a column of categories?)")
	tab.Cols[1][2] = "3"
	_, _, err = tab.Scores(0, 1, 10)
	check(err, "line 6, column 1 (name): “A” is already a candidate on line 2; each candidate takes one row")
	_, _, err = tab.Scores(0, 1, 3)
	check(err, "line 6, column 1 (name): is candidate 4; this lesson takes at most 3")
	tab.Cols[1][3] = "-4"
	_, err = tab.NumbersIn(1, 0, 1e9)
	check(err, "line 6, column 2 (score): “-4” is outside 0 … 1e+09")
	tab.Cols[1][3] = "4"
	_, err = tab.Column("age")
	check(err, "no column is called “age”; the columns are name, score, ok")
	if j, err := tab.Column("3"); j != 2 || err != nil {
		t.Fatalf("Column(\"3\") = %d, %v", j, err)
	}
	_, err = tab.Numbers(7)
	check(err, "column 8 does not exist; the file has 3 columns")
}

func TestConversions(t *testing.T) {
	tab := mustParse(t, "status,n,smoker,age\nmarried,3,yes,40\nsingle,1,No,31.5\nmarried,2,TRUE,22\n,5,f,60\nsingle,4,0,50\nmarried,6,1,18\n", HeaderAuto)
	names, counts, err := tab.Categories(0, 64)
	if err != nil || !reflect.DeepEqual(names, []string{"married", "single", Blank}) || !reflect.DeepEqual(counts, []float64{3, 2, 1}) {
		t.Fatalf("Categories: %q %v %v", names, counts, err)
	}
	bits, err := tab.Bits([]int{2})
	if err != nil || !reflect.DeepEqual(bits, [][]int{{1}, {0}, {1}, {0}, {0}, {1}}) {
		t.Fatalf("Bits: %v %v", bits, err)
	}
	h, err := tab.Histogram([]int{2, 1})
	if err == nil {
		t.Fatal("Histogram of a number column: no error")
	}
	tab.Cols[1] = []string{"1", "0", "1", "1", "0", "0"}
	h, err = tab.Histogram([]int{2, 1}) // (smoker, n): 11, 00, 11, 01, 00, 10
	if err != nil || !reflect.DeepEqual(h, []float64{2, 1, 1, 2}) {
		t.Fatalf("Histogram: %v %v", h, err)
	}
	tab.Cols[1][1] = "31.5"
	kinds := []Kind{tab.Kind(0), tab.Kind(1), tab.Kind(2), tab.Kind(3)}
	if !reflect.DeepEqual(kinds, []Kind{KindCategory, KindNumber, KindBinary, KindNumber}) {
		t.Fatalf("kinds %v", kinds)
	}
	tab = mustParse(t, "day,free\nMonday,21\nTuesday,27\n", HeaderAuto)
	names, scores, err := tab.Scores(0, 1, 64)
	if err != nil || !reflect.DeepEqual(names, []string{"Monday", "Tuesday"}) || !reflect.DeepEqual(scores, []float64{21, 27}) {
		t.Fatalf("Scores: %q %v %v", names, scores, err)
	}
}

// rows100k is a 100,000-row survey: a category, a number and a yes/no column.
func rows100k() []byte {
	var b bytes.Buffer
	b.WriteString("status,income,smoker\r\n")
	st := []string{"Married-civ-spouse", "Never-married", "Divorced", "\"Separated, legally\"", "Widowed"}
	for i := 0; i < 100000; i++ {
		b.WriteString(st[i*7%5] + "," + strconv.FormatFloat(float64(i%997)*1.25, 'f', -1, 64) + "," + []string{"yes", "no"}[i%3%2] + "\r\n")
	}
	return b.Bytes()
}

func TestHundredThousandRows(t *testing.T) {
	tab, err := Parse(rows100k(), HeaderAuto)
	if err != nil || tab.Rows() != 100000 || tab.Lines[99999] != 100001 {
		t.Fatalf("rows %d, %v", tab.Rows(), err)
	}
	names, counts, err := tab.Categories(0, 64)
	if err != nil || len(names) != 5 || counts[0]+counts[1]+counts[2]+counts[3]+counts[4] != 100000 {
		t.Fatalf("%q %v %v", names, counts, err)
	}
}

// BenchmarkParse100k parses 100,000 rows and counts one column, what the
// page does when a student drops such a file.
func BenchmarkParse100k(b *testing.B) {
	in := rows100k()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		tab, err := Parse(in, HeaderAuto)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := tab.Categories(0, 64); err != nil {
			b.Fatal(err)
		}
	}
}
