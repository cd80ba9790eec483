package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFiguresCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	code := run([]string{"figures", "-out", dir, "-format", "svg,png", "-lesson", "3", "-state", "#eps=0.5&broken=1&draws=2000"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var res figuresResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	want := []string{filepath.Join(dir, "lesson3-logratio.svg"), filepath.Join(dir, "lesson3-logratio.png")}
	if strings.Join(res.Files, ",") != strings.Join(want, ",") {
		t.Fatalf("files %v, want %v", res.Files, want)
	}
	if !strings.Contains(res.State, "lesson=3") || !strings.Contains(res.State, "broken=1") {
		t.Errorf("state %q lost the settings", res.State)
	}
	svg, err := os.ReadFile(want[0])
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("%s is not an SVG: %v", want[0], err)
	}
	// The same state writes the same bytes.
	dir2 := t.TempDir()
	run([]string{"figures", "-out", dir2, "-format", "svg", "-lesson", "3", "-state", "#eps=0.5&broken=1&draws=2000"}, &out, &errOut)
	again, _ := os.ReadFile(filepath.Join(dir2, "lesson3-logratio.svg"))
	if !bytes.Equal(svg, again) {
		t.Error("same state, different SVG")
	}
}

func TestFiguresBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-format", "gif"},
		{"-lesson", "8"},
		{"-state", "#eps=-1"},
		{"-state", "#lesson=1&fig=nope"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"figures", "-out", t.TempDir()}, args...), &out, &errOut)
		if code != 2 || strings.Count(strings.TrimSpace(errOut.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, errOut.String())
		}
	}
}
