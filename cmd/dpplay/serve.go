package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

func init() {
	register("serve", "serve the static site and the lecture API (SQLite)", runServe)
}

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
	".woff2":       "font/woff2",
}

// Server limits. Headers are small (the API's largest is the instructor's
// Authorization), and slow or idle connections are closed quickly so that a
// client holding thousands of them open cannot take every file descriptor.
const (
	maxHeaderBytes    = 16 << 10
	readHeaderTimeout = 5 * time.Second
	idleTimeout       = 30 * time.Second
)

func runServe(args []string, stdout io.Writer) error {
	fs := newFlagSet("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	dir := fs.String("dir", "dist", "directory of static files to serve at /")
	dbPath := fs.String("db", "dpplay.db", "SQLite database file for the lecture API (never inside -dir)")
	budget := fs.Float64("budget", lecture.DefaultBudget, "default ε budget of a new lecture session")
	certFile := fs.String("tls-cert", "", "serve HTTPS with this PEM certificate (chain) file; needs -tls-key")
	keyFile := fs.String("tls-key", "", "the PEM private key of -tls-cert")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return usagef("serve: -dir %q is not a directory (run 'make dist' first)", *dir)
	}
	if !(*budget > 0) || *budget > lecture.MaxBudget {
		return usagef("serve: -budget must be in (0, %g]", lecture.MaxBudget)
	}
	if (*certFile == "") != (*keyFile == "") {
		return usagef("serve: -tls-cert and -tls-key go together")
	}
	if inside, err := within(*dir, *dbPath); err != nil {
		return err
	} else if inside {
		return usagef("serve: -db %q is inside -dir %q, where anyone could download it; put it elsewhere", *dbPath, *dir)
	}
	var tlsConfig *tls.Config
	if *certFile != "" {
		cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			return usagef("serve: -tls-cert/-tls-key: %v", err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	nofile := raiseFileLimit()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	store, err := sqlitedb.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer store.Close()
	api, err := lecture.New(store.Write, store.Options(lecture.Options{DefaultBudget: *budget}))
	if err != nil {
		return err
	}
	site, err := siteHandler(*dir, api)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := newServer(site, nofile)
	scheme := "http"
	if tlsConfig != nil {
		srv.TLSConfig = tlsConfig
		ln = tls.NewListener(ln, tlsConfig)
		scheme = "https"
	}
	// The one JSON line tells scripts (and the tests, which listen on port 0)
	// where the server is.
	line, _ := json.Marshal(map[string]string{
		"url": scheme + "://" + ln.Addr().String() + "/",
		"dir": *dir,
		"db":  *dbPath,
	})
	fmt.Fprintln(stdout, string(line))

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// within reports whether file would lie inside dir (or be dir), following
// symbolic links in the existing part of either path.
func within(dir, file string) (bool, error) {
	real := func(p string) (string, error) {
		p, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		// Resolve the longest existing prefix; the rest is new.
		rest := ""
		for {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				return filepath.Join(r, rest), nil
			}
			parent := filepath.Dir(p)
			if parent == p {
				return filepath.Join(p, rest), nil
			}
			rest = filepath.Join(filepath.Base(p), rest)
			p = parent
		}
	}
	d, err := real(dir)
	if err != nil {
		return false, err
	}
	f, err := real(file)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(d, f)
	if err != nil {
		return false, nil
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))), nil
}

// raiseFileLimit lifts the soft limit on open files to the hard limit (Go
// does this at start on most systems; doing it here makes it explicit) and
// returns the limit in force.
func raiseFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 1024
	}
	if lim.Cur < lim.Max {
		want := lim
		want.Cur = lim.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want) == nil {
			lim = want
		}
	}
	return lim.Cur
}

// newServer returns the HTTP server of `dpplay serve` for handler, in a
// process allowed nofile open files: small headers, short header and idle
// timeouts, and a shedder that closes idle connections once open ones pass
// three quarters of the file limit, so that a client holding thousands of
// idle connections cannot keep others out.
func newServer(handler http.Handler, nofile uint64) *http.Server {
	high := int(min(nofile*3/4, 1<<20))
	if high < 64 {
		high = 64
	}
	shed := newShedder(high)
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         shed.track,
	}
}

