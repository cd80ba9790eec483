package lecturetest

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Markers are submitted values distinctive enough that finding one in a
// response body (or a server's log) can only mean the server echoed a
// submission.
var Markers = []string{"3.14159271", "4.01234567", "77.7777771", "918273.645", "secret-93817"}

// Leaks returns the markers found in text.
func Leaks(text string) []string {
	var found []string
	for _, m := range Markers {
		if strings.Contains(text, m) {
			found = append(found, m)
		}
	}
	return found
}

// Run is the API suite. It creates its own sessions, so it can run against a
// server that already holds data. setup, if not nil, fills in the client's
// Key, Remote and HostChecked for the server under test.
func Run(t *testing.T, base string, setup func(*Client)) {
	c := NewClient(base)
	if setup != nil {
		setup(c)
	}
	t.Run("session", func(t *testing.T) { testSession(t, c) })
	t.Run("meeting-day", func(t *testing.T) { testMeetingDay(t, c) })
	t.Run("histogram", func(t *testing.T) { testHistogram(t, c) })
	t.Run("pricing", func(t *testing.T) { testPricing(t, c) })
	t.Run("budget", func(t *testing.T) { testBudget(t, c) })
	t.Run("epsilon-edges", func(t *testing.T) { testEpsilonEdges(t, c) })
	t.Run("concurrent", func(t *testing.T) { testConcurrent(t, c) })
	t.Run("repeated-release", func(t *testing.T) { testRepeatedRelease(t, c) })
	t.Run("close", func(t *testing.T) { testClose(t, c) })
	t.Run("bad-inputs", func(t *testing.T) { testBadInputs(t, c) })
	t.Run("roster", func(t *testing.T) { testRoster(t, c) })
	t.Run("roster-race", func(t *testing.T) { testRosterRace(t, c) })
	t.Run("door", func(t *testing.T) { testDoor(t, c) })
	t.Run("answer-limit", func(t *testing.T) { testAnswerLimit(t, c) })
	t.Run("cross-site", func(t *testing.T) { testCrossSite(t, c) })
	t.Run("lecture", func(t *testing.T) { testLecture(t, c) })
	t.Run("reopen", func(t *testing.T) { testReopen(t, c) })
	t.Run("ledger", func(t *testing.T) { testLedger(t, c) })
	t.Run("noise", func(t *testing.T) { testNoise(t, c) })
	t.Run("exact-budget", func(t *testing.T) { testExactBudget(t, c) })
	t.Run("strict-json", func(t *testing.T) { testStrictJSON(t, c) })
	t.Run("roster-recovery", func(t *testing.T) { testRosterRecovery(t, c) })
	t.Run("stuffed-roster", func(t *testing.T) { testStuffedRoster(t, c) })
	t.Run("conditional-poll", func(t *testing.T) { testConditionalPoll(t, c) })
	t.Run("typed-text", func(t *testing.T) { testTypedText(t, c) })
	t.Run("instructor-key", func(t *testing.T) { testInstructorKey(t, c) })
	t.Run("host", func(t *testing.T) { testHost(t, c) })
	t.Run("no-leaks", func(t *testing.T) { testNoLeaks(t, c) })
}

var codeRE = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{8}$`)
var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`) // 22 base64url symbols = 128 bits (+4 zero bits)

func testSession(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	if !codeRE.MatchString(s.Code) {
		t.Errorf("join code %q is not 8 Crockford base-32 symbols", s.Code)
	}
	if !tokenRE.MatchString(s.Token) {
		t.Errorf("instructor token %q is not 128 bits of base64url", s.Token)
	}
	other := c.NewSession(t, 0)
	if other.Code == s.Code || other.Token == s.Token {
		t.Errorf("two sessions share a code or token")
	}
	m := c.must(t, 200, "GET", "/api/sessions/"+s.Code, "", nil)
	if m["epsilon_budget"].(float64) <= 0 || m["epsilon_spent"].(float64) != 0 {
		t.Errorf("new session: %v", m)
	}
	if _, ok := m["instructor_token"]; ok {
		t.Errorf("GET session returns the instructor token")
	}
	// A code typed by a person: lower case, hyphenated.
	typed := strings.ToLower(s.Code[:4] + "-" + s.Code[4:])
	c.must(t, 200, "GET", "/api/sessions/"+typed, "", nil)
	b := c.NewSession(t, 1.5)
	if m := c.must(t, 200, "GET", "/api/sessions/"+b.Code, "", nil); m["epsilon_budget"].(float64) != 1.5 {
		t.Errorf("budget 1.5 stored as %v", m["epsilon_budget"])
	}
}

