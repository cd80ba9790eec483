package site

import (
	"strings"
	"testing"
)

func TestPageAddress(t *testing.T) {
	for _, tt := range []struct{ slug, query, want string }{
		{"", "", "./"},
		{"glossary", "", "glossary/"},
		{"exponential-mechanism", "meet.eps=0.5&meet.seed=7", "exponential-mechanism/#meet.eps=0.5&meet.seed=7"},
	} {
		if got := PageAddress(tt.slug, tt.query); got != tt.want {
			t.Errorf("PageAddress(%q, %q) = %q, want %q", tt.slug, tt.query, got, tt.want)
		}
	}
}

// Every form in which a reader may copy an address, and the site's first
// form, give the same slug and state; a fragment naming an element is no
// state.
func TestParseAddress(t *testing.T) {
	for _, tt := range []struct{ addr, slug, query string }{
		{"https://dpplay.github.io/dpplay/exponential-mechanism/#meet.eps=0.5", "exponential-mechanism", "meet.eps=0.5"},
		{"http://127.0.0.1:8080/exponential-mechanism/index.html#meet.eps=0.5", "exponential-mechanism", "meet.eps=0.5"},
		{"/dpplay/exponential-mechanism/#meet.eps=0.5", "exponential-mechanism", "meet.eps=0.5"},
		{"exponential-mechanism/#meet.eps=0.5", "exponential-mechanism", "meet.eps=0.5"},
		{"exponential-mechanism", "exponential-mechanism", ""},
		{"#/exponential-mechanism?meet.eps=0.5", "exponential-mechanism", "meet.eps=0.5"},
		{"https://dpplay.github.io/dpplay/#/exponential-mechanism/?meet.eps=0.5", "exponential-mechanism", "meet.eps=0.5"},
		{"#lesson=2&eps=1", "", "lesson=2&eps=1"},
		{"./#lesson=2", "", "lesson=2"},
		{"glossary/#references", "glossary", ""},
		{"  ", "", ""},
		{"https://dpplay.github.io/dpplay/embed.html#/exponential-mechanism/meet?eps=0.5&hide=seed&caption=0&theme=dark&lock=eps", "exponential-mechanism", "meet.eps=0.5&meet.hide=seed&meet.lock=eps"},
		{"embed.html#/exponential-mechanism/meet", "exponential-mechanism", ""},
		{"#/a/b/c?x=1", "a/b/c", "x=1"},
	} {
		slug, query := ParseAddress(tt.addr)
		if slug != tt.slug || query != tt.query {
			t.Errorf("ParseAddress(%q) = %q, %q; want %q, %q", tt.addr, slug, query, tt.slug, tt.query)
		}
	}
}

// Whatever it is given, ParseAddress never panics, and an address it writes
// reads back as itself.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"https://x.io/a/b/#c.d=1", "#/a?b=1#c", "embed.html#/a/b?c=1&theme=x&&", "#/a/%zz?=&=", "/../#", "a/index.html#=", "%zz/#%zz=%zz", "http://[::1/#a=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		slug, query := ParseAddress(addr)
		if !reSlug.MatchString(slug) || strings.ContainsAny(query, "#") {
			return
		}
		if s, q := ParseAddress(PageAddress(slug, query)); s != slug || (q != query && strings.Contains(query, "=")) {
			t.Errorf("%q: PageAddress(%q, %q) reads back as %q, %q", addr, slug, query, s, q)
		}
	})
}

// A lesson's page is one level below the site's root: its links to other
// lessons, in the first form or not, and to files of the site are written
// from there; links elsewhere are left alone.
func TestRelocate(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"#/glossary", "../glossary/"},
		{"#/", "../"},
		{"#/a?b.c=1", "../a/#b.c=1"},
		{"lecture.html?role=host", "../lecture.html?role=host"},
		{"./", "../"},
		{"#references", "#references"},
		{"/abs", "/abs"},
		{"https://go.dev/", "https://go.dev/"},
		{"mailto:x@y", "mailto:x@y"},
		{"?q=1", "?q=1"},
	} {
		if got := fromPage(tt.in); got != tt.want {
			t.Errorf("fromPage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	page := `<link rel="stylesheet" href="styles.css"><script type="module" src="app.js"></script><a href="./">home</a><a href="#main">skip</a><use href="#g"/><a href="https://x.io/">x</a><img src="icons/a.png" alt="">`
	want := `<link rel="stylesheet" href="../styles.css"><script type="module" src="../app.js"></script><a href="../">home</a><a href="#main">skip</a><use href="#g"/><a href="https://x.io/">x</a><img src="../icons/a.png" alt="">`
	if got := Relocate(page, "../"); got != want {
		t.Errorf("Relocate:\n got %s\nwant %s", got, want)
	}
	if got := Relocate(page, ""); got != page {
		t.Errorf("Relocate to the root changed the page: %s", got)
	}
}
