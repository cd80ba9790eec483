package lecture

import (
	"context"
	"database/sql"
	"sync"
)

// stmts caches prepared statements per pool. Parsing the SQL was a quarter
// of the server's CPU time under load with SQLite; on Workers the handler
// lives for one request, so the cache only ever holds that request's few
// statements.
type stmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func (c *stmts) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[query]; ok {
		return s, nil
	}
	s, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = s
	return s, nil
}

// pool returns the cache of db (the writer or the reader).
func (h *Handler) pool(db *sql.DB) *stmts {
	if db == h.db {
		return &h.wstmts
	}
	return &h.rstmts
}

func (h *Handler) exec(ctx context.Context, db *sql.DB, query string, args ...any) (sql.Result, error) {
	s, err := h.pool(db).get(ctx, db, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

func (h *Handler) query(ctx context.Context, db *sql.DB, query string, args ...any) (*sql.Rows, error) {
	s, err := h.pool(db).get(ctx, db, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// queryRow runs a one-row query and scans it into dest; no row is
// sql.ErrNoRows.
func (h *Handler) queryRow(ctx context.Context, db *sql.DB, query string, dest []any, args ...any) error {
	s, err := h.pool(db).get(ctx, db, query)
	if err != nil {
		return err
	}
	return s.QueryRowContext(ctx, args...).Scan(dest...)
}
