package lecturetest

import (
	"encoding/csv"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
)

// The parts of the suite for a whole lecture in one session:
// several activities, the current one, closing and reopening, the ledger
// and its export, and what ε means before a release.

func num(t *testing.T, m map[string]any, key string) float64 {
	t.Helper()
	x, ok := m[key].(float64)
	if !ok {
		t.Fatalf("%q missing or not a number in %v", key, m)
	}
	return x
}

// testLecture runs two activities in one session: the class stays joined
// (the roster counts each student once), the phones' activity reply names
// the current activity, and the ε ledger carries across activities.
func testLecture(t *testing.T, c *Client) {
	if m := c.must(t, 200, "GET", "/api/", "", nil); m["service"] != "dpplay lecture" {
		t.Errorf("GET /api/: %v", m)
	}
	s := c.NewSession(t, 2)
	sess := "/api/sessions/" + s.Code
	if m := c.must(t, 200, "GET", sess, "", nil); num(t, m, "current") != 0 {
		t.Errorf("a new session has current %v, want 0", m["current"])
	}
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"Mon", "Tue", "Wed"}})
	h := c.NewActivity(t, s, map[string]any{"kind": "histogram", "min": 0, "max": 10, "bins": 5, "prompt": "Hours of sleep?"})
	c.must(t, 200, "POST", sess+"/current", s.Token, map[string]any{"activity": 1})
	if m := c.must(t, 200, "GET", h, "", nil); num(t, m, "current") != 1 {
		t.Errorf("activity 2's reply names current %v, want 1", m["current"])
	}
	for _, who := range []string{"ann", "ben", "cat"} {
		c.must(t, 200, "PUT", a+"/submissions/"+who, "", map[string]any{"available": []int{1}})
	}
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.5})

	// The projector moves on; the phones see it in the reply they poll.
	c.must(t, 200, "POST", sess+"/current", s.Token, map[string]any{"activity": 2})
	if m := c.must(t, 200, "GET", a, "", nil); num(t, m, "current") != 2 {
		t.Errorf("after the switch activity 1's reply names current %v, want 2", m["current"])
	}
	for i, who := range []string{"ann", "ben", "cat"} {
		c.must(t, 200, "PUT", h+"/submissions/"+who, "", map[string]any{"value": float64(2 * i)})
	}
	rel := c.must(t, 201, "POST", h+"/releases", s.Token, map[string]any{"epsilon": 1})
	if got := num(t, rel, "epsilon_spent"); math.Abs(got-1.5) > 1e-12 {
		t.Errorf("ε spent after releases of 0.5 and 1 in two activities: %v, want 1.5", got)
	}
	// One budget for the lecture: what is left is refused in either activity.
	if r, _ := c.Do("POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.6}); r == nil || r.Status != http.StatusConflict {
		t.Errorf("release of 0.6 with 0.5 left: %+v", r)
	}
	m := c.must(t, 200, "GET", sess, "", nil)
	if num(t, m, "joined") != 3 || num(t, m, "current") != 2 {
		t.Errorf("session after two activities: joined %v current %v, want 3 and 2", m["joined"], m["current"])
	}
	acts, _ := m["activities"].([]any)
	if len(acts) != 2 {
		t.Fatalf("session lists %d activities, want 2", len(acts))
	}
	for i, want := range []float64{0.5, 1} {
		x := acts[i].(map[string]any)
		if num(t, x, "activity_epsilon_spent") != want || num(t, x, "release_count") != 1 || num(t, x, "participants") != 3 {
			t.Errorf("activity %d's share of the ledger: %v", i+1, x)
		}
	}
	// Only an activity of this session can be current, and only the instructor picks it.
	c.refuses(t, "POST", sess+"/current",
		refused{"", map[string]any{"activity": 1}, 401},
		refused{s.Token, map[string]any{"activity": 3}, 404},
		refused{s.Token, map[string]any{"activity": -1}, 404},
		refused{s.Token, map[string]any{}, 422},
		refused{s.Token, `{"activity": "1"}`, 400},
	)
	if m := c.must(t, 200, "GET", sess, "", nil); num(t, m, "current") != 2 {
		t.Errorf("refused switches changed current to %v", m["current"])
	}
}

