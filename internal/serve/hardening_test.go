package serve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

// A FIFO inside -dir cannot hang a request: it is refused at once with 404,
// never opened for reading (which would block until a writer came).
func TestStaticRefusesFIFO(t *testing.T) {
	url, dir := testSite(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "sub", "index.html"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Timeout: 5 * time.Second}
	for _, p := range []string{"/pipe.js", "/sub/"} {
		resp, err := c.Get(url + p)
		if err != nil {
			t.Fatalf("GET %s: %v (the request hung on the FIFO)", p, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Errorf("GET %s (a FIFO): %d, want 404", p, resp.StatusCode)
		}
	}
}

// precompressed is a site whose files have their .br and .gz copies
// (Precompress), as `dpplay site` leaves dist/.
func precompressed(t *testing.T) (url, dir string, files map[string][]byte) {
	dir = t.TempDir()
	files = map[string][]byte{
		"app.js":         bytes.Repeat([]byte("export const x = 'dpplay';\n"), 200),
		"wasm/core.wasm": append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 4000)...),
		"index.html":     []byte("<!doctype html><title>x</title>" + strings.Repeat("<p>lesson</p>", 200)),
		"small.css":      []byte("body{}"),
		"icon.png":       bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000),
	}
	for name, b := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, err := Precompress(dir, func(name string) bool { return name != "wasm/core.wasm" })
	if err != nil || n != 3 {
		t.Fatalf("Precompress: %d files, %v; want 3 (app.js, core.wasm, index.html)", n, err)
	}
	site, err := Site(dir, http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return srv.URL, dir, files
}

// get sends GET url with the headers given (name, value, …) and returns the
// reply and its raw body; Go's client decodes nothing itself here.
func get(t *testing.T, url string, kv ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	tr := &http.Transport{DisableCompression: true}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// Issue 33: a browser that accepts brotli gets the brotli copy, one that
// accepts gzip the gzip copy, others the file; each decodes to the file
// byte for byte, with its content type, Vary: Accept-Encoding, a length,
// and an ETag of its own that revalidates; ranges apply to what is sent.
func TestCompressedFiles(t *testing.T) {
	url, _, files := precompressed(t)
	decode := map[string]func([]byte) ([]byte, error){
		"br": func(b []byte) ([]byte, error) { return io.ReadAll(brotli.NewReader(bytes.NewReader(b))) },
		"gzip": func(b []byte) ([]byte, error) {
			r, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return nil, err
			}
			return io.ReadAll(r)
		},
		"": func(b []byte) ([]byte, error) { return b, nil },
	}
	types := map[string]string{"app.js": "text/javascript; charset=utf-8", "wasm/core.wasm": "application/wasm", "index.html": "text/html; charset=utf-8"}
	for name, ctype := range types {
		etags := map[string]bool{}
		for accept, want := range map[string]string{
			"br":                    "br",
			"gzip, deflate, br":     "br",
			"gzip, deflate":         "gzip",
			"br;q=0, gzip":          "gzip",
			"*":                     "br",
			"*;q=0":                 "",
			"identity":              "",
			"":                      "",
			"BR;q=0.5, gzip;q=1.0":  "br",
			"gzip;q=0, br;q=0, *":   "",
			"deflate, gzip;q=0.001": "gzip",
		} {
			resp, body := get(t, url+"/"+name, "Accept-Encoding", accept)
			got := resp.Header.Get("Content-Encoding")
			plain, err := decode[got](body)
			if resp.StatusCode != 200 || got != want || err != nil || !bytes.Equal(plain, files[name]) {
				t.Errorf("%s with Accept-Encoding %q: %d, encoding %q (want %q), decodes to the file: %v %v", name, accept, resp.StatusCode, got, want, bytes.Equal(plain, files[name]), err)
			}
			if resp.Header.Get("Content-Type") != ctype || resp.Header.Get("Vary") != "Accept-Encoding" || resp.ContentLength != int64(len(body)) {
				t.Errorf("%s (%q): type %q vary %q length %d of %d", name, accept, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"), resp.ContentLength, len(body))
			}
			tag := resp.Header.Get("ETag")
			etags[tag+got] = true
			if r, b := get(t, url+"/"+name, "Accept-Encoding", accept, "If-None-Match", tag); r.StatusCode != 304 || len(b) != 0 {
				t.Errorf("%s (%q) revalidated with its ETag: %d, %d bytes", name, accept, r.StatusCode, len(b))
			}
			if r, b := get(t, url+"/"+name, "Accept-Encoding", accept, "Range", "bytes=0-9"); r.StatusCode != 206 || !bytes.Equal(b, body[:10]) {
				t.Errorf("%s (%q) bytes 0-9: %d %q, want the first 10 bytes of what is sent", name, accept, r.StatusCode, b)
			}
		}
		if len(etags) != 3 {
			t.Errorf("%s: ETags %v, want one per encoding", name, etags)
		}
	}
	// Not worth compressing: a small file, an image.
	for _, name := range []string{"small.css", "icon.png"} {
		if resp, body := get(t, url+"/"+name, "Accept-Encoding", "br, gzip"); resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, files[name]) {
			t.Errorf("%s: encoding %q", name, resp.Header.Get("Content-Encoding"))
		}
	}
}

