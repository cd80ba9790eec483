package data

import (
	"strings"
	"testing"
)

func TestTablesKeepTheLastFour(t *testing.T) {
	var ts Tables
	if _, err := ts.Get(1); err == nil {
		t.Fatal("an empty Tables returned a table for handle 1")
	}
	var hs []int
	for i := 0; i < MaxTables+2; i++ {
		tb, err := Parse([]byte("x\n"+strings.Repeat("1\n", i+1)), HeaderYes)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, ts.Add(tb))
	}
	for i, h := range hs {
		if h != i+1 {
			t.Fatalf("handle %d is %d, want %d", i, h, i+1)
		}
		tb, err := ts.Get(h)
		if kept := i >= len(hs)-MaxTables; kept != (err == nil) {
			t.Fatalf("handle %d: kept %v, err %v", h, kept, err)
		} else if kept && tb.Rows() != i+1 {
			t.Fatalf("handle %d has %d rows, want %d", h, tb.Rows(), i+1)
		} else if !kept && !strings.Contains(err.Error(), "load it again") {
			t.Fatalf("handle %d: %v", h, err)
		}
	}
	if _, err := ts.Get(0); err == nil {
		t.Fatal("handle 0 returned a table")
	}
}
