package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const lessonSrc = `---
title: Test *lesson*
order: 3
slug: test-lesson
summary: A lesson for tests.
minutes: 10
objectives:
  - Learn $\varepsilon$.
  - Learn more.
---

## A heading

Some **bold**, *emphasis*, ` + "`code`" + `, a [link](#x) and <script>alert(1)</script> and $e^{x}$. It costs \$4.01, not \$4.02.

- item one
  continues here
- item two

| Name | Count |
|---|---:|
| a | 1 |

` + "```widget exponential-mechanism" + `
id: w1
title: A widget
eps: 0.5
data: adult
u: [1, 2, 3]
---
The caption.
` + "```" + `

` + "```predict" + `
Which is right?
- [ ] no
- [x] yes
---
Because.
` + "```" + `

` + "```exercise" + `
answer: 8
example-right: 8
example-wrong: 7
---
How many?
` + "```" + `

` + "```exercise" + `
check: report-noisy-max.something
example-right: 1
example-wrong: 2
---
And this?
` + "```" + `

` + "```notes" + `
minutes: 5
---
Teach it.
` + "```" + `
`

func TestParseLesson(t *testing.T) {
	l, err := ParseLesson("t.md", []byte(lessonSrc), testMath)
	if err != nil {
		t.Fatal(err)
	}
	if l.Slug != "test-lesson" || l.Order != 3 || l.Minutes != 10 || len(l.Objectives) != 2 {
		t.Errorf("front matter parsed as %+v", l)
	}
	if strings.Join(l.Widgets, ",") != "exponential-mechanism,report-noisy-max" {
		t.Errorf("widgets = %v, want exponential-mechanism (widget block) and report-noisy-max (exercise check)", l.Widgets)
	}
	h := l.HTML
	for _, want := range []string{
		`<h1 id="lesson-title" tabindex="-1">Test <em>lesson</em></h1>`,
		`<h2 id="a-heading">A heading</h2>`,
		`<strong>bold</strong>`, `<em>emphasis</em>`, `<code>code</code>`, `<a href="#x">link</a>`,
		`&lt;script&gt;alert(1)&lt;/script&gt;`,
		`<li>item one continues here</li>`,
		`<td class="num">1</td>`,
		`data-widget="exponential-mechanism" data-id="w1"`,
		`<h3 class="widget-title" id="w-w1-title">A widget</h3>`,
		`<figcaption><p>The caption.</p>`,
		`data-correct="true"> <span>yes</span>`,
		`<h3 id="ex-3-h">Exercise 1</h3>`, `<h3 id="ex-4-h">Exercise 2</h3>`,
		`<h3 id="predict-2-h">Predict, then reveal</h3>`,
		`<summary>Instructor notes (about 5 minutes)</summary>`,
		`<msup><mi>e</mi>`,
		`It costs $4.01, not $4.02.`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("lesson HTML lacks %s", want)
		}
	}
	if strings.Contains(h, "<script>") || strings.Contains(h, "\x00") {
		t.Errorf("raw HTML or a placeholder leaked into the output")
	}
	m := regexp.MustCompile(`data-params="([^"]*)"`).FindStringSubmatch(h)
	var params map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(m[1], "&#34;", `"`)), &params); err != nil {
		t.Fatalf("widget params %q: %v", m[1], err)
	}
	if params["eps"] != 0.5 || params["data"] != "adult" || len(params["u"].([]any)) != 3 {
		t.Errorf("widget params = %v", params)
	}
}

