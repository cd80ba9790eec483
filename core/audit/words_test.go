package audit

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"testing"

	"github.com/dpplay/dpplay/core/validate"
)

// flagName matches a flag of `dpplay audit` as the command line writes it
// (-max-count), or a flag's name that is not also a plain word (max-count).
var flagName = regexp.MustCompile(`(^|[\s(“"'])-[a-z][a-z-]*|max-count`)

// refusals are audits New or Run refuses, one for each way an input can be
// wrong.
func refusals() []Config {
	ok := Config{Mechanism: "exponential", Score: "count[r]", Sensitivity: "1", Epsilon: 1, Candidates: 3, MaxCount: 3, Neighbours: ChangeOne}
	var out []Config
	for _, edit := range []func(*Config){
		func(c *Config) { c.Mechanism = "magic" },
		func(c *Config) { c.Neighbours = "swap" },
		func(c *Config) { c.Epsilon = 0 },
		func(c *Config) { c.Epsilon = math.NaN() },
		func(c *Config) { c.Candidates = 9 },
		func(c *Config) { c.Candidates = 1 },
		func(c *Config) { c.MaxCount = 0 },
		func(c *Config) { c.Candidates, c.MaxCount = 6, 60 },
		func(c *Config) { c.Candidates, c.MaxCount = 8, 1000 },
		func(c *Config) { c.Sensitivity = "0" },
		func(c *Config) { c.Sensitivity = "-1" },
		func(c *Config) { c.Sensitivity = "1/(n-1)" },
		func(c *Config) { c.Sensitivity = "" },
		func(c *Config) { c.Sensitivity = "count[r]" },
		func(c *Config) { c.Measure = []float64{1, 2} },
		func(c *Config) { c.Mechanism, c.Measure = "permute-and-flip", []float64{1, 1, 1} },
		func(c *Config) { c.Score = "" },
		func(c *Config) { c.Score = "count[r" },
		func(c *Config) { c.Score = "count[r] / (n - 1)" },
		func(c *Config) { c.Score = "count[r] < 1" },
	} {
		c := ok
		edit(&c)
		out = append(out, c)
	}
	return out
}

// audited returns the error New or All gives for c.
func audited(c Config) error {
	a, err := New(c)
	if err != nil {
		return err
	}
	_, err = a.All()
	return err
}

// The page's labels of the auditor widget's controls (web/widgets/audit.js)
// and the universe, which its lesson names.
var controls = []string{"Mechanism", "Neighbours", "ε (epsilon) claimed", "Candidates k", "Largest count m", "Universe",
	"Base measure μ", "Score u(x, r)", "Claimed sensitivity Δ"}

// Every refused audit is worded for both readers: the command line's names
// its flags and is what Error returns, the page's names a control and no
// flag.
func TestEveryRefusalHasBothWordings(t *testing.T) {
	for _, c := range refusals() {
		err := audited(c)
		if err == nil {
			t.Errorf("%+v was not refused", c)
			continue
		}
		var in *InputError
		if !errors.As(err, &in) {
			t.Errorf("%+v: %v is not an *InputError", c, err)
			continue
		}
		var v *validate.Error
		if !errors.As(err, &v) || v.Error() != err.Error() {
			t.Errorf("%+v: the command line's wording is not a *validate.Error: %v", c, err)
		}
		cl, pg := For(err, CommandLine), For(err, Page)
		if cl.Error() != err.Error() {
			t.Errorf("%+v: For(CommandLine) %q, Error %q", c, cl, err)
		}
		p := pg.(*validate.Error)
		if !slices.Contains(controls, p.Param) {
			t.Errorf("%+v: the page's wording %q names %q, not a control", c, p, p.Param)
		}
		if m := flagName.FindString(p.Error()); m != "" {
			t.Errorf("%+v: the page's wording %q names the flag %q", c, p, m)
		}
	}
	if other := errors.New("x"); For(other, Page) != other {
		t.Error("For changed an error that is not an *InputError")
	}
}

// The two messages that name other settings, in full.
func TestTheWordingsThatNameSettings(t *testing.T) {
	base := Config{Mechanism: "exponential", Score: "count[r]", Sensitivity: "1", Epsilon: 1, Neighbours: ChangeOne}
	for _, c := range []struct {
		k, m      int
		cli, page string
	}{
		{6, 60, "universe: (60+1)^6 data sets is more than 16777216; lower -max-count or -candidates",
			"Universe: (60+1)^6 data sets is more than the 16777216 an audit may check; lower “Largest count m” or “Candidates k”"},
		{1, 3, "candidates: change-one neighbours need at least 2 candidates",
			"Candidates k: neighbours that change one person’s choice need at least 2 candidates"},
	} {
		cfg := base
		cfg.Candidates, cfg.MaxCount = c.k, c.m
		_, err := New(cfg)
		if err == nil {
			t.Fatalf("k = %d, m = %d was not refused", c.k, c.m)
		}
		if got := For(err, CommandLine).Error(); got != c.cli {
			t.Errorf("command line:\n got %q\nwant %q", got, c.cli)
		}
		if got := For(err, Page).Error(); got != c.page {
			t.Errorf("page:\n got %q\nwant %q", got, c.page)
		}
	}
}
