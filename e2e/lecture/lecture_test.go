// Package lecture_test runs the lecture API suite against real servers:
// `dpplay serve` over an SQLite file (as a separate process, so it can be
// killed with SIGKILL) and the worker in workerd with a local D1 (cloudflare/dev.mjs).
//
// The tests start processes and take a while, so they run only when asked:
// `make test-lecture` sets LECTURE_E2E=1 (and LECTURE_WRANGLER=1 for the
// worker), `make bench` runs the load test.
package lecture_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dpplay/dpplay/lecture/lecturetest"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

func requireE2E(t *testing.T) {
	if os.Getenv("LECTURE_E2E") == "" {
		t.Skip("set LECTURE_E2E=1 (make test-lecture) to run the lecture end-to-end tests")
	}
}

// repoRoot is the module root (two levels up from this package).
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var (
	buildOnce sync.Once
	binPath   string
	buildDir  string // where dpplayBin built it, removed by TestMain
	buildErr  error
)

// dpplayBin is the dpplay binary the tests run: DPPLAY_BIN, an absolute
// path, when set (the Makefile builds cmd/dpplay once for every suite),
// otherwise cmd/dpplay built once per test binary.
func dpplayBin(t *testing.T) string {
	buildOnce.Do(func() {
		if p := os.Getenv("DPPLAY_BIN"); p != "" {
			if !filepath.IsAbs(p) {
				buildErr = fmt.Errorf("DPPLAY_BIN=%q is not an absolute path", p)
			} else if _, err := os.Stat(p); err != nil {
				buildErr = fmt.Errorf("DPPLAY_BIN: %v", err)
			}
			binPath = p
			return
		}
		dir, err := os.MkdirTemp("", "dpplay-e2e-bin")
		if err != nil {
			buildErr = err
			return
		}
		buildDir, binPath = dir, filepath.Join(dir, "dpplay")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/dpplay")
		cmd.Dir = repoRoot(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./cmd/dpplay: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// server is a running `dpplay serve`.
type server struct {
	cmd *exec.Cmd
	url string      // http://127.0.0.1:port (no trailing slash)
	log *syncBuffer // what it wrote to stderr
}

// syncBuffer collects a process's output safely across goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServe starts `dpplay serve` on a free loopback port over db and dir,
// without the limits on new students and on answers per address: the load
// tests play a whole hall from one address (the limits have their own
// tests in lecture).
// addr may name a port to reuse after a restart ("" picks a free one).
func startServe(t *testing.T, db, dir, addr string) *server {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	return startCmd(t, exec.Command(dpplayBin(t), "serve", "-addr", addr, "-dir", dir, "-db", db, "-join-limit", "0", "-write-rate", "0"), "http://127.0.0.1:")
}

// startCmd starts cmd, a `dpplay serve` command line, and waits for the
// address it prints, which must start with prefix. The server is stopped
// when the test ends.
func startCmd(t *testing.T, cmd *exec.Cmd, prefix string) *server {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	cmd.Stderr = io.MultiWriter(os.Stderr, log)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("dpplay serve printed no address: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	var info struct{ URL string }
	if err := json.Unmarshal([]byte(line), &info); err != nil || !strings.HasPrefix(info.URL, prefix) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("dpplay serve printed %q", line)
	}
	s := &server{cmd: cmd, url: strings.TrimSuffix(info.URL, "/"), log: log}
	t.Cleanup(func() { s.stop(syscall.SIGTERM) })
	return s
}

func (s *server) stop(sig syscall.Signal) {
	if s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(sig)
	s.cmd.Wait()
}

func (s *server) addr() string { return strings.TrimPrefix(s.url, "http://") }

func staticDir(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":       "<!doctype html><title>dpplay</title>",
		"app.wasm":         "\x00asm\x01\x00\x00\x00",
		"sw.js":            "self.addEventListener('fetch', () => {});",
		"site.webmanifest": "{}",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestServe runs the API suite against `dpplay serve` with a real SQLite
// file, and checks the static files' headers.
func TestServe(t *testing.T) {
	requireE2E(t)
	s := startServe(t, filepath.Join(t.TempDir(), "dpplay.db"), staticDir(t), "")
	t.Run("static", func(t *testing.T) {
		for path, ctype := range map[string]string{
			"/":                 "text/html; charset=utf-8",
			"/app.wasm":         "application/wasm",
			"/sw.js":            "text/javascript; charset=utf-8",
			"/site.webmanifest": "application/manifest+json",
		} {
			resp, err := http.Get(s.url + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ctype {
				t.Errorf("%s: %d %q, want 200 %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), ctype)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("%s: Cache-Control %q, want no-cache", path, cc)
			}
		}
		resp, err := http.Get(s.url + "/api/sessions/ZZZZZZZZ")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("API reply: %d, Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
	})
	lecturetest.Run(t, s.url, func(c *lecturetest.Client) { c.HostChecked = true })
	s.stop(syscall.SIGTERM)
	if leaks := lecturetest.Leaks(s.log.String()); leaks != nil {
		t.Errorf("the server's log contains submitted values %q", leaks)
	}
}

// TestLoad plays 500 students submitting at once on loopback, then checks
// that no submission was lost: every acknowledged answer is in the database
// exactly as sent. A second class arrives spread over 5 s, as a real room
// does. `make bench` prints the latency figures of both.
func TestLoad(t *testing.T) {
	requireE2E(t)
	t.Run("burst", func(t *testing.T) { testLoad(t, 0) })
	t.Run("spread", func(t *testing.T) { testLoad(t, 5*time.Second) })
}

func testLoad(t *testing.T, spread time.Duration) {
	const students, rounds = 500, 2
	db := filepath.Join(t.TempDir(), "load.db")
	s := startServe(t, db, staticDir(t), "")
	c := lecturetest.NewClient(s.url)
	sess := c.NewSession(t, 0)
	path := c.NewActivity(t, sess, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 3}})
	var mu sync.Mutex
	acked := map[string]float64{}
	id := func(i, k int) string { return "student" + strconv.Itoa(i) }
	value := func(i, k int) float64 { return float64(i*10+k) + 0.25 }
	res := lecturetest.Load(c, path, students, rounds, spread, 0, id, value, func(i, k int) {
		mu.Lock()
		acked[id(i, k)] = value(i, k) // the later round replaces the earlier
		mu.Unlock()
	}, nil)
	t.Logf("load: %s, arriving over %v: %s", t.Name(), spread, res)
	if res.Failed != 0 || res.Acked != students*rounds {
		t.Errorf("%d of %d submissions failed", res.Failed, students*rounds)
	}
	r, err := c.Do("GET", path, "", nil)
	if err != nil || r.JSON["participants"].(float64) != students {
		t.Errorf("participants after load: %v %+v", err, r)
	}
	s.stop(syscall.SIGTERM)
	checkStored(t, db, sess.Code, acked, true)
}

// checkStored opens the SQLite file and checks each acknowledged answer.
// With exact, the table must hold nothing else.
func checkStored(t *testing.T, path, code string, acked map[string]float64, exact bool) {
	t.Helper()
	db, err := sqlitedb.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Read.Query(`SELECT student, answer FROM submissions WHERE session = ?`, code)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[string]string{}
	for rows.Next() {
		var s, a string
		if err := rows.Scan(&s, &a); err != nil {
			t.Fatal(err)
		}
		stored[s] = a
	}
	missing := 0
	for s, v := range acked {
		if got, ok := stored[s]; !ok || got != strconv.FormatFloat(v, 'g', -1, 64) {
			missing++
			if missing <= 5 {
				t.Errorf("acknowledged submission %s: stored %q (present %v)", s, got, ok)
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d acknowledged submissions missing or wrong", missing, len(acked))
	}
	if exact && len(stored) != len(acked) {
		t.Errorf("database holds %d submissions, %d were acknowledged", len(stored), len(acked))
	}
}

// TestDurability kills the server with SIGKILL in the middle of a load,
// restarts it on the same file and checks that every submission that had
// been acknowledged is there.
func TestDurability(t *testing.T) {
	requireE2E(t)
	const students, rounds, killAfter = 200, 50, 1500
	db := filepath.Join(t.TempDir(), "durable.db")
	dir := staticDir(t)
	s := startServe(t, db, dir, "")
	c := lecturetest.NewClient(s.url)
	// Every round is a new student, 10,000 in all: the largest roster.
	r, err := c.Do("POST", "/api/sessions", "", map[string]any{"roster": students * rounds})
	if err != nil || r.Status != 201 {
		t.Fatalf("new session with a roster of %d: %v %+v", students*rounds, err, r)
	}
	sess := lecturetest.Session{Code: r.JSON["code"].(string), Token: r.JSON["instructor_token"].(string)}
	path := c.NewActivity(t, sess, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 3}})

	var mu sync.Mutex
	acked := map[string]float64{}
	stop := make(chan struct{})
	var killOnce sync.Once
	// Each round is a new student id, so an acknowledged row can only be
	// lost, never overwritten by a later answer.
	id := func(i, k int) string { return fmt.Sprintf("s%d-r%d", i, k) }
	value := func(i, k int) float64 { return float64(i*1000 + k) }
	res := lecturetest.Load(c, path, students, rounds, 0, 0, id, value, func(i, k int) {
		mu.Lock()
		acked[id(i, k)] = value(i, k)
		n := len(acked)
		mu.Unlock()
		if n >= killAfter {
			killOnce.Do(func() {
				s.stop(syscall.SIGKILL)
				close(stop)
			})
		}
	}, stop)
	if s.cmd.ProcessState == nil {
		t.Fatalf("the load finished before the kill: %s", res)
	}
	t.Logf("killed with SIGKILL after %d acknowledged submissions (%d requests failed in flight)", res.Acked, res.Failed)

	s2 := startServe(t, db, dir, s.addr())
	c2 := lecturetest.NewClient(s2.url)
	r, err = c2.Do("GET", path, "", nil)
	if err != nil || r.Status != 200 {
		t.Fatalf("after restart: %v %+v", err, r)
	}
	if n := int(r.JSON["participants"].(float64)); n < len(acked) {
		t.Errorf("after restart %d participants, %d submissions were acknowledged", n, len(acked))
	}
	// The restarted server keeps taking answers.
	if r, err := c2.Do("PUT", path+"/submissions/late", "", map[string]float64{"value": 1}); err != nil || r.Status != 200 {
		t.Errorf("submission after restart: %v %+v", err, r)
	}
	checkStored(t, db, sess.Code, acked, false)
}

// workerDev is the worker running locally in workerd (cloudflare/dev.mjs) with
// a fresh local D1.
type workerDev struct {
	base string // http://127.0.0.1:port
	log  string // the file holding the runner's and workerd's output
	pgid int    // the runner's process group, which holds workerd too
}

// startWorker starts the worker as the suite tests it: allowing the static
// site of https://example.github.io, and with the given variables.
func startWorker(t *testing.T, vars ...string) *workerDev {
	t.Helper()
	return launchWorker(t, append([]string{"ALLOWED_ORIGIN:https://example.github.io"}, vars...)...)
}

// launchWorker applies the D1 migrations with wrangler to a fresh local state
// and starts cloudflare/dev.mjs (Miniflare and workerd, without wrangler dev's
// proxy: docs/lecture.md) on a free loopback port with the instructor key,
// the host check and the given variables; the rest are wrangler.toml's.
// The Makefile builds cloudflare/build and installs cloudflare/node_modules first.
func launchWorker(t *testing.T, vars ...string) *workerDev {
	t.Helper()
	if os.Getenv("LECTURE_WRANGLER") == "" {
		t.Skip("set LECTURE_WRANGLER=1 (make test-lecture) to test the worker in workerd")
	}
	wdir := filepath.Join(repoRoot(t), "cloudflare")
	for _, f := range []string{"build/app.wasm", "build/wasm_exec.js", "node_modules/.bin/wrangler", "node_modules/miniflare"} {
		if _, err := os.Stat(filepath.Join(wdir, f)); err != nil {
			t.Fatalf("cloudflare/%s is missing: run make cloudflare-build", f)
		}
	}
	state := t.TempDir()
	env := append(os.Environ(),
		"WRANGLER_SEND_METRICS=false", "WRANGLER_HIDE_BANNER=true", "CLOUDFLARE_CF_FETCH_ENABLED=false",
		"NO_COLOR=1", "CI=true", "XDG_CONFIG_HOME="+filepath.Join(state, "config"))
	wrangler := filepath.Join(wdir, "node_modules/.bin/wrangler")

	mig := exec.Command(wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state)
	mig.Dir, mig.Env = wdir, env
	if out, err := mig.CombinedOutput(); err != nil {
		t.Fatalf("wrangler d1 migrations apply: %v\n%s", err, out)
	}

	port := freePort(t)
	args := []string{"dev.mjs", "--ip", "127.0.0.1", "--port", strconv.Itoa(port), "--persist-to", state,
		"--var", "INSTRUCTOR_KEY:" + workerKey,
		"--var", "ALLOWED_HOSTS:127.0.0.1"}
	for _, v := range vars {
		args = append(args, "--var", v)
	}
	dev := exec.Command("node", args...)
	dev.Dir, dev.Env = wdir, env
	dev.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the runner starts workerd: stop the whole group
	logf, err := os.Create(filepath.Join(state, "worker.log"))
	if err != nil {
		t.Fatal(err)
	}
	dev.Stdout, dev.Stderr = logf, logf
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-dev.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { dev.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-dev.Process.Pid, syscall.SIGKILL)
			<-done
		}
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("worker log:\n%s", b)
		}
	})
	w := &workerDev{base: fmt.Sprintf("http://127.0.0.1:%d", port), log: logf.Name(), pgid: dev.Process.Pid}
	deadline := time.Now().Add(90 * time.Second)
	for {
		// A malformed code: answered 404 without counting as a guess.
		resp, err := http.Get(w.base + "/api/sessions/ZZZZ")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 404 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not answer on %s within 90 s (last error %v)", w.base, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return w
}

// workerKey is the instructor key the worker under test holds.
const workerKey = "test-instructor-key"

// client is a suite client for the worker: it holds the key, and the
// worker, which has no machine of its own, takes it for a remote client.
func (w *workerDev) client() *lecturetest.Client {
	c := lecturetest.NewClient(w.base)
	w.setup(c)
	return c
}

func (w *workerDev) setup(c *lecturetest.Client) {
	c.Key, c.Remote, c.HostChecked = workerKey, true, true
}

// logText returns what the runner and workerd have written so far.
func (w *workerDev) logText(t *testing.T) string {
	b, err := os.ReadFile(w.log)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// TestWorker runs the same API suite against the worker in workerd with a
// fresh local D1.
func TestWorker(t *testing.T) {
	requireE2E(t)
	w := startWorker(t, "GUESS_LIMIT:"+strconv.Itoa(workerGuessLimit), "SESSION_TTL:"+workerSessionTTL.String())
	// The worker allows cross-origin calls, so the static site can live on
	// another origin (GitHub Pages).
	req, _ := http.NewRequest("OPTIONS", w.base+"/api/sessions", nil)
	req.Header.Set("Origin", "https://example.github.io")
	req.Header.Set("Access-Control-Request-Method", "POST")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") == "" {
		t.Errorf("CORS preflight: %v %+v", err, resp)
	}
	// The session that must expire is made first and left alone while the
	// suite runs, so that the suite's time counts towards its TTL.
	idle := w.client().NewSession(t, 0)
	idleSince := time.Now()
	lecturetest.Run(t, w.base, w.setup)
	// The burst of concurrent guesses runs after the suite, on the keep-alive
	// connections the suite left behind (under wrangler dev's proxy, that
	// order lost GETs: docs/lecture.md, "Go on Workers").
	t.Run("concurrent-guesses", func(t *testing.T) { testConcurrentGuesses(t, w) })
	t.Run("abandoned-requests", func(t *testing.T) { testAbandoned(t, w) })
	t.Run("expire", func(t *testing.T) { testExpire(t, w, idle, idleSince) })
	if leaks := lecturetest.Leaks(w.logText(t)); leaks != nil {
		t.Errorf("the worker's log contains submitted values %q", leaks)
	}
}

// TestWorkerOriginAsShipped runs the worker with wrangler.toml's own
// ALLOWED_ORIGIN: another web site's script can neither pass the CORS
// preflight nor send an answer, while a page of the API's own origin can.
func TestWorkerOriginAsShipped(t *testing.T) {
	requireE2E(t)
	w := launchWorker(t)
	c := w.client()
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	put := func(origin string) int {
		h := http.Header{"Content-Type": {"application/json"}, "Origin": {origin}}
		r, err := c.DoHeader("PUT", a+"/submissions/invented", "", `{"available": [1]}`, h)
		if err != nil {
			t.Fatal(err)
		}
		return r.Status
	}
	req, _ := http.NewRequest("OPTIONS", w.base+a+"/submissions/invented", nil)
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Access-Control-Request-Method", "PUT")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("preflight from another site: Access-Control-Allow-Origin %q, want none", got)
	}
	if st := put("https://evil.example"); st != http.StatusForbidden {
		t.Errorf("answer from another site: status %d, want 403", st)
	}
	if m := c.Must(t, 200, "GET", a, "", nil); m["participants"] != 0.0 || m["joined"] != 0.0 {
		t.Errorf("after the refused answer: %v answers, %v joined, want 0 and 0", m["participants"], m["joined"])
	}
	if st := put(w.base); st != http.StatusOK {
		t.Errorf("answer from the worker's own origin: status %d, want 200", st)
	}
}

// workerGuessLimit is the worker's wrong-code limit under test, low
// enough to reach in one burst; the suite itself makes only a few wrong
// guesses.
const workerGuessLimit = 40

// workerSessionTTL is how long the worker under test keeps an idle session.
// A session made just before the scheduled handler runs must outlive it:
// on a loaded machine (load average 30 on two cores) the handler has ended
// 6 s after it was asked for, so the TTL leaves more than twice that.
const workerSessionTTL = 15 * time.Second

// testConcurrentGuesses races wrong codes from one address against D1: each
// must be decided by the count its own increment returned, so exactly the
// limit get 404 and the rest 429, while a student who joined from the same
// address keeps polling. The worker takes the address from CF-Connecting-IP,
// which Miniflare passes through.
func testConcurrentGuesses(t *testing.T, w *workerDev) {
	const guesses, polls, ip = 150, 30, "198.51.100.7"
	base := w.base
	c := w.client()
	s := c.NewSession(t, 0)
	get := func(code string) int { return c.GetStatus(t, "/api/sessions/"+code, "CF-Connecting-IP", ip) }
	if st := get(s.Code); st != 200 {
		t.Fatalf("join: status %d", st)
	}
	// A hostile page's <img> pointing at wrong codes is refused without
	// counting against the visitor's address: the burst below still finds
	// the whole allowance.
	img := lecturetest.Tally(lecturetest.Burst(guesses, func(i int) int {
		return c.GetStatus(t, fmt.Sprintf("/api/sessions/YYYYY%03d", i), "Sec-Fetch-Dest", "image")
	}))
	if img[404] != guesses {
		t.Errorf("%d wrong codes from <img> requests: %v, want all 404", guesses, img)
	}
	statuses := lecturetest.Burst(guesses+polls, func(i int) int {
		if i < guesses {
			return get(fmt.Sprintf("ZZZZZ%03d", i))
		}
		return get(s.Code)
	})
	wrong, poll := lecturetest.Tally(statuses[:guesses]), lecturetest.Tally(statuses[guesses:])
	if wrong[404] != workerGuessLimit || wrong[429] != guesses-workerGuessLimit {
		t.Errorf("%d concurrent wrong guesses, limit %d: statuses %v", guesses, workerGuessLimit, wrong)
	}
	if poll[200] != polls {
		t.Errorf("joined student's polls during the flood: statuses %v, want all 200", poll)
	}
	// Past the limit the address still reaches a session it never used, and
	// its instructor still runs it (docs/security.md).
	other := c.NewSession(t, 0)
	if st := get(other.Code); st != 200 {
		t.Errorf("right code from the flooded address: status %d, want 200", st)
	}
	req, _ := http.NewRequest("POST", base+"/api/sessions/"+other.Code+"/activities",
		strings.NewReader(`{"kind": "meeting-day", "options": ["A", "B"]}`))
	req.Header.Set("CF-Connecting-IP", ip)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+other.Token)
	if resp, err := c.HTTP.Do(req); err != nil || resp.StatusCode != 201 {
		t.Errorf("instructor's request from the flooded address: %v %+v", err, resp)
	} else {
		resp.Body.Close()
	}
}

// testAbandoned sends answers whose clients give up after a few
// milliseconds, as phones leaving a hall's Wi-Fi do, then checks that the
// worker still answers every request: all requests share one Go instance,
// and one that workerd cancels mid-way must not hold up the others.
func testAbandoned(t *testing.T, w *workerDev) {
	const abandoned, after = 100, 20
	base := w.base
	c := w.client()
	s := c.NewSession(t, 0)
	path := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 3}})
	var wg sync.WaitGroup
	for i := range abandoned {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i%20)*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "PUT", base+path+"/submissions/gone"+strconv.Itoa(i),
				strings.NewReader(`{"value": 1}`))
			req.Header.Set("Content-Type", "application/json")
			if resp, err := c.HTTP.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	for i := range after {
		id := "stays" + strconv.Itoa(i)
		if r, err := c.Answer(path+"/submissions/"+id, map[string]float64{"value": 2}); err != nil || r.Status != 200 {
			t.Errorf("answer after %d abandoned requests: %v %+v", abandoned, err, r)
		}
	}
	r, err := c.Do("GET", path, "", nil)
	if err != nil || r.Status != 200 {
		t.Fatalf("poll after %d abandoned requests: %v %+v", abandoned, err, r)
	}
	if n := int(r.JSON["participants"].(float64)); n < after || n > after+abandoned {
		t.Errorf("%d participants after %d abandoned and %d answered", n, abandoned, after)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestLectureHall is a lecture hall of 1,000 phones pressing "Send" together,
// 200 requests in flight at once: first against `dpplay serve` on
// SQLite, then against the worker in workerd on D1, in the same run so that
// `make bench` prints their figures side by side. On both, no request fails,
// the participant count equals the acknowledged answers, and a release right
// after the burst is drawn from all of them.
func TestLectureHall(t *testing.T) {
	requireE2E(t)
	t.Run("serve", func(t *testing.T) {
		s := startServe(t, filepath.Join(t.TempDir(), "hall.db"), staticDir(t), "")
		testHall(t, lecturetest.NewClient(s.url))
	})
	t.Run("worker", func(t *testing.T) {
		w := startWorker(t, "JOIN_LIMIT:0", "WRITE_RATE:0")
		before := workerdMemory(t, w)
		testHall(t, w.client())
		after := workerdMemory(t, w)
		t.Logf("load: %s: workerd resident memory %.0f MB before the burst, %.0f MB after, peak %.0f MB%s",
			t.Name(), before.rss, after.rss, after.peak, goMemory(w.logText(t)))
	})
}

func testHall(t *testing.T, c *lecturetest.Client) {
	const students, inFlight = 1000, 200
	sess := c.NewSession(t, 0)
	path := c.NewActivity(t, sess, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 3}})
	var mu sync.Mutex
	acked := map[string]bool{}
	id := func(i, k int) string { return "phone" + strconv.Itoa(i) }
	value := func(i, k int) float64 { return float64(i%4) + 0.5 }
	res := lecturetest.Load(c, path, students, 1, 0, inFlight, id, value, func(i, k int) {
		mu.Lock()
		acked[id(i, k)] = true
		mu.Unlock()
	}, nil)
	t.Logf("load: %s, %d in flight: %s", t.Name(), inFlight, res)
	if res.Failed != 0 || res.PollFail != 0 || res.Acked != students {
		t.Errorf("%d of %d submissions and %d polls failed", res.Failed, students, res.PollFail)
	}
	r, err := c.Do("GET", path, "", nil)
	if err != nil || r.Status != 200 {
		t.Fatalf("activity after the burst: %v %+v", err, r)
	}
	if n := int(r.JSON["participants"].(float64)); n != len(acked) {
		t.Errorf("%d participants after the burst, %d answers acknowledged", n, len(acked))
	}
	r, err = c.Do("POST", path+"/releases", sess.Token, map[string]float64{"epsilon": 0.5})
	if err != nil || r.Status != 201 {
		t.Fatalf("release after the burst: %v %+v", err, r)
	}
	if n := int(r.JSON["participants"].(float64)); n != len(acked) {
		t.Errorf("release drawn from %d answers, %d acknowledged", n, len(acked))
	}
}

