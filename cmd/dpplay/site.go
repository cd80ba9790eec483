package main

import (
	"encoding/json"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/dpplay/dpplay/internal/serve"
	"github.com/dpplay/dpplay/internal/site"
)

func init() {
	register("site", "build the static site (lessons, web shell, wasm) into a directory", runSite)
}

// runSite renders lessons/ and web/ into -out. The WebAssembly modules are
// built beforehand (make site does both) and named with -wasm name=path,…
func runSite(args []string, stdout io.Writer) error {
	fs := newFlagSet("site")
	lessons := fs.String("lessons", "lessons", "directory of lesson Markdown files")
	web := fs.String("web", "web", "directory of the web shell")
	out := fs.String("out", "dist", "output directory (replaced if it holds an earlier build)")
	wasm := fs.String("wasm", "core=build/core.wasm", "comma-separated name=path of built WebAssembly modules")
	pre := fs.String("prerender", "", "scripts/prerender.mjs: draw each widget's opening state into the page with node")
	wasmExec := fs.String("wasm-exec", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), "Go's wasm_exec.js")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	mods := map[string]string{}
	for _, kv := range strings.Split(*wasm, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, p, ok := strings.Cut(kv, "=")
		if !ok || name == "" || p == "" {
			return usagef("site: -wasm wants name=path, got %q", kv)
		}
		mods[name] = p
	}
	res, err := site.Build(site.Options{Lessons: *lessons, Web: *web, Out: *out, Wasm: mods, WasmExec: *wasmExec, Prerender: *pre})
	if err != nil {
		return err
	}
	// Brotli and gzip copies beside each file, which `dpplay serve` sends to
	// browsers that accept them (a static host such as GitHub Pages
	// compresses by itself and serves the copies only if asked by name).
	// Brotli's best level for what a first visit loads.
	if _, err := serve.Precompress(*out, func(name string) bool {
		return !strings.HasSuffix(name, ".wasm") || name == "wasm/core.wasm"
	}); err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(res)
}
