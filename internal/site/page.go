package site

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
)

// SiteName is the site's name in titles and link previews.
const SiteName = "dpplay"

// Card sizes: Open Graph and Twitter's large summary card show an image of
// 1200 × 630 pixels (1.91:1).
const (
	CardWidth  = 1200
	CardHeight = 630
)

// Head is what a page says about itself in its head: its title and
// description for the browser and search engines, its canonical address,
// and the link preview (Open Graph and Twitter card) that a forum, a chat or
// an LMS shows for a link to it.
type Head struct {
	Title       string // the page's own title; the document's is "Title — dpplay" ("" for the site's root)
	Description string // one or two sentences
	Path        string // the page's address relative to the site's root: "" (the root), "slug/"
	Image       string // the preview image, relative to the site's root (icons/social.png, og/slug.png)
	ImageAlt    string
	Article     bool // og:type article (a lesson) rather than website
}

// HTML returns the head's elements for a page at prefix ("" at the root,
// "../" one level down). base is the site's public address (an absolute URL
// ending in "/", or ""): with it the page names its canonical address and its
// preview has absolute URLs, as the Open Graph protocol asks; without it there
// is no canonical link and no og:url, and the preview image's address is
// relative to the page, which browsers and some link previews resolve, but not
// all.
func (h Head) HTML(base, prefix string) string {
	e := html.EscapeString
	title := SiteName + " — a differential privacy playground"
	if h.Title != "" {
		title = h.Title + " — " + SiteName
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<title>%s</title>\n<meta name=\"description\" content=\"%s\">\n", e(title), e(h.Description))
	image := relocateURL(h.Image, prefix)
	if base != "" {
		fmt.Fprintf(&b, "<link rel=\"canonical\" href=\"%s\">\n", e(base+h.Path))
		image = base + h.Image
	}
	kind := "website"
	if h.Article {
		kind = "article"
	}
	fmt.Fprintf(&b, "<meta property=\"og:type\" content=\"%s\">\n<meta property=\"og:site_name\" content=\"%s\">\n", kind, SiteName)
	fmt.Fprintf(&b, "<meta property=\"og:title\" content=\"%s\">\n<meta property=\"og:description\" content=\"%s\">\n", e(or(h.Title, title)), e(h.Description))
	if base != "" {
		fmt.Fprintf(&b, "<meta property=\"og:url\" content=\"%s\">\n", e(base+h.Path))
	}
	fmt.Fprintf(&b, "<meta property=\"og:image\" content=\"%s\">\n<meta property=\"og:image:width\" content=\"%d\">\n<meta property=\"og:image:height\" content=\"%d\">\n<meta property=\"og:image:alt\" content=\"%s\">\n",
		e(image), CardWidth, CardHeight, e(h.ImageAlt))
	b.WriteString("<meta name=\"twitter:card\" content=\"summary_large_image\">\n")
	return b.String()
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// BaseURL checks the site's public address for -base-url and returns it
// ending in "/": an absolute http or https URL without query or fragment, or "".
func BaseURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("base URL %q must be an http or https address such as https://owner.github.io/repo/", s)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

// navHTML lists the lessons for the shell's navigation, with current (a
// slug) marked as the page shown.
func navHTML(lessons []*Lesson, current string) string {
	var b strings.Builder
	for _, l := range lessons {
		cur := ""
		if l.Slug == current {
			cur = ` aria-current="page"`
		}
		fmt.Fprintf(&b, "<li><a href=\"%s\" data-slug=\"%s\"%s><span class=\"nav-num\" aria-hidden=\"true\">%s</span><span class=\"nav-title\">%s</span></a></li>\n",
			PageAddress(l.Slug, ""), l.Slug, cur, html.EscapeString(l.NavMark()), html.EscapeString(l.Title))
	}
	return b.String()
}

// pagerHTML is the links to the lessons before and after lesson i below a
// lesson's page (none below a page that is not a lesson, i < 0).
func pagerHTML(lessons []*Lesson, i int) string {
	var b strings.Builder
	link := func(l *Lesson, rel, text string) {
		fmt.Fprintf(&b, "<a href=\"%s\" rel=\"%s\" class=\"pager-%s\"><span class=\"pager-dir\">%s</span><span class=\"pager-title\">%s</span></a>",
			up+PageAddress(l.Slug, ""), rel, rel, text, html.EscapeString(l.Title))
	}
	if i > 0 {
		link(lessons[i-1], "prev", "← Previous lesson")
	}
	if i >= 0 && i < len(lessons)-1 {
		link(lessons[i+1], "next", "Next lesson →")
	}
	return b.String()
}

// Sitemap lists the pages at paths (relative to the site's root) under
// base, in the sitemaps.org format.
func Sitemap(base string, paths []string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>\n", html.EscapeString(base+p))
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

// Robots is robots.txt: everything may be crawled, and the sitemap is at
// base (when the site knows its address). Crawlers read it only at a host's
// root, so it counts where the site is served there (a custom domain, or a
// GitHub user or organisation site).
func Robots(base string) []byte {
	s := "User-agent: *\nAllow: /\n"
	if base != "" {
		s += "Sitemap: " + base + "sitemap.xml\n"
	}
	return []byte(s)
}

// The site's own description and preview image, for the root and any page
// without an image of its own.
const (
	siteDescription = "A free course of interactive lessons on differential privacy: move ε and watch the exact probabilities of the exponential mechanism, report noisy max, the Laplace mechanism and more, in your browser. Works offline."
	socialImage     = "icons/social.png"
	socialAlt       = "The dpplay logo: a bar chart of output probabilities"
)

// handoutPath is the course handout's address.
const handoutPath = "handout/"

// homeMark in web/404.html is the address of the site's root: the 404 page
// is served at any depth, where a relative link would miss it.
const homeMark = "__DPPLAY_HOME__"

// iconMark in web/404.html is the site's icon (web/favicon.svg) as a data:
// URL: at any depth a relative link would miss it, and the page's policy
// loads images from data: only. Without an icon a browser asks for
// /favicon.ico, which that policy refuses with an error.
const iconMark = "__DPPLAY_ICON__"

// mathFontPreload asks for the math font (MathFont) with the page's first
// files: a stylesheet's font is otherwise fetched only once layout finds
// a formula. A font is fetched in CORS mode, so the preload must be too.
const mathFontPreload = `<link rel="preload" href="` + MathFont + `" as="font" type="font/woff2" crossorigin>`

// pageShell fills the web shell (web/index.html) for each page of the site.
type pageShell struct {
	o       Options
	shell   string
	js      scripts // the site's bundled modules, for modulepreload links
	entry   string  // the shell's entry module as bundled (app.js)
	lessons []*Lesson
	index   string // the site index's script element
	core    string // the core module's file and size, "wasm/core.wasm 2400000"
	slugs   string // every lesson's and page's slug, separated by spaces
}

var reFirstWidget = regexp.MustCompile(`<figure class="widget" id="([^"]+)"`)

// page returns the shell filled for one page at h.Path: its head, the lesson
// list with current (a slug) marked, modulepreload links for its entry and the
// widget modules widgets, the content (an article, written for a page one
// level down, or the landing page at the root) and pager below it. The shell's
// own URLs are relative to the site's root; they are rewritten for the page's
// depth (Relocate).
//
// When the content has a widget, the page's first rendering waits until the
// parser has reached the first one (<link rel=expect blocking=render>), so
// that the first paint shows the widget's pre-rendered chart with the text
// above it, never the text alone a frame before.
func (p pageShell) page(h Head, current, content, pager string, widgets []string) string {
	prefix := strings.Repeat(up, strings.Count(h.Path, "/"))
	s := p.shell
	s = strings.Replace(s, metaMarker, h.HTML(p.o.BaseURL, prefix), 1)
	s = strings.Replace(s, navMarker, navHTML(p.lessons, current), 1)
	pre := p.js.preloads(p.entry, widgets)
	// A page with formulas needs the math font for its first paint.
	if strings.Contains(content, "<math") {
		pre += mathFontPreload + "\n"
	}
	if m := reFirstWidget.FindStringSubmatch(content); m != nil {
		pre += `<link rel="expect" href="#` + m[1] + `" blocking="render">` + "\n"
	}
	s = strings.Replace(s, preloadMark, pre, 1)
	s = strings.Replace(s, coreMark, relocateURL("worker.js", prefix)+" "+p.core, 1)
	s = strings.Replace(s, slugsMark, p.slugs, 1)
	s = Relocate(s, prefix)
	s = strings.Replace(s, lessonMarker, content, 1)
	s = strings.Replace(s, pagerMarker, pager, 1)
	return strings.Replace(s, indexMarker, p.index, 1)
}

// handout returns the course handout (Handout) in its shell (web/handout.html)
// at handoutPath.
func (p pageShell) handout(shell string, written []*Lesson) ([]byte, error) {
	for _, m := range []string{metaMarker, handoutMark} {
		if !strings.Contains(shell, m) {
			return nil, fmt.Errorf("web/handout.html lacks the marker %s", m)
		}
	}
	var lessons []*Lesson
	for _, l := range written {
		if l.Kind != "page" {
			lessons = append(lessons, l)
		}
	}
	h := Head{Title: "Course handout: every lesson on one page", Description: "Every dpplay lesson on one printable page, with the answers to the predictions.",
		Path: handoutPath, Image: socialImage, ImageAlt: socialAlt}
	shell = strings.Replace(shell, metaMarker, h.HTML(p.o.BaseURL, up), 1)
	return []byte(Handout(Relocate(shell, up), lessons)), nil
}

// noscriptNote is what a widget says to a reader without JavaScript (markdown.go writes it).
const noscriptNote = `<noscript><p class="widget-noscript">The controls need JavaScript, which is turned off: this is the widget's opening state.</p></noscript>`

// unrendered is the body of a widget the build did not pre-render.
const unrendered = `<div class="widget-body" aria-busy="true"><p class="widget-loading">`

// NoscriptCard returns content with the image src (alt text alt) shown, to a
// reader without JavaScript, in place of the widget whose id is id when the
// build could not pre-render its drawing (its body is still the loading
// message): the lesson's preview card draws that widget's first figure at
// the lesson's settings. Any other content is returned as it is.
func NoscriptCard(content, id, src, alt string) string {
	start := strings.Index(content, `<figure class="widget" id="w-`+id+`"`)
	if id == "" || start < 0 {
		return content
	}
	note := strings.Index(content[start:], noscriptNote)
	if note < 0 {
		return content
	}
	at := start + note + len(noscriptNote)
	if !strings.HasPrefix(strings.TrimLeft(content[at:], "\n"), unrendered) {
		return content
	}
	card := `<noscript><p class="widget-noscript">The controls and the live drawing need JavaScript, which is turned off: this is the widget's opening figure.</p>` +
		`<img class="widget-card" src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(alt) + `" width="` + fmt.Sprint(CardWidth) + `" height="` + fmt.Sprint(CardHeight) + `"></noscript>`
	return content[:start+note] + card + content[at:]
}