func activityState(t *testing.T, c *Client, path string) (participants int, releases int, spent float64) {
	t.Helper()
	m := c.must(t, 200, "GET", path, "", nil)
	rel, _ := m["releases"].([]any)
	return int(m["participants"].(float64)), len(rel), m["epsilon_spent"].(float64)
}

func testMeetingDay(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	days := []string{"Mon", "Tue", "Wed", "Thu", "Fri"}
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": days, "prompt": "When can you meet?"})
	answers := map[string][]int{"alice": {0, 2}, "bob": {2}, "carol": {}, "dave": {1, 2, 4}}
	for who, av := range answers {
		c.must(t, 200, "PUT", a+"/submissions/"+who, "", map[string]any{"available": av})
	}
	// Idempotent: repeating or changing an answer keeps one row per student.
	c.must(t, 200, "PUT", a+"/submissions/alice", "", map[string]any{"available": []int{0, 2}})
	c.must(t, 200, "PUT", a+"/submissions/bob", "", map[string]any{"available": []int{3}})
	if n, r, _ := activityState(t, c, a); n != 4 || r != 0 {
		t.Fatalf("participants %d releases %d, want 4 and 0", n, r)
	}
	rel := c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.5})
	res := rel["result"].(map[string]any)
	ch := int(res["choice"].(float64))
	if ch < 0 || ch >= len(days) || res["option"] != days[ch] {
		t.Errorf("release %v does not name one of the options", res)
	}
	if rel["epsilon"].(float64) != 0.5 || rel["participants"].(float64) != 4 {
		t.Errorf("release %v", rel)
	}
	n, r, spent := activityState(t, c, a)
	if n != 4 || r != 1 || math.Abs(spent-0.5) > 1e-12 {
		t.Errorf("after release: participants %d releases %d spent %v", n, r, spent)
	}
	sess := c.must(t, 200, "GET", "/api/sessions/"+s.Code, "", nil)
	if acts := sess["activities"].([]any); len(acts) != 1 {
		t.Errorf("session lists %d activities, want 1", len(acts))
	}
}

func testHistogram(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "histogram", "min": 0, "max": 10, "bins": 5})
	vals := []float64{3.14159271, 0, 10, 9.99, 4.01234567}
	for i, v := range vals {
		c.must(t, 200, "PUT", fmt.Sprintf("%s/submissions/s%d", a, i), "", map[string]any{"value": v})
	}
	rel := c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 1})
	res := rel["result"].(map[string]any)
	counts, _ := res["counts"].([]any)
	edges, _ := res["edges"].([]any)
	if len(counts) != 5 || len(edges) != 6 || edges[0].(float64) != 0 || edges[5].(float64) != 10 {
		t.Errorf("histogram release %v", res)
	}
}

func testPricing(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	prices := []float64{1, 2, 3, 4, 4.01, 5}
	a := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": prices})
	// after_release is the newest release when the answer was stored: 0
	// before any, so the phone knows the first release holds its answer.
	for i, v := range []float64{1, 1, 1, 77.7777771} {
		m := c.must(t, 200, "PUT", fmt.Sprintf("%s/submissions/b%d", a, i), "", map[string]any{"value": v})
		if m["after_release"] != 0.0 {
			t.Errorf("answer before any release: after_release %v, want 0", m["after_release"])
		}
	}
	rel := c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 1})
	p := rel["result"].(map[string]any)["price"].(float64)
	found := false
	for _, q := range prices {
		found = found || q == p
	}
	if !found {
		t.Errorf("price %v is not on the grid", p)
	}
	// An answer changed after the release was not in it.
	m := c.must(t, 200, "PUT", a+"/submissions/b0", "", map[string]any{"value": 2})
	if m["after_release"] != rel["seq"] {
		t.Errorf("answer after release %v: after_release %v", rel["seq"], m["after_release"])
	}
}

