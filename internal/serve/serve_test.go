package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

func TestSiteHandler(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html": "<!doctype html>",
		"app.wasm":   "\x00asm\x01\x00\x00\x00",
		"sw.js":      "//",
		"lesson.mjs": "export {}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	api, err := lecture.New(store.Write, store.Options(lecture.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	site, err := Site(dir, api)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()

	tests := []struct {
		path, ctype, cache string
		status             int
	}{
		{"/", "text/html; charset=utf-8", "no-cache", 200},
		{"/app.wasm", "application/wasm", "no-cache", 200},
		{"/sw.js", "text/javascript; charset=utf-8", "no-cache", 200},
		{"/lesson.mjs", "text/javascript; charset=utf-8", "no-cache", 200},
		{"/missing.js", "text/plain; charset=utf-8", "", 404}, // http.Error drops Cache-Control
		{"/api/sessions/ZZZZZZZZ", "application/json", "no-store", 404},
		{"/api/nothing", "application/json", "no-store", 404},
	}
	for _, tc := range tests {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype || resp.Header.Get("Cache-Control") != tc.cache {
			t.Errorf("GET %s: %d %q %q, want %d %q %q", tc.path, resp.StatusCode,
				resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), tc.status, tc.ctype, tc.cache)
		}
	}
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []Config{
		{Dir: filepath.Join(dir, "absent"), DB: filepath.Join(dir, "l.db")},
		{Dir: dir, DB: filepath.Join(t.TempDir(), "l.db"), Budget: -1},
		{Dir: dir, DB: filepath.Join(t.TempDir(), "l.db"), Budget: 1000},
		{Dir: dir, DB: filepath.Join(t.TempDir(), "l.db"), CertFile: "c.pem"},
		{Dir: dir, DB: filepath.Join(t.TempDir(), "l.db"), Hosts: []string{"evil.example:80"}},
		{Dir: dir, DB: filepath.Join(t.TempDir(), "l.db"), SessionTTL: -1},
	} {
		if _, err := c.Check(); err == nil {
			t.Errorf("Check(%+v) = nil, want an error", c)
		}
	}
}

// testSite serves a directory laid out as an attacker would hope: a
// dot-file, a subdirectory without an index, a symbolic link to a file
// outside, and a page with a CSP <meta>.
func testSite(t *testing.T) (url, dir string) {
	t.Helper()
	dir = t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	files := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;self&#39;\"><title>x</title>")},
		".env":               {Data: []byte("TOKEN=1")},
		".git/config":        {Data: []byte("[core]")},
		"sub/a.txt":          {Data: []byte("a")},
		"docs/index.html":    {Data: []byte("<!doctype html>")},
		"docs/.hidden/b.txt": {Data: []byte("b")},
		"embed.html":         {Data: []byte("<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\"><title>embed</title>")},
		"machine.html":       {Data: []byte("<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\"><title>machine</title>")},
		"lecture.html":       {Data: []byte("<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\"><title>lecture</title>")},
		"sub/embed.html":     {Data: []byte("<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\"><title>not the embed page</title>")},
	}
	if err := os.CopyFS(dir, files); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"out.txt": outside, "outdir": filepath.Dir(outside), "in.txt": "sub/a.txt"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	site, err := Site(dir, http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return srv.URL, dir
}

// docs/security.md: only regular files inside -dir are served.
func TestStaticOnlyRegularFilesInside(t *testing.T) {
	url, _ := testSite(t)
	for p, want := range map[string]int{
		"/":                         200,
		"/index.html":               200,
		"/sub/a.txt":                200,
		"/in.txt":                   200, // a link that stays inside
		"/docs/":                    200, // its index.html
		"/.env":                     404,
		"/.git/config":              404,
		"/docs/.hidden/b.txt":       404,
		"/sub/":                     404, // no listing
		"/sub":                      404,
		"/out.txt":                  404, // a link leading outside
		"/outdir/secret.txt":        404,
		"/../secret.txt":            404,
		"/sub/..%2f..%2fsecret.txt": 404,
		"/%2e%2e/secret.txt":        404,
	} {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", p, resp.StatusCode, want)
		}
		if strings.Contains(string(body), "secret") || strings.Contains(string(body), "TOKEN") || strings.Contains(string(body), "a.txt") && p == "/sub/" {
			t.Errorf("GET %s leaks: %q", p, body)
		}
	}
	resp, err := http.Post(url+"/index.html", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST to a static file: %d", resp.StatusCode)
	}
}

