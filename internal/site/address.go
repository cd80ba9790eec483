package site

import (
	"net/url"
	"regexp"
	"strings"
)

// A page's address, relative to the site's root, is "slug/" (the root
// itself is "./"), and the widgets' state is its fragment:
//
//	exponential-mechanism/#meet.eps=0.5&meet.seed=7
//
// A fragment without "=" names an element (a heading) instead. A static host
// serves every state, since the fragment never reaches it.
// web/state/address.js reads and writes the same form in the page.
//
// The site's first addresses kept the lesson in the fragment too,
// "#/slug?query": lessons link to each other that way in their Markdown, and
// links shared before pages had their own address say it. The page turns
// such a link into its address on load (index.html), and the build writes
// each lesson's links as page addresses (PageAddress).

// PageAddress returns the address, relative to the site's root, of the page
// slug ("" for the root) showing the widget state query (id.key=value&…,
// "" for none).
func PageAddress(slug, query string) string {
	p := "./"
	if slug != "" {
		p = slug + "/"
	}
	if query != "" {
		p += "#" + query
	}
	return p
}

// oldLink returns the page address of a link in the first form,
// "#/slug?query" ("#/" is the root), and whether dest is one.
func oldLink(dest string) (string, bool) {
	if !strings.HasPrefix(dest, "#/") {
		return "", false
	}
	path, query, _ := strings.Cut(dest[2:], "?")
	return PageAddress(strings.Trim(path, "/"), query), true
}

// ParseAddress splits a page's address into its slug and its widget state.
// It takes the address in any form a reader may copy: a whole URL
// (https://host/base/slug/#query), a path (/base/slug/#query, slug/#query),
// a fragment alone (#query, slug ""), a link of the first form
// (#/slug?query, or a URL ending in it), or an embed page's address
// (embed.html#/slug/id?key=value, whose keys become id.key; its caption,
// table and theme are left out). The slug is the last segment of the
// path (before a closing index.html); path names a page under any base path,
// and is "" when the address has no path. query is the fragment as written,
// still percent-encoded; a fragment that names an element (no "=") is no
// state, and query is "".
func ParseAddress(addr string) (slug, query string) {
	addr = strings.TrimSpace(addr)
	path, frag, _ := strings.Cut(addr, "#")
	if rest, ok := strings.CutPrefix(frag, "/"); ok {
		p, q, _ := strings.Cut(rest, "?")
		p = strings.Trim(p, "/")
		if slug, id, ok := strings.Cut(p, "/"); ok && id != "" && !strings.Contains(id, "/") {
			return slug, embedQuery(id, q)
		}
		return p, q
	}
	if u, err := url.Parse(path); err == nil && (u.Scheme != "" || u.Host != "") {
		path = u.Path
	}
	path, _, _ = strings.Cut(path, "?")
	segs := strings.FieldsFunc(path, func(r rune) bool { return r == '/' })
	if n := len(segs); n > 0 && segs[n-1] == "index.html" {
		segs = segs[:n-1]
	}
	if n := len(segs); n > 0 && segs[n-1] != "." {
		slug = segs[n-1]
	}
	if strings.Contains(frag, "=") {
		query = frag
	}
	return slug, query
}

// embedView names the embed page's own settings (web/embed/embedlink.js VIEW):
// how it shows the widget, not the widget's state.
var embedView = map[string]bool{"caption": true, "table": true, "theme": true}

// embedQuery turns the query of an embed address, whose keys name widget
// id's settings without its id (eps=0.5&hide=seed&theme=dark), into a page's
// state (id.eps=0.5&id.hide=seed), leaving out the embed page's own
// settings. Keys and values stay as written, percent-encoded.
func embedQuery(id, q string) string {
	var out []string
	for _, part := range strings.Split(q, "&") {
		key, _, _ := strings.Cut(part, "=")
		if part == "" || embedView[key] {
			continue
		}
		out = append(out, id+"."+part)
	}
	return strings.Join(out, "&")
}

// up is the way from a lesson's page to the site's root: every lesson and
// page is at slug/, one level below it.
const up = "../"

// fromPage returns a link as a lesson writes it, relative to the site's root
// or in the first form (#/slug?query), as the lesson's page must write it.
func fromPage(dest string) string {
	if addr, ok := oldLink(dest); ok {
		dest = addr
	}
	return relocateURL(dest, up)
}

var reScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// relocateURL returns u, a URL relative to the site's root, as a page at
// prefix ("../" for each level down) must write it. Any other URL (absolute,
// from the host's root, a fragment or a query alone) is returned as it is.
func relocateURL(u, prefix string) string {
	if u == "" || strings.ContainsRune("#/?", rune(u[0])) || reScheme.MatchString(u) {
		return u
	}
	if u == "." || u == "./" {
		return prefix
	}
	return prefix + strings.TrimPrefix(u, "./")
}

var reURLAttr = regexp.MustCompile(`(\s(?:href|src)=")([^"]*)"`)

// Relocate rewrites every href and src of page that is relative to the
// site's root for a page at prefix ("../" for each level down), so that one
// shell (web/index.html) serves the root and every page below it.
func Relocate(page, prefix string) string {
	if prefix == "" {
		return page
	}
	return reURLAttr.ReplaceAllStringFunc(page, func(m string) string {
		s := reURLAttr.FindStringSubmatch(m)
		return s[1] + relocateURL(s[2], prefix) + `"`
	})
}