// testReopen closes an activity and opens it again: answers are refused
// while it is closed and stored again once it is open.
func testReopen(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2}})
	c.must(t, 200, "PUT", a+"/submissions/x", "", map[string]any{"value": 1.5})
	if r, _ := c.Do("POST", a+"/open", "", nil); r == nil || r.Status != 401 {
		t.Fatalf("open without token: %+v", r)
	}
	if m := c.must(t, 200, "POST", a+"/close", s.Token, nil); m["closed"] != true {
		t.Errorf("close replied %v", m)
	}
	if r, _ := c.Do("PUT", a+"/submissions/y", "", map[string]any{"value": 1}); r == nil || r.Status != http.StatusConflict {
		t.Fatalf("answer to a closed activity: %+v", r)
	}
	if m := c.must(t, 200, "POST", a+"/open", s.Token, nil); m["closed"] != false {
		t.Errorf("open replied %v", m)
	}
	c.must(t, 200, "PUT", a+"/submissions/y", "", map[string]any{"value": 1})
	if m := c.must(t, 200, "GET", a, "", nil); m["closed"] != false || num(t, m, "participants") != 2 {
		t.Errorf("reopened activity: %v", m)
	}
}

// testLedger exports a session: JSON and CSV, the instructor's only, with
// every release, the running total and each activity's share, and never an
// answer; a label that a spreadsheet would run as a formula is defused.
func testLedger(t *testing.T, c *Client) {
	s := c.NewSession(t, 3)
	sess := "/api/sessions/" + s.Code
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"=HYPERLINK(1)", "Tue"}, "prompt": "+cmd"})
	p := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 3}})
	c.must(t, 200, "PUT", a+"/submissions/u1", "", map[string]any{"available": []int{0, 1}})
	c.must(t, 200, "PUT", p+"/submissions/u1", "", map[string]any{"value": 77.7777771})
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.25})
	c.must(t, 201, "POST", p+"/releases", s.Token, map[string]any{"epsilon": 0.5})
	c.must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.25})

	for _, path := range []string{sess + "/ledger", sess + "/ledger.csv"} {
		if st, _, _, err := c.Raw(path, ""); err != nil || st != 401 {
			t.Errorf("GET %s without token: %d %v", path, st, err)
		}
		if st, _, _, err := c.Raw(path, c.NewSession(t, 0).Token); err != nil || st != 403 {
			t.Errorf("GET %s with another session's token: %d %v", path, st, err)
		}
	}
	l := c.must(t, 200, "GET", sess+"/ledger", s.Token, nil)
	if num(t, l, "epsilon_spent") != 1 || num(t, l, "epsilon_remaining") != 2 || num(t, l, "epsilon_budget") != 3 {
		t.Errorf("ledger totals: %v", l)
	}
	rels, _ := l["releases"].([]any)
	if len(rels) != 3 {
		t.Fatalf("ledger has %d releases, want 3", len(rels))
	}
	for i, want := range []struct{ act, eps, total float64 }{{1, 0.25, 0.25}, {2, 0.5, 0.75}, {1, 0.25, 1}} {
		r := rels[i].(map[string]any)
		if num(t, r, "seq") != float64(i+1) || num(t, r, "activity") != want.act || num(t, r, "epsilon") != want.eps ||
			num(t, r, "epsilon_total") != want.total || num(t, r, "created") <= 0 || r["result"] == nil {
			t.Errorf("ledger release %d: %v", i+1, r)
		}
	}
	acts, _ := l["activities"].([]any)
	if len(acts) != 2 || num(t, acts[0].(map[string]any), "epsilon_spent") != 0.5 || num(t, acts[1].(map[string]any), "epsilon_spent") != 0.5 {
		t.Errorf("ledger activities: %v", acts)
	}

	st, hdr, body, err := c.Raw(sess+"/ledger.csv", s.Token)
	if err != nil || st != 200 {
		t.Fatalf("GET ledger.csv: %d %v", st, err)
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("ledger.csv content type %q", ct)
	}
	if cd := hdr.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
		t.Errorf("ledger.csv content disposition %q", cd)
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("ledger.csv does not parse: %v\n%s", err, body)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != "seq,time_utc,activity,kind,prompt,epsilon,epsilon_total,epsilon_budget,participants,result" {
		t.Fatalf("ledger.csv rows:\n%s", body)
	}
	if r := rows[2]; r[2] != "2" || r[3] != "pricing" || r[5] != "0.5" || r[6] != "0.75" || r[8] != "1" {
		t.Errorf("ledger.csv's pricing row: %q", r)
	}
	for _, r := range rows[1:] {
		for _, x := range r {
			if x != "" && strings.ContainsRune("=+@", rune(x[0])) {
				t.Errorf("ledger.csv cell %q would run as a formula", x)
			}
		}
	}
	if !strings.Contains(body, "'+cmd") {
		t.Errorf("the prompt +cmd is not defused in\n%s", body)
	}
	if leaks := Leaks(body + fmt.Sprint(l)); leaks != nil {
		t.Errorf("the export contains the submitted %q", leaks)
	}
}