// docs/security.md: a page is sent with the CSP its own <meta> declares
// plus frame-ancestors; every reply has nosniff, Referrer-Policy and a
// framing policy; API replies have a CSP that allows nothing.
func TestSecurityHeaders(t *testing.T) {
	url, _ := testSite(t)
	for p, csp := range map[string]string{
		"/":          "default-src 'self'; frame-ancestors 'self'",
		"/sub/a.txt": "",
		"/api/x":     APIPolicy,
	} {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		if h.Get("Content-Security-Policy") != csp || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "SAMEORIGIN" {
			t.Errorf("GET %s: headers %v, want CSP %q", p, h, csp)
		}
	}
}

// docs/security.md: the embed page (and the machine's page it may frame)
// may be framed by any site; every other page, the lecture's above all,
// and a page merely named embed.html elsewhere, only by the site itself,
// by both headers.
func TestFramingHeaders(t *testing.T) {
	url, _ := testSite(t)
	for p, any := range map[string]bool{
		"/embed.html":          true,
		"/machine.html":        true,
		"/lecture.html":        false,
		"/lecture.html?role=h": false,
		"/":                    false,
		"/index.html":          false,
		"/sub/embed.html":      false,
	} {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp, xfo := resp.Header.Get("Content-Security-Policy"), resp.Header.Get("X-Frame-Options")
		if any && (!strings.HasSuffix(csp, "; frame-ancestors *") || xfo != "") {
			t.Errorf("GET %s: CSP %q, X-Frame-Options %q; want frame-ancestors * and none", p, csp, xfo)
		}
		if !any && (!strings.HasSuffix(csp, "; frame-ancestors 'self'") || xfo != "SAMEORIGIN") {
			t.Errorf("GET %s: CSP %q, X-Frame-Options %q; want frame-ancestors 'self' and SAMEORIGIN", p, csp, xfo)
		}
	}
}

// Every inline script of the site's pages is allowed by its page's CSP
// hash, and every page has the policy: a script edited without updating
// the hash would be blocked in the browser, so it fails here first.
func TestPagePoliciesAllowTheirInlineScripts(t *testing.T) {
	script := regexp.MustCompile(`(?s)<script(?: type="module")?>(.*?)</script>`)
	for _, name := range []string{"index.html", "lecture.html", "machine.html", "404.html", "embed.html"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "web", name))
		if err != nil {
			t.Fatal(err)
		}
		policy := pagePolicy(bytes.NewReader(b))
		if !strings.Contains(policy, "script-src 'self'") || !strings.Contains(policy, "object-src 'none'") {
			t.Errorf("%s: CSP %q", name, policy)
		}
		for _, m := range script.FindAllSubmatch(b, -1) {
			sum := sha256.Sum256(m[1])
			if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, h) {
				t.Errorf("%s: an inline script's hash %s is not in its CSP (update the <meta>)", name, h)
			}
		}
	}
}

// docs/security.md: serve refuses a database inside the served directory.
func TestServeRefusesDatabaseInsideDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "site"), filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{"site/l.db", "site/new/l.db", "alias/l.db", "site"} {
		c := Config{Dir: filepath.Join(dir, "site"), DB: filepath.Join(dir, db)}
		if _, err := c.Check(); err == nil || !strings.Contains(err.Error(), "inside") {
			t.Errorf("-db %s inside -dir: %v, want a refusal", db, err)
		}
	}
	if in, err := Within(filepath.Join(dir, "site"), filepath.Join(dir, "site.db")); err != nil || in {
		t.Errorf("site.db beside site/: within = %v, %v", in, err)
	}
}

// A directory's address without its closing slash redirects to the one
// with it (keeping the query), as GitHub Pages does: a page's relative URLs
// resolve against it.
func TestDirectoryRedirects(t *testing.T) {
	url, _ := testSite(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for p, want := range map[string]string{"/docs": "/docs/", "/docs?x=1": "/docs/?x=1"} {
		resp, err := client.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
			t.Errorf("GET %s: %d to %q, want 301 to %q", p, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
}

// A missing page gets the site's 404.html, with status 404 and the page's
// own CSP; a missing asset a plain 404.
func TestNotFoundPage(t *testing.T) {
	url, dir := testSite(t)
	const policy = "default-src 'none'; script-src 'sha256-x'"
	if err := os.WriteFile(filepath.Join(dir, "404.html"), []byte(`<meta http-equiv="Content-Security-Policy" content="`+policy+`"><h1>This page is not here</h1>`), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, page := range map[string]bool{"/nosuch.html": true, "/lessons/nosuch": true, "/nosuch.js": false, "/.env": false} {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || strings.Contains(string(body), "not here") != page {
			t.Errorf("%s: status %d, body %q; want 404 and the page: %v", p, resp.StatusCode, body, page)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); page && csp != policy+"; frame-ancestors 'self'" {
			t.Errorf("%s: CSP %q, want the page's", p, csp)
		}
	}
}
