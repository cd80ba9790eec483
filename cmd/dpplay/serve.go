package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strings"
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

func runServe(args []string, stdout io.Writer) error {
	fs := newFlagSet("serve")
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	dir := fs.String("dir", "dist", "directory of static files to serve at /")
	dbPath := fs.String("db", "dpplay.db", "SQLite database file for the lecture API")
	budget := fs.Float64("budget", lecture.DefaultBudget, "default ε budget of a new lecture session")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return usagef("serve: -dir %q is not a directory (run 'make dist' first)", *dir)
	}
	if !(*budget > 0) || *budget > lecture.MaxBudget {
		return usagef("serve: -budget must be in (0, %g]", lecture.MaxBudget)
	}

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

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           siteHandler(*dir, api),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	// The one JSON line tells scripts (and the tests, which listen on port 0)
	// where the server is.
	line, _ := json.Marshal(map[string]string{
		"url": "http://" + ln.Addr().String() + "/",
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

// siteHandler serves dir at / and the lecture API at /api/.
//
// Every static response carries Cache-Control: no-cache, which lets the
// browser keep a copy but makes it revalidate (cheaply, by Last-Modified)
// on each use: after a rebuild the page, its wasm and above all the service
// worker script are never stale, which is what a development server needs.
func siteHandler(dir string, api http.Handler) http.Handler {
	files := http.FileServer(http.Dir(dir))
	mux := http.NewServeMux()
	mux.Handle("/api/", api)
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if t, ok := staticTypes[strings.ToLower(path.Ext(r.URL.Path))]; ok {
			h.Set("Content-Type", t)
		} else if t := mime.TypeByExtension(path.Ext(r.URL.Path)); t != "" {
			h.Set("Content-Type", t)
		}
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	}))
	return mux
}
