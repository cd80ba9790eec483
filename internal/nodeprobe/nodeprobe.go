// Package nodeprobe runs the page's own JavaScript in Node from a Go test,
// so that a Go rule and its JS mirror can be compared on the same inputs.
package nodeprobe

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Run writes files (slash-separated path → contents) and script, as
// probe.mjs, into a temporary folder, runs the script in Node with the path of a file that
// holds the JSON of inputs as its argument, and decodes what it prints
// into out. The test is skipped when node is not installed.
func Run(t testing.TB, files map[string][]byte, script string, inputs, out any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; make test installs it")
	}
	dir := t.TempDir()
	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	files["probe.mjs"], files["inputs.json"] = []byte(script), in
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, filepath.Join(dir, "probe.mjs"), filepath.Join(dir, "inputs.json"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("node's answer: %v\n%.500s", err, stdout)
	}
}

// Read returns the contents of the file at path, failing the test if it
// cannot be read.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