func testBudget(t *testing.T, c *Client) {
	s := c.NewSession(t, 1)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	// Each reply carries the ledger's total including that release.
	for k, want := range []float64{0.3, 0.6} {
		r := c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.3})
		if math.Abs(r["epsilon_spent"].(float64)-want) > 1e-9 || math.Abs(r["epsilon_remaining"].(float64)-(1-want)) > 1e-9 {
			t.Errorf("release %d: spent %v remaining %v, want %v and %v", k+1, r["epsilon_spent"], r["epsilon_remaining"], want, 1-want)
		}
	}
	// 0.6 spent: 0.5 more would overspend and is refused without a charge.
	r, err := c.Do("POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.5})
	if err != nil || r.Status != http.StatusConflict {
		t.Fatalf("overspending release: %v %+v", err, r)
	}
	if _, n, spent := activityState(t, c, a); n != 2 || math.Abs(spent-0.6) > 1e-12 {
		t.Fatalf("after refusal: %d releases, spent %v", n, spent)
	}
	// Exactly the rest is allowed (0.3 + 0.3 + 0.4 = 1 up to rounding).
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.4})
	r, err = c.Do("POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.01})
	if err != nil || r.Status != http.StatusConflict {
		t.Fatalf("release after the budget is spent: %v %+v", err, r)
	}
	if m := c.must(t, 200, "GET", "/api/sessions/"+s.Code, "", nil); m["epsilon_remaining"].(float64) > 1e-9 {
		t.Errorf("remaining %v after spending everything", m["epsilon_remaining"])
	}
}

// testEpsilonEdges sends every kind of activity the values of ε at and past
// the edges of what a release accepts. Each is either released or refused
// with a 4xx that charges nothing; none may fail inside the server (a 500),
// whatever the mechanism's own limits (the histogram's exact sampler takes
// noise scales only up to 2²⁸, so ε below 2/2²⁸ cannot be drawn exactly).
func testEpsilonEdges(t *testing.T, c *Client) {
	s := c.NewSession(t, 10)
	specs := []map[string]any{
		{"kind": "meeting-day", "options": []string{"A", "B"}},
		{"kind": "pricing", "prices": []float64{1, 1e9}},
		{"kind": "histogram", "min": -1e9, "max": 1e9, "bins": 50},
	}
	answers := []map[string]any{{"available": []int{1}}, {"value": 1e9}, {"value": 1e9}}
	for k, spec := range specs {
		a := c.NewActivity(t, s, spec)
		c.must(t, 200, "PUT", a+"/submissions/x", "", answers[k])
		for _, eps := range []string{"0", "-0", "-1", "1e-320", "5e-324", "1e-300", "1e-9", "7e-9",
			"10.000000001", "1e308", "1e400", "-1e400", `"NaN"`, `"Infinity"`, "null", "true", "[1]"} {
			_, before, spent := activityState(t, c, a)
			r, err := c.Do("POST", a+"/releases", s.Token, `{"epsilon": `+eps+`}`)
			if err != nil {
				t.Fatalf("%s ε=%s: %v", spec["kind"], eps, err)
			}
			_, after, spent2 := activityState(t, c, a)
			if r.Status >= 500 || r.Status != 201 && (r.Status < 400 || after != before || spent2 != spent) {
				t.Errorf("%s ε=%s: status %d (%s); releases %d→%d, spent %v→%v", spec["kind"], eps, r.Status, r.Raw, before, after, spent, spent2)
			}
			if r.Status == 201 && after != before+1 {
				t.Errorf("%s ε=%s: released, but the ledger went from %d to %d releases", spec["kind"], eps, before, after)
			}
		}
	}
	// ε equal to what is left, to the last bit, is released; then nothing is.
	b := c.NewSession(t, 0.7)
	a := c.NewActivity(t, b, specs[0])
	c.must(t, 200, "PUT", a+"/submissions/x", "", answers[0])
	for range 6 {
		c.must(t, 201, "POST", a+"/releases", b.Token, map[string]any{"epsilon": 0.1})
	}
	left := c.must(t, 200, "GET", "/api/sessions/"+b.Code, "", nil)["epsilon_remaining"].(float64)
	c.must(t, 201, "POST", a+"/releases", b.Token, map[string]any{"epsilon": left})
	c.must(t, 409, "POST", a+"/releases", b.Token, map[string]any{"epsilon": 1e-6})
}

