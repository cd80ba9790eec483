package lecture_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/lecturetest"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

// server runs the handler over a fresh SQLite file. The tests that start
// one run in parallel: each commit waits for its file's fsync, and the
// waits of different files overlap.
func server(t testing.TB, opts lecture.Options) (*httptest.Server, *lecturetest.Client) {
	t.Helper()
	db, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "lecture.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if opts.Logf == nil {
		opts.Logf = t.Logf
	}
	// A burst of answers waits for the class's writers as long as it
	// needs: on a loaded machine, ClassWait's refusals would be counted as
	// the refusals a test looks for.
	opts.ClassWait = cmp.Or(opts.ClassWait, time.Minute)
	h, err := lecture.New(db.Write, db.Options(opts))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, lecturetest.NewClient(srv.URL)
}

func serverB(b *testing.B) (*httptest.Server, *lecturetest.Client) {
	return server(b, lecture.Options{Logf: b.Logf})
}

func TestAPI(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, lecture.Options{})
	lecturetest.Run(t, srv.URL, nil)
}

// The suite against a handler that holds an instructor key, takes every
// client for another machine and answers only to its own host.
func TestAPIWithKeyAndHost(t *testing.T) {
	t.Parallel()
	var host string
	srv, _ := server(t, lecture.Options{CreateKey: "k3y", Host: func(h string) bool { return h == host }})
	host = strings.TrimPrefix(srv.URL, "http://")
	lecturetest.Run(t, srv.URL, func(c *lecturetest.Client) { c.Key, c.Remote, c.HostChecked = "k3y", true, true })
}

// lockedSource makes a seeded ChaCha8 stream safe for concurrent requests.
type lockedSource struct {
	mu  sync.Mutex
	src mrand.Source
}

func (s *lockedSource) Uint64() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.src.Uint64()
}

func seeded(seed uint64) mrand.Source { return &lockedSource{src: rng.NewSeededSource(seed)} }

// releases creates sessions (each with the largest budget) holding the same
// activity and answers, and draws n releases at ε through the API.
func releases(t *testing.T, c *lecturetest.Client, spec any, answers []any, eps float64, n int) []map[string]any {
	t.Helper()
	var out []map[string]any
	for len(out) < n {
		s := c.NewSession(t, lecture.MaxBudget)
		a := c.NewActivity(t, s, spec)
		for i, ans := range answers {
			if r, err := c.Do("PUT", fmt.Sprintf("%s/submissions/s%d", a, i), "", ans); err != nil || r.Status != 200 {
				t.Fatalf("submit: %v %+v", err, r)
			}
		}
		for k := 0; k < int(lecture.MaxBudget/eps+1e-9) && len(out) < n; k++ {
			r, err := c.Do("POST", a+"/releases", s.Token, map[string]float64{"epsilon": eps})
			if err != nil || r.Status != 201 {
				t.Fatalf("release: %v %+v", err, r)
			}
			out = append(out, r.JSON["result"].(map[string]any))
		}
	}
	return out
}

