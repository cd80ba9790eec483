package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeCSV(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDataFlags runs sample, pricing and smalldb on CSV files through
// app/data: the same numbers as the flags give, and the parser's errors.
func TestDataFlags(t *testing.T) {
	survey := writeCSV(t, "\ufeffday;free;smoker\r\nMon;21;yes\r\n\r\nTue;27;no\r\nWed;25;TRUE\r\nTue;1,5;0\r\n")
	table := writeCSV(t, "day,free\nMon,21\nTue,27\n")
	same := func(a, b []string) {
		t.Helper()
		var o1, o2, e bytes.Buffer
		if c := run(a, &o1, &e); c != 0 {
			t.Fatalf("%v: exit %d %s", a, c, e.String())
		}
		run(b, &o2, &e)
		var j1, j2 map[string]any
		json.Unmarshal(o1.Bytes(), &j1)
		json.Unmarshal(o2.Bytes(), &j2)
		delete(j1, "candidates")
		if !reflect.DeepEqual(j1, j2) {
			t.Fatalf("%v\n%s\ndiffers from %v\n%s", a, o1.String(), b, o2.String())
		}
	}
	same([]string{"sample", "-data", survey, "-column", "day", "-seed", "3", "-draws", "100"},
		[]string{"sample", "-scores", "2,1,1", "-seed", "3", "-draws", "100"})
	same([]string{"sample", "-data", table, "-column", "day", "-score-column", "free", "-seed", "3"},
		[]string{"sample", "-scores", "21,27", "-seed", "3"})
	same([]string{"pricing", "-data", survey, "-column", "free", "-seed", "3", "-draws", "10"},
		[]string{"pricing", "-values", "21,27,25,1.5", "-seed", "3", "-draws", "10"})
	var out, e bytes.Buffer
	if c := run([]string{"sample", "-data", survey, "-column", "day", "-draws", "0"}, &out, &e); c != 0 || !strings.Contains(out.String(), `"candidates":["Tue","Mon","Wed"]`) {
		t.Fatalf("exit %d: %s %s", c, out.String(), e.String())
	}
	out.Reset()
	if c := run([]string{"smalldb", "-data", survey, "-columns", "smoker", "-queries", "marginals:1", "-size", "2", "-seed", "1"}, &out, &e); c != 0 || !strings.Contains(out.String(), `"rows":4`) {
		t.Fatalf("smalldb exit %d: %s %s", c, out.String(), e.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sample", "-data", survey}, "-column is required with -data; the columns of " + survey + " are day, free, smoker"},
		{[]string{"sample", "-data", survey, "-column", "age"}, "no column is called “age”"},
		{[]string{"sample", "-data", survey, "-column", "day", "-scores", "1,2"}, "not both"},
		{[]string{"sample", "-data", survey, "-column", "day", "-score-column", "free"}, "line 6, column 1 (day): “Tue” is already a candidate on line 4"},
		{[]string{"pricing", "-data", survey, "-column", "day"}, "line 2, column 1 (day): “Mon” is not a number"},
		{[]string{"pricing", "-data", writeCSV(t, "")}, "the file is empty"},
		{[]string{"pricing", "-data", writeCSV(t, "a,b\n1\n"), "-column", "a"}, "line 2: has 1 field but line 1 has 2"},
		{[]string{"smalldb", "-data", survey, "-columns", "day,smoker"}, "line 2, column 1 (day): “Mon” is not 0/1, yes/no or true/false"},
		{[]string{"smalldb", "-data", writeCSV(t, "a\x00")}, "binary file"},
	} {
		var out, e bytes.Buffer
		if code := run(c.args, &out, &e); code != 2 || !strings.Contains(e.String(), c.want) || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, e.String(), c.want)
		}
	}
}
