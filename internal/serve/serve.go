// Package serve is `dpplay serve`: the static site and the lecture API
// (package lecture over an SQLite file) behind one hardened HTTP server.
//
// What it defends and how is in docs/security.md: the static files it will
// send (Site), the host names it answers to (Hosts), how many connections
// one address may hold and how long a body may take (guard), and who may
// start a lecture session (the instructor key, or the machine itself).
package serve

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

// Config is what `dpplay serve` runs.
type Config struct {
	Addr   string  // listen address, host:port (port 0 picks a free one)
	Dir    string  // static files served at /
	DB     string  // SQLite file of the lecture API, never inside Dir
	Budget float64 // default ε budget of a new session (0: lecture.DefaultBudget)

	CertFile, KeyFile string // serve HTTPS with this certificate and key

	// Hosts are further names the server answers to (-host), beside its
	// listen address, the loopback names and the machine's own addresses.
	Hosts []string

	// SessionTTL deletes sessions that have seen nothing for this long
	// (0: lecture.DefaultSessionTTL).
	SessionTTL time.Duration

	// Key is the instructor key that starting a session needs when the
	// request does not come from this machine; "" draws one at start.
	Key string

	// JoinLimit is the most new students one address may add to a
	// session a minute (0: lecture.JoinLimit; negative: no limit, for load
	// tests that play a whole hall from one address).
	JoinLimit int

	// WriteRate is how many answers one address may send a second (0:
	// lecture.WriteRate; negative: no limit, for load tests).
	WriteRate int
}

// Check reports what is wrong with c, as a sentence for the person who
// typed the flags, and loads the TLS pair.
func (c *Config) Check() (*tls.Config, error) {
	if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("-dir %q is not a directory (run 'make site' first)", c.Dir)
	}
	if c.Budget != 0 && (!(c.Budget > 0) || c.Budget > lecture.MaxBudget) {
		return nil, fmt.Errorf("-budget must be in (0, %g]", lecture.MaxBudget)
	}
	if c.SessionTTL < 0 {
		return nil, errors.New("-session-ttl must not be negative")
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return nil, errors.New("-tls-cert and -tls-key go together")
	}
	for _, h := range c.Hosts {
		if h = strings.TrimSpace(h); h == "" || strings.ContainsAny(h, "/:@ ") && !strings.HasPrefix(h, "[") {
			return nil, fmt.Errorf("-host %q: want a host name or an address, without a port", h)
		}
	}
	if inside, err := Within(c.Dir, c.DB); err != nil {
		return nil, err
	} else if inside {
		return nil, fmt.Errorf("-db %q is inside -dir %q, where anyone could download it; put it elsewhere", c.DB, c.Dir)
	}
	if c.CertFile == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("-tls-cert/-tls-key: %v", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// Run serves c until ctx ends. Once listening it prints one JSON line to
// stdout: {"url", "dir", "db", "instructor"}, where instructor is the
// address of the instructor's view with the key in its fragment (which the
// browser never sends), as Jupyter prints its token.
func Run(ctx context.Context, c Config, stdout io.Writer) error {
	tlsConfig, err := c.Check()
	if err != nil {
		return err
	}
	if c.Key == "" {
		var b [16]byte
		rand.Read(b[:])
		c.Key = base64.RawURLEncoding.EncodeToString(b[:])
	}
	nofile := raiseFileLimit()
	store, err := sqlitedb.Open(ctx, c.DB)
	if err != nil {
		return err
	}
	defer store.Close()
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	hosts := NewHosts(append(c.Hosts, hostPart(ln.Addr().String()), hostPart(c.Addr))...)
	api, err := lecture.New(store.Write, store.Options(lecture.Options{
		DefaultBudget: c.Budget,
		CreateKey:     c.Key,
		Local:         hosts.Local,
		SessionTTL:    c.SessionTTL,
		JoinLimit:     c.JoinLimit,
		WriteRate:     c.WriteRate,
	}))
	if err != nil {
		ln.Close()
		return err
	}
	site, err := Site(c.Dir, api)
	if err != nil {
		ln.Close()
		return err
	}
	srv := NewServer(hosts.Check(site), nofile)
	scheme := "http"
	ln = srv.Listener(ln)
	if tlsConfig != nil {
		srv.TLSConfig = tlsConfig
		ln = tls.NewListener(ln, tlsConfig)
		scheme = "https"
	}
	base := scheme + "://" + ln.Addr().String() + "/"
	// The one JSON line tells scripts (and the tests, which listen on port 0)
	// where the server is.
	line, _ := json.Marshal(map[string]string{
		"url": base, "dir": c.Dir, "db": c.DB,
		"instructor": base + "lecture.html?role=host#key=" + c.Key,
	})
	fmt.Fprintln(stdout, string(line))

	go api.ExpireEvery(ctx, time.Hour)
	errc := make(chan error, 1)
	go func() { errc <- srv.Server.Serve(ln) }()
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

// hostPart is the host of a host:port, or "".
func hostPart(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	return h
}

// Server is the HTTP server of `dpplay serve` with its connection guard
// (guard), which sees only the connections of listeners it wraps: Serve
// wraps its own, and Listener wraps one for a caller that serves through
// another (TLS, httptest).
type Server struct {
	*http.Server
	g *guard
}

// Serve serves on ln through the guard.
func (s *Server) Serve(ln net.Listener) error { return s.Server.Serve(s.Listener(ln)) }

// Listener wraps ln so that the guard tracks its connections.
func (s *Server) Listener(ln net.Listener) net.Listener { return s.g.listen(ln) }

// NewServer returns the HTTP server of `dpplay serve` for handler, in a
// process allowed nofile open files: small headers, short header, body,
// write and idle timeouts, a bounded lifetime for every connection, and a
// guard on descriptors (guard).
func NewServer(handler http.Handler, nofile uint64) *Server {
	return newServer(handler, nofile, defaultLimits)
}

// newServer is NewServer with the guard's durations in lim, so that a test
// can watch slow bodies, stuck writes and old connections end without
// waiting minutes.
func newServer(handler http.Handler, nofile uint64, lim limits) *Server {
	g := newGuard(nofile, lim)
	return &Server{&http.Server{
		Handler:           g.handler(handler),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadHeaderTimeout + lim.body,
		WriteTimeout:      lim.grace,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes - 4096,
		ConnState:         g.track,
		ConnContext:       g.connContext,
	}, g}
}

// Within reports whether file would lie inside dir (or be dir), following
// symbolic links in the existing part of either path.
func Within(dir, file string) (bool, error) {
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