// A page with a label (the glossary) is called by it instead of by its
// order, above its title and in the navigation.
func TestLessonLabel(t *testing.T) {
	src := strings.Replace(lessonSrc, "order: 3\n", "order: 3\nlabel: Référence\n", 1)
	l, err := ParseLesson("t.md", []byte(src), testMath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(l.HTML, `<p class="lesson-kicker">Référence</p>`) || l.NavMark() != "R" {
		t.Errorf("labelled page: kicker in %q, nav mark %q", l.HTML[:200], l.NavMark())
	}
	plain, err := ParseLesson("t.md", []byte(lessonSrc), testMath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain.HTML, `<p class="lesson-kicker">Lesson 3</p>`) || plain.NavMark() != "3" {
		t.Errorf("unlabelled page: nav mark %q", plain.NavMark())
	}
}

// The Markdown an instructor writes without thinking renders as CommonMark
// says, and a link that could run code keeps its text and nothing else.
func TestEverydayMarkdown(t *testing.T) {
	tests := []struct{ name, md, want string }{
		{"nested list", "- a\n  - b\n  - c\n- d", "<ul>\n<li>a\n<ul>\n<li>b</li>\n<li>c</li>\n</ul>\n</li>\n<li>d</li>\n</ul>"},
		{"ordered list from 3", "3. three\n4. four", `<ol start="3">`},
		{"underscore emphasis", "an _emphasised_ word", "an <em>emphasised</em> word"},
		{"emphasis inside bold", "**bold *and* more**", "<strong>bold <em>and</em> more</strong>"},
		{"image", "![a chart](chart.png)", `<img src="chart.png" alt="a chart">`},
		{"javascript link", "see [this](javascript:alert(1)) now", "see this now"},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)", "<p>x</p>"},
		{"lesson link", "[the exponential mechanism](#/exponential-mechanism)", `<a href="../exponential-mechanism/">the exponential mechanism</a>`},
		{"lesson link with state", "[here](#/exponential-mechanism?meet.eps=2&meet.step=3)", `<a href="../exponential-mechanism/#meet.eps=2&amp;meet.step=3">here</a>`},
		{"link to the start page", "[start](#/)", `<a href="../">start</a>`},
		{"link to a file of the site", "[the lecture](lecture.html?role=host)", `<a href="../lecture.html?role=host">the lecture</a>`},
		{"link in the page", "[below](#references)", `<a href="#references">below</a>`},
		{"link elsewhere", "[Go](https://go.dev/)", `<a href="https://go.dev/">Go</a>`},
		{"math beside emphasis", "*a* $x_1 * y_2$ *b*", "<em>a</em> <math"},
		{"math before a comma", "so $x$, then ($y$)", "</math>\u2060, then (\u2060<math"},
		{"dollar sign", `it costs \$5`, "it costs $5"},
		{"html block", "<div onclick=\"x()\">hi</div>", "<p>&lt;div onclick=&quot;x()&quot;&gt;hi&lt;/div&gt;</p>"},
		{"display math", "$$\nx^2\n$$", `<div class="math-display"><math`},
		{"heading", "# Top", `<h2 id="top">Top</h2>`},
	}
	for _, tt := range tests {
		got, err := newRenderer("t.md", testMath).render(strings.Split(tt.md, "\n"), 1)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q renders as\n%s\nwant it to contain\n%s", tt.name, tt.md, got, tt.want)
		}
		if strings.Contains(got, "javascript:") || strings.Contains(got, "data:") {
			t.Errorf("%s: an unsafe link is left in %s", tt.name, got)
		}
	}
}

func TestParseLessonErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"no front matter", "# hi\n", "front matter"},
		{"unclosed front matter", "---\ntitle: x\n", "not closed"},
		{"no title", "---\nobjectives:\n  - a\n---\n", "title"},
		{"no objectives", "---\ntitle: x\n---\n", "objectives"},
		{"bad key", "---\ntitle: x\ncolour: red\n---\n", "unknown front matter key"},
		{"bad slug", "---\ntitle: x\nslug: Not Valid\nobjectives:\n  - a\n---\n", "slug"},
		{"bad math", "---\ntitle: x\nobjectives:\n  - a\n---\nSee $\\nosuch$.\n", `t.md:6: math "\\nosuch"`},
		{"widget without name", "---\ntitle: x\nobjectives:\n  - a\n---\n```widget\n```\n", "needs a name"},
		{"unclosed fence", "---\ntitle: x\nobjectives:\n  - a\n---\n```widget a\n", "unclosed"},
		{"predict without answer", "---\ntitle: x\nobjectives:\n  - a\n---\n```predict\nQ?\n- [ ] a\n- [ ] b\n```\n", "predict needs"},
		{"exercise without answer", "---\ntitle: x\nobjectives:\n  - a\n---\n```exercise\n---\nQ?\n```\n", "answer: or check:"},
		{"exercise without examples", "---\ntitle: x\nobjectives:\n  - a\n---\n```exercise\nanswer: 1\n---\nQ?\n```\n", "example-right"},
		{"exercise with a tolerance", "---\ntitle: x\nobjectives:\n  - a\n---\n```exercise\nanswer: 1\ntolerance: 0.01\nexample-right: 1\nexample-wrong: 2\n---\nQ?\n```\n", "not tolerance"},
		{"exercise with no decimals", "---\ntitle: x\nobjectives:\n  - a\n---\n```exercise\nanswer: 1\ndecimals: 0\nexample-right: 1\nexample-wrong: 2\n---\nQ?\n```\n", "decimals: 0"},
		{"exercise with decimals in words", "---\ntitle: x\nobjectives:\n  - a\n---\n```exercise\nanswer: 1\ndecimals: two\nexample-right: 1\nexample-wrong: 2\n---\nQ?\n```\n", "decimals: two"},
	}
	for _, tt := range tests {
		_, err := ParseLesson("t.md", []byte(tt.src), testMath)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"lessons/01-a.md":          "---\ntitle: First\norder: 1\nobjectives:\n  - a\n---\n```widget w\n```\n",
		"lessons/02-b.md":          "---\ntitle: Second\norder: 2\nobjectives:\n  - b\n---\nText.\n",
		"lessons/README.md":        "not a lesson",
		"web/index.html":           `<head><!--dpplay:meta--><meta name="dpplay-core" content="__DPPLAY_CORE__"><meta name="dpplay-lessons" content="__DPPLAY_LESSONS__"><link rel="stylesheet" href="styles.css"><!--dpplay:preload--><script type="module" src="shell/app.js"></script></head><a href="./">home</a><nav><!--dpplay:nav--></nav><main><!--dpplay:lesson--><nav class="pager"><!--dpplay:pager--></nav></main><!--dpplay:index-->`,
		"web/styles.css":           "body {\n  color: red;\n}\n",
		"web/embed.js":             "(function () {\n  var here = 1;\n  window.dpplayEmbed = here;\n})();\n",
		"web/404.html":             `<link rel="icon" href="__DPPLAY_ICON__"><a id="home" href="__DPPLAY_HOME__">home</a>`,
		"web/favicon.svg":          `<svg viewBox="0 0 2 2"><rect width="2" height="2"/></svg>`,
		"web/sw.js":                "const V='__DPPLAY_VERSION__'; const A=[\"__DPPLAY_ASSETS__\"]; const E=[\"__DPPLAY_EXTRAS__\"];",
		"web/shell/app.js":         "import { s } from '../start.js';\nexport const mount = (name) => import(`../widgets/${name}.js`);\nconsole.log(s);",
		"web/start.js":             "import { c } from './charts/c.js';\nexport const s = c + 1;",
		"web/charts/c.js":          "export const c = Math.random();",
		"web/widgets/w.js":         "import { x } from './helper.js';\nimport { c } from '../charts/c.js';\nexport const w = [x, c, new URL('../data/d.csv', import.meta.url).href];",
		"web/widgets/helper.js":    "export const x = 1;",
		"web/widgets/v.js":         "import { x } from './helper.js';\nexport const v = x;",
		"web/unused.js":            "export const unused = 1;",
		"build/core.wasm":          "\x00asm",
		"build/figures.wasm":       "\x00asm figures",
		"build/data.wasm":          "\x00asm data data data data",
		"go/lib/wasm/wasm_exec.js": "// go",
	})
	out := filepath.Join(dir, "dist")
	// The first lesson has a preview image of its own; the second shows the site's.
	card := func(l *Lesson) ([]byte, string, string, error) {
		if l.Slug == "a" {
			return []byte("\x89PNG a"), "A chart of a", "", nil
		}
		return nil, "", "", nil
	}
	opt := Options{Lessons: filepath.Join(dir, "lessons"), Web: filepath.Join(dir, "web"), Out: out,
		Wasm: map[string]string{"core": filepath.Join(dir, "build/core.wasm"), "figures": filepath.Join(dir, "build/figures.wasm"), "data": filepath.Join(dir, "build/data.wasm")}, WasmExec: filepath.Join(dir, "go/lib/wasm/wasm_exec.js"),
		BaseURL: "https://example.org/course", Card: card}
	res, err := Build(opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Lessons != 2 {
		t.Errorf("built %d lessons, want 2", res.Lessons)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	index := read("index.html")
	for _, want := range []string{`href="a/"`, `href="b/"`, `data-slug="a"`, `"file":"wasm/core.wasm"`,
		`<link rel="modulepreload" href="app.js">`, `<script type="module" src="app.js">`, `content="worker.js wasm/core.wasm 4"`, `content="a b"`, `<a href="./">home</a>`, `<link rel="stylesheet" href="styles.css">`,
		`<link rel="canonical" href="https://example.org/course/">`, `<meta property="og:image" content="https://example.org/course/icons/social.png">`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s:\n%s", want, index)
		}
	}
	// Each lesson is a page of its own one level down: its head, the
	// shell's URLs for that depth, the lesson, the links to its neighbours.
	a := read("a/index.html")
	for _, want := range []string{`<title>First — dpplay</title>`, `<link rel="canonical" href="https://example.org/course/a/">`,
		`<meta property="og:image" content="https://example.org/course/og/a.png">`, `<meta property="og:image:alt" content="A chart of a">`,
		`<meta property="og:type" content="article">`, `<a href="../">home</a>`, `<link rel="stylesheet" href="../styles.css">`,
		`<link rel="modulepreload" href="../app.js">`, `<script type="module" src="../app.js">`, `content="../worker.js wasm/core.wasm 4"`,
		`<a href="../a/" data-slug="a" aria-current="page">`, `<a href="../b/" data-slug="b">`, `<article class="lesson" data-slug="a"`,
		`<link rel="expect" href="#w-w" blocking="render">`, `<a href="../b/" rel="next" class="pager-next">`} {
		if !strings.Contains(a, want) {
			t.Errorf("a/index.html lacks %s:\n%s", want, a)
		}
	}
	if b := read("b/index.html"); !strings.Contains(b, `content="https://example.org/course/icons/social.png"`) || strings.Contains(b, `rel="expect"`) || !strings.Contains(b, `rel="prev"`) {
		t.Errorf("b/index.html: the site's image, no widget to wait for, a link back to a:\n%s", b)
	}
	if got := read("og/a.png"); got != "\x89PNG a" {
		t.Errorf("og/a.png = %q", got)
	}
	if got := read("sitemap.xml"); strings.Count(got, "<loc>") != 3 || !strings.Contains(got, "<loc>https://example.org/course/a/</loc>") {
		t.Errorf("sitemap.xml:\n%s", got)
	}
	if got := read("robots.txt"); !strings.Contains(got, "Sitemap: https://example.org/course/sitemap.xml") {
		t.Errorf("robots.txt:\n%s", got)
	}
	if got := read("404.html"); !strings.Contains(got, `href="/course/"`) {
		t.Errorf("404.html's home link: %s", got)
	}
	if got := read("404.html"); !strings.Contains(got, `<link rel="icon" href="data:image/svg+xml,%3Csvg%20viewBox=%220%200%202%202%22%3E%3Crect%20width=%222%22%20height=%222%22%2F%3E%3C%2Fsvg%3E">`) {
		t.Errorf("404.html's icon: %s", got)
	}
	// The modules are bundled: app.js, the widget w (a dynamic import) and
	// the chunks they share, all at the root. A page preloads app.js, its
	// first widget and what they import statically, each once, nothing
	// else; the preloads of a lesson one level down are the same files.
	var pre []string
	lows := 0
	for _, m := range regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)"( fetchpriority="low")?>`).FindAllStringSubmatch(index, -1) {
		pre = append(pre, m[1])
		// app.js and its chunks first, then the widget's files at low priority.
		if low := m[2] != ""; low != (strings.HasPrefix(m[1], "w-") || lows > 0) {
			t.Errorf("index.html preloads %s at low priority: %v", m[1], low)
		} else if low {
			lows++
		}
		if n := strings.Count(index, `href="`+m[1]+`"`); n != 1 {
			t.Errorf("index.html preloads %s %d times", m[1], n)
		}
		if !strings.Contains(a, `<link rel="modulepreload" href="../`+m[1]+`"`+m[2]+`>`) {
			t.Errorf("a/index.html does not preload ../%s", m[1])
		}
		if strings.Contains(read(m[1]), "import(") == (m[1] != "app.js") {
			t.Errorf("%s: only app.js has the dynamic import", m[1])
		}
	}
	var w string
	for i, f := range pre {
		switch {
		case regexp.MustCompile(`^w-[A-Z0-9]{8}\.js$`).MatchString(f):
			w = f
		case i > 0 && !regexp.MustCompile(`^chunk-[A-Z0-9]{8}\.js$`).MatchString(f):
			t.Errorf("index.html preloads %s", f)
		}
	}
	if len(pre) == 0 || pre[0] != "app.js" || w == "" {
		t.Fatalf("index.html preloads %q, want app.js, w-HASH.js and chunks", pre)
	}
	// The sources are gone; the lazy widget v and its helper are files of
	// their own; w reads its data beside its source, as unbundled.
	for _, gone := range []string{"shell/app.js", "start.js", "charts/c.js", "widgets/w.js", "widgets/helper.js"} {
		if _, err := os.Stat(filepath.Join(out, gone)); err == nil {
			t.Errorf("%s is in the built site beside the bundle", gone)
		}
	}
	ls, _ := filepath.Glob(filepath.Join(out, "*.js"))
	var names []string
	for _, f := range ls {
		if n := regexp.MustCompile(`-[A-Z0-9]{8}\.js$`).ReplaceAllString(filepath.Base(f), ""); n != "chunk" {
			names = append(names, n)
		}
	}
	if got := strings.Join(names, " "); got != "app.js embed.js helper sw.js unused.js v w wasm_exec.js" {
		t.Errorf("the site's root holds %s", got)
	}
	if !strings.Contains(read(w), `new URL("../data/d.csv",new URL("widgets/w.js",import.meta.url).href)`) {
		t.Errorf("%s does not read its data beside its source: %s", w, read(w))
	}
	// What no page bundles is minified under its own name; so is the CSS.
	if got := read("embed.js"); strings.Contains(got, "\n  ") || !strings.Contains(got, "window.dpplayEmbed=") {
		t.Errorf("embed.js = %q", got)
	}
	if got := read("styles.css"); got != "body{color:red}\n" {
		t.Errorf("styles.css = %q", got)
	}
	if got := read("unused.js"); !strings.Contains(got, "unused") {
		t.Errorf("unused.js = %q", got)
	}
	if strings.Contains(index, "<!--dpplay:") || strings.Contains(index, `href="/`) || strings.Contains(index, `src="/`) {
		t.Errorf("index.html keeps a marker or has an absolute URL (breaks sub-path hosting)")
	}
	sw := read("sw.js")
	if !strings.Contains(sw, res.Version) || !strings.Contains(sw, `"b/"`) || !strings.Contains(sw, `"wasm/core.wasm"`) || !strings.Contains(sw, `"./"`) {
		t.Errorf("sw.js does not precache the site: %s", sw)
	}
	// A page is asked for by its address; what only crawlers read stays out.
	for _, out := range []string{`"a/index.html"`, `og/`, `sitemap.xml`, `robots.txt`} {
		if strings.Contains(sw, out) {
			t.Errorf("sw.js precaches %s: %s", out, sw)
		}
	}
	// Lazy modules are published but left for the service worker to cache
	// on first use: they are several MB each.
	if strings.Contains(sw, "figures.wasm") {
		t.Errorf("sw.js precaches a lazy module: %s", sw)
	}
	// A lesson's own module is precached apart from the shell (EXTRAS), so
	// that a metered first visit can leave it out; the page's index gives
	// its gzipped size for the offer to cache it.
	if !strings.Contains(sw, `E=["wasm/data.wasm"]`) || strings.Contains(sw, `"wasm/data.wasm","`) {
		t.Errorf("sw.js does not list data.wasm as the only extra: %s", sw)
	}
	if m := regexp.MustCompile(`"offline":\[\{"file":"wasm/data.wasm","gzip":(\d+)\}\]`).FindStringSubmatch(index); m == nil || m[1] == "0" {
		t.Errorf("index lacks data.wasm's gzipped size: %s", index)
	}
	read("wasm/figures.wasm")
	read("wasm_exec.js")
	// The embed page's fragment of each widget, fetched only in a frame.
	if f := read(EmbedFragment("a", "w")); !strings.HasPrefix(f, `<script type="application/json" id="site-index">{"wasm":`) || !strings.Contains(f, `<figure class="widget" id="w-w"`) || strings.Contains(sw, "embed/") {
		t.Errorf("%s: %s (sw.js: %s)", EmbedFragment("a", "w"), f, sw)
	}
	// Without the site's address: no canonical link, the preview image's
	// address relative to the page, no sitemap, and the 404 page's link at
	// the host's root.
	opt.BaseURL = ""
	if _, err := Build(opt); err != nil {
		t.Fatal(err)
	}
	if a := read("a/index.html"); strings.Contains(a, "canonical") || strings.Contains(a, "og:url") || !strings.Contains(a, `<meta property="og:image" content="../og/a.png">`) {
		t.Errorf("a/index.html without a base URL:\n%s", a)
	}
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil || strings.Contains(read("robots.txt"), "Sitemap") || !strings.Contains(read("404.html"), `href="/"`) {
		t.Error("without a base URL: a sitemap, or robots.txt names one, or the 404 page's link is not /")
	}
	opt.BaseURL = "ftp://example.org/"
	if _, err := Build(opt); err == nil {
		t.Error("an ftp base URL is accepted")
	}
	opt.BaseURL = "https://example.org/course"
	// The same sources give the same site, bundle and version included.
	again, err := Build(opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Version != res.Version || read("index.html") != index {
		t.Errorf("a second build of the same sources is version %s, not %s, or its index.html differs", again.Version, res.Version)
	}
	// A second build replaces the first; the version changes with content.
	writeFiles(t, dir, map[string]string{"lessons/02-b.md": "---\ntitle: Second\norder: 2\nobjectives:\n  - b\n---\nChanged.\n"})
	res2, err := Build(opt)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Version == res.Version {
		t.Error("changing a lesson did not change the service worker's version")
	}
	// A lesson naming a widget without a module fails the build.
	writeFiles(t, dir, map[string]string{"lessons/03-c.md": "---\ntitle: C\norder: 3\nobjectives:\n  - c\n---\n```widget nosuch\n```\n"})
	if _, err := Build(opt); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("missing widget module: got %v", err)
	}
	os.Remove(filepath.Join(dir, "lessons/03-c.md"))
	// Never delete a directory the builder did not make.
	foreign := filepath.Join(dir, "foreign")
	writeFiles(t, foreign, map[string]string{"keep.txt": "mine"})
	opt.Out = foreign
	if _, err := Build(opt); err == nil {
		t.Error("built into a foreign non-empty directory")
	}
	if _, err := os.Stat(filepath.Join(foreign, "keep.txt")); err != nil {
		t.Error("a foreign file was deleted")
	}
}

