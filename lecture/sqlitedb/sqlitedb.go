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

	"github.com/dpplay/dpplay/lecture"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Readers is the size of the read pool. Reads never wait for the writer
// under WAL, so a few connections keep both cores busy.
const Readers = 4

// Store is an open lecture database: one connection for writes and a pool
// for reads, over the same file.
type Store struct {
	Write, Read *sql.DB
}

// Options returns o with the read pool filled in, for lecture.New.
func (s *Store) Options(o lecture.Options) lecture.Options {
	o.Reader = s.Read
	return o
}

// Close closes both pools; closing the last connection checkpoints the WAL.
func (s *Store) Close() error {
	return errors.Join(s.Read.Close(), s.Write.Close())
}

// Open opens (creating if needed) the SQLite file at path and applies the
// lecture schema.
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
	w, err := open("journal_mode(WAL)", "synchronous(FULL)")
	if err != nil {
		return nil, fmt.Errorf("sqlitedb: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	if err := lecture.Migrate(ctx, w); err != nil {
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
	return &Store{Write: w, Read: r}, nil
}
