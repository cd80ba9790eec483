// Package sqlitedb opens the lecture database in an SQLite file for
// `dpplay serve`, using modernc.org/sqlite (pure Go, no cgo).
//
// It lives apart from package lecture so that the Workers build, which
// talks to D1 instead, never links the SQLite engine.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/dpplay/dpplay/lecture"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Readers is the size of the read pool. Reads never wait for the writer
// under WAL, so a few connections keep both cores busy.
const Readers = 4

// WALLimit bounds the write-ahead log. SQLite checkpoints the log into the
// database every 1,000 pages, but it can only start the log over when no
// reader is using it, and under a class polling every second and a half
// there may never be such a moment: the log then grew by about 9 KB per
// answer (192 MB beside a 2.2 MB database). So a checkpointer checks the
// log's size every CheckpointEvery and, past WALLimit, runs a TRUNCATE
// checkpoint, which waits (at most a tenth of a second) for the readers of
// the moment to finish, writes the log into the database and empties it;
// journal_size_limit also truncates the log to WALLimit whenever SQLite
// starts it over by itself.
const (
	WALLimit        = 4 << 20
	CheckpointEvery = time.Second
)

// Store is an open lecture database: one connection for writes and a pool
// for reads, over the same file.
type Store struct {
	Write, Read *sql.DB

	path string
	stop chan struct{}
	done chan struct{}
}

// Options returns o with the read pool filled in, for lecture.New.
func (s *Store) Options(o lecture.Options) lecture.Options {
	o.Reader = s.Read
	return o
}

// Close stops the checkpointer and closes both pools; closing the last
// connection checkpoints the WAL.
func (s *Store) Close() error {
	close(s.stop)
	<-s.done
	return errors.Join(s.Read.Close(), s.Write.Close())
}

// checkpoint keeps the WAL under WALLimit (see WALLimit).
func (s *Store) checkpoint() {
	defer close(s.done)
	t := time.NewTicker(CheckpointEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		if st, err := os.Stat(s.path + "-wal"); err != nil || st.Size() <= WALLimit {
			continue
		}
		s.Truncate(context.Background())
	}
}

// Truncate runs a TRUNCATE checkpoint on the writer connection, waiting at
// most 100 ms for readers; if they do not finish in time it gives up until
// the next tick, and the writer is busy for no longer than that.
func (s *Store) Truncate(ctx context.Context) error {
	c, err := s.Write.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `PRAGMA busy_timeout = 100`); err != nil {
		return err
	}
	defer c.ExecContext(ctx, `PRAGMA busy_timeout = 10000`)
	var busy, log, done int
	return c.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &log, &done)
}

// Open opens (creating if needed) the SQLite file at path and applies the
// lecture schema's steps it lacks (migrate).
//
// The pragmas are what makes an acknowledged submission durable: WAL
// journaling with synchronous=FULL fsyncs the log on every commit, and the
// handler replies only after its statement has committed, so a reply the
// client saw survives kill -9 (and a power cut). There is one writer
// connection: SQLite runs one write at a time anyway, and queueing writers
// in Go's pool is fair and fast where SQLite's busy handler sleeps and
// retries (that gave a p99 of seconds under 500 concurrent students).
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, fmt.Errorf("sqlitedb: empty database path")
	}
	open := func(pragmas ...string) (*sql.DB, error) {
		q := url.Values{}
		for _, p := range append([]string{"busy_timeout(10000)", "foreign_keys(1)"}, pragmas...) {
			q.Add("_pragma", p)
		}
		return sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	}
	w, err := open("journal_mode(WAL)", "synchronous(FULL)", fmt.Sprintf("journal_size_limit(%d)", WALLimit))
	if err != nil {
		return nil, fmt.Errorf("sqlitedb: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlitedb: %s: %w", path, err)
	}
	r, err := open("query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlitedb: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(Readers)
	r.SetMaxIdleConns(Readers)
	st := &Store{Write: w, Read: r, path: path, stop: make(chan struct{}), done: make(chan struct{})}
	go st.checkpoint()
	return st, nil
}

// migrate applies the lecture.Steps db has not applied yet, counting them in
// SQLite's user_version. On Workers `wrangler d1 migrations apply` applies
// the same files instead, since running them on every request (each one a
// fresh instance) would waste a round trip. A database made before
// user_version was kept (0) with its tables already there redoes step 1,
// whose statements all say IF NOT EXISTS.
func migrate(ctx context.Context, db *sql.DB) error {
	var done int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&done); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if done > len(lecture.Steps) {
		return fmt.Errorf("migrate: the database is at schema step %d, newer than this program's %d", done, len(lecture.Steps))
	}
	for i, step := range lecture.Steps[done:] {
		// One transaction for the step and the version bump: a step half
		// applied would otherwise be redone.
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		for _, s := range append(statements(step.SQL), fmt.Sprintf("PRAGMA user_version = %d", done+i+1)) {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				tx.Rollback()
				return fmt.Errorf("migrate %s: %w", step.Name, err)
			}
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	return nil
}

// statements splits a migration into its statements, which database/sql
// drivers want one at a time: it drops the comment lines (-- …) and splits
// at each semicolon that ends a line.
func statements(sql string) []string {
	var code strings.Builder
	for line := range strings.Lines(sql) {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			code.WriteString(line)
		}
	}
	var out []string
	for _, s := range strings.Split(code.String(), ";\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
