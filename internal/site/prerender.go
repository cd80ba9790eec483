package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// prerender runs the Node script o.Prerender over the lessons: it mounts
// every widget with the page's own modules and the engine's own WebAssembly
// modules and writes what they draw, and the recording of their engine calls,
// into each lesson's HTML (scripts/prerender.mjs, docs/web.md "The first
// chart"). A widget it cannot draw keeps its placeholder; the script names it
// on stderr, which the build passes on.
//
// The script imports the modules from a copy of o.Web that also holds the
// generated widgets module gen, as dist/ will.
func prerender(o Options, lessons []*Lesson, gen []byte) error {
	web, err := os.MkdirTemp("", "dpplay-prerender-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(web)
	if err := os.CopyFS(web, os.DirFS(o.Web)); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(web, filepath.Dir(WidgetsModule)), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(web, WidgetsModule), gen, 0o644); err != nil {
		return err
	}
	type page struct {
		Slug string `json:"slug"`
		HTML string `json:"html"`
	}
	in := struct {
		Web      string            `json:"web"`
		WasmExec string            `json:"wasmExec"`
		Wasm     map[string]string `json:"wasm"`
		Lessons  []page            `json:"lessons"`
	}{Web: web, WasmExec: o.WasmExec, Wasm: map[string]string{}}
	for name, p := range o.Wasm {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		in.Wasm[name] = abs
	}
	for _, l := range lessons {
		in.Lessons = append(in.Lessons, page{l.Slug, l.HTML})
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		return err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("node", o.Prerender)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("prerender: node %s: %v\n%s", o.Prerender, err, stderr.String())
	}
	var out map[string]string
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return fmt.Errorf("prerender: reading the output of %s: %v\n%s", o.Prerender, err, stderr.String())
	}
	for _, l := range lessons {
		html, ok := out[l.Slug]
		if !ok {
			return fmt.Errorf("prerender: %s returned no lesson %s", o.Prerender, l.Slug)
		}
		l.HTML = html
	}
	if stderr.Len() > 0 {
		os.Stderr.WriteString(stderr.String())
	}
	return nil
}
