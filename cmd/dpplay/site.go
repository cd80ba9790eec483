package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/dpplay/dpplay/figures"
	"github.com/dpplay/dpplay/internal/serve"
	"github.com/dpplay/dpplay/internal/site"
)

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
	base := fs.String("base-url", "", "the site's public address, e.g. https://owner.github.io/repo/: pages then name their canonical address, link previews get absolute URLs and sitemap.xml is written; without it, none of these (docs/web.md)")
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
	res, err := site.Build(site.Options{Lessons: *lessons, Web: *web, Out: *out, Wasm: mods, WasmExec: *wasmExec, Prerender: *pre, BaseURL: *base, Card: lessonCard})
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

// lessonCard draws the link preview image of lesson l (site.Options.Card):
// its first figure at the lesson's own settings, as `dpplay figures` draws
// it, in PNG at site.CardWidth × site.CardHeight pixels, with the figure's
// title as its alt text, and the widget's id; nil for a lesson or page without a figure. Of a
// figure of small multiples it draws the first panel, under the figure's
// titles: the whole grid is unreadable at a preview's size.
func lessonCard(l *site.Lesson) ([]byte, string, string, error) {
	for _, u := range l.Uses {
		if figures.Names(u.Name) == nil {
			continue
		}
		req, _ := useRequest(l, u)
		figs, err := figures.Build(req)
		if err != nil {
			return nil, "", "", fmt.Errorf("widget %s: %v", u.ID, err)
		}
		if len(figs) == 0 {
			continue
		}
		f := figs[0]
		if len(f.Panels) > 0 {
			p := *f.Panels[0]
			p.Lesson, p.Heading, p.Title = f.Lesson, f.Heading, f.Title+"\n"+p.Title
			f = &p
		}
		cm := func(px int) float64 { return float64(px) / figures.PNGDPI * 2.54 }
		png, err := figures.Render(f, "png", cm(site.CardWidth), cm(site.CardHeight))
		alt := strings.ReplaceAll(strings.TrimPrefix(f.Heading+": "+f.Title, ": "), "\n", "; ")
		return png, "A chart from the lesson: " + alt, u.ID, err
	}
	return nil, "", "", nil
}