// A copy older than its file (the file was edited after the build) is not
// sent: the browser gets the file as it is.
func TestStaleCompressedCopy(t *testing.T) {
	url, dir, _ := precompressed(t)
	fresh := []byte("export const x = 'edited';\n")
	if err := os.WriteFile(filepath.Join(dir, "app.js"), fresh, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "app.js"), later, later)
	if resp, body := get(t, url+"/app.js", "Accept-Encoding", "br, gzip"); resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, fresh) {
		t.Errorf("edited app.js: encoding %q, body %q", resp.Header.Get("Content-Encoding"), body)
	}
}

func FuzzAcceptEncoding(f *testing.F) {
	for _, s := range []string{"br", "gzip, deflate, br", "br;q=0", "*;q=0.5", "BR ; Q=0", "gzip;q=abc", ",,;;=", "br;q=1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		br := acceptsEncoding(h, "br")
		// Naming br with q=0 anywhere refuses it.
		for _, part := range strings.Split(h, ",") {
			c, params, _ := strings.Cut(part, ";")
			if !strings.EqualFold(strings.TrimSpace(c), "br") {
				continue
			}
			for _, p := range strings.Split(params, ";") {
				k, v, _ := strings.Cut(p, "=")
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); strings.EqualFold(strings.TrimSpace(k), "q") && err == nil && q == 0 && br {
					t.Fatalf("%q refuses br, accepted", h)
				}
			}
		}
		if !strings.Contains(strings.ToLower(h), "br") && !strings.Contains(h, "*") && br {
			t.Fatalf("%q names neither br nor *, accepted", h)
		}
	})
}

// A request whose Host is not this server's (DNS rebinding) is refused;
// the listen address, loopback names, the machine's own addresses and
// -host names are answered.
func TestHosts(t *testing.T) {
	h := NewHosts("127.0.0.1", "laptop.local.", "0.0.0.0", "")
	for host, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:8080": true, "LOCALHOST": true, "class.localhost:1": true, "[::1]:8080": true,
		"127.0.0.2": true, "laptop.local": true, "Laptop.Local.:8080": true,
		"evil.example:8080": false, "evil.example": false, "": false, "0.0.0.0:8080": false, "laptop.local.evil.example": false,
		"192.0.2.1:8080": false, "[2001:db8::1]:80": false, "127.0.0.1.evil.example": false,
	} {
		if got := h.Allowed(host); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", host, got, want)
		}
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ip, _, err := net.ParseCIDR(a.String()); err == nil && !h.Allowed(net.JoinHostPort(ip.String(), "80")) {
				t.Errorf("the machine's own address %s is refused", ip)
			}
		}
	}
}

func FuzzHosts(f *testing.F) {
	for _, s := range []string{"127.0.0.1:80", "evil.example", "[::1]", "[::1", "::1", "a.localhost.", "laptop.local:x", "0.0.0.0"} {
		f.Add(s)
	}
	h := NewHosts("laptop.local")
	f.Fuzz(func(t *testing.T, s string) {
		if !h.Allowed(s) {
			return
		}
		host := hostOf(s)
		if host != "localhost" && !strings.HasSuffix(host, ".localhost") && host != "laptop.local" && net.ParseIP(host) == nil {
			t.Fatalf("%q (host %q) allowed", s, host)
		}
	})
}

// apiSite is the handler `dpplay serve` runs (Run builds the same), over a
// fresh database, with instructor key "k".
func apiSite(t *testing.T) (http.Handler, *Hosts) {
	store, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	hosts := NewHosts("127.0.0.1")
	api, err := lecture.New(store.Write, store.Options(lecture.Options{CreateKey: "k", Local: hosts.Local, Logf: t.Logf}))
	if err != nil {
		t.Fatal(err)
	}
	site, err := Site(t.TempDir(), api)
	if err != nil {
		t.Fatal(err)
	}
	return hosts.Check(site), hosts
}

