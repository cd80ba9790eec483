// Package site builds the playground's static site: it
// renders the Markdown lessons in lessons/ to HTML with MathML formulas,
// copies the web shell and the WebAssembly modules, and writes a service
// worker that precaches every file, so the site works offline after one
// visit. Every URL in the output is relative, so the site can be served
// from any sub-path (GitHub Pages serves project sites at /<repo>/).
package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Options say where the build reads and writes.
type Options struct {
	Lessons  string            // directory of lesson Markdown files
	Web      string            // the web shell: index.html, sw.js, shell/app.js, widgets/ …
	Out      string            // output directory; replaced if it holds an earlier build
	Wasm     map[string]string // module name → built .wasm file, copied to wasm/NAME.wasm
	WasmExec string            // Go's wasm_exec.js, from $(go env GOROOT)/lib/wasm
	// Prerender, if set, is scripts/prerender.mjs: run with node, it draws
	// every widget's opening state into its lesson (needs Wasm and WasmExec).
	Prerender string
	// BaseURL is the site's public address, an absolute URL ending in "/"
	// (BaseURL checks one): with it every page names its canonical address,
	// link previews have absolute URLs and the build writes sitemap.xml;
	// without it, see Head.HTML.
	BaseURL string
	// Card, if set, draws the link preview image of a lesson or page: a PNG
	// of CardWidth × CardHeight pixels, its alt text and the id of the
	// widget it draws, or nil for the site's own (icons/social.png).
	// cmd/dpplay draws the lesson's first figure with package figures, which
	// this package must not link. Read without JavaScript, a widget the build
	// could not pre-render shows the card in its place (NoscriptCard).
	Card func(l *Lesson) (png []byte, alt, id string, err error)
}

// Result summarises a build.
type Result struct {
	Out     string `json:"out"`
	Lessons int    `json:"lessons"`
	Files   int    `json:"files"`
	Bytes   int64  `json:"bytes"`
	Version string `json:"version"`
}

// marker is written into every output directory, so a later build only
// ever deletes a directory it made itself.
const marker = ".dpplay-site"

// Markers in web/index.html and web/sw.js that the build fills in.
const (
	metaMarker   = "<!--dpplay:meta-->"
	navMarker    = "<!--dpplay:nav-->"
	lessonMarker = "<!--dpplay:lesson-->"
	pagerMarker  = "<!--dpplay:pager-->"
	indexMarker  = "<!--dpplay:index-->"
	handoutMark  = "<!--dpplay:handout-->"
	preloadMark  = "<!--dpplay:preload-->"
	coreMark     = "__DPPLAY_CORE__"
	slugsMark    = "__DPPLAY_LESSONS__"
	versionMark  = "__DPPLAY_VERSION__"
	assetsMark   = `["__DPPLAY_ASSETS__"]`
	extrasMark   = `["__DPPLAY_EXTRAS__"]`
)

