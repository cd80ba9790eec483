package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// runJSON runs the command line with args, fails the test unless it exits
// with status 0 and prints JSON, decodes that JSON into res and returns it
// as printed.
func runJSON(t *testing.T, args []string, res any) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), res); err != nil {
		t.Fatalf("%v: output is not JSON: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// Every command refuses bad flags and arguments with exit status 2 and one
// line on stderr (naming want, where given), which a student reads: no
// formatter artefact may reach it.
func TestBadFlags(t *testing.T) {
	const valuations = "../../core/market/testdata/known_optimum.csv"
	out := t.TempDir()
	figures := func(args ...string) []string {
		return append([]string{"figures", "-lessons", "../../lessons", "-out", out}, args...)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sample"}, ""},
		{[]string{"sample", "-scores", "1,x"}, ""},
		{[]string{"sample", "-scores", "1,2", "-epsilon", "0"}, ""},
		{[]string{"sample", "-scores", "1,2", "-epsilon", "NaN"}, ""},
		{[]string{"sample", "-scores", "1,2", "-measure", "0,0"}, ""},
		{[]string{"sample", "-scores", "1,2", "-mechanism", "magic"}, ""},
		{[]string{"sample", "-scores", "1,2", "-draws", "-1"}, ""},
		{[]string{"sample", "-scores", "1,2", "-seed", "-4"}, ""},
		{[]string{"sample", "-nonsense"}, ""},
		{[]string{"sample", "-scores", "1", "extra"}, ""},
		{[]string{"no-such-command"}, ""},

		{[]string{"pricing"}, ""},
		{[]string{"pricing", "-values", "1,x"}, ""},
		{[]string{"pricing", "-values", "1,-1"}, ""},
		{[]string{"pricing", "-values", "1", "-prices", "1:2"}, ""},
		{[]string{"pricing", "-values", "1", "-prices", "2,1"}, ""},
		{[]string{"pricing", "-values", "1", "-epsilon", "0"}, ""},
		{[]string{"pricing", "-values", "1", "-beta", "1"}, ""},
		{[]string{"pricing", "-values", "1", "-buyer", "5"}, ""},
		{[]string{"pricing", "-values", "1", "-neighbour", "0"}, ""},
		{[]string{"pricing", "-values", "1", "-draws", "-1"}, ""},
		{[]string{"pricing", "-values", "1", "-seed", "x"}, ""},
		{[]string{"allocate"}, ""},
		{[]string{"allocate", "-values", "no-such-file.csv"}, ""},
		{[]string{"allocate", "-values", valuations, "-supply", "1,2"}, ""},
		{[]string{"allocate", "-values", valuations, "-max-value", "5", "-supply", "1,2,3"}, ""},
		{[]string{"allocate", "-values", valuations, "-max-value", "5", "-supply", "-1"}, ""},
		{[]string{"allocate", "-values", valuations, "-max-value", "5", "-rounds", "0"}, ""},
		{[]string{"allocate", "-values", valuations, "-max-value", "5", "-counter", "abacus"}, ""},

		{[]string{"smalldb"}, ""},
		{[]string{"smalldb", "-data", "no-such.csv"}, ""},
		{[]string{"smalldb", "-data", medicalCSV, "-queries", "marginals:x"}, ""},
		{[]string{"smalldb", "-data", medicalCSV, "-queries", "cubes"}, ""},
		{[]string{"smalldb", "-data", medicalCSV, "-columns", "sex,height"}, ""},
		{[]string{"smalldb", "-data", medicalCSV, "-epsilon", "0"}, ""},
		{[]string{"smalldb", "-data", medicalCSV, "-size", "30", "-max-candidates", "1000"}, ""},
		{[]string{"mwem", "-data", medicalCSV, "-rounds", "0"}, ""},

		{[]string{"audit", "-candidates", "3"}, "-score is required"},
		{[]string{"audit", "-score", "count[r"}, "score"},
		{[]string{"audit", "-score", "count[r]", "-mechanism", "magic"}, "unknown mechanism"},
		{[]string{"audit", "-score", "count[r]", "-neighbours", "swap"}, "neighbour"},
		{[]string{"audit", "-score", "count[r]", "-epsilon", "-1"}, "ε"},
		{[]string{"audit", "-score", "count[r]", "-candidates", "x"}, "invalid value"},
		{[]string{"audit", "-score", "count[r]", "-max-count", "0"}, "max-count"},
		{[]string{"audit", "-score", "count[r]", "-candidates", "6", "-max-count", "60"}, "lower -max-count or -candidates"},
		{[]string{"audit", "-score", "count[r] / n"}, "count = [0 0 0]"},
		{[]string{"audit", "-score", "count[r]", "-measure", "1,x,1"}, "-measure"},
		{[]string{"audit", "-score", "count[r]", "-bogus"}, "bogus"},
		{[]string{"audit", "-score", "count[r]", "extra"}, "unexpected argument"},

		{figures("-format", "gif"), ""},
		{figures("-lesson", "98"), ""},
		{figures("-state", "#lesson=1&fig=nope"), ""},
		{figures("-state", "#/no-such-lesson?x.eps=1"), ""},
		{figures("-state", "#lesson=2", "-lesson", "1"), ""},
		{figures("-state", "#width=1000"), ""},
		{figures("extra"), ""},
	} {
		msg := checkUsageError(t, c.args)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%v: error %q does not say %q", c.args, msg, c.want)
		}
		if strings.Contains(msg, "%!") {
			t.Errorf("%v: unformatted message %q", c.args, msg)
		}
	}
}

// checkUsageError checks that args make the command line exit with status 2,
// print one line on stderr and nothing on stdout. It returns stderr.
func checkUsageError(t *testing.T, args []string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(args, &out, &errOut); code != 2 {
		t.Errorf("%v: exit %d, want 2", args, code)
	}
	if msg := strings.TrimRight(errOut.String(), "\n"); msg == "" || strings.Contains(msg, "\n") {
		t.Errorf("%v: error should be one line, got %q", args, errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("%v: printed %q on stdout", args, out.String())
	}
	return errOut.String()
}