// testRepeatedRelease: a release request carrying an id already recorded
// (a second click, a resent request) is answered with the release it
// repeats and charged once, even at once with its twin and after the
// budget is spent; the id with another ε or activity is refused, and so is
// an id that is not one.
func testRepeatedRelease(t *testing.T, c *Client) {
	s := c.NewSession(t, 1)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B", "C"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	rel := func(eps float64, id string) map[string]any { return map[string]any{"epsilon": eps, "request": id} }

	first := rand.Text()
	one := c.must(t, 201, "POST", a+"/releases", s.Token, rel(0.2, first))
	again := c.must(t, 200, "POST", a+"/releases", s.Token, rel(0.2, first))
	for _, k := range []string{"seq", "epsilon", "result", "epsilon_spent", "epsilon_remaining"} {
		if fmt.Sprint(again[k]) != fmt.Sprint(one[k]) {
			t.Errorf("repeated release: %s is %v, the release repeated had %v", k, again[k], one[k])
		}
	}
	c.must(t, http.StatusConflict, "POST", a+"/releases", s.Token, rel(0.3, first))
	other := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", other+"/submissions/x", "", map[string]any{"available": []int{0}})
	c.must(t, http.StatusConflict, "POST", other+"/releases", s.Token, rel(0.2, first))

	// Twelve copies of one request at once: one release.
	twin := rand.Text()
	const n = 12
	seqs := map[any]bool{}
	var mu sync.Mutex
	statuses := Tally(Burst(n, func(int) int {
		r, err := c.Do("POST", a+"/releases", s.Token, rel(0.2, twin))
		if err != nil {
			t.Error(err)
			return 0
		}
		mu.Lock()
		seqs[r.JSON["seq"]] = true
		mu.Unlock()
		return r.Status
	}))
	if statuses[201] != 1 || statuses[200] != n-1 || len(seqs) != 1 {
		t.Errorf("%d copies of one release request at once: statuses %v, seqs %v; want one 201, the rest 200, one seq", n, statuses, seqs)
	}

	// The release that spends the last of the budget, repeated.
	last := rand.Text()
	c.must(t, 201, "POST", a+"/releases", s.Token, rel(0.6, last))
	if r := c.must(t, 200, "POST", a+"/releases", s.Token, rel(0.6, last)); r["epsilon_remaining"].(float64) != 0 {
		t.Errorf("repeat of the last release: ε remaining %v, want 0", r["epsilon_remaining"])
	}
	if _, releases, spent := activityState(t, c, a); releases != 3 || math.Abs(spent-1) > 1e-9 {
		t.Errorf("after repeats: %d releases, ε spent %v; want 3 and 1", releases, spent)
	}
	for _, id := range []string{"", "short", strings.Repeat("a", 65), "sixteen chars ok", "<script>alert(1)</script>"} {
		c.must(t, http.StatusUnprocessableEntity, "POST", a+"/releases", s.Token, rel(0.1, id))
	}
}

// testConcurrent races requests that must not interfere: releases that
// together would overspend (the budget check inside the insert must stop
// all but three), and activity creations (each must get its own id).
func testConcurrent(t *testing.T, c *Client) {
	s := c.NewSession(t, 1)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	const n = 12
	var wg sync.WaitGroup
	replies := make(chan *Response, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Do("POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.3})
			if err != nil {
				t.Error(err)
				return
			}
			replies <- r
		}()
	}
	wg.Wait()
	close(replies)
	ok := 0
	// Each accepted release reports the total as of itself, in ledger
	// order: seq k has spent 0.3·k, whichever request read the ledger first.
	for r := range replies {
		switch r.Status {
		case 201:
			ok++
			seq, spent := r.JSON["seq"].(float64), r.JSON["epsilon_spent"].(float64)
			if math.Abs(spent-0.3*seq) > 1e-9 {
				t.Errorf("concurrent release %v reports ε spent %v, want %v", seq, spent, 0.3*seq)
			}
		case http.StatusConflict:
		default:
			t.Errorf("concurrent release: status %d", r.Status)
		}
	}
	_, releases, spent := activityState(t, c, a)
	if ok != 3 || releases != 3 || spent > 1+1e-9 {
		t.Errorf("%d concurrent releases of ε = 0.3 on a budget of 1: %d accepted, %d recorded, ε spent %v; want 3, 3, 0.9",
			n, ok, releases, spent)
	}

	ids := make(chan any, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Do("POST", "/api/sessions/"+s.Code+"/activities", s.Token,
				map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
			if err != nil || r.Status != 201 {
				t.Errorf("concurrent activity creation: %v %+v", err, r)
				return
			}
			ids <- r.JSON["id"]
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[any]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("two activities got id %v", id)
		}
		seen[id] = true
	}
}

