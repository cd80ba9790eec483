package lecturetest

import (
	"crypto/rand"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
)

// The parts of the suite that keep a lecture running against a prankster
// with a script: each checks one defence of docs/security.md through HTTP
// only, on every back end.

// testExactBudget: ε is charged in whole millionths, so no
// release past the budget is granted, however small or however many at once,
// and the ledger never shows spent above the budget.
func testExactBudget(t *testing.T, c *Client) {
	s := c.NewSession(t, 3)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 3})
	for _, eps := range []string{"5e-324", "1e-17", "1e-9", "1e-9", "1e-9", "0.000001", "0.0000015"} {
		r, err := c.Do("POST", a+"/releases", s.Token, `{"epsilon": `+eps+`}`)
		if err != nil || r.Status == 201 || r.Status >= 500 {
			t.Errorf("ε = %s after the whole budget: %v %+v, want a refusal", eps, err, r)
		}
	}
	got := Tally(Burst(50, func(int) int {
		// A connection dropped under the burst (local workerd drops a few)
		// is sent again with its request id, as the page does: a resend is
		// charged at most once. 0 counts a request never answered.
		body := map[string]any{"epsilon": 0.000001, "request": rand.Text()}
		for range 3 {
			if r, err := c.Do("POST", a+"/releases", s.Token, body); err == nil {
				return r.Status
			}
		}
		return 0
	}))
	if got[409] != 50 {
		t.Errorf("50 concurrent releases of one unit after the whole budget: %v, want all 409", got)
	}
	m := c.must(t, 200, "GET", "/api/sessions/"+s.Code, "", nil)
	if m["epsilon_spent"] != 3.0 || m["epsilon_remaining"] != 0.0 || m["epsilon_budget"] != 3.0 {
		t.Errorf("ledger after the budget: spent %v remaining %v of %v", m["epsilon_spent"], m["epsilon_remaining"], m["epsilon_budget"])
	}
	// Ten releases of 0.1 spend a budget of 1 exactly, with no tolerance.
	b := c.NewSession(t, 1)
	p := c.NewActivity(t, b, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", p+"/submissions/x", "", map[string]any{"available": []int{1}})
	for range 10 {
		c.must(t, 201, "POST", p+"/releases", b.Token, map[string]any{"epsilon": 0.1})
	}
	c.must(t, 409, "POST", p+"/releases", b.Token, map[string]any{"epsilon": 0.000001})
	if m := c.must(t, 200, "GET", "/api/sessions/"+b.Code, "", nil); m["epsilon_spent"] != 1.0 || m["epsilon_remaining"] != 0.0 {
		t.Errorf("ten releases of 0.1: spent %v remaining %v", m["epsilon_spent"], m["epsilon_remaining"])
	}
	// What a browser computes for 0.1 + 0.2 is 0.3 to the unit.
	r := c.must(t, 201, "POST", "/api/sessions", "", `{"epsilon_budget": 0.30000000000000004}`)
	if r["epsilon_budget"] != 0.3 {
		t.Errorf("budget 0.30000000000000004 kept as %v, want 0.3", r["epsilon_budget"])
	}
}

// testStrictJSON: a key that only matches a field when case is
// ignored, or a repeated key, is refused, and changes nothing.
func testStrictJSON(t *testing.T, c *Client) {
	s := c.NewSession(t, 3)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	for _, body := range []string{`{"epsilon": 0.1, "epsilon": 3}`, `{"EPSILON": 3}`, `{"epsilon": 0.1, "Epsilon": 3}`} {
		if r, err := c.Do("POST", a+"/releases", s.Token, body); err != nil || r.Status != 400 {
			t.Errorf("release %s: %v %+v, want 400", body, err, r)
		}
	}
	if r, err := c.Do("PUT", a+"/submissions/y", "", `{"available": [0], "Available": [1]}`); err != nil || r.Status != 400 {
		t.Errorf("answer with a key in two cases: %v %+v, want 400", err, r)
	}
	if m := c.must(t, 200, "GET", a, "", nil); m["release_count"] != 0.0 || m["participants"] != 1.0 {
		t.Errorf("refused bodies changed the activity: %v", m)
	}
}