// The selection activities' releases must follow the exponential mechanism's
// exact probabilities. The scores are counted here from the answers, not
// taken from the server, so a server that scored wrongly, or used the wrong ε
// or Δ, fails. Threshold 1e-6: a correct server fails once in a million runs.
func TestReleasesFollowTheirMechanisms(t *testing.T) {
	t.Parallel()
	const alpha = 1e-6
	// followsChiSquare fails the test when counts are not a plausible sample
	// of probs by Pearson's chi-square at level alpha.
	followsChiSquare := func(t *testing.T, name string, counts []int, probs []float64) {
		t.Helper()
		res, err := stats.ChiSquare(counts, probs)
		if err != nil {
			t.Fatal(err)
		}
		if res.PValue < alpha {
			t.Errorf("%s counts %v vs probabilities %v: p = %g", name, counts, probs, res.PValue)
		}
	}
	// Each activity draws on a server of its own, seeded apart, so that
	// the three run in parallel and each one's draws stay the same.
	client := func(t *testing.T, seed uint64) *lecturetest.Client {
		_, c := server(t, lecture.Options{Source: seeded(seed)})
		return c
	}

	t.Run("meeting-day", func(t *testing.T) {
		t.Parallel()
		c := client(t, 7)
		// Availability counts 5, 3, 0, 1 with Δ = 1.
		var answers []any
		for _, av := range [][]int{{0, 1}, {0, 1}, {0, 1}, {0}, {0, 3}, {}} {
			answers = append(answers, map[string]any{"available": av})
		}
		spec := map[string]any{"kind": "meeting-day", "options": []string{"Mon", "Tue", "Wed", "Thu"}}
		const eps, n = 1, 600
		m, err := mech.NewExponential(mech.Config{Scores: []float64{5, 3, 0, 1}, Epsilon: eps, Sensitivity: 1})
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int, 4)
		for _, r := range releases(t, c, spec, answers, eps, n) {
			counts[int(r["choice"].(float64))]++
		}
		followsChiSquare(t, "meeting-day", counts, m.Probabilities())
	})

	t.Run("pricing", func(t *testing.T) {
		t.Parallel()
		c := client(t, 8)
		prices := []float64{1, 2, 3, 4, 4.01, 5}
		values := []float64{1, 1, 1, 4.01}
		var answers []any
		for _, v := range values {
			answers = append(answers, map[string]any{"value": v})
		}
		// Revenue p·#{v ≥ p}, Δ = the top price.
		scores := make([]float64, len(prices))
		for j, p := range prices {
			for _, v := range values {
				if v >= p {
					scores[j] += p
				}
			}
		}
		const eps, n = 2, 500
		m, err := mech.NewExponential(mech.Config{Scores: scores, Epsilon: eps, Sensitivity: 5})
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int, len(prices))
		for _, r := range releases(t, c, map[string]any{"kind": "pricing", "prices": prices}, answers, eps, n) {
			p := r["price"].(float64)
			found := false
			for j, q := range prices {
				if q == p {
					counts[j]++
					found = true
				}
			}
			if !found {
				t.Fatalf("price %v is off the grid", p)
			}
		}
		followsChiSquare(t, "pricing", counts, m.Probabilities())
	})

	t.Run("histogram", func(t *testing.T) {
		t.Parallel()
		c := client(t, 9)
		// Values in bins of [0, 10) by 2: counts 2, 1, 0, 0, 3.
		values := []float64{0, 1.5, 2, 8, 9.99, 10}
		truth := []float64{2, 1, 0, 0, 3}
		var answers []any
		for _, v := range values {
			answers = append(answers, map[string]any{"value": v})
		}
		spec := map[string]any{"kind": "histogram", "min": 0, "max": 10, "bins": 5}
		const eps, n = 0.5, 300
		var noise []int64
		for _, r := range releases(t, c, spec, answers, eps, n) {
			for i, x := range r["counts"].([]any) {
				y := x.(float64)
				if y != math.Trunc(y) {
					t.Fatalf("noisy count %v is not an integer", y)
				}
				noise = append(noise, int64(y-truth[i]))
			}
		}
		// What the mechanism promises: Δ = 2 (one student's answer
		// changes), so discrete Laplace noise of scale 2/ε = 4.
		m, err := mech.NewDiscreteLaplace(0, lecture.HistogramSensitivity, eps)
		if err != nil || m.Scale() != 4 {
			t.Fatal(m, err)
		}
		res, err := discreteLaplaceFit(noise, m)
		if err != nil {
			t.Fatal(err)
		}
		if res.PValue < alpha {
			t.Errorf("histogram noise vs discrete Laplace of scale %g: chi-square %g on %d df, p = %g over %d draws",
				m.Scale(), res.Statistic, res.DF, res.PValue, len(noise))
		}
	})
}