// TestRealLessons builds the repository's own lessons, so a broken lesson
// file fails go test, not only the site build.
func TestRealLessons(t *testing.T) {
	lessons, err := LoadLessons(filepath.Join("..", "..", "lessons"), testMath)
	if err != nil {
		t.Fatal(err)
	}
	// The English phrases of Lighthouse's SEO audit "link-text" (12.8.2),
	// which fails a page with a link whose whole text is one of them.
	vague := map[string]bool{"click here": true, "click this": true, "go": true, "here": true, "information": true,
		"learn more": true, "more": true, "more info": true, "more information": true, "right here": true,
		"read more": true, "see more": true, "start": true, "this": true}
	anchor := regexp.MustCompile(`(?s)<a\b[^>]*>(.*?)</a>`)
	for _, l := range lessons {
		for _, m := range anchor.FindAllStringSubmatch(l.HTML, -1) {
			if text := strings.ToLower(plainText(m[1])); vague[text] {
				t.Errorf("%s: a link whose whole text is %q says nothing of where it leads", l.Slug, text)
			}
		}
		if l.Kind == "page" {
			continue
		}
		if !strings.Contains(l.HTML, `<h2 id="references">References</h2>`) {
			t.Errorf("lesson %s has no References section", l.Slug)
		}
		if l.Slug != "glossary" && !strings.Contains(l.HTML, `href="../glossary/"`) {
			t.Errorf("lesson %s never links a term to the glossary", l.Slug)
		}
		if l.Label == "" && l.Order > 1 && len(l.Requires) == 0 {
			t.Errorf("lesson %s names no prerequisite in its \"Before this lesson\" paragraph", l.Slug)
		}
		for _, w := range l.Widgets {
			if _, err := os.Stat(filepath.Join("..", "..", "web", "widgets", w+".js")); err != nil {
				t.Errorf("lesson %s: widget %s has no module", l.Slug, w)
			}
		}
		if !strings.Contains(l.HTML, `class="predict"`) || !strings.Contains(l.HTML, `class="exercise"`) || !strings.Contains(l.HTML, `class="notes"`) {
			t.Errorf("lesson %s lacks a prediction, an exercise or instructor notes", l.Slug)
		}
	}
}
