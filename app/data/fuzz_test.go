package data

import (
	"errors"
	"testing"
)

// FuzzParse feeds Parse arbitrary bytes: it must never panic, every error
// must be an *Error, and a table it returns must be rectangular with
// increasing line numbers; every column conversion must then return a value
// or an *Error as well.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"day,free\nMonday,21\n", "a;b\r\n1;2\r\n", "\ufeffx\ty\n\"q\"\"\"\t1\n", "a,b\n1\n", "\"open\n", "a\n\x00",
		"x\n\n\n1,2\n", "  ,  \n", "a,\"b\nc\",d\n1,2,3\n", "yes,no\ntrue,f\n",
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, h uint8) {
		tab, err := Parse(in, Header(h%3))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if tab.Rows() == 0 || len(tab.Names) != len(tab.Cols) || len(tab.Cols) == 0 {
			t.Fatalf("empty table %+v", tab)
		}
		for j, col := range tab.Cols {
			if len(col) != tab.Rows() {
				t.Fatalf("column %d has %d rows, want %d", j, len(col), tab.Rows())
			}
		}
		for i := 1; i < len(tab.Lines); i++ {
			if tab.Lines[i] <= tab.Lines[i-1] || tab.Lines[i-1] <= tab.HeaderLine {
				t.Fatalf("lines %v after header %d", tab.Lines, tab.HeaderLine)
			}
		}
		ok := func(err error) {
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("error %T %v", err, err)
			}
		}
		for j := range tab.Cols {
			_, err := tab.Numbers(j)
			ok(err)
			_, _, err = tab.Categories(j, 64)
			ok(err)
			_, _, err = tab.Scores(0, j, 64)
			ok(err)
			_ = tab.Kind(j)
		}
		_, err = tab.Bits([]int{0, len(tab.Cols) - 1})
		ok(err)
	})
}
