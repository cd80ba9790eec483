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
