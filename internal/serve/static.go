package serve

import (
	"bytes"
	"errors"
	"html"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// staticTypes pins the content types the site depends on, so that a host's
// /etc/mime.types cannot change them: browsers only stream-compile wasm
// served as application/wasm, and module scripts must be JavaScript.
var staticTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".wasm":        "application/wasm",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
	".csv":         "text/csv; charset=utf-8",
	".woff2":       "font/woff2",
}

// Embeddable names the pages any site may frame: the embed page, which
// shows one widget for other sites (docs/embed.md), and the sampling
// machine's page, which a widget on it frames in turn (frame-ancestors and
// X-Frame-Options check every window above the page). They are sent with
// frame-ancestors * and no X-Frame-Options; every other page, the live
// lecture's above all, with frame-ancestors 'self' and X-Frame-Options:
// SAMEORIGIN.
var Embeddable = map[string]bool{"embed.html": true, "machine.html": true}

// APIPolicy is the CSP of API replies: JSON, never a document.
const APIPolicy = "default-src 'none'; frame-ancestors 'none'"

// SetSecurityHeaders sets the headers every reply carries; policy, if not
// empty, is its Content-Security-Policy.
func SetSecurityHeaders(h http.Header, policy string) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	if policy != "" {
		h.Set("Content-Security-Policy", policy)
	}
}

// Site serves dir at / and api at /api/.
//
// Every static response carries Cache-Control: no-cache, which lets the
// browser keep a copy but makes it revalidate (cheaply, by ETag) on each
// use: after a rebuild the page, its wasm and above all the service worker
// script are never stale.
//
// Only regular files inside dir are served: no directory listings (a
// directory serves its index.html or nothing, and its address without the
// closing slash redirects to the one with it, as GitHub Pages does, so that
// the page's relative URLs resolve), no name starting with a dot
// anywhere in the path, no symbolic link leading outside dir (os.Root), and
// nothing that is not a regular file (a FIFO or a device would block the
// request), checked before the file is opened. An HTML page is sent with
// the Content-Security-Policy its own <meta> tag declares, plus
// frame-ancestors, which only a header can carry ('self', or * for the
// Embeddable pages). A file with a
// precompressed copy beside it (name.br, name.gz, written by Precompress)
// is sent in the encoding the browser accepts (negotiate).
func Site(dir string, api http.Handler) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetSecurityHeaders(w.Header(), APIPolicy)
		api.ServeHTTP(w, r)
	}))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		SetSecurityHeaders(h, "")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, ok := staticName(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		f, st, err := openRegular(root, name)
		if err != nil && st != nil && st.IsDir() {
			if !strings.HasSuffix(r.URL.Path, "/") {
				u := *r.URL
				u.Path += "/"
				http.Redirect(w, r, u.RequestURI(), http.StatusMovedPermanently)
				return
			}
			name = path.Join(name, "index.html")
			f, st, err = openRegular(root, name)
		}
		if err != nil {
			notFoundPage(w, r, root, name)
			return
		}
		closeF := held(r, f)
		defer closeF()
		ext := strings.ToLower(path.Ext(name))
		if t, ok := staticTypes[ext]; ok {
			h.Set("Content-Type", t)
		} else if t := mime.TypeByExtension(ext); t != "" {
			h.Set("Content-Type", t)
		} else {
			h.Set("Content-Type", "application/octet-stream")
		}
		if ext == ".html" {
			ancestors := "'self'"
			if Embeddable[name] {
				ancestors = "*"
				h.Del("X-Frame-Options")
			}
			if policy := pagePolicy(f); policy != "" {
				h.Set("Content-Security-Policy", policy+"; frame-ancestors "+ancestors)
			}
		}
		h.Set("Cache-Control", "no-cache")
		body, bst, enc := f, st, ""
		if compressible(ext) {
			h.Add("Vary", "Accept-Encoding")
			if cf, cst, e := negotiate(root, name, st, r.Header.Get("Accept-Encoding")); cf != nil {
				defer held(r, cf)()
				closeF() // the copy is sent: a slow reader holds one file, not two
				body, bst, enc = cf, cst, e
				h.Set("Content-Encoding", e)
			}
		}
		if _, err := body.Seek(0, io.SeekStart); err != nil {
			http.Error(w, "read error", http.StatusInternalServerError)
			return
		}
		h.Set("ETag", etag(bst, enc))
		// ServeContent answers conditional requests and ranges against
		// the representation sent, and sets its Content-Length.
		http.ServeContent(w, r, name, bst.ModTime(), body)
	}))
	return mux, nil
}

// etag names one representation of a file: its size, modification time
// and encoding ("" for the file as stored).
func etag(st os.FileInfo, enc string) string {
	t := `"` + strconv.FormatInt(st.Size(), 36) + "-" + strconv.FormatInt(st.ModTime().UnixNano(), 36)
	if enc != "" {
		t += "-" + enc
	}
	return t + `"`
}

// notFoundPage answers a missing page (a path without an extension, or
// .html) with the site's own 404.html when it has one, as GitHub Pages does,
// with the Content-Security-Policy the page declares, and anything else with
// a plain 404.
func notFoundPage(w http.ResponseWriter, r *http.Request, root *os.Root, name string) {
	ext := path.Ext(name)
	if ext != "" && ext != ".html" {
		http.NotFound(w, r)
		return
	}
	f, _, err := openRegular(root, "404.html")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer held(r, f)()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	policy := pagePolicy(bytes.NewReader(b))
	if policy == "" {
		policy = "default-src 'none'"
	}
	h.Set("Content-Security-Policy", policy+"; frame-ancestors 'self'")
	w.WriteHeader(http.StatusNotFound)
	w.Write(b)
}

// staticName turns a URL path into a file name relative to the served
// directory, refusing any segment that starts with a dot (dot-files such as
// .git, and .. which path.Clean has already resolved).
func staticName(urlPath string) (string, bool) {
	p := path.Clean("/" + urlPath)
	if strings.Contains(p, "\x00") || strings.Contains(p, "\\") {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if p == "/" {
		return ".", true
	}
	return p[1:], true
}

// held counts f, which r's handler has just opened, against r's
// connection's descriptors (holdFile), and returns the function that
// closes it and stops counting it, once however often it is called.
func held(r *http.Request, f *os.File) func() {
	release := holdFile(r)
	done := false
	return func() {
		if !done {
			done = true
			f.Close()
			release()
		}
	}
}

var errNotRegular = errors.New("not a regular file")

// openRegular opens name under root if it is a regular file. The type is
// checked before the open (a FIFO would block an open for reading until a
// writer came), the open does not block either (O_NONBLOCK), and the file
// opened must be the one checked, so that a file swapped in between is
// refused too. For anything else it returns an error, and the FileInfo when
// there is one (so that a directory can serve its index.html).
func openRegular(root *os.Root, name string) (*os.File, os.FileInfo, error) {
	st, err := root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, st, errNotRegular
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fst, err := f.Stat()
	if err != nil || !fst.Mode().IsRegular() || !os.SameFile(st, fst) {
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, fst, nil
}

// pageCSP finds a page's <meta http-equiv="Content-Security-Policy" content="…">.
var pageCSP = regexp.MustCompile(`(?i)<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"`)

// pagePolicy returns the CSP an HTML page declares in its head (the first
// 8 KB), so that the header `dpplay serve` sends and the <meta> a static
// host serves are one definition.
func pagePolicy(f io.Reader) string {
	b := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, b)
	m := pageCSP.FindSubmatch(b[:n])
	if m == nil {
		return ""
	}
	return html.UnescapeString(string(m[1]))
}