// testRosterRecovery: a script fills the roster; the
// instructor raises it in the same session, sees how many joined from how
// many addresses, and removes those who never answered the open activity.
func testRosterRecovery(t *testing.T, c *Client) {
	m := c.must(t, 201, "POST", "/api/sessions", "", map[string]any{"roster": 5})
	s := Session{Code: m["code"].(string), Token: m["instructor_token"].(string)}
	sess := "/api/sessions/" + s.Code
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	for i := range 5 {
		c.must(t, 200, "PUT", fmt.Sprintf("%s/submissions/fake%d", a, i), "", map[string]any{"available": []int{0}})
	}
	c.must(t, 403, "PUT", a+"/submissions/real", "", map[string]any{"available": []int{1}})
	if m := c.must(t, 200, "GET", sess, "", nil); m["joined"] != 5.0 || m["addresses"] != 1.0 {
		t.Errorf("after the script: joined %v from %v addresses, want 5 from 1", m["joined"], m["addresses"])
	}
	c.refuses(t, "POST", sess+"/door",
		refused{"", map[string]any{"roster": 8}, 401},
		refused{s.Token, map[string]any{"roster": 0}, 422},
		refused{s.Token, map[string]any{"roster": 10001}, 422},
		refused{s.Token, map[string]any{"roster": "8"}, 400},
	)
	d := c.must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": true, "roster": 8})
	if d["roster"] != 8.0 || d["door_open"] != true {
		t.Errorf("raised roster: %v", d)
	}
	c.must(t, 200, "PUT", a+"/submissions/real", "", map[string]any{"available": []int{1}})
	// A fresh activity; the class answers it, the script's ids do not.
	c.must(t, 200, "POST", a+"/close", s.Token, nil)
	b := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", b+"/submissions/real", "", map[string]any{"available": []int{1}})
	if r, err := c.Do("POST", sess+"/prune", "", nil); err != nil || r.Status != 401 {
		t.Errorf("prune without token: %v %+v", err, r)
	}
	p := c.must(t, 200, "POST", sess+"/prune", s.Token, nil)
	if p["removed"] != 5.0 || p["joined"] != 1.0 {
		t.Errorf("prune: %v, want 5 removed and 1 joined", p)
	}
	if m := c.must(t, 200, "GET", a, "", nil); m["participants"] != 1.0 {
		t.Errorf("the closed activity after the prune holds %v answers, want the class's 1", m["participants"])
	}
	// The freed places take new students again.
	for i := range 7 {
		c.must(t, 200, "PUT", fmt.Sprintf("%s/submissions/late%d", b, i), "", map[string]any{"available": []int{0}})
	}
	c.must(t, 403, "PUT", b+"/submissions/one-too-many", "", map[string]any{"available": []int{0}})
}