// discreteLaplaceFit tests integer noise draws against the exact pmf of m
// (built with true value 0) by Pearson's chi-square: one cell per integer in
// [−k, k] and one per tail, the tails summed in closed form from the same
// pmf. stats.ChiSquare pools the cells expecting fewer than 5 draws, so the
// test is valid for any scale. A correct sampler fails at level α with
// probability α.
func discreteLaplaceFit(noise []int64, m *mech.DiscreteLaplace) (stats.Result, error) {
	const k = 80
	counts := make([]int, 2*k+3) // y < −k, then −k … k, then y > k
	probs := make([]float64, len(counts))
	for _, y := range noise {
		counts[min(max(y+k+1, 0), 2*k+2)]++
	}
	for y := int64(-k); y <= k; y++ {
		probs[y+k+1] = math.Exp(m.LogPMF(y))
	}
	// Pr[Y > k] = Σ_{y>k} p(y) = p(k+1)/(1 − e^(−1/σ)); Y is symmetric.
	tail := math.Exp(m.LogPMF(k+1)) / -math.Expm1(-1/m.Scale())
	probs[0], probs[2*k+2] = tail, tail
	return stats.ChiSquare(counts, probs)
}

// The same tests must reject a mechanism run with the wrong parameters;
// otherwise they could not fail. Here the "server" is simulated by drawing
// from the wrong mechanism with the same sample sizes.
func TestMechanismTestsHavePower(t *testing.T) {
	r := rng.Seeded(11)
	selection := []struct {
		name         string
		scores       []float64
		eps, Δ, badΔ float64
		n            int
	}{
		{"meeting-day with Δ = 2", []float64{5, 3, 0, 1}, 1, 1, 2, 600},
		{"pricing with Δ = 1", []float64{4, 2, 3, 4, 4.01, 0}, 2, 5, 1, 500},
	}
	for _, tc := range selection {
		right, err1 := mech.NewExponential(mech.Config{Scores: tc.scores, Epsilon: tc.eps, Sensitivity: tc.Δ})
		wrong, err2 := mech.NewExponential(mech.Config{Scores: tc.scores, Epsilon: tc.eps, Sensitivity: tc.badΔ})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		counts := make([]int, len(tc.scores))
		for range tc.n {
			counts[wrong.Sample(r)]++
		}
		if res, _ := stats.ChiSquare(counts, right.Probabilities()); res.PValue >= 1e-6 {
			t.Errorf("%s passes the chi-square test (p = %g)", tc.name, res.PValue)
		}
	}
	// The histogram's test against noise of the wrong scale: Δ = 1 (the
	// present/absent neighbour notion, scale 1/ε) and a scale 30% short.
	right, _ := mech.NewDiscreteLaplace(0, 2, 0.5)
	for _, tc := range []struct {
		name string
		eps  float64 // with Δ = 2
	}{{"Δ = 1 instead of 2", 1}, {"scale 0.7·2/ε", 0.5 / 0.7}} {
		wrong, _ := mech.NewDiscreteLaplace(0, 2, tc.eps)
		noise := make([]int64, 1500)
		for i := range noise {
			noise[i] = wrong.Sample(r)
		}
		if res, err := discreteLaplaceFit(noise, right); err != nil || res.PValue >= 1e-6 {
			t.Errorf("histogram with %s passes the chi-square test (p = %g, %v)", tc.name, res.PValue, err)
		}
	}
}

// guessServer runs a server whose client address is the X-Test-IP header
// and whose clock the test moves; get requests a session from an address.
type guessServer struct {
	c   *lecturetest.Client
	url string
	mu  sync.Mutex
	now time.Time
}

func newGuessServer(t *testing.T, limit int) *guessServer {
	return newGuessServerAt(t, limit, time.Unix(1_800_000_000, 0))
}

func newGuessServerAt(t *testing.T, limit int, now time.Time) *guessServer {
	g := &guessServer{now: now}
	srv, c := server(t, lecture.Options{
		GuessLimit: limit,
		ClientIP:   func(r *http.Request) string { return r.Header.Get("X-Test-IP") },
		Now: func() time.Time {
			g.mu.Lock()
			defer g.mu.Unlock()
			return g.now
		},
	})
	g.c, g.url = c, srv.URL
	return g
}

func (g *guessServer) advance(d time.Duration) {
	g.mu.Lock()
	g.now = g.now.Add(d)
	g.mu.Unlock()
}

func (g *guessServer) since(t0 time.Time) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.now.Sub(t0)
}