func testClose(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	r, _ := c.Do("POST", a+"/close", "", nil)
	if r == nil || r.Status != 401 {
		t.Fatalf("close without token: %+v", r)
	}
	c.must(t, 200, "POST", a+"/close", s.Token, nil)
	r, _ = c.Do("PUT", a+"/submissions/y", "", map[string]any{"available": []int{0}})
	if r == nil || r.Status != http.StatusConflict {
		t.Fatalf("submission after close: %+v", r)
	}
	r, _ = c.Do("PUT", a+"/submissions/x", "", map[string]any{"available": []int{0}})
	if r == nil || r.Status != http.StatusConflict {
		t.Fatalf("changed answer after close: %+v", r)
	}
	m := c.must(t, 200, "GET", a, "", nil)
	if m["closed"] != true || m["participants"].(float64) != 1 {
		t.Errorf("closed activity: %v", m)
	}
	// Releases still work on a closed activity.
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.1})
}

func testBadInputs(t *testing.T, c *Client) {
	s := c.NewSession(t, 2)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"Mon", "Tue", "Wed"}})
	h := c.NewActivity(t, s, map[string]any{"kind": "histogram", "min": 0, "max": 1, "bins": 2})
	c.must(t, 200, "PUT", a+"/submissions/ok", "", map[string]any{"available": []int{1}})
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.5})
	empty := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2}})
	big := `{"available": [` + strings.Repeat("1, ", 3000) + `1]}`
	sess := "/api/sessions/" + s.Code
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
	}{
		{"malformed JSON", "PUT", a + "/submissions/m", "", `{"available": [1, secret-93817`, 400},
		{"not an object", "PUT", a + "/submissions/m", "", `[918273.645]`, 400},
		{"unknown field", "PUT", a + "/submissions/m", "", `{"available": [1], "secret-93817": 1}`, 400},
		{"two values", "PUT", a + "/submissions/m", "", `{"available": [1]} {"available": [2]}`, 400},
		{"wrong type", "PUT", a + "/submissions/m", "", `{"available": ["secret-93817"]}`, 400},
		{"fractional index", "PUT", a + "/submissions/m", "", `{"available": [918273.645]}`, 400},
		{"index out of range", "PUT", a + "/submissions/m", "", `{"available": [3]}`, 422},
		{"negative index", "PUT", a + "/submissions/m", "", `{"available": [-1]}`, 422},
		{"repeated index", "PUT", a + "/submissions/m", "", `{"available": [1, 1]}`, 422},
		{"missing field", "PUT", a + "/submissions/m", "", `{}`, 422},
		{"empty body", "PUT", a + "/submissions/m", "", ``, 400},
		{"wrong kind of answer", "PUT", a + "/submissions/m", "", `{"value": 918273.645}`, 422},
		{"value out of range", "PUT", h + "/submissions/m", "", `{"value": 918273.645}`, 422},
		{"body over 8 KB", "PUT", a + "/submissions/m", "", big, 413},
		{"bad student id", "PUT", a + "/submissions/a.b", "", `{"available": [1]}`, 400},
		{"long student id", "PUT", a + "/submissions/" + strings.Repeat("x", 65), "", `{"available": [1]}`, 400},
		{"unknown session", "PUT", "/api/sessions/ZZZZZZZZ/activities/1/submissions/m", "", `{"available": [1]}`, 404},
		{"malformed session code", "GET", "/api/sessions/not-a-code", "", nil, 404},
		{"unknown activity", "PUT", sess + "/activities/99/submissions/m", "", `{"available": [1]}`, 404},
		{"bad activity id", "GET", sess + "/activities/01", "", nil, 404},
		{"wrong method", "DELETE", a, "", nil, 405},
		{"unknown route", "GET", sess + "/nothing", "", nil, 404},
		{"activity without token", "POST", sess + "/activities", "", `{"kind": "meeting-day", "options": ["A", "B"]}`, 401},
		{"activity with wrong token", "POST", sess + "/activities", "AAAAAAAAAAAAAAAAAAAAAA", `{"kind": "meeting-day", "options": ["A", "B"]}`, 403},
		{"activity of unknown kind", "POST", sess + "/activities", s.Token, `{"kind": "secret-93817"}`, 422},
		{"meeting-day with one option", "POST", sess + "/activities", s.Token, `{"kind": "meeting-day", "options": ["A"]}`, 422},
		{"meeting-day with histogram fields", "POST", sess + "/activities", s.Token, `{"kind": "meeting-day", "options": ["A", "B"], "bins": 3}`, 422},
		{"histogram with min ≥ max", "POST", sess + "/activities", s.Token, `{"kind": "histogram", "min": 1, "max": 1, "bins": 3}`, 422},
		{"pricing with falling prices", "POST", sess + "/activities", s.Token, `{"kind": "pricing", "prices": [2, 1]}`, 422},
		{"activity with unknown field", "POST", sess + "/activities", s.Token, `{"kind": "meeting-day", "options": ["A", "B"], "colour": 1}`, 400},
		{"release without token", "POST", a + "/releases", "", `{"epsilon": 0.1}`, 401},
		{"release with wrong token", "POST", a + "/releases", s.Token[:21] + "x", `{"epsilon": 0.1}`, 403},
		{"release with another session's token", "POST", a + "/releases", c.NewSession(t, 0).Token, `{"epsilon": 0.1}`, 403},
		{"release with ε = 0", "POST", a + "/releases", s.Token, `{"epsilon": 0}`, 422},
		{"release with ε < 0", "POST", a + "/releases", s.Token, `{"epsilon": -1}`, 422},
		{"release with huge ε", "POST", a + "/releases", s.Token, `{"epsilon": 1e300}`, 422},
		{"release with ε as text", "POST", a + "/releases", s.Token, `{"epsilon": "0.1"}`, 400},
		{"release without ε", "POST", a + "/releases", s.Token, `{}`, 422},
		{"release over budget", "POST", a + "/releases", s.Token, `{"epsilon": 1.6}`, 409},
		{"release with no answers yet", "POST", empty + "/releases", s.Token, `{"epsilon": 0.1}`, 409},
		{"release on unknown session", "POST", "/api/sessions/ZZZZZZZZ/activities/1/releases", s.Token, `{"epsilon": 0.1}`, 404},
		{"session with budget 0", "POST", "/api/sessions", "", `{"epsilon_budget": 0}`, 422},
		{"session with unknown field", "POST", "/api/sessions", "", `{"budget": 1}`, 400},
	}
	beforeA := snapshot(t, c, a, sess)
	beforeH := snapshot(t, c, h, sess)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Do(tc.method, tc.path, tc.token, tc.body)
			if err != nil {
				t.Fatalf("%v", err)
			}
			if r.Status != tc.status {
				t.Errorf("status %d, want %d (body %s)", r.Status, tc.status, r.Raw)
			}
			if msg, _ := r.JSON["error"].(string); msg == "" {
				t.Errorf("no JSON error message in %s", r.Raw)
			}
			if leaks := Leaks(r.Raw); leaks != nil {
				t.Errorf("error body echoes the submitted %q: %s", leaks, r.Raw)
			}
		})
	}
	if after := snapshot(t, c, a, sess); after != beforeA {
		t.Errorf("bad inputs changed the meeting-day activity:\n before %s\n after  %s", beforeA, after)
	}
	if after := snapshot(t, c, h, sess); after != beforeH {
		t.Errorf("bad inputs changed the histogram activity:\n before %s\n after  %s", beforeH, after)
	}
}