// testStuffedRoster: a script fills the roster with ids that answer every
// open activity, which pruning by answers keeps. The instructor closes the
// door, opens it again, and removes everyone who joined before it opened;
// the class then gets in, and those who came through the new door stay.
// The session says how many answers it holds of the most it keeps, which
// a full roster answering every activity of a session cannot reach.
func testStuffedRoster(t *testing.T, c *Client) {
	const maxRoster, maxActivities = 10000, 100
	m := c.must(t, 201, "POST", "/api/sessions", "", map[string]any{"roster": 5})
	s := Session{Code: m["code"].(string), Token: m["instructor_token"].(string)}
	sess := "/api/sessions/" + s.Code
	if m["max_answers"] == nil || m["max_answers"].(float64) < maxRoster*maxActivities {
		t.Errorf("a new session keeps at most %v answers, fewer than a roster of %d answering %d activities", m["max_answers"], maxRoster, maxActivities)
	}
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	for i := range 5 {
		c.must(t, 200, "PUT", fmt.Sprintf("%s/submissions/fake%d", a, i), "", map[string]any{"available": []int{0}})
	}
	c.must(t, 403, "PUT", a+"/submissions/real", "", map[string]any{"available": []int{1}})
	if m := c.must(t, 200, "GET", sess, "", nil); m["answers"] != 5.0 || m["door_opened"] != 0.0 {
		t.Errorf("after the script: %v answers, door opened at %v, want 5 and 0", m["answers"], m["door_opened"])
	}
	if p := c.must(t, 200, "POST", sess+"/prune", s.Token, nil); p["removed"] != 0.0 {
		t.Errorf("pruning by answers removed %v of the script's ids, which answered the open activity", p["removed"])
	}
	// Before the door has been opened again, everyone came through the first.
	if p := c.must(t, 200, "POST", sess+"/prune", s.Token, map[string]any{"before_door": true}); p["removed"] != 0.0 {
		t.Errorf("pruning before a door never reopened removed %v", p["removed"])
	}
	c.must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": false})
	d := c.must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": true})
	if d["door_opened"] == nil || d["door_opened"].(float64) <= 0 {
		t.Errorf("the reopened door says it opened at %v", d["door_opened"])
	}
	p := c.must(t, 200, "POST", sess+"/prune", s.Token, map[string]any{"before_door": true})
	if p["removed"] != 5.0 || p["joined"] != 0.0 {
		t.Errorf("pruning those who joined before the door opened: %v, want 5 removed and 0 joined", p)
	}
	c.must(t, 200, "PUT", a+"/submissions/real", "", map[string]any{"available": []int{1}})
	if m := c.must(t, 200, "GET", a, "", nil); m["participants"] != 1.0 || m["answers"] != 1.0 || m["joined"] != 1.0 {
		t.Errorf("after the prune: %v participants, %v answers, %v joined, want the class's 1", m["participants"], m["answers"], m["joined"])
	}
	// Opening an open door is no new door: who came through it stays.
	c.must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": true})
	if p := c.must(t, 200, "POST", sess+"/prune", s.Token, map[string]any{"before_door": true}); p["removed"] != 0.0 {
		t.Errorf("pruning again removed %v who came through the open door", p["removed"])
	}
	c.must(t, 400, "POST", sess+"/prune", s.Token, map[string]any{"before_door": "yes"})
}

// testConditionalPoll: a poll that names the version it has
// seen gets 304 with no body until something changes; an activity's poll
// carries only its newest releases.
func testConditionalPoll(t *testing.T, c *Client) {
	s := c.NewSession(t, 10)
	sess := "/api/sessions/" + s.Code
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"available": []int{1}})
	for _, path := range []string{sess, a} {
		tag := c.etag(t, path, "", 200)
		if tag == "" {
			t.Fatalf("GET %s: no ETag", path)
		}
		if again := c.etag(t, path, tag, 304); again != tag {
			t.Errorf("GET %s with If-None-Match %s: ETag %q", path, tag, again)
		}
		c.must(t, 200, "PUT", a+"/submissions/y"+fmt.Sprint(len(path)), "", map[string]any{"available": []int{0}})
		if next := c.etag(t, path, tag, 200); next == tag {
			t.Errorf("GET %s after an answer: the same ETag %s", path, tag)
		}
	}
	for range 25 {
		c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.01})
	}
	m := c.must(t, 200, "GET", a, "", nil)
	rels, _ := m["releases"].([]any)
	if len(rels) != 20 || m["release_count"] != 25.0 || rels[19].(map[string]any)["seq"] != 25.0 || math.Abs(num(t, m, "activity_epsilon_spent")-0.25) > 1e-12 {
		t.Errorf("an activity with 25 releases shows %d, count %v, spent %v", len(rels), m["release_count"], m["activity_epsilon_spent"])
	}
}