func (g *guessServer) get(t *testing.T, ip, code string) int {
	return g.c.GetStatus(t, "/api/sessions/"+code, "X-Test-IP", ip)
}

// send sends method path from the address ip, with a JSON body unless body
// is empty and the instructor's token unless token is, and returns the
// reply, its body closed.
func (g *guessServer) send(t *testing.T, method, path, ip, token, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, g.url+path, strings.NewReader(body))
	req.Header.Set("X-Test-IP", ip)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := g.c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// Wrong join codes are limited per address, and the limit only ever refuses
// wrong codes: past it, a request naming a session that exists (a student
// who never joined before, or the instructor with the token) is answered as
// usual, so a prankster flooding wrong codes from a campus NAT cannot lock
// the class or its instructor out (docs/security.md).
func TestGuessLimit(t *testing.T) {
	t.Parallel()
	g := newGuessServer(t, 20)
	joined, other := g.c.NewSession(t, 0), g.c.NewSession(t, 0)
	for i := range 20 {
		if st := g.get(t, "10.0.0.1", fmt.Sprintf("ZZZZZZ%02d", i)); st != 404 {
			t.Fatalf("guess %d: status %d, want 404", i, st)
		}
		if st := g.get(t, "10.0.0.1", joined.Code); st != 200 {
			t.Fatalf("right code after %d wrong guesses: status %d", i+1, st)
		}
	}
	for _, tc := range []struct {
		ip, code, what string
		want           int
	}{
		{"10.0.0.1", "ZZZZZZZZ", "a wrong guess over the limit", 429},
		{"10.0.0.1", "ZZZZ-ZZ", "a malformed code (never counted)", 404},
		{"10.0.0.1", other.Code, "a right code this address never used", 200},
		{"10.0.0.1", joined.Code, "the session this address joined", 200},
		{"10.0.0.2", "ZZZZZZZY", "another address's wrong guess", 404},
	} {
		if st := g.get(t, tc.ip, tc.code); st != tc.want {
			t.Errorf("%s: status %d, want %d", tc.what, st, tc.want)
		}
	}
	// The instructor behind the flooded address still runs the session, and
	// a student there still answers.
	send := func(method, path, token, body string) int {
		return g.send(t, method, path, "10.0.0.1", token, body).StatusCode
	}
	if st := send("POST", "/api/sessions/"+other.Code+"/activities", other.Token, `{"kind": "meeting-day", "options": ["A", "B"]}`); st != 201 {
		t.Errorf("instructor's new activity from the flooded address: status %d, want 201", st)
	}
	if st := send("PUT", "/api/sessions/"+other.Code+"/activities/1/submissions/fresh", "", `{"available": [1]}`); st != 200 {
		t.Errorf("a new student's answer from the flooded address: status %d, want 200", st)
	}
	// IPv6 hosts in one /48 share a count, even each from its own /64.
	for i := range 21 {
		g.get(t, fmt.Sprintf("2001:db8:0:%x::1", i+1), "ZZZZZZZZ")
	}
	if st := g.get(t, "2001:db8:0:ffff::1", "ZZZZZZZX"); st != 429 {
		t.Errorf("fresh /64 in a limited /48: status %d, want 429", st)
	}
	if st := g.get(t, "2001:db8:0:ffff::1", other.Code); st != 200 {
		t.Errorf("right code from a limited /48: status %d, want 200", st)
	}
	if st := g.get(t, "2001:db8:1::1", "ZZZZZZZX"); st != 404 {
		t.Errorf("wrong code from another /48: status %d, want 404", st)
	}
	// A new window starts a new count.
	g.advance(lecture.GuessWindow)
	if st := g.get(t, "10.0.0.1", "ZZZZZZZZ"); st != 404 {
		t.Errorf("after the window: status %d, want 404", st)
	}
}