// Issues 28, findings 3 and 4: `dpplay serve` starts a session for the
// machine itself, or for anyone with the instructor key; a student at
// another address gets 401 and uses up nothing; a request for another
// host name (a rebinding page) is refused before the API sees it.
func TestSessionsNeedKeyOrThisMachine(t *testing.T) {
	site, _ := apiSite(t)
	post := func(remote, host, key string) int {
		r := httptest.NewRequest("POST", "http://"+host+"/api/sessions", strings.NewReader("{}"))
		r.RemoteAddr, r.Host = remote, host
		r.Header.Set("Content-Type", "application/json")
		if key != "" {
			r.Header.Set("Authorization", "Bearer "+key)
		}
		w := httptest.NewRecorder()
		site.ServeHTTP(w, r)
		return w.Code
	}
	for _, tc := range []struct {
		remote, host, key string
		want              int
	}{
		{"127.0.0.1:5000", "127.0.0.1:8080", "", 201},
		{"[::1]:5000", "localhost:8080", "", 201},
		{"192.0.2.7:5000", "127.0.0.1:8080", "", 401},
		{"192.0.2.7:5000", "127.0.0.1:8080", "wrong", 403},
		{"192.0.2.7:5000", "127.0.0.1:8080", "k", 201},
		{"127.0.0.1:5000", "evil.example:8080", "", 421},
		{"192.0.2.7:5000", "evil.example:8080", "k", 421},
	} {
		if got := post(tc.remote, tc.host, tc.key); got != tc.want {
			t.Errorf("POST /api/sessions from %s for %s with key %q: %d, want %d", tc.remote, tc.host, tc.key, got, tc.want)
		}
	}
	// 300 refused creations from one address leave the instructor's own
	// creation from that address unaffected.
	for range 300 {
		post("192.0.2.7:5000", "127.0.0.1:8080", "")
	}
	if got := post("192.0.2.7:5000", "127.0.0.1:8080", "k"); got != 201 {
		t.Errorf("the instructor's session after a flood from the same address: %d", got)
	}
}

// The header limit is 16 KB, as documented
// (net/http adds 4 KB to its own setting).
func TestHeaderLimit(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	s := NewServer(srv.Config.Handler, 4096)
	srv.Config, srv.Listener = s.Server, s.Listener(srv.Listener)
	srv.Start()
	defer srv.Close()
	for size, want := range map[int]string{15 << 10: "200", 17 << 10: "431", 20 << 10: "431"} {
		c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\nX-Pad: %s\r\n\r\n", strings.Repeat("a", size-40))
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if !strings.HasPrefix(line, "HTTP/1.1 "+want) {
			t.Errorf("headers of %d KB: %q, want %s", size>>10, line, want)
		}
	}
}

// slowBodies opens n connections to addr, each sending the headers of a
// POST whose 8,000-byte body never comes. They are closed when the test ends.
func slowBodies(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	var held []net.Conn
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 8000\r\n\r\n")
		held = append(held, c)
	}
	return held
}

// ended reads from each connection until the server answers or closes it,
// or until within passes, all at once, and reports which ended and when.
func ended(conns []net.Conn, within time.Duration) (done []bool, at []time.Time) {
	done, at = make([]bool, len(conns)), make([]time.Time, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(within))
			_, err := c.Read(make([]byte, 512))
			done[i], at[i] = err == nil || !os.IsTimeout(err), time.Now()
		}()
	}
	wg.Wait()
	return done, at
}

// Slow bodies from one address cannot hold every connection: one address
// holds at most perAddr connections, and another address is still served.
// The bodies here are given a minute, so only the guard closes any.
func TestGuardCapsAnAddress(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	lim := defaultLimits
	lim.body = time.Minute
	s := newServer(srv.Config.Handler, 128, lim) // high 96, 48 per address
	srv.Config, srv.Listener = s.Server, s.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close) // after the connections close (cleanups run last first)
	held := slowBodies(t, strings.TrimPrefix(srv.URL, "http://"), 80)
	// The server accepts connections in order and the guard decides on each
	// as it is accepted, so once the request from another address is
	// answered, the guard has decided on all 80.
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 5 * time.Second}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatalf("another address: %v", err)
	}
	resp.Body.Close()
	closed, _ := ended(held, 500*time.Millisecond)
	if open := len(held) - trues(closed); open != 48 {
		t.Errorf("%d of 80 connections from one address held open, want 48", open)
	}
}

// A body that takes longer than the body timeout ends its request: its
// connection is answered or closed then, not before.
func TestSlowBodiesEnd(t *testing.T) {
	const timeout = 200 * time.Millisecond
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	lim := defaultLimits
	lim.body = timeout
	s := newServer(srv.Config.Handler, 128, lim)
	srv.Config, srv.Listener = s.Server, s.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close) // after the connections close (cleanups run last first)
	start := time.Now()
	held := slowBodies(t, strings.TrimPrefix(srv.URL, "http://"), 40)
	// Well before the server's whole-request ReadTimeout (ReadHeaderTimeout
	// more), so that only the body's own deadline can end them in time.
	done, at := ended(held, timeout+ReadHeaderTimeout*4/5)
	for i := range held {
		if !done[i] {
			t.Errorf("slow body %d still open %v after it began (body timeout %v)", i, at[i].Sub(start).Round(time.Millisecond), timeout)
		} else if d := at[i].Sub(start); d < timeout {
			t.Errorf("slow body %d ended after %v, before the body timeout of %v", i, d, timeout)
		}
	}
}

func trues(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}
