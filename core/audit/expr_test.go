package audit

import (
	"math"
	"strings"
	"testing"
)

func TestScoreExpressions(t *testing.T) {
	count := []int{3, 1, 0}
	for _, c := range []struct {
		src  string
		r    int
		want float64
	}{
		{"count[r]", 1, 1},
		{"count[r] - count[(r+1)%3]", 0, 2},
		{"count[r] / n", 0, 0.75},
		{"n - count[r] + k", 2, 7},
		{"max(count[r], 2) * 1.5", 2, 3},
		{"abs(count[r] - 2)", 0, 1},
		{"r == 0 ? 10 : -1", 0, 10},
	} {
		e, err := CompileScore(c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		got, err := e.Score(count, c.r)
		if err != nil || got != c.want {
			t.Errorf("%q at r=%d: %v, %v; want %v", c.src, c.r, got, err, c.want)
		}
	}
}

func TestExpressionErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "empty"},
		{"count[r", "score:"},
		{"counts[r]", "unknown name counts"},
		{"count[r] > 1", "bool"},
		{`"a"`, "string"},
		{strings.Repeat("1+", 300) + "1", "characters long"},
		{"now()", "score:"},
	} {
		if _, err := CompileScore(c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to mention %q", c.src, err, c.want)
		}
	}
	if _, err := CompileSensitivity("count[r]"); err == nil || !strings.Contains(err.Error(), "unknown name r") {
		t.Errorf("sensitivity over r: %v", err)
	}
	// Evaluation errors name the data set and the candidate.
	for _, c := range []struct{ src, want string }{
		{"count[r] / (n - 4)", "count = [3 1 0], r = 0"},
		{"count[r] % (n - 4)", "fails"},
		{"count[r + 5]", "fails"},
		{"0/0 + count[r]", "finite"},
	} {
		e, err := CompileScore(c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if _, err := e.Score([]int{3, 1, 0}, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to mention %q", c.src, err, c.want)
		}
	}
	s, _ := CompileSensitivity("n - 4")
	if _, err := s.Sensitivity([]int{3, 1, 0}); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("Δ = 0: %v", err)
	}
	// An audit reports the first data set where the score fails.
	a, err := New(Config{Mechanism: "exponential", Score: "count[r] / n", Sensitivity: "1", Epsilon: 1, Candidates: 2, MaxCount: 2, Neighbours: AddRemove})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.All(); err == nil || !strings.Contains(err.Error(), "count = [0 0]") {
		t.Errorf("division by n = 0: %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	ok := Config{Mechanism: "exponential", Score: "count[r]", Sensitivity: "1", Epsilon: 1, Candidates: 3, MaxCount: 3, Neighbours: ChangeOne}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Mechanism = "magic" }, "unknown mechanism"},
		{func(c *Config) { c.Neighbours = "swap" }, "neighbour"},
		{func(c *Config) { c.Epsilon = 0 }, "ε"},
		{func(c *Config) { c.Epsilon = math.NaN() }, "ε"},
		{func(c *Config) { c.Candidates = 9 }, "candidates"},
		{func(c *Config) { c.Candidates = 1 }, "at least 2"},
		{func(c *Config) { c.MaxCount = 0 }, "max-count"},
		{func(c *Config) { c.Candidates, c.MaxCount = 8, 1000 }, "universe"},
		{func(c *Config) { c.Sensitivity = "-1" }, "Δ"},
		{func(c *Config) { c.Measure = []float64{1, 2} }, "measure"},
		{func(c *Config) { c.Mechanism, c.Measure = "permute-and-flip", []float64{1, 1, 1} }, "base measure"},
	} {
		cfg := ok
		c.edit(&cfg)
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", cfg, err, c.want)
		}
	}
}

// Chunks merged in order give the result of one run, worst pair included.
func TestChunksMergeToOneRun(t *testing.T) {
	c := Config{Mechanism: "exponential", Score: "count[r] - count[(r+1)%k]", Sensitivity: "1", Epsilon: 1, Candidates: 3, MaxCount: 4, Neighbours: ChangeOne}
	one := auditAll(t, c)
	a, _ := New(c)
	var merged Result
	for from := 0; from < a.DataSets(); from += 7 {
		r, err := a.Run(from, from+7)
		if err != nil {
			t.Fatal(err)
		}
		merged = Merge(merged, r)
	}
	if merged.Loss != one.Loss || merged.Pairs != one.Pairs || ints(merged.Worst.Data) != ints(one.Worst.Data) ||
		ints(merged.Worst.Neighbour) != ints(one.Worst.Neighbour) || merged.Worst.Output != one.Worst.Output {
		t.Errorf("chunks %+v, one run %+v", merged, one)
	}
	// The worst pair's reported probabilities give the worst loss.
	if l := math.Abs(one.Worst.LogPData - one.Worst.LogPNeighbour); !near(l, one.Loss) {
		t.Errorf("worst pair's log-ratio %v, loss %v", l, one.Loss)
	}
}

func FuzzCompileScore(f *testing.F) {
	for _, s := range []string{"count[r]", "count[r] - count[(r+1)%3]", "n - count[r]", "count[r]/max(n,1)", "2*count[r", "1/0", "count[9]", "sum(count)", `"x"`, "r ?? 1", "[1,2][r]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := CompileScore(src)
		if err != nil {
			if e != nil {
				t.Fatal("expression with an error")
			}
			return
		}
		for r := 0; r < 3; r++ {
			v, err := e.Score([]int{2, 0, 1}, r)
			if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("%q gives %v without an error", src, v)
			}
		}
	})
}