// testNoise asks what ε means before a release: data-independent figures
// that change with ε as the mechanisms say.
func testNoise(t *testing.T, c *Client) {
	s := c.NewSession(t, 0)
	h := c.NewActivity(t, s, map[string]any{"kind": "histogram", "min": 0, "max": 10, "bins": 5})
	m := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"Mon", "Tue", "Wed", "Thu", "Fri"}})
	p := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 5, 10}})
	c.must(t, 200, "PUT", h+"/submissions/u", "", map[string]any{"value": 918273.645 / 1e5})
	n := c.must(t, 200, "GET", h+"/noise?epsilon=0.5", "", nil)
	// Scale 2/ε = 4; Pr[|Y| > k] = 2p^{k+1}/(1+p) with p = e^{−1/4} first drops to 0.1 or below at k = 9 (0.092; 0.119 at k = 8).
	if num(t, n, "scale") != 4 || num(t, n, "within_90") != 9 || n["mechanism"] != "discrete Laplace" {
		t.Errorf("histogram noise at ε = 0.5: %v", n)
	}
	if sd := num(t, n, "sd"); math.Abs(sd-5.6) > 0.1 {
		t.Errorf("histogram noise sd at ε = 0.5: %v, want about 5.6", sd)
	}
	if n2 := c.must(t, 200, "GET", h+"/noise?epsilon=2", "", nil); num(t, n2, "within_90") >= num(t, n, "within_90") {
		t.Errorf("a larger ε does not narrow the noise: %v", n2)
	}
	n = c.must(t, 200, "GET", m+"/noise?epsilon=1", "", nil)
	leads, _ := n["leads"].([]any)
	if len(leads) == 0 {
		t.Fatalf("meeting-day noise: %v", n)
	}
	for _, x := range leads {
		l := x.(map[string]any)
		g := num(t, l, "lead")
		if want := 1 / (1 + 4*math.Exp(-g/2)); math.Abs(num(t, l, "win")-want) > 1e-12 {
			t.Errorf("a lead of %v at ε = 1 wins with %v, want %v", g, l["win"], want)
		}
	}
	n = c.must(t, 200, "GET", p+"/noise?epsilon=1", "", nil)
	if want := 2 * 10 * (math.Log(4) + math.Log(10)); num(t, n, "sensitivity") != 10 || math.Abs(num(t, n, "shortfall_90")-want) > 1e-9 {
		t.Errorf("pricing noise at ε = 1: %v, want shortfall %v", n, want)
	}
	for _, q := range []string{"", "?epsilon=", "?epsilon=0", "?epsilon=-1", "?epsilon=11", "?epsilon=NaN", "?epsilon=Inf",
		"?epsilon=1e400", "?epsilon=abc", "?epsilon=1&epsilon=2", "?epsilon=1&x=1", "?epsilon=" + strings.Repeat("1", 40)} {
		if r, err := c.Do("GET", h+"/noise"+q, "", nil); err != nil || r.Status != 422 {
			t.Errorf("noise%s: %+v %v, want 422", q, r, err)
		}
	}
	if r, err := c.Do("GET", h+"/noise?epsilon=0.000000001", "", nil); err != nil || r.Status != 422 {
		t.Errorf("histogram noise below its smallest ε: %+v %v, want 422", r, err)
	}
}
