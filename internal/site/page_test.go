package site

import (
	"strings"
	"testing"
)

// A page's head names its title, description, canonical address and link
// preview; its text is escaped; without the site's address the preview
// image is relative to the page and nothing claims an absolute address.
func TestHead(t *testing.T) {
	h := Head{Title: `Noise & "signal"`, Description: "One <b>sentence</b>.", Path: "noise/", Image: "og/noise.png", ImageAlt: "A chart", Article: true}
	got := h.HTML("https://example.org/c/", "../")
	for _, want := range []string{
		"<title>Noise &amp; &#34;signal&#34; — dpplay</title>",
		`<meta name="description" content="One &lt;b&gt;sentence&lt;/b&gt;.">`,
		`<link rel="canonical" href="https://example.org/c/noise/">`,
		`<meta property="og:type" content="article">`,
		`<meta property="og:title" content="Noise &amp; &#34;signal&#34;">`,
		`<meta property="og:url" content="https://example.org/c/noise/">`,
		`<meta property="og:image" content="https://example.org/c/og/noise.png">`,
		`<meta property="og:image:width" content="1200">`,
		`<meta property="og:image:alt" content="A chart">`,
		`<meta name="twitter:card" content="summary_large_image">`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("head lacks %s:\n%s", want, got)
		}
	}
	got = h.HTML("", "../")
	if strings.Contains(got, "canonical") || strings.Contains(got, "og:url") || !strings.Contains(got, `<meta property="og:image" content="../og/noise.png">`) {
		t.Errorf("head without the site's address:\n%s", got)
	}
	if root := (Head{Description: "d"}).HTML("", ""); !strings.Contains(root, "<title>dpplay — a differential privacy playground</title>") || !strings.Contains(root, `content="website"`) {
		t.Errorf("the root's head:\n%s", root)
	}
}

func TestBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "",
		"https://owner.github.io/repo":    "https://owner.github.io/repo/",
		"https://owner.github.io/repo/":   "https://owner.github.io/repo/",
		"http://127.0.0.1:8080":           "http://127.0.0.1:8080/",
		"https://example.org/a%20b/c?x=1": "",
		"ftp://example.org/":              "",
		"/repo/":                          "",
		"https://u:p@example.org/":        "",
		"https://example.org/#top":        "",
	} {
		got, err := BaseURL(in)
		if got != want || (err != nil) != (want == "" && in != "") {
			t.Errorf("BaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestSitemapAndRobots(t *testing.T) {
	s := string(Sitemap("https://example.org/c/", []string{"", "a/", "b&c/"}))
	for _, want := range []string{`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`, "<loc>https://example.org/c/</loc>", "<loc>https://example.org/c/a/</loc>", "<loc>https://example.org/c/b&amp;c/</loc>"} {
		if !strings.Contains(s, want) {
			t.Errorf("sitemap lacks %s:\n%s", want, s)
		}
	}
	if r := string(Robots("https://example.org/c/")); r != "User-agent: *\nAllow: /\nSitemap: https://example.org/c/sitemap.xml\n" {
		t.Errorf("robots.txt:\n%s", r)
	}
	if r := string(Robots("")); strings.Contains(r, "Sitemap") {
		t.Errorf("robots.txt without the site's address names a sitemap:\n%s", r)
	}
}

func TestNoscriptCard(t *testing.T) {
	fig := func(id, body string) string {
		return `<figure class="widget" id="w-` + id + `" data-widget="x">` + "\n<h3>T</h3>\n" + noscriptNote + "\n" + body + "</div>\n</figure>\n"
	}
	bare := unrendered + "Loading the interactive part…</p>"
	drawn := `<div data-prerendered="" inert="" class="widget-body" aria-busy="true"><svg></svg>`
	content := fig("a", drawn) + fig("b", bare)
	got := NoscriptCard(content, "b", "../og/l.png", `A "chart"`)
	want := fig("a", drawn) + strings.Replace(fig("b", bare), noscriptNote,
		`<noscript><p class="widget-noscript">The controls and the live drawing need JavaScript, which is turned off: this is the widget's opening figure.</p>`+
			`<img class="widget-card" src="../og/l.png" alt="A &#34;chart&#34;" width="1200" height="630"></noscript>`, 1)
	if got != want {
		t.Errorf("an unrendered widget:\n got %q\nwant %q", got, want)
	}
	// A pre-rendered widget shows its own drawing; an unknown or empty id changes nothing.
	for _, id := range []string{"a", "c", ""} {
		if got := NoscriptCard(content, id, "../og/l.png", "A chart"); got != content {
			t.Errorf("id %q: changed to %q", id, got)
		}
	}
}