// procMemory is a process's resident memory now and at its peak, in MB.
type procMemory struct{ rss, peak float64 }

// workerdMemory reads VmRSS and VmHWM from /proc (Linux only; zero
// elsewhere) for the workerd process that runs the worker.
func workerdMemory(t *testing.T, w *workerDev) procMemory {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(d + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "workerd" {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		if g, err := syscall.Getpgid(pid); err != nil || g != w.pgid {
			continue
		}
		status, err := os.ReadFile(d + "/status")
		if err != nil {
			continue
		}
		var m procMemory
		for _, line := range strings.Split(string(status), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			kb, _ := strconv.ParseFloat(f[1], 64)
			switch f[0] {
			case "VmRSS:":
				m.rss = kb / 1024
			case "VmHWM:":
				m.peak = kb / 1024
			}
		}
		return m
	}
	t.Logf("no workerd process of the worker found in process group %d", w.pgid)
	return procMemory{}
}

// goMemory reports the largest Go linear memory that the worker's entry
// module logged ("dpplay worker: Go memory N MB"), or "" if it logged none.
func goMemory(log string) string {
	best := 0.0
	for _, line := range strings.Split(log, "\n") {
		_, rest, ok := strings.Cut(line, "dpplay worker: Go memory ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) > 0 {
			if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > best {
				best = v
			}
		}
	}
	if best == 0 {
		return ""
	}
	return fmt.Sprintf("; Go linear memory %.0f MB", best)
}

// testExpire: the worker's scheduled handler deletes sessions that have
// seen nothing for SESSION_TTL and keeps the others. The worker of this test
// keeps them workerSessionTTL; idle is a session nothing has touched since
// idleSince; dev.mjs runs the handler on SIGUSR2.
func testExpire(t *testing.T, w *workerDev, idle lecturetest.Session, idleSince time.Time) {
	c := w.client()
	// The handler runs once idle has been idle past the TTL (and a second,
	// since the worker keeps its times in whole seconds).
	time.Sleep(time.Until(idleSince.Add(workerSessionTTL + time.Second)))
	made := time.Now()
	fresh := c.NewSession(t, 0)
	if err := syscall.Kill(w.pgid, syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := c.Do("GET", "/api/sessions/"+idle.Code, "", nil)
		if err == nil && r.Status == 404 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a session idle past SESSION_TTL is still there after the scheduled handler: %v %+v", err, r)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if r, err := c.Do("GET", "/api/sessions/"+fresh.Code, "", nil); err != nil || r.Status != 200 {
		t.Errorf("a session made %v before the scheduled handler ended (TTL %v): %v %+v", time.Since(made).Round(time.Millisecond), workerSessionTTL, err, r)
	}
	t.Logf("idle session checked %v after it was made", time.Since(idleSince).Round(time.Second))
}
