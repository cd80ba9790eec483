package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// scripts is the built site's JavaScript as the pages load it: for each ES
// module a page or a dynamic import names by its source path (shell/app.js,
// widgets/x.js), the output file that holds it, and for each output file
// the output files it imports statically.
type scripts struct {
	out     map[string]string   // source path of an entry → output file
	imports map[string][]string // output file → its static imports
}

var reModuleScript = regexp.MustCompile(`<script type="module" src="([^"]+\.js)"></script>`)

// bundle replaces the site's ES modules in files with a bundle made by
// esbuild, and minifies the rest of its JavaScript and CSS.
//
// The entry points are the modules the HTML files load (<script
// type="module" src>: shell/app.js, embed/embedpage.js,
// lecture/lecture.js); each is written as NAME.js at the site's root, and
// the HTML's src is rewritten to that file. With code splitting, every module a dynamic import names (each widgets/NAME.js,
// offline.js …) stays a lazy file of its own, named NAME-HASH.js, and code
// shared between them is in chunk-HASH.js files. All of it is written to
// the site's root, so a page fetches its entry and the chunks it imports
// (the page preloads them all at once) instead of one module per source
// file, one import level at a time. A source in a subdirectory that reads
// import.meta.url (widgets/datapanel.js's ../data/, lesson/current.js's
// ../) is given its own address, as it has unbundled.
//
// The classic scripts (embed.js, worker.js, frameguard.js, countbytes.js,
// wasm_exec.js) and any module no page reaches keep their names and are
// minified one by one; sw.js is minified by the caller once it is filled in.
// The generated widgets module (WidgetsModule) is kept as it is beside the
// bundle, for the tests and tools that import it. No source maps are
// written. The same files give the same bytes.
func bundle(files map[string][]byte) (scripts, error) {
	js := scripts{out: map[string]string{}, imports: map[string][]string{}}
	src, err := os.MkdirTemp("", "dpplay-bundle-")
	if err != nil {
		return js, err
	}
	defer os.RemoveAll(src)
	var entries []string
	for n, b := range files {
		if path.Ext(n) == ".html" {
			for _, m := range reModuleScript.FindAllSubmatch(b, -1) {
				if e := string(m[1]); files[e] != nil && !slices.Contains(entries, e) {
					entries = append(entries, e)
				}
			}
		}
		if path.Ext(n) != ".js" {
			continue
		}
		if d := path.Dir(n); d != "." {
			b = []byte(strings.ReplaceAll(string(b), "import.meta.url", fmt.Sprintf("new URL(%q, import.meta.url).href", n)))
			if err := os.MkdirAll(filepath.Join(src, filepath.FromSlash(d)), 0o755); err != nil {
				return js, err
			}
		}
		if err := os.WriteFile(filepath.Join(src, filepath.FromSlash(n)), b, 0o644); err != nil {
			return js, err
		}
	}
	sort.Strings(entries)
	done := map[string]bool{} // the bundle's inputs and outputs
	if len(entries) > 0 {
		outdir := filepath.Join(src, ".out")
		r := api.Build(api.BuildOptions{
			AbsWorkingDir: src, EntryPoints: entries, Outdir: outdir,
			Bundle: true, Splitting: true, Format: api.FormatESModule,
			EntryNames: "[name]", ChunkNames: "[name]-[hash]",
			MinifyWhitespace: true, MinifyIdentifiers: true, MinifySyntax: true,
			Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsNone,
			Metafile: true, Write: false, LogLevel: api.LogLevelSilent,
		})
		if len(r.Errors) > 0 {
			e := r.Errors[0]
			if e.Location != nil {
				return js, fmt.Errorf("bundling the site's modules: %s:%d: %s", e.Location.File, e.Location.Line, e.Text)
			}
			return js, fmt.Errorf("bundling the site's modules: %s", e.Text)
		}
		var meta struct {
			Inputs  map[string]json.RawMessage
			Outputs map[string]struct {
				EntryPoint string
				Imports    []struct{ Path, Kind string }
			}
		}
		if err := json.Unmarshal([]byte(r.Metafile), &meta); err != nil {
			return js, err
		}
		for in := range meta.Inputs {
			done[in] = true
			if in != WidgetsModule {
				delete(files, in)
			}
		}
		// Metafile paths are relative to the working directory.
		rel := func(p string) string { return strings.TrimPrefix(p, ".out/") }
		for p, o := range meta.Outputs {
			if o.EntryPoint != "" {
				js.out[o.EntryPoint] = rel(p)
			}
			for _, i := range o.Imports {
				if i.Kind == "import-statement" {
					js.imports[rel(p)] = append(js.imports[rel(p)], rel(i.Path))
				}
			}
		}
		for _, f := range r.OutputFiles {
			n, err := filepath.Rel(outdir, f.Path)
			if err != nil {
				return js, err
			}
			files[filepath.ToSlash(n)] = f.Contents
			done[filepath.ToSlash(n)] = true
		}
		// The pages load their entry's output in place of its source.
		for n, b := range files {
			if path.Ext(n) != ".html" {
				continue
			}
			files[n] = reModuleScript.ReplaceAllFunc(b, func(m []byte) []byte {
				e := string(reModuleScript.FindSubmatch(m)[1])
				if out, ok := js.out[e]; ok {
					return []byte(strings.Replace(string(m), `src="`+e+`"`, `src="`+out+`"`, 1))
				}
				return m
			})
		}
	}
	for n, b := range files {
		loader := api.LoaderNone
		switch {
		case n == "sw.js" || done[n]:
		case path.Ext(n) == ".js":
			loader = api.LoaderJS
		case path.Ext(n) == ".css":
			loader = api.LoaderCSS
		}
		if loader == api.LoaderNone {
			continue
		}
		m, err := minify(b, loader)
		if err != nil {
			return js, fmt.Errorf("minifying %s: %v", n, err)
		}
		files[n] = m
	}
	return js, nil
}

// minify returns b, JavaScript or CSS as loader says, minified.
func minify(b []byte, loader api.Loader) ([]byte, error) {
	r := api.Transform(string(b), api.TransformOptions{Loader: loader, MinifyWhitespace: true, MinifyIdentifiers: true, MinifySyntax: true, Charset: api.CharsetUTF8, LegalComments: api.LegalCommentsNone})
	if len(r.Errors) > 0 {
		return nil, fmt.Errorf("%s", r.Errors[0].Text)
	}
	return r.Code, nil
}

// preloads returns modulepreload links for a page's entry module (entry,
// its output file as the page's script names it: app.js), the given
// widgets' modules and every file they import statically, so the
// browser fetches them all in parallel instead of one import level at a
// time. The widgets' own files are fetched at low priority: their
// pre-rendered charts are in the page, so the first paint needs none of
// them, and on a slow link they must not delay the stylesheets or app.js.
func (js scripts) preloads(entry string, widgets []string) string {
	seen := map[string]bool{}
	var b strings.Builder
	var visit func(p, attr string)
	visit = func(p, attr string) {
		if seen[p] || p == "" {
			return
		}
		seen[p] = true
		fmt.Fprintf(&b, "<link rel=\"modulepreload\" href=\"%s\"%s>\n", p, attr)
		for _, m := range js.imports[p] {
			visit(m, attr)
		}
	}
	visit(entry, "")
	for _, w := range widgets {
		visit(js.out["widgets/"+w+".js"], ` fetchpriority="low"`)
	}
	return b.String()
}
