package lecture_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/lecturetest"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

// answerServer is the handler over a fresh SQLite file with opts, the
// client address taken from X-Test-IP and the clock stopped; it returns
// the client, the database and a session with one activity.
func answerServer(t *testing.T, opts lecture.Options) (*lecturetest.Client, *sqlitedb.Store, lecturetest.Session, string) {
	t.Helper()
	db, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "lecture.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Unix(1_800_000_000, 0)
	opts.Now = func() time.Time { return now }
	opts.ClientIP = func(r *http.Request) string { return r.Header.Get("X-Test-IP") }
	opts.Logf = t.Logf
	h, err := lecture.New(db.Write, db.Options(opts))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := lecturetest.NewClient(srv.URL)
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "meeting-day", "options": []string{"A", "B"}})
	return c, db, s, a
}

func putFrom(t *testing.T, c *lecturetest.Client, ip, path string) *lecturetest.Response {
	t.Helper()
	h := http.Header{"Content-Type": {"application/json"}, "X-Test-IP": {ip}}
	r, err := c.DoHeader("PUT", path, "", map[string]any{"available": []int{1}}, h)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Issue 43, finding 2: answers are limited per student id (StudentBurst,
// then StudentRate a second) and per address (twice WriteRate, then
// WriteRate a second), each refusal a 429 with Retry-After; another id,
// another address are answered meanwhile. The id's answers come from as
// many addresses, each within its own allowance, as a flood through
// Cloudflare does (every visitor its own CF-Connecting-IP), so only the
// limit per id can refuse them.
func TestAnswerLimits(t *testing.T) {
	t.Parallel()
	c, _, _, a := answerServer(t, lecture.Options{WriteRate: 5})
	got := map[int]int{}
	for i := range 3 * lecture.StudentBurst {
		got[putFrom(t, c, fmt.Sprintf("10.0.1.%d", i), a+"/submissions/eager").Status]++
	}
	if got[200] != lecture.StudentBurst || got[429] != 2*lecture.StudentBurst {
		t.Errorf("%d answers of one id at once, each from its own address: %v, want %d stored", 3*lecture.StudentBurst, got, lecture.StudentBurst)
	}
	got = map[int]int{}
	var retry string
	for i := range 15 {
		r := putFrom(t, c, "10.0.0.2", fmt.Sprintf("%s/submissions/s%d", a, i))
		got[r.Status]++
		if r.Status == 429 {
			retry = r.Header.Get("Retry-After")
		}
	}
	if got[200] != 10 || got[429] != 5 || retry != "1" {
		t.Errorf("15 ids from one address at a rate of 5 a second: %v (Retry-After %q), want 10 stored and 5 refused after 1 s", got, retry)
	}
	if r := putFrom(t, c, "10.0.0.3", a+"/submissions/other"); r.Status != 200 {
		t.Errorf("another address: %d %s", r.Status, r.Raw)
	}
}

// A new student refused because the door is closed, or because their
// address has added its JoinLimit students, writes nothing: no count is
// kept for them (the count was written before the door was checked, and
// went on growing past the limit).
func TestRefusedAnswerWritesNothing(t *testing.T) {
	t.Parallel()
	c, db, s, a := answerServer(t, lecture.Options{JoinLimit: 3})
	counted := func() (n int64) {
		if err := db.Write.QueryRow(`SELECT COALESCE(SUM(failures), 0) FROM guesses WHERE client LIKE 'join:%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	c.Must(t, 200, "POST", "/api/sessions/"+s.Code+"/door", s.Token, map[string]any{"open": false})
	for i := range 20 {
		if r := putFrom(t, c, "10.0.0.1", fmt.Sprintf("%s/submissions/closed%d", a, i)); r.Status != 403 {
			t.Fatalf("a new id at a closed door: %d %s", r.Status, r.Raw)
		}
	}
	if n := counted(); n != 0 {
		t.Errorf("20 new ids refused at the closed door counted %d joins", n)
	}
	c.Must(t, 200, "POST", "/api/sessions/"+s.Code+"/door", s.Token, map[string]any{"open": true})
	got := map[int]int{}
	for i := range 8 {
		got[putFrom(t, c, "10.0.0.1", fmt.Sprintf("%s/submissions/open%d", a, i)).Status]++
	}
	if got[200] != 3 || got[429] != 5 {
		t.Errorf("8 new ids with a join limit of 3: %v", got)
	}
	if n := counted(); n != 3 {
		t.Errorf("3 joins and 5 refused counted %d, want 3", n)
	}
}

// The instructor's writes go ahead of the class's: with every class
// writer's slot taken (ClassWriters answers waiting for the database), a
// student's answer waits while the instructor's door, activity and
// release requests are answered; given a slot, the answer is stored.
func TestInstructorWritesAheadOfTheClass(t *testing.T) {
	t.Parallel()
	m := lecture.NewMemory()
	c, _, s, a := answerServer(t, lecture.Options{Memory: m})
	putFrom(t, c, "10.0.0.1", a+"/submissions/first") // something to release
	release := m.HoldClassWrites(lecture.ClassWriters)
	done := make(chan int, 1)
	go func() { done <- putFrom(t, c, "10.0.0.2", a+"/submissions/waiting").Status }()
	sess := "/api/sessions/" + s.Code
	c.Must(t, 200, "POST", sess+"/door", s.Token, map[string]any{"open": true})
	c.Must(t, 201, "POST", sess+"/activities", s.Token, map[string]any{"kind": "meeting-day", "options": []string{"C", "D"}})
	c.Must(t, 201, "POST", a+"/releases", s.Token, map[string]any{"epsilon": 0.5})
	select {
	case st := <-done:
		release()
		t.Fatalf("a student's answer was answered (%d) while every class writer's slot was taken", st)
	default:
	}
	release()
	if st := <-done; st != 200 {
		t.Errorf("the waiting answer, given a slot: %d", st)
	}
}