// shedder tracks the server's connections. When a new one takes the count
// past high, it closes the connections that have sat longest without a
// request in progress (new ones that have not sent a byte, and idle ones
// between requests), oldest first, until a quarter of high is free again.
// An honest client reconnects (browsers and HTTP clients retry an idle
// connection closed under them); one holding thousands of connections open
// to exhaust the server's file descriptors loses them instead of keeping
// everyone else out. It acts on accepting a connection, so high must leave
// room below the file limit for that accept to succeed.
type shedder struct {
	high     int
	mu       sync.Mutex
	idle     map[net.Conn]time.Time // new or idle connections, since when
	shedding map[net.Conn]bool      // closed here, not yet reported closed
	open     int                    // connections not yet reported closed
}

func newShedder(high int) *shedder {
	return &shedder{high: high, idle: map[net.Conn]time.Time{}, shedding: map[net.Conn]bool{}}
}

func (s *shedder) track(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateNew:
		s.open++
		s.idle[c] = time.Now()
		if s.open-len(s.shedding) > s.high {
			s.shedLocked(c)
		}
	case http.StateIdle:
		if !s.shedding[c] {
			s.idle[c] = time.Now()
		}
	case http.StateActive:
		delete(s.idle, c)
	case http.StateClosed, http.StateHijacked:
		s.open--
		delete(s.idle, c)
		delete(s.shedding, c)
	}
}

func (s *shedder) shedLocked(keep net.Conn) {
	type aged struct {
		c     net.Conn
		since time.Time
	}
	old := make([]aged, 0, len(s.idle))
	for c, since := range s.idle {
		if c != keep {
			old = append(old, aged{c, since})
		}
	}
	slices.SortFunc(old, func(a, b aged) int { return a.since.Compare(b.since) })
	for _, a := range old {
		if s.open-len(s.shedding) <= s.high*3/4 {
			break
		}
		a.c.Close() // the server's goroutine for it then reports StateClosed
		delete(s.idle, a.c)
		s.shedding[a.c] = true
	}
}

// siteHandler serves dir at / and the lecture API at /api/.
//
// Every static response carries Cache-Control: no-cache, which lets the
// browser keep a copy but makes it revalidate (cheaply, by Last-Modified)
// on each use: after a rebuild the page, its wasm and above all the service
// worker script are never stale, which is what a development server needs.
//
// Only regular files inside dir are served: no directory listings (a
// directory serves its index.html or nothing), no name starting with a dot
// anywhere in the path, and no symbolic link leading outside dir (os.Root).
// An HTML page is sent with the Content-Security-Policy its own <meta> tag
// declares, plus frame-ancestors, which only a header can carry.
// notFoundPage answers a missing page (a path without an extension, or
// .html) with the site's own 404.html when it has one, as GitHub Pages does,
// and anything else with a plain 404.
func notFoundPage(w http.ResponseWriter, r *http.Request, root *os.Root, name string) {
	ext := path.Ext(name)
	if ext != "" && ext != ".html" {
		http.NotFound(w, r)
		return
	}
	b, err := root.ReadFile("404.html")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
	w.WriteHeader(http.StatusNotFound)
	w.Write(b)
}

func siteHandler(dir string, api http.Handler) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", headers(api, apiPolicy))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		setSecurityHeaders(h, "")
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
			name = path.Join(name, "index.html")
			f, st, err = openRegular(root, name)
		}
		if err != nil {
			notFoundPage(w, r, root, name)
			return
		}
		defer f.Close()
		ext := strings.ToLower(path.Ext(name))
		if t, ok := staticTypes[ext]; ok {
			h.Set("Content-Type", t)
		} else if t := mime.TypeByExtension(ext); t != "" {
			h.Set("Content-Type", t)
		} else {
			h.Set("Content-Type", "application/octet-stream")
		}
		if ext == ".html" {
			if policy := pagePolicy(f); policy != "" {
				h.Set("Content-Security-Policy", policy+"; frame-ancestors 'self'")
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				http.Error(w, "read error", http.StatusInternalServerError)
				return
			}
		}
		h.Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, name, st.ModTime(), f)
	}))
	return mux, nil
}

// apiPolicy is the CSP of API replies: JSON, never a document.
const apiPolicy = "default-src 'none'; frame-ancestors 'none'"

// setSecurityHeaders sets the headers every reply carries; policy, if not
// empty, is its Content-Security-Policy.
func setSecurityHeaders(h http.Header, policy string) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	if policy != "" {
		h.Set("Content-Security-Policy", policy)
	}
}

func headers(next http.Handler, policy string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header(), policy)
		next.ServeHTTP(w, r)
	})
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

// openRegular opens name under root if it is a regular file. For anything
// else it returns an error, and the FileInfo when there is one (so that a
// directory can serve its index.html).
func openRegular(root *os.Root, name string) (*os.File, os.FileInfo, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, st, errors.New("not a regular file")
	}
	return f, st, nil
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