// etag sends GET path (with If-None-Match if given), expects status want
// and returns the reply's ETag; a 304 must have no body.
func (c *Client) etag(t *testing.T, path, ifNoneMatch string, want int) string {
	t.Helper()
	req, _ := http.NewRequest("GET", c.Base+path, nil)
	if ifNoneMatch != "" {
		req.Header.Set("If-None-Match", ifNoneMatch)
	}
	resp, body, err := c.send(req, "")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want || want == 304 && len(body) > 0 {
		t.Errorf("GET %s (If-None-Match %q): %d with %d bytes, want %d", path, ifNoneMatch, resp.StatusCode, len(body), want)
	}
	return resp.Header.Get("ETag")
}

// testTypedText: what the instructor types is kept
// without control characters, its length counted after trimming; a
// histogram's ranges must be wide enough to show; a join code with an
// escaped slash names no session.
func testTypedText(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	sess := "/api/sessions/" + s.Code
	long := "  " + strings.Repeat("q", 200) + "  "
	c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}, "prompt": long})
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"Mon\x00", "\tTue\u202e"}, "prompt": "Which\x07 day?\r\n"})
	m := c.must(t, 200, "GET", a, "", nil)
	spec := m["spec"].(map[string]any)
	if spec["prompt"] != "Which day?" || fmt.Sprint(spec["options"]) != "[Mon Tue]" {
		t.Errorf("typed text kept as %q %q", spec["prompt"], spec["options"])
	}
	for _, spec := range []string{`{"kind": "histogram", "min": 0, "max": 5e-324, "bins": 1}`, `{"kind": "histogram", "min": 0, "max": 0.01, "bins": 50}`,
		`{"kind": "meeting-day", "options": ["A", "\u0000"]}`} {
		if r, err := c.Do("POST", sess+"/activities", s.Token, spec); err != nil || r.Status != 422 {
			t.Errorf("activity %s: %v %+v, want 422", spec, err, r)
		}
	}
	for _, p := range []string{"/api/sessions/" + s.Code + "%2Factivities%2F1", "/api/sessions/" + s.Code + "%2F"} {
		if r, err := c.Do("GET", p, "", nil); err != nil || r.Status != 404 {
			t.Errorf("GET %s: %v %+v, want 404", p, err, r)
		}
	}
}

// testInstructorKey: where the server holds an instructor key
// and sees this client as another machine, starting a session needs it.
func testInstructorKey(t *testing.T, c *Client) {
	if c.Key == "" || !c.Remote {
		t.Skip("this server starts sessions for this client without a key")
	}
	for _, tc := range []struct {
		key    string
		status int
	}{{"", 401}, {c.Key + "x", 403}, {c.Key, 201}} {
		h := http.Header{"Content-Type": {"application/json"}}
		if tc.key != "" {
			h.Set("Authorization", "Bearer "+tc.key)
		}
		if r, err := c.DoHeader("POST", "/api/sessions", "", "{}", h); err != nil || r.Status != tc.status {
			t.Errorf("new session with key %q: %v %+v, want %d", tc.key, err, r, tc.status)
		}
	}
}

// testHost: a request naming a host the server does not answer
// to (DNS rebinding) is refused and changes nothing.
func testHost(t *testing.T, c *Client) {
	if !c.HostChecked {
		t.Skip("this server does not check Host")
	}
	for _, method := range []string{"POST", "GET"} {
		req, _ := http.NewRequest(method, c.Base+"/api/sessions", strings.NewReader("{}"))
		if method == "GET" {
			req, _ = http.NewRequest(method, c.Base+"/api/", nil)
		}
		req.Host = "evil.example"
		req.Header.Set("Origin", "http://evil.example")
		req.Header.Set("Content-Type", "application/json")
		resp, b, err := c.send(req, c.Key)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s with Host evil.example: %d %s, want 421", method, resp.StatusCode, b)
		}
	}
}