// snapshot renders what the API shows of an activity and its session.
func snapshot(t *testing.T, c *Client, activity, session string) string {
	t.Helper()
	a := c.must(t, 200, "GET", activity, "", nil)
	s := c.must(t, 200, "GET", session, "", nil)
	b, _ := json.Marshal([]any{a, s})
	return string(b)
}

// testNoLeaks looks through every body the suite received for a submitted
// marker value or a stored answer's field name.
func testNoLeaks(t *testing.T, c *Client) {
	bodies := c.Bodies()
	if len(bodies) < 50 {
		t.Fatalf("only %d bodies recorded; the suite did not run", len(bodies))
	}
	for _, b := range bodies {
		for _, m := range append(Markers, `"available":`, `"value":`) {
			if strings.Contains(b, m) {
				t.Errorf("a response contains %q: %.300s", m, b)
			}
		}
	}
}

// testRoster: a session admits at most its roster of distinct students.
// Inventing ids past it gets a 403 that changes nothing, while students
// already on the roster keep answering (in any activity), and the joined
// count is in what the projector polls.
func testRoster(t *testing.T, c *Client) {
	m := c.must(t, 201, "POST", "/api/sessions", "", map[string]any{"roster": 3})
	s := Session{Code: m["code"].(string), Token: m["instructor_token"].(string)}
	if m["roster"] != 3.0 || m["joined"] != 0.0 || m["door_open"] != true {
		t.Errorf("new session with roster 3: %v", m)
	}
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	for _, who := range []string{"s1", "s2", "s3"} {
		c.must(t, 200, "PUT", a+"/submissions/"+who, "", map[string]any{"available": []int{0}})
	}
	for i := range 5 {
		r, err := c.Do("PUT", fmt.Sprintf("%s/submissions/fake%d", a, i), "", map[string]any{"available": []int{1}})
		if err != nil || r.Status != http.StatusForbidden || !strings.Contains(r.JSON["error"].(string), "roster") {
			t.Fatalf("a fourth student on a roster of 3: %v %+v", err, r)
		}
	}
	c.must(t, 200, "PUT", a+"/submissions/s2", "", map[string]any{"available": []int{1}})
	b := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"C", "D"}})
	c.must(t, 200, "PUT", b+"/submissions/s3", "", map[string]any{"available": []int{1}})
	act := c.must(t, 200, "GET", a, "", nil)
	if act["participants"] != 3.0 || act["joined"] != 3.0 || act["roster"] != 3.0 {
		t.Errorf("activity after stuffing: participants %v joined %v roster %v, want 3, 3, 3", act["participants"], act["joined"], act["roster"])
	}
	for _, bad := range []any{0, -1, 10001, 2.5, "30"} {
		r, err := c.Do("POST", "/api/sessions", "", map[string]any{"roster": bad})
		if err != nil || r.Status/100 != 4 {
			t.Errorf("roster %v: %v %+v, want a 4xx", bad, err, r)
		}
	}
	m = c.must(t, 201, "POST", "/api/sessions", "", nil)
	if m["roster"] != 1000.0 {
		t.Errorf("default roster %v, want 1000", m["roster"])
	}
}

