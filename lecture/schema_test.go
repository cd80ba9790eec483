package lecture

import (
	"fmt"
	"testing"
	"testing/fstest"
)

// The migration files are numbered 0001, 0002, … in order with no gap, so
// SQLite's user_version (a count of steps) and wrangler's list of applied
// files name the same steps.
func TestMigrationsNumberedWithoutGaps(t *testing.T) {
	if len(Steps) == 0 {
		t.Fatal("no migrations")
	}
	for i, s := range Steps {
		if want := fmt.Sprintf("%04d_", i+1); len(s.Name) <= len(want) || s.Name[:len(want)] != want {
			t.Errorf("step %d is %s, want %sNAME", i+1, s.Name, want)
		}
		if s.SQL == "" {
			t.Errorf("%s is empty", s.Name)
		}
	}
	sql := &fstest.MapFile{Data: []byte("SELECT 1;\n")}
	for _, bad := range []fstest.MapFS{
		{},
		{"0001_a.sql": sql, "0003_c.sql": sql},
		{"0001_a.sql": sql, "0001_b.sql": sql},
		{"0002_b.sql": sql},
		{"0001.sql": sql},
		{"1_a.sql": sql},
	} {
		if steps, err := readSteps(bad); err == nil {
			t.Errorf("readSteps accepted %v: %v", bad, steps)
		}
	}
	steps, err := readSteps(fstest.MapFS{"0002_b.sql": sql, "0001_a.sql": sql, "README": sql})
	if err != nil || len(steps) != 2 || steps[0].Name != "0001_a" || steps[1].Name != "0002_b" {
		t.Errorf("readSteps of 0001_a and 0002_b = %v, %v", steps, err)
	}
}
