package lecture

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The lecture database is defined once, as the steps of Migrations, shared by
// SQLite (`dpplay serve`) and D1 (`cmd/worker`).
//
// Why each table looks as it does:
//   - sessions keeps only a SHA-256 of the instructor token, so a copy of the
//     database does not hand out instructor rights.
//   - submissions has one row per (session, activity, student): an upsert on
//     that key is what makes PUT idempotent.
//   - releases is also the privacy ledger: the ε a session has spent is the sum
//     of its releases' ε, so a release and its charge are written by one
//     statement and can never disagree.
//   - sessions.roster is the most distinct students who may answer and
//     sessions.door_open whether new ones may still join; students lists
//     who has joined, one row per (session, student). The statement that
//     stores an answer checks the door and counts students (one range of
//     their primary-key index) in its WHERE clause, and the trigger
//     submissions_join adds the student inside that same statement, so an
//     answer is one atomic write whether or not it is the student's first.
//   - guesses counts failed join-code lookups per client address and time
//     window; on Workers nothing survives in memory, so the rate limit must
//     live here.
const schemaV1 = `CREATE TABLE IF NOT EXISTS sessions (
  code TEXT PRIMARY KEY,
  token_hash BLOB NOT NULL,
  budget REAL NOT NULL,
  created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS activities (
  session TEXT NOT NULL REFERENCES sessions(code),
  id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  config TEXT NOT NULL,
  closed INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  PRIMARY KEY (session, id)
);
CREATE TABLE IF NOT EXISTS submissions (
  session TEXT NOT NULL,
  activity INTEGER NOT NULL,
  student TEXT NOT NULL,
  answer TEXT NOT NULL,
  updated INTEGER NOT NULL,
  PRIMARY KEY (session, activity, student),
  FOREIGN KEY (session, activity) REFERENCES activities(session, id)
);
CREATE TABLE IF NOT EXISTS releases (
  session TEXT NOT NULL REFERENCES sessions(code),
  seq INTEGER NOT NULL,
  activity INTEGER NOT NULL,
  epsilon REAL NOT NULL,
  participants INTEGER NOT NULL,
  result TEXT NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (session, seq)
);
CREATE INDEX IF NOT EXISTS releases_by_activity ON releases (session, activity, seq);
CREATE TABLE IF NOT EXISTS guesses (
  client TEXT NOT NULL,
  win INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  PRIMARY KEY (client, win)
);
`

// schemaRoster gives sessions a roster and a door, and lists who has joined
// (docs/security.md, finding 4). ALTER TABLE has no IF NOT EXISTS, so this
// step runs once per database: D1 records the migrations it has applied, and
// Migrate records them in SQLite's user_version.
//
// Students who answered before this step are put on their sessions'
// rosters, so that every student with a submission is on the roster: the
// trigger fires on an answer's first insert only, and an old student's
// later answer to the same activity is an update.
const schemaRoster = `ALTER TABLE sessions ADD COLUMN roster INTEGER NOT NULL DEFAULT 1000;
ALTER TABLE sessions ADD COLUMN door_open INTEGER NOT NULL DEFAULT 1;
CREATE TABLE IF NOT EXISTS students (
  session TEXT NOT NULL REFERENCES sessions(code),
  student TEXT NOT NULL,
  joined INTEGER NOT NULL,
  PRIMARY KEY (session, student)
);
INSERT OR IGNORE INTO students (session, student, joined)
SELECT session, student, MIN(updated) FROM submissions GROUP BY session, student;
CREATE TRIGGER IF NOT EXISTS submissions_join AFTER INSERT ON submissions
BEGIN INSERT INTO students (session, student, joined) VALUES (NEW.session, NEW.student, NEW.updated) ON CONFLICT (session, student) DO NOTHING; END;
`

// schemaLecture makes a session the whole lecture:
// sessions.current is the activity the projector shows and the phones
// follow, 0 before the instructor picks one.
const schemaLecture = `ALTER TABLE sessions ADD COLUMN current INTEGER NOT NULL DEFAULT 0;
`

// Migrations are the schema's steps in order; a database has applied the
// first k of them. A change to the schema is a new step at the end, never an
// edit of one that databases may already have applied.
// worker/migrations/<Name>.sql are generated from them by
// `go generate ./lecture/`, and a test keeps them equal.
var Migrations = []struct{ Name, SQL string }{
	{"0001_schema", schemaV1},
	{"0002_roster", schemaRoster},
	{"0003_lecture", schemaLecture},
}

// MigrationHeader starts each generated D1 migration file.
const MigrationHeader = "-- Generated from lecture.Migrations by `go generate ./lecture/`; do not edit.\n"

// statements splits a migration into its statements (D1's exec and
// database/sql drivers each want one at a time). A statement ends with a
// semicolon at the end of a line, so a trigger keeps the semicolons inside
// its BEGIN … END on one line.
func statements(sql string) []string {
	var out []string
	for _, s := range strings.Split(sql, ";\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Migrate applies the Migrations db has not applied yet, counting them in
// SQLite's user_version. `dpplay serve` calls it at start; on Workers
// `wrangler d1 migrations apply` applies the same steps instead, since
// running them on every request (each one a fresh instance) would waste a
// round trip. A database made before user_version was kept (0) with its
// tables already there redoes step 1, whose statements all say IF NOT EXISTS.
func Migrate(ctx context.Context, db *sql.DB) error {
	var done int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&done); err != nil {
		return fmt.Errorf("lecture: migrate: %w", err)
	}
	if done > len(Migrations) {
		return fmt.Errorf("lecture: migrate: the database is at schema step %d, newer than this program's %d", done, len(Migrations))
	}
	for i := done; i < len(Migrations); i++ {
		// One connection, so that the steps and the version bump share a
		// transaction: a step half applied would otherwise be redone.
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("lecture: migrate: %w", err)
		}
		for _, s := range append(statements(Migrations[i].SQL), fmt.Sprintf("PRAGMA user_version = %d", i+1)) {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				tx.Rollback()
				return fmt.Errorf("lecture: migrate %s: %w", Migrations[i].Name, err)
			}
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("lecture: migrate: %w", err)
		}
	}
	return nil
}

//go:generate go run ./internal/genschema ../worker/migrations