// testDoor: the instructor closes the session to new students; those who
// joined keep answering, newcomers get 403 until it opens again.
// testRosterRace sends many new students at once to a small roster: the
// roster check is inside the statement that adds a student, so exactly the
// roster's worth get in, however the requests interleave.
func testRosterRace(t *testing.T, c *Client) {
	const roster, students = 10, 60
	m := c.must(t, 201, "POST", "/api/sessions", "", map[string]any{"roster": roster})
	s := Session{Code: m["code"].(string), Token: m["instructor_token"].(string)}
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	got := Tally(Burst(students, func(i int) int {
		r, err := c.Do("PUT", fmt.Sprintf("%s/submissions/race%d", a, i), "", map[string]any{"available": []int{1}})
		if err != nil {
			return 0
		}
		return r.Status
	}))
	if got[200] != roster || got[403] != students-roster {
		t.Errorf("%d new students racing for a roster of %d: statuses %v", students, roster, got)
	}
	act := c.must(t, 200, "GET", a, "", nil)
	if act["participants"] != float64(roster) || act["joined"] != float64(roster) {
		t.Errorf("after the race: participants %v, joined %v, want %d", act["participants"], act["joined"], roster)
	}
}

func testDoor(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	sess := "/api/sessions/" + s.Code
	c.must(t, 200, "PUT", a+"/submissions/early", "", map[string]any{"available": []int{0}})
	c.refuses(t, "POST", sess+"/door",
		refused{"", map[string]any{"open": false}, 401},
		refused{c.NewSession(t, 0).Token, map[string]any{"open": false}, 403},
		refused{s.Token, map[string]any{}, 422},
		refused{s.Token, map[string]any{"open": "no"}, 400},
	)
	d := c.must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": false})
	if d["door_open"] != false || d["joined"] != 1.0 {
		t.Errorf("closed door: %v", d)
	}
	r, err := c.Do("PUT", a+"/submissions/late", "", map[string]any{"available": []int{1}})
	if err != nil || r.Status != http.StatusForbidden || !strings.Contains(r.JSON["error"].(string), "closed") {
		t.Errorf("a new student after the door closed: %v %+v", err, r)
	}
	c.must(t, 200, "PUT", a+"/submissions/early", "", map[string]any{"available": []int{1}})
	if m := c.must(t, 200, "GET", sess, "", nil); m["door_open"] != false || m["joined"] != 1.0 {
		t.Errorf("session with the door closed: %v", m)
	}
	c.must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": true})
	c.must(t, 200, "PUT", a+"/submissions/late", "", map[string]any{"available": []int{1}})
}

