package lecture

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Schema is the one definition of the lecture database, shared by SQLite
// (`dpplay serve`) and D1 (`cmd/worker`). worker/migrations/0001_schema.sql is
// generated from it by `go generate ./lecture/` and a test keeps the two equal.
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
//     who has joined, one row per (session, student), so the roster check
//     is a count over one index range inside the statement that adds a
//     student.
//   - guesses counts failed join-code lookups per client address and time
//     window; on Workers nothing survives in memory, so the rate limit must
//     live here.
const Schema = `CREATE TABLE IF NOT EXISTS sessions (
  code TEXT PRIMARY KEY,
  token_hash BLOB NOT NULL,
  budget REAL NOT NULL,
  created INTEGER NOT NULL,
  roster INTEGER NOT NULL DEFAULT 1000,
  door_open INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS students (
  session TEXT NOT NULL REFERENCES sessions(code),
  student TEXT NOT NULL,
  joined INTEGER NOT NULL,
  PRIMARY KEY (session, student)
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

// MigrationHeader starts the generated D1 migration file.
const MigrationHeader = "-- Generated from lecture.Schema by `go generate ./lecture/`; do not edit.\n"

// Statements splits Schema into its statements (D1's exec and database/sql
// drivers each want one at a time).
func Statements() []string {
	var out []string
	for _, s := range strings.Split(Schema, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Migrate creates the tables if they do not exist. `dpplay serve` calls it at
// start; on Workers the same statements are applied by
// `wrangler d1 migrations apply` instead, since running them on every request
// (each one a fresh instance) would waste a round trip.
//
// A database made before sessions had a roster gets the two columns added
// (CREATE TABLE IF NOT EXISTS leaves an existing table as it is).
func Migrate(ctx context.Context, db *sql.DB) error {
	for _, s := range Statements() {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("lecture: migrate: %w", err)
		}
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = 'roster'`).Scan(&n); err != nil {
		return fmt.Errorf("lecture: migrate: %w", err)
	}
	if n == 0 {
		for _, s := range []string{
			`ALTER TABLE sessions ADD COLUMN roster INTEGER NOT NULL DEFAULT 1000`,
			`ALTER TABLE sessions ADD COLUMN door_open INTEGER NOT NULL DEFAULT 1`,
		} {
			if _, err := db.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("lecture: migrate: %w", err)
			}
		}
	}
	return nil
}

//go:generate go run ./internal/genschema ../worker/migrations/0001_schema.sql