// Concurrent wrong guesses from one address must not get past the limit
// together: each is decided by the count its own increment returned. The
// class that joined from the same address keeps polling throughout.
func TestConcurrentGuesses(t *testing.T) {
	t.Parallel()
	const limit, guesses, polls = 20, 200, 100
	g := newGuessServer(t, limit)
	s := g.c.NewSession(t, 0)
	if st := g.get(t, "10.0.0.7", s.Code); st != 200 {
		t.Fatalf("join: status %d", st)
	}
	statuses := lecturetest.Burst(guesses+polls, func(i int) int {
		if i < guesses {
			return g.get(t, "10.0.0.7", fmt.Sprintf("ZZZZZ%03d", i))
		}
		return g.get(t, "10.0.0.7", s.Code)
	})
	n := lecturetest.Tally(statuses[:guesses])
	if n[404] != limit || n[429] != guesses-limit {
		t.Errorf("%d concurrent wrong guesses with a limit of %d: %v, want %d × 404 and the rest 429", guesses, limit, n, limit)
	}
	for _, st := range statuses[guesses:] {
		if st != 200 {
			t.Errorf("a joined student's poll during the flood: status %d, want 200", st)
		}
	}
}

func TestCreateLimit(t *testing.T) {
	t.Parallel()
	_, c := server(t, lecture.Options{CreateLimit: 3})
	for range 3 {
		c.NewSession(t, 0)
	}
	r, err := c.Do("POST", "/api/sessions", "", nil)
	if err != nil || r.Status != http.StatusTooManyRequests {
		t.Errorf("fourth session from one address: %v %+v", err, r)
	}
}

