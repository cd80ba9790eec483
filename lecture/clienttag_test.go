package lecture_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/lecturetest"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

// Issue 43, finding 6: what the database keeps of a student's address
// cannot be recomputed from the session code and the address, as the
// SHA-256 it used to be could (127.0.0.1 in 7 guesses): it is HMAC-SHA256
// under a secret the database does not hold, so two processes over the
// same file (a restart) keep different tags for one address, and with a
// known secret it is exactly that HMAC. The counts of wrong codes, joins
// and new sessions hold no address either.
func TestStoredClientIsKeyed(t *testing.T) {
	t.Parallel()
	db, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "lecture.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	client := func(opts lecture.Options) *lecturetest.Client {
		opts.Logf = t.Logf
		opts.Memory = lecture.NewMemory() // a process of its own
		opts.ClientIP = func(r *http.Request) string { return r.Header.Get("X-Test-IP") }
		h, err := lecture.New(db.Write, db.Options(opts))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return lecturetest.NewClient(srv.URL)
	}
	first, restarted, keyed := client(lecture.Options{}), client(lecture.Options{}), client(lecture.Options{ClientSecret: []byte("k")})
	s := first.NewSession(t, 0)
	a := first.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	const ip = "10.9.8.7"
	for id, c := range map[string]*lecturetest.Client{"one": first, "two": restarted, "three": keyed} {
		h := http.Header{"Content-Type": {"application/json"}, "X-Test-IP": {ip}}
		if r, err := c.DoHeader("PUT", a+"/submissions/"+id, "", map[string]any{"available": []int{1}}, h); err != nil || r.Status != 200 {
			t.Fatalf("answer %s: %v %+v", id, err, r)
		}
	}
	first.GetStatus(t, "/api/sessions/ZZZZZZZZ", "X-Test-IP", ip) // a wrong code, counted
	first.DoHeader("POST", "/api/sessions", "", map[string]any{}, http.Header{"Content-Type": {"application/json"}, "X-Test-IP": {ip}})

	tag := map[string]string{}
	rows, err := db.Write.Query(`SELECT s.student, s.client, u.client FROM students s JOIN submissions u ON u.session = s.session AND u.student = s.student WHERE s.session = ?`, s.Code)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, c, cu string
		rows.Scan(&id, &c, &cu)
		if c != cu {
			t.Errorf("%s: students.client %q, submissions.client %q", id, c, cu)
		}
		tag[id] = c
	}
	rows.Close()
	sum := func(s string) string { b := sha256.Sum256([]byte(s)); return hex.EncodeToString(b[:8]) }
	for id, c := range tag {
		for _, guess := range []string{sum(s.Code + "\x00" + ip), sum(s.Code + ip), sum(ip), ip} {
			if c == guess {
				t.Errorf("%s: the stored client %q is recomputed from the code and the address", id, c)
			}
		}
	}
	if tag["one"] == tag["two"] {
		t.Errorf("two processes keep the same tag %q for one address: it does not depend on a secret of theirs", tag["one"])
	}
	mac := hmac.New(sha256.New, []byte("k"))
	mac.Write([]byte(s.Code + "\x00" + ip))
	if want := hex.EncodeToString(mac.Sum(nil)[:8]); tag["three"] != want {
		t.Errorf("with the secret k: tag %q, want HMAC-SHA256(k, code, address) %q", tag["three"], want)
	}
	var keys []string
	rows, err = db.Write.Query(`SELECT client FROM guesses`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		rows.Scan(&k)
		keys = append(keys, k)
	}
	rows.Close()
	if len(keys) < 2 {
		t.Errorf("counts kept: %q, want the wrong code and the join at least", keys)
	}
	for _, k := range keys {
		if strings.Contains(k, ip) {
			t.Errorf("a count is kept under the address itself: %q", k)
		}
	}
}