// studentBurst is the most answers one student id may send at once
// (lecture.StudentBurst; the suite talks HTTP only).
const studentBurst = 10

// testAnswerLimit (issue 43, finding 2): one student id sending its answer
// as fast as it can is answered 429 with Retry-After once past its
// allowance; another student at the same address is answered meanwhile.
func testAnswerLimit(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	start := time.Now()
	got := map[int]int{}
	retry := ""
	for i := range 3 * studentBurst {
		r, err := c.Do("PUT", a+"/submissions/eager", "", map[string]any{"available": []int{i % 2}})
		if err != nil {
			t.Fatal(err)
		}
		got[r.Status]++
		if r.Status == http.StatusTooManyRequests && retry == "" {
			retry = r.Header.Get("Retry-After")
		}
	}
	// The allowance grows by one a second while the loop runs.
	most := studentBurst + int(time.Since(start).Seconds()) + 1
	if got[200] < studentBurst || got[200] > most || got[200]+got[429] != 3*studentBurst {
		t.Errorf("%d answers from one student as fast as it can: %v, want %d to %d stored and the rest 429", 3*studentBurst, got, studentBurst, most)
	}
	if n, err := strconv.Atoi(retry); err != nil || n < 1 {
		t.Errorf("a refused answer's Retry-After: %q", retry)
	}
	c.must(t, 200, "PUT", a+"/submissions/calm", "", map[string]any{"available": []int{0}})
	if m := c.must(t, 200, "GET", a, "", nil); m["participants"] != 2.0 {
		t.Errorf("after the flood: %v participants, want 2", m["participants"])
	}
}

// testCrossSite: a request that changes state must declare a JSON body, so
// that a web page cannot send it without a CORS preflight, and one naming
// another web site as its Origin is refused. Neither changes anything.
func testCrossSite(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	sess := "/api/sessions/" + s.Code
	before := snapshot(t, c, a, sess)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	answer := `{"available": [1]}`
	for _, tc := range []struct {
		name, method, path, token string
		body                      any
		header                    http.Header
		status                    int
	}{
		{"form post creating a session", "POST", "/api/sessions", "", "", hdr("Content-Type", "application/x-www-form-urlencoded"), 415},
		{"text/plain answer", "PUT", a + "/submissions/x", "", answer, hdr("Content-Type", "text/plain"), 415},
		{"answer without a content type", "PUT", a + "/submissions/x", "", answer, hdr(), 415},
		{"bodiless post without a content type", "POST", "/api/sessions", "", nil, hdr(), 415},
		{"answer from another site", "PUT", a + "/submissions/x", "", answer, hdr("Content-Type", "application/json", "Origin", "https://evil.example"), 403},
		{"session from another site", "POST", "/api/sessions", "", "{}", hdr("Content-Type", "application/json", "Origin", "https://evil.example"), 403},
		{"release from another site", "POST", a + "/releases", s.Token, `{"epsilon": 0.1}`, hdr("Content-Type", "application/json", "Origin", "null"), 403},
	} {
		r, err := c.DoHeader(tc.method, tc.path, tc.token, tc.body, tc.header)
		if err != nil || r.Status != tc.status {
			t.Errorf("%s: %v %+v, want %d", tc.name, err, r, tc.status)
		}
	}
	if after := snapshot(t, c, a, sess); after != before {
		t.Errorf("refused cross-site requests changed the session:\n before %s\n after  %s", before, after)
	}
	// The page's own origin, and a charset parameter, are accepted.
	r, err := c.DoHeader("PUT", a+"/submissions/y", "", answer, hdr("Content-Type", "application/json; charset=utf-8", "Origin", c.Base))
	if err != nil || r.Status != 200 {
		t.Errorf("answer from this site: %v %+v", err, r)
	}
}