// Build writes the site into o.Out.
func Build(o Options) (Result, error) {
	var err error
	if o.BaseURL, err = BaseURL(o.BaseURL); err != nil {
		return Result{}, err
	}
	// One renderer of TeX for every formula of the build: the lessons' and
	// the widgets' formula lines.
	math, err := StartMath()
	if err != nil {
		return Result{}, err
	}
	defer math.Close()
	all, err := LoadLessons(o.Lessons, math)
	if err != nil {
		return Result{}, err
	}
	lessons, pages := splitPages(all)
	if len(lessons) == 0 {
		return Result{}, fmt.Errorf("no lessons in %s, only pages", o.Lessons)
	}
	if err := checkRequires(lessons); err != nil {
		return Result{}, err
	}
	for _, l := range lessons {
		for _, w := range l.Widgets {
			if _, err := os.Stat(filepath.Join(o.Web, "widgets", w+".js")); err != nil {
				return Result{}, fmt.Errorf("lesson %s uses widget %q but %s does not exist", l.Slug, w, filepath.Join(o.Web, "widgets", w+".js"))
			}
		}
	}
	// The handout points to each widget instead of drawing it, and search
	// indexes the text: both take the lessons as written, before the
	// pre-render fills their widgets.
	written := make([]*Lesson, len(all))
	for i, l := range all {
		c := *l
		written[i] = &c
	}
	gen, err := widgetsModule(math)
	if err != nil {
		return Result{}, err
	}
	if o.Prerender != "" {
		if err := prerender(o, lessons, gen); err != nil {
			return Result{}, err
		}
	}
	if err := prepareOut(o.Out); err != nil {
		return Result{}, err
	}
	files := map[string][]byte{} // output path (slash-separated) → contents
	err = filepath.WalkDir(o.Web, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(o.Web, p)
		if strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		return Result{}, err
	}
	fillHeads(files)
	files[WidgetsModule] = gen
	// The math font holds the glyphs of every formula rendered above.
	if files[MathFont], files[MathFontLicense], err = math.Font(); err != nil {
		return Result{}, fmt.Errorf("the math font: %v", err)
	}
	sw, ok := files["sw.js"]
	if _, ok2 := files["index.html"]; !ok || !ok2 {
		return Result{}, fmt.Errorf("%s must contain index.html and sw.js", o.Web)
	}
	if o.WasmExec != "" {
		b, err := os.ReadFile(o.WasmExec)
		if err != nil {
			return Result{}, err
		}
		files["wasm_exec.js"] = b
	}
	js, err := bundle(files)
	if err != nil {
		return Result{}, err
	}
	// The shell as bundled: its script is its entry's output.
	shell := files["index.html"]
	var entry string
	if m := reModuleScript.FindSubmatch(shell); m != nil {
		entry = string(m[1])
	}
	// Offline lists the lessons' own modules with their gzipped sizes, for
	// the page's offer to keep every lesson offline where the service worker
	// precaches only the shell and core (web/offline/offline.js).
	type offlineFile struct {
		File string `json:"file"`
		Gzip int    `json:"gzip"`
	}
	index := struct {
		Lessons []*Lesson           `json:"lessons"`
		Pages   []*Lesson           `json:"pages,omitempty"`
		Wasm    map[string]wasmInfo `json:"wasm"`
		Offline []offlineFile       `json:"offline"`
	}{Lessons: lessons, Pages: pages, Wasm: map[string]wasmInfo{}, Offline: []offlineFile{}}
	for name, p := range o.Wasm {
		b, err := os.ReadFile(p)
		if err != nil {
			return Result{}, err
		}
		out := "wasm/" + name + ".wasm"
		files[out] = b
		index.Wasm[name] = wasmInfo{File: out, Bytes: len(b)}
		if lessonModule(out) {
			index.Offline = append(index.Offline, offlineFile{File: out, Gzip: gzipSize(b)})
		}
	}
	sort.Slice(index.Offline, func(i, j int) bool { return index.Offline[i].File < index.Offline[j].File })
	search, err := json.Marshal(SearchIndex(written))
	if err != nil {
		return Result{}, err
	}
	files["search.json"] = search
	indexJSON, err := json.Marshal(index)
	if err != nil {
		return Result{}, err
	}
	for _, m := range []string{metaMarker, navMarker, lessonMarker, pagerMarker, indexMarker, preloadMark} {
		if !bytes.Contains(shell, []byte(m)) {
			return Result{}, fmt.Errorf("web/index.html lacks the marker %s", m)
		}
	}
	p := pageShell{o: o, shell: string(shell), js: js, entry: entry, lessons: lessons, index: indexScript(indexJSON)}
	if core, ok := index.Wasm["core"]; ok {
		p.core = core.File + " " + fmt.Sprint(core.Bytes)
	}
	// The head's script turns a link of the first form (#/slug) into the
	// page's address, for a slug that has a page.
	for _, l := range all {
		p.slugs = strings.TrimSpace(p.slugs + " " + l.Slug)
	}
	// The root shows the landing page; the first lesson's modules are still
	// preloaded, so that starting it is instant.
	files["index.html"] = []byte(p.page(Head{Description: siteDescription, Image: socialImage, ImageAlt: socialAlt}, "", Landing(lessons), "", lessons[0].Widgets))
	paths := []string{""}
	for _, l := range all {
		h := Head{Title: l.Title, Description: l.Summary, Path: PageAddress(l.Slug, ""), Image: socialImage, ImageAlt: socialAlt, Article: l.Kind != "page"}
		content := l.HTML
		if o.Card != nil {
			png, alt, id, err := o.Card(l)
			if err != nil {
				return Result{}, fmt.Errorf("lesson %s: its preview image: %v", l.Slug, err)
			}
			if png != nil {
				h.Image, h.ImageAlt = "og/"+l.Slug+".png", alt
				files[h.Image] = png
				content = NoscriptCard(content, id, strings.Repeat(up, strings.Count(h.Path, "/"))+h.Image, alt)
			}
		}
		files[h.Path+"index.html"] = []byte(p.page(h, l.Slug, content, pagerHTML(lessons, slices.Index(lessons, l)), l.Widgets))
		paths = append(paths, h.Path)
	}
	if err := embedFragments(files, all, index.Wasm); err != nil {
		return Result{}, err
	}
	if shell, ok := files["handout.html"]; ok {
		handout, err := p.handout(string(shell), written)
		if err != nil {
			return Result{}, err
		}
		delete(files, "handout.html")
		files[handoutPath+"index.html"] = handout
		paths = append(paths, handoutPath)
	}
	if nf, ok := files["404.html"]; ok {
		home := "/"
		if u, err := url.Parse(o.BaseURL); err == nil && o.BaseURL != "" {
			home = u.Path
		}
		nf = bytes.Replace(nf, []byte(homeMark), []byte(html.EscapeString(home)), 1)
		icon := "data:image/svg+xml," + url.PathEscape(string(files["favicon.svg"]))
		files["404.html"] = bytes.Replace(nf, []byte(iconMark), []byte(html.EscapeString(icon)), 1)
	}
	if o.BaseURL != "" {
		files["sitemap.xml"] = Sitemap(o.BaseURL, paths)
	}
	files["robots.txt"] = Robots(o.BaseURL)
	delete(files, "sw.js")

	// The service worker's version is a hash of everything it caches, so
	// any change to the site makes browsers fetch the new files.
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	version := hex.EncodeToString(h.Sum(nil))[:12]
	assets := []string{"./"}
	extras := []string{}
	for _, n := range names {
		switch {
		case lessonModule(n):
			extras = append(extras, n)
		case forCrawlers(n) || lazyModule(n) || embedFragment(n) || n == WidgetsModule:
		case strings.HasSuffix(n, "/index.html"):
			// A page is asked for by its address, slug/.
			assets = append(assets, strings.TrimSuffix(n, "index.html"))
		default:
			assets = append(assets, n)
		}
	}
	assetsJSON, _ := json.Marshal(assets)
	extrasJSON, _ := json.Marshal(extras)
	for _, m := range []string{versionMark, assetsMark, extrasMark} {
		if !bytes.Contains(sw, []byte(m)) {
			return Result{}, fmt.Errorf("web/sw.js lacks %s", m)
		}
	}
	sw = bytes.Replace(sw, []byte(versionMark), []byte(version), 1)
	sw = bytes.Replace(sw, []byte(assetsMark), assetsJSON, 1)
	sw = bytes.Replace(sw, []byte(extrasMark), extrasJSON, 1)
	if files["sw.js"], err = minify(sw, api.LoaderJS); err != nil {
		return Result{}, fmt.Errorf("minifying sw.js: %v", err)
	}
	files[marker] = []byte("built by dpplay site; deleted and rebuilt by the next build\n")

	res := Result{Out: o.Out, Lessons: len(lessons), Version: version}
	for n, b := range files {
		p := filepath.Join(o.Out, filepath.FromSlash(path.Clean(n)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return Result{}, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return Result{}, err
		}
		res.Files++
		res.Bytes += int64(len(b))
	}
	return res, nil
}

// wasmInfo is an engine module in the site index: its file and its size in bytes.
type wasmInfo struct {
	File  string `json:"file"`
	Bytes int    `json:"bytes"`
}

// indexScript returns the site index, JSON, as the script element with id
// site-index that the pages read; "</" is escaped so that it cannot close
// the element.
func indexScript(index []byte) string {
	return `<script type="application/json" id="site-index">` + strings.ReplaceAll(string(index), "</", `<\/`) + `</script>`
}

// prepareOut empties out if it is an earlier build (or empty) and creates it.
func prepareOut(out string) error {
	entries, err := os.ReadDir(out)
	if os.IsNotExist(err) {
		return os.MkdirAll(out, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, marker)); err != nil {
		return fmt.Errorf("%s is not empty and was not made by dpplay site; refusing to delete it", out)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// lessonModule reports whether a built file is a lesson's own WebAssembly
// module other than core. The service worker precaches them with the shell,
// except on a first visit over a metered or Save-Data connection, where it
// precaches the shell and core only and the page offers the rest.
func lessonModule(name string) bool {
	return strings.HasPrefix(name, "wasm/") && strings.HasSuffix(name, ".wasm") && name != "wasm/core.wasm" && !lazyModule(name)
}

// gzipSize is the length of b gzipped at the default level, as a server
// that compresses on the fly sends it.
func gzipSize(b []byte) int {
	var n countWriter
	w, _ := gzip.NewWriterLevel(&n, gzip.DefaultCompression)
	w.Write(b)
	w.Close()
	return int(n)
}

// countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// forCrawlers reports whether a built file is only for search engines and
// link previews (the sitemap, robots.txt, the preview images): the service
// worker leaves them out.
func forCrawlers(name string) bool {
	return name == "sitemap.xml" || name == "robots.txt" || strings.HasPrefix(name, "og/")
}

// lazyModule reports whether a built file is one of the optional extras,
// figure export (figures, and auditfigures for the auditor's charts) and the
// sampling machine: the service worker keeps them after their first use
// instead of downloading them on every student's first visit. The lessons' own modules are
// precached with the rest, so that every lesson works offline after the
// first visit, whichever lessons were opened.
func lazyModule(name string) bool {
	return name == "wasm/figures.wasm" || name == "wasm/auditfigures.wasm" || name == "wasm/machine.wasm"
}
