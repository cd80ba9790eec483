package sqlitedb_test

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpplay/dpplay/lecture"
	"github.com/dpplay/dpplay/lecture/lecturetest"
	"github.com/dpplay/dpplay/lecture/sqlitedb"
)

// docs/security.md: a burst of answers while the class polls leaves the
// write-ahead log under WALLimit within a few checkpoint ticks, and the
// answers are all in the database.
func TestWALStaysBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal.db")
	store, err := sqlitedb.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	h, err := lecture.New(store.Write, store.Options(lecture.Options{Logf: t.Logf}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := lecturetest.NewClient(srv.URL)
	s := c.NewSession(t, 0)
	a := c.NewActivity(t, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2, 3}})
	const students, rounds = 300, 4
	res := lecturetest.Load(c, a, students, rounds, 0, 0,
		func(i, k int) string { return "s" + strconv.Itoa(i) },
		func(i, k int) float64 { return float64(i + k) }, func(int, int) {}, nil)
	if res.Failed != 0 {
		t.Fatalf("%d submissions failed", res.Failed)
	}
	var size int64
	for deadline := time.Now().Add(10 * time.Second); ; {
		st, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		size = st.Size()
		if size <= sqlitedb.WALLimit || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if size > sqlitedb.WALLimit {
		t.Errorf("WAL is %d bytes after %d answers, over the limit of %d", size, students*rounds, sqlitedb.WALLimit)
	}
	r, err := c.Do("GET", a, "", nil)
	if err != nil || r.JSON["participants"].(float64) != students {
		t.Errorf("after the burst: %v %+v", err, r)
	}
}

// A database made by the first schema step alone (as every `dpplay serve`
// before rosters made it, user_version 0) is brought up to date on open,
// keeping its sessions, and opening it again changes nothing.
func TestMigrateUpgradesAnOldDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(lecture.Steps[0].SQL); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`INSERT INTO sessions (code, token_hash, budget, created) VALUES ('AAAAAAAA', x'00', 3, 0)`,
		`INSERT INTO activities (session, id, kind, config, created) VALUES ('AAAAAAAA', 1, 'k', '{}', 0)`,
		`INSERT INTO submissions (session, activity, student, answer, updated) VALUES ('AAAAAAAA', 1, 'early', '{}', 7)`,
		`INSERT INTO releases (session, seq, activity, epsilon, participants, result, created) VALUES ('AAAAAAAA', 1, 1, 1e-17, 1, '{}', 9)`,
		`INSERT INTO releases (session, seq, activity, epsilon, participants, result, created) VALUES ('AAAAAAAA', 2, 1, 0.1, 1, '{}', 9)`,
	} {
		if _, err := old.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	for range 2 {
		store, err := sqlitedb.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		var roster, door, joined, version int
		if err := store.Read.QueryRow(`SELECT roster, door_open, (SELECT COUNT(*) FROM students WHERE student = 'early'), (SELECT user_version FROM pragma_user_version) FROM sessions WHERE code = 'AAAAAAAA'`).
			Scan(&roster, &door, &joined, &version); err != nil {
			t.Fatal(err)
		}
		// The student who answered before rosters is on the roster, so
		// their later answers (updates, which the trigger does not see)
		// count against it.
		if roster != lecture.DefaultRoster || door != 1 || joined != 1 || version != len(lecture.Steps) {
			t.Errorf("old session after migrating: roster %d, door %d, %d joined, schema step %d", roster, door, joined, version)
		}
		// Step 4 counts what the session held, in its counters, and its
		// ε in whole millionths, an old release rounded up, never down.
		var budgetUnits, spentUnits, touched, answers, acts int64
		if err := store.Read.QueryRow(`SELECT budget_units, (SELECT SUM(eps_units) FROM releases WHERE session = code), touched, answers,
  (SELECT answers FROM activities WHERE session = code AND id = 1) FROM sessions WHERE code = 'AAAAAAAA'`).
			Scan(&budgetUnits, &spentUnits, &touched, &answers, &acts); err != nil {
			t.Fatal(err)
		}
		if budgetUnits != 3_000_000 || spentUnits != 100_001 || touched < 9 || answers < 1 || acts != answers {
			t.Errorf("old session's counters: budget %d units, spent %d units, touched %d, %d answers (%d in activity 1)", budgetUnits, spentUnits, touched, answers, acts)
		}
		// A new answer puts its student on the roster in the same
		// statement (the trigger submissions_join).
		if _, err := store.Write.Exec(`INSERT INTO submissions (session, activity, student, answer, updated) VALUES ('AAAAAAAA', 1, 'late', '{}', 8) ON CONFLICT DO NOTHING`); err != nil {
			t.Fatal(err)
		}
		var late int
		if err := store.Read.QueryRow(`SELECT COUNT(*) FROM students WHERE session = 'AAAAAAAA' AND student = 'late' AND joined = 8`).Scan(&late); err != nil || late != 1 {
			t.Errorf("a new answer's student on the roster: %d rows, %v", late, err)
		}
		store.Close()
	}
}

// A fresh database holds every step's tables, columns, index and trigger, and
// records all the steps in user_version.
func TestOpenMigratesAFreshDatabase(t *testing.T) {
	store, err := sqlitedb.Open(context.Background(), filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var version int
	if err := store.Read.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != len(lecture.Steps) {
		t.Errorf("user_version %d (%v), want %d", version, err, len(lecture.Steps))
	}
	rows, err := store.Read.Query(`SELECT m.type, m.name, m.tbl_name, COALESCE(group_concat(c.name, ' ' ORDER BY c.cid), '')
		FROM sqlite_schema m LEFT JOIN pragma_table_info(m.name) c
		WHERE m.name NOT LIKE 'sqlite_%' GROUP BY m.type, m.name, m.tbl_name ORDER BY m.type, m.name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var kind, name, table, cols string
		if err := rows.Scan(&kind, &name, &table, &cols); err != nil {
			t.Fatal(err)
		}
		got = append(got, kind+" "+name+" on "+table+": "+cols)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"index releases_by_activity on releases: ",
		"index releases_by_request on releases: ",
		"index sessions_by_touched on sessions: ",
		"index students_by_client on students: ",
		"table activities on activities: session id kind config closed created answers",
		"table guesses on guesses: client win failures",
		"table releases on releases: session seq activity epsilon participants result created eps_units request",
		"table sessions on sessions: code token_hash budget created roster door_open current budget_units version touched joined addresses answers doors door_opened",
		"table students on students: session student joined client door",
		"table submissions on submissions: session activity student answer updated client",
		"trigger activities_change on activities: ",
		"trigger activities_new on activities: ",
		"trigger releases_new on releases: ",
		"trigger students_gone on students: ",
		"trigger students_join on students: ",
		"trigger submissions_change on submissions: ",
		"trigger submissions_gone on submissions: ",
		"trigger submissions_join on submissions: ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema of a fresh database:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