// A class of 500 behind one NAT address, each student mistyping the code
// twice before getting it right (1,000 wrong codes in a few seconds), all
// get in under the default limits within two minutes, though they arrive
// at once at the end of a join window, although new students per address
// are limited. A phone refused with 429 sends again after Retry-After, as
// the page does; the clock is the test's.
func TestClassBehindNAT(t *testing.T) {
	t.Parallel()
	start := time.Unix(1_800_000_000-1_800_000_000%60+59, 0) // one second before a window ends
	g := newGuessServerAt(t, 0, start)
	c := g.c
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	const students = 500
	in := make([]bool, students)
	for wave := 0; ; wave++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var retry int
		errs := make(chan error, students)
		sem := make(chan struct{}, 50)
		for i := range students {
			if in[i] {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
				for typo := range 2 {
					code := []byte(s.Code)
					pos := (i + typo) % 8
					for k := i/8 + typo; code[pos] == s.Code[pos]; k++ {
						code[pos] = alphabet[k%32]
					}
					if st := g.get(t, "10.9.9.9", string(code)); st != 404 {
						errs <- fmt.Errorf("typo %s: status %d", code, st)
						return
					}
				}
				h := http.Header{"Content-Type": {"application/json"}, "X-Test-IP": {"10.9.9.9"}}
				r, err := c.DoHeader("PUT", fmt.Sprintf("%s/submissions/st%d", a, i), "", map[string]any{"available": []int{i % 2}}, h)
				switch {
				case err == nil && r.Status == 200:
					mu.Lock()
					in[i] = true
					mu.Unlock()
				case err == nil && r.Status == 429:
					mu.Lock()
					retry = max(retry, 1)
					mu.Unlock()
				default:
					errs <- fmt.Errorf("student %d: %v %+v", i, err, r)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if retry == 0 {
			break
		}
		g.advance(5 * time.Second) // Retry-After
		if g.since(start) > 2*time.Minute {
			t.Fatalf("after two minutes, students still refused")
		}
	}
	r, _ := c.Do("GET", a, "", nil)
	if n := r.JSON["participants"].(float64); n != students {
		t.Errorf("participants %v, want %d", n, students)
	}
	t.Logf("500 students from one address all in after %v", g.since(start))
}

// A script inventing ids from one address cannot fill the roster: it adds
// at most JoinLimit students a minute; the rest get 429 with Retry-After,
// and another address is not held back.
func TestJoinLimit(t *testing.T) {
	t.Parallel()
	g := newGuessServerAt(t, 0, time.Unix(1_800_000_000, 0))
	s := g.c.NewSession(t, 0)
	a := g.c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	put := func(ip, id string) *lecturetest.Response {
		h := http.Header{"Content-Type": {"application/json"}, "X-Test-IP": {ip}}
		r, err := g.c.DoHeader("PUT", a+"/submissions/"+id, "", map[string]any{"available": []int{1}}, h)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	statuses := lecturetest.Burst(lecture.JoinLimit+50, func(i int) int { return put("10.1.1.1", fmt.Sprintf("fake%d", i)).Status })
	got := lecturetest.Tally(statuses)
	if got[200] != lecture.JoinLimit || got[429] != 50 {
		t.Errorf("%d new ids from one address in a minute: %v, want %d admitted", lecture.JoinLimit+50, got, lecture.JoinLimit)
	}
	if r := put("10.2.2.2", "real"); r.Status != 200 {
		t.Errorf("a student at another address: %+v", r)
	}
	if r := put("10.1.1.1", fmt.Sprintf("fake%d", slices.Index(statuses, 200))); r.Status != 200 {
		t.Errorf("a student already on the roster answering again: %+v", r)
	}
	m := g.c.Must(t, 200, "GET", "/api/sessions/"+s.Code, "", nil)
	if m["joined"] != float64(lecture.JoinLimit+1) || m["addresses"] != 2.0 {
		t.Errorf("joined %v from %v addresses, want %d from 2", m["joined"], m["addresses"], lecture.JoinLimit+1)
	}
	g.advance(lecture.JoinWindow)
	if r := put("10.1.1.1", "later"); r.Status != 200 {
		t.Errorf("a new id from the address a window later: %+v", r)
	}
}

func TestNormalizeCode(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"ABCD-EFGH", "ABCDEFGH", true},
		{"abcd efgh", "ABCDEFGH", true},
		{"oIlL-0000", "0111" + "0000", true},
		{"ABCDEFG", "", false},
		{"ABCDEFGHJ", "", false},
		{"ABCD-EFGU", "", false},
		{"ABCD/EFGH", "", false},
	}
	for _, tc := range tests {
		got, ok := lecture.NormalizeCode(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NormalizeCode(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestClientKey(t *testing.T) {
	tests := map[string]string{
		"192.0.2.7":            "192.0.2.7",
		"::ffff:192.0.2.7":     "192.0.2.7",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1::/48",
		"2001:db8:1:ffff::9":   "2001:db8:1::/48",
		"fe80::1%eth0":         "fe80::/48",
		"::ffff:10.1.2.3":      "10.1.2.3",
		"not an address":       "unknown",
		"":                     "unknown",
	}
	for in, want := range tests {
		if got := lecture.ClientKey(in); got != want {
			t.Errorf("ClientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// With AllowOrigin set (as on Workers), a page on another origin can call
// the API: preflights succeed and replies carry the CORS header. Without it
// (dpplay serve, same origin) no CORS header is sent.
func TestCORS(t *testing.T) {
	t.Parallel()
	for _, origin := range []string{"", "https://example.github.io"} {
		srv, _ := server(t, lecture.Options{AllowOrigin: origin})
		req, _ := http.NewRequest("OPTIONS", srv.URL+"/api/sessions/ABCD-EFGH/activities/1/submissions/x", nil)
		req.Header.Set("Origin", "https://example.github.io")
		req.Header.Set("Access-Control-Request-Method", "PUT")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got := resp.Header.Get("Access-Control-Allow-Origin")
		if origin == "" && (got != "" || resp.StatusCode != http.StatusMethodNotAllowed) {
			t.Errorf("no AllowOrigin: preflight %d with Allow-Origin %q", resp.StatusCode, got)
		}
		if origin != "" && (got != origin || resp.StatusCode != http.StatusNoContent ||
			!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization")) {
			t.Errorf("AllowOrigin %q: preflight %d, headers %v", origin, resp.StatusCode, resp.Header)
		}
	}
}

// By default the rate limit keys on the TCP peer: headers that name another
// client (X-Forwarded-For, X-Real-IP, Forwarded, CF-Connecting-IP) are the
// client's own text, and trusting them would give each request a fresh count.
func TestClientAddressIgnoresForwardingHeaders(t *testing.T) {
	t.Parallel()
	srv, _ := server(t, lecture.Options{GuessLimit: 3})
	last := 0
	for i := range 6 {
		req, _ := http.NewRequest("GET", srv.URL+"/api/sessions/ZZZZZZZZ", nil)
		ip := fmt.Sprintf("198.51.100.%d", i+1)
		req.Header.Set("X-Forwarded-For", ip)
		req.Header.Set("X-Real-IP", ip)
		req.Header.Set("Forwarded", "for="+ip)
		req.Header.Set("CF-Connecting-IP", ip)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		last = resp.StatusCode
	}
	if last != http.StatusTooManyRequests {
		t.Errorf("6th wrong code from one peer naming 6 addresses in headers: status %d, want 429", last)
	}
}

// Releases of the smallest ε leave the budget almost whole, so the number
// of releases is capped on its own.
func TestReleasesAreCapped(t *testing.T) {
	t.Parallel()
	_, c := server(t, lecture.Options{MaxReleases: 5})
	s := c.NewSession(t, 1)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	if r, err := c.Do("PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}}); err != nil || r.Status != 200 {
		t.Fatalf("answer: %v %+v", err, r)
	}
	for k := range 7 {
		r, err := c.Do("POST", a+"/releases", s.Token, map[string]any{"epsilon": lecture.EpsilonUnit})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 201, false: 409}[k < 5]; r.Status != want {
			t.Errorf("release %d at ε = 1e-6: status %d, want %d (%s)", k+1, r.Status, want, r.Raw)
		}
	}
	r, err := c.Do("GET", a, "", nil)
	if err != nil || len(r.JSON["releases"].([]any)) != 5 {
		t.Errorf("after the cap: %v %d releases", err, len(r.JSON["releases"].([]any)))
	}
}

// A session at its cap of answers refuses a new one with a reason the
// instructor's view can act on, keeps taking changed answers, and says in
// its poll how many answers it holds of how many; pruning makes room.
func TestAnswersAreCapped(t *testing.T) {
	t.Parallel()
	_, c := server(t, lecture.Options{MaxAnswers: 3})
	s := c.NewSession(t, 1)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	for _, who := range []string{"x", "y", "z"} {
		c.Must(t, 200, "PUT", a+"/submissions/"+who, "", map[string]any{"available": []int{1}})
	}
	r, err := c.Do("PUT", a+"/submissions/w", "", map[string]any{"available": []int{1}})
	if err != nil || r.Status != 409 || !strings.Contains(r.Raw, "holds as many answers as one session keeps") {
		t.Errorf("a fourth answer to a session keeping 3: %v %+v", err, r)
	}
	c.Must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{0}})
	if m := c.Must(t, 200, "GET", "/api/sessions/"+s.Code, "", nil); m["answers"] != 3.0 || m["max_answers"] != 3.0 {
		t.Errorf("the full session says it holds %v of %v answers, want 3 of 3", m["answers"], m["max_answers"])
	}
	c.Must(t, 200, "POST", a+"/close", s.Token, nil)
	b := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.Must(t, 409, "PUT", b+"/submissions/x", "", map[string]any{"available": []int{1}})
	if p := c.Must(t, 200, "POST", "/api/sessions/"+s.Code+"/prune", s.Token, nil); p["removed"] != 3.0 || p["answers"] != 0.0 {
		t.Errorf("prune of a full session: %v, want 3 removed and 0 answers", p)
	}
	c.Must(t, 200, "PUT", b+"/submissions/x", "", map[string]any{"available": []int{1}})
}

// One client polling a large session cannot slow every class:
// unauthenticated reads are limited per address, by the size of what they
// fetch; past the limit a read gets 429 with
// Retry-After, unless it carries the session's instructor token; another
// address is not held back.
func TestReadLimit(t *testing.T) {
	t.Parallel()
	g := &guessServer{now: time.Unix(1_800_000_000, 0)}
	srv, c := server(t, lecture.Options{
		ReadRate: 10,
		ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-IP") },
		Now:      func() time.Time { g.mu.Lock(); defer g.mu.Unlock(); return g.now },
	})
	g.c, g.url = c, srv.URL
	s := c.NewSession(t, 0)
	get := func(ip, token string) (int, string) {
		resp := g.send(t, "GET", "/api/sessions/"+s.Code, ip, token, "")
		return resp.StatusCode, resp.Header.Get("Retry-After")
	}
	got := map[int]int{}
	for range 30 {
		st, _ := get("10.0.0.1", "")
		got[st]++
	}
	if got[200] != 20 || got[429] != 10 {
		t.Errorf("30 reads at once against a burst of 20: %v", got)
	}
	if st, retry := get("10.0.0.1", ""); st != 429 || retry != "1" {
		t.Errorf("a read past the limit: %d, Retry-After %q", st, retry)
	}
	if st, _ := get("10.0.0.1", s.Token); st != 200 {
		t.Errorf("the instructor's read past the limit: %d", st)
	}
	if st, _ := get("10.0.0.1", "AAAAAAAAAAAAAAAAAAAAAA"); st != 429 {
		t.Errorf("a read past the limit with a made-up token: %d", st)
	}
	if st, _ := get("10.0.0.2", ""); st != 200 {
		t.Errorf("another address: %d", st)
	}
	g.advance(time.Second)
	if st, _ := get("10.0.0.1", ""); st != 200 {
		t.Errorf("a second later: %d", st)
	}
}

// Storage does not grow without end: a session that has seen nothing for
// the TTL is deleted with all it holds; one in use is kept.
func TestExpire(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	db, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err := lecture.New(db.Write, db.Options(lecture.Options{Now: clock, SessionTTL: 24 * time.Hour, Logf: t.Logf}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := lecturetest.NewClient(srv.URL)
	old, used := c.NewSession(t, 0), c.NewSession(t, 0)
	a := c.NewActivity(t, old, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.Must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	b := c.NewActivity(t, used, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	mu.Lock()
	now = now.Add(20 * time.Hour)
	mu.Unlock()
	c.Must(t, 200, "PUT", b+"/submissions/x", "", map[string]any{"available": []int{1}})
	mu.Lock()
	now = now.Add(5 * time.Hour)
	mu.Unlock()
	if n, err := h.Expire(context.Background()); err != nil || n != 1 {
		t.Fatalf("Expire: %d, %v; want 1", n, err)
	}
	c.Must(t, 404, "GET", "/api/sessions/"+old.Code, "", nil)
	c.Must(t, 200, "GET", "/api/sessions/"+used.Code, "", nil)
	var left int
	if err := db.Read.QueryRow(`SELECT (SELECT COUNT(*) FROM submissions WHERE session = ?) + (SELECT COUNT(*) FROM students WHERE session = ?) + (SELECT COUNT(*) FROM activities WHERE session = ?)`,
		old.Code, old.Code, old.Code).Scan(&left); err != nil || left != 0 {
		t.Errorf("rows of the expired session left: %d %v", left, err)
	}
}

// Requests a hostile page makes a visitor's browser send (an <img>, a fetch from another origin) are refused without
// counting as wrong codes for the visitor's address.
func TestHostilePageGuessesDoNotCount(t *testing.T) {
	t.Parallel()
	g := newGuessServer(t, 5)
	send := func(kv ...string) int {
		req, _ := http.NewRequest("GET", g.url+"/api/sessions/ZZZZZZZZ", nil)
		req.Header.Set("X-Test-IP", "10.0.0.9")
		for i := 0; i < len(kv); i += 2 {
			req.Header.Set(kv[i], kv[i+1])
		}
		resp, err := g.c.HTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for range 20 {
		if st := send("Sec-Fetch-Dest", "image", "Sec-Fetch-Site", "cross-site"); st != 404 {
			t.Fatalf("an <img> wrong code: %d", st)
		}
		if st := send("Origin", "https://evil.example", "Sec-Fetch-Dest", "empty"); st != 404 {
			t.Fatalf("a cross-origin fetch of a wrong code: %d", st)
		}
	}
	got := map[int]int{}
	for range 8 {
		got[send()]++
	}
	if got[404] != 5 || got[429] != 3 {
		t.Errorf("wrong codes of the address's own after 40 from a hostile page: %v, want the whole allowance of 5", got)
	}
}
