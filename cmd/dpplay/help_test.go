package main

import (
	"bytes"
	"strings"
	"testing"
)

// `dpplay help CMD` prints CMD's own usage, summary and flags on stdout and
// exits with status 0, the same text as `dpplay CMD -h`, and never the list
// of commands.
func TestHelpCommand(t *testing.T) {
	// Flags each command defines, read from its source: the help must list
	// them. Every command has an entry, so a new one needs one too.
	flags := map[string][]string{
		"allocate": {"-values", "-supply", "-max-value", "-seed"},
		"audit":    {"-score", "-mechanism", "-neighbours", "-max-count"},
		"figures":  {"-lessons", "-out", "-format", "-state"},
		"mwem":     {"-data", "-rounds", "-epsilon"},
		"pricing":  {"-values", "-prices", "-beta", "-buyer"},
		"sample":   {"-mechanism", "-scores", "-epsilon", "-draws", "-seed"},
		"serve":    {"-addr", "-dir", "-db", "-tls-cert", "-tls-key", "-join-limit"},
		"site":     {"-lessons", "-web", "-out", "-base-url", "-wasm"},
		"smalldb":  {"-data", "-columns", "-queries", "-size"},
	}
	for name := range commands {
		if _, ok := flags[name]; !ok {
			t.Errorf("command %s has no entry in this test", name)
		}
	}
	for name, want := range flags {
		var out, errOut bytes.Buffer
		if code := run([]string{"help", name}, &out, &errOut); code != 0 {
			t.Errorf("help %s: exit %d, want 0 (stderr %q)", name, code, errOut.String())
		}
		if errOut.Len() != 0 {
			t.Errorf("help %s: printed %q on stderr", name, errOut.String())
		}
		help := out.String()
		if first := strings.SplitN(help, "\n", 2)[0]; first != "usage: dpplay "+name+" [flags]" {
			t.Errorf("help %s: first line %q", name, first)
		}
		if !strings.Contains(help, commands[name].summary) {
			t.Errorf("help %s: no summary %q in\n%s", name, commands[name].summary, help)
		}
		if strings.Contains(help, "commands:") {
			t.Errorf("help %s: printed the list of commands:\n%s", name, help)
		}
		for _, f := range want {
			if !strings.Contains(help, "\n  "+f+" ") && !strings.Contains(help, "\n  "+f+"\n") {
				t.Errorf("help %s: flag %s missing from\n%s", name, f, help)
			}
		}

		var dash, dashErr bytes.Buffer
		if code := run([]string{name, "-h"}, &dash, &dashErr); code != 0 || dash.String() != help {
			t.Errorf("%s -h: exit %d, output\n%s\nwant exit 0 and the output of help %s", name, code, dash.String(), name)
		}
	}
}

// `dpplay help` alone lists every command; `dpplay help` with an unknown
// command or more than one argument is a usage error (status 2, one line on
// stderr, nothing on stdout).
func TestHelpList(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"help"}, &out, &errOut); code != 0 {
		t.Fatalf("help: exit %d: %s", code, errOut.String())
	}
	for name, c := range commands {
		if !strings.Contains(out.String(), "  "+name+" ") || !strings.Contains(out.String(), c.summary) {
			t.Errorf("help: %s or its summary missing from\n%s", name, out.String())
		}
	}
	for _, args := range [][]string{
		{"help", "no-such-command"},
		{"help", "serve", "extra"},
		{"help", "-addr"},
	} {
		checkUsageError(t, args)
	}
}
