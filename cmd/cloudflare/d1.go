//go:build js && wasm

package main

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"math"
	"sync"
	"syscall/js"
)

// d1Conn is a database/sql connection to D1 that does no I/O itself: each
// statement becomes an operation {req, key, kind, sql, args} handed to the
// entry module's bridge.enqueue, and the calling goroutine waits until the
// loop of request req, which alone may use that request's D1 binding,
// performs it and calls resolve(key, value, error). workerd ties every
// I/O call to the request that made it, and Go's one event loop runs on
// behalf of whichever request resumed it, so Go must never call the
// binding (docs/lecture.md, "Go on Workers").
type d1Conn struct{ req int }

var (
	_ driver.Connector          = d1Conn{}
	_ driver.Conn               = d1Conn{}
	_ driver.ConnPrepareContext = d1Conn{}
)

func (c d1Conn) Connect(context.Context) (driver.Conn, error) { return c, nil }
func (c d1Conn) Driver() driver.Driver                        { return d1Driver{} }
func (c d1Conn) Prepare(query string) (driver.Stmt, error)    { return &d1Stmt{c.req, query}, nil }
func (c d1Conn) Close() error                                 { return nil }

func (c d1Conn) PrepareContext(_ context.Context, query string) (driver.Stmt, error) {
	return c.Prepare(query)
}

func (c d1Conn) Begin() (driver.Tx, error) {
	return nil, errors.New("d1: transactions are not supported")
}

type d1Driver struct{}

func (d1Driver) Open(string) (driver.Conn, error) {
	return nil, errors.New("d1: open through the request's connector")
}

// d1Stmt is a statement's SQL; D1 prepares it when the request loop runs it.
type d1Stmt struct {
	req   int
	query string
}

var (
	_ driver.StmtExecContext  = (*d1Stmt)(nil)
	_ driver.StmtQueryContext = (*d1Stmt)(nil)
)

func (s *d1Stmt) Close() error  { return nil }
func (s *d1Stmt) NumInput() int { return -1 }

func (s *d1Stmt) Exec([]driver.Value) (driver.Result, error) {
	return nil, errors.New("d1: use ExecContext")
}

func (s *d1Stmt) Query([]driver.Value) (driver.Rows, error) {
	return nil, errors.New("d1: use QueryContext")
}

// ExecContext runs the statement with D1's run(); the value handed back is
// {changes, lastRowId}.
func (s *d1Stmt) ExecContext(_ context.Context, args []driver.NamedValue) (driver.Result, error) {
	v, err := call(s.req, "exec", s.query, args)
	if err != nil {
		return nil, err
	}
	return d1Result{lastID: int64(v.Get("lastRowId").Float()), changes: int64(v.Get("changes").Float())}, nil
}

// QueryContext runs the statement with D1's raw({columnNames: true}): an
// array of rows, the first one the column names unless there are no rows.
func (s *d1Stmt) QueryContext(_ context.Context, args []driver.NamedValue) (driver.Rows, error) {
	v, err := call(s.req, "query", s.query, args)
	if err != nil {
		return nil, err
	}
	r := &d1Rows{rows: v, n: v.Length(), at: 1}
	if r.n > 0 {
		names := v.Index(0)
		for i := range names.Length() {
			r.cols = append(r.cols, names.Index(i).String())
		}
	}
	return r, nil
}

type d1Result struct{ lastID, changes int64 }

func (r d1Result) LastInsertId() (int64, error) { return r.lastID, nil }
func (r d1Result) RowsAffected() (int64, error) { return r.changes, nil }

type d1Rows struct {
	rows  js.Value
	n, at int
	cols  []string
}

func (r *d1Rows) Columns() []string { return r.cols }
func (r *d1Rows) Close() error      { return nil }

func (r *d1Rows) Next(dest []driver.Value) error {
	if r.at >= r.n {
		return io.EOF
	}
	row := r.rows.Index(r.at)
	r.at++
	for i := range min(row.Length(), len(dest)) {
		v, err := goValue(row.Index(i))
		if err != nil {
			return err
		}
		dest[i] = v
	}
	return nil
}

// goValue converts a D1 column value (null, number, string or ArrayBuffer);
// integral numbers become int64.
func goValue(v js.Value) (driver.Value, error) {
	switch v.Type() {
	case js.TypeNull, js.TypeUndefined:
		return nil, nil
	case js.TypeNumber:
		f := v.Float()
		if f == math.Trunc(f) && !math.IsInf(f, 0) {
			return int64(f), nil
		}
		return f, nil
	case js.TypeString:
		return v.String(), nil
	case js.TypeObject:
		src := js.Global().Get("Uint8Array").New(v)
		b := make([]byte, src.Length())
		js.CopyBytesToGo(b, src)
		return b, nil
	}
	return nil, errors.New("d1: unexpected column value type")
}

// outcome is what the request loop hands back for one operation.
type outcome struct {
	value js.Value
	err   string
}

// pending is an operation whose outcome a goroutine waits for.
type pending struct {
	req int
	ch  chan outcome
}

var (
	mu      sync.Mutex
	lastKey int
	waiting = map[int]pending{}
)

// call enqueues one operation for request req and waits for its outcome.
func call(req int, kind, query string, args []driver.NamedValue) (js.Value, error) {
	jargs := make([]any, len(args))
	for i, a := range args {
		if b, ok := a.Value.([]byte); ok {
			u := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(u, b)
			jargs[i] = u
		} else {
			jargs[i] = a.Value
		}
	}
	ch := make(chan outcome, 1)
	mu.Lock()
	lastKey++
	key := lastKey
	waiting[key] = pending{req, ch}
	mu.Unlock()
	if !bridge().Call("enqueue", map[string]any{"req": req, "key": key, "kind": kind, "sql": query, "args": jargs}).Bool() {
		mu.Lock()
		delete(waiting, key)
		mu.Unlock()
		return js.Undefined(), errors.New("d1: the request has ended")
	}
	o := <-ch
	if o.err != "" {
		return js.Undefined(), errors.New("d1: " + o.err)
	}
	return o.value, nil
}

// resolve is binding.resolve(key, value, error): the outcome of operation
// key, error "" on success. It only wakes the waiting goroutine, which runs
// before resolve returns to JavaScript.
func resolve(_ js.Value, args []js.Value) any {
	key := args[0].Int()
	mu.Lock()
	p, ok := waiting[key]
	delete(waiting, key)
	mu.Unlock()
	if ok {
		p.ch <- outcome{value: args[1], err: args[2].String()}
	}
	return nil
}

// abandon is binding.abandon(req): the entry module has taken request req
// for lost (workerd cancels a request whose client went away and runs no
// more of its code), so its operations will never be performed. Their
// goroutines get an error instead of waiting forever in the long-lived
// instance.
func abandon(_ js.Value, args []js.Value) any {
	req := args[0].Int()
	mu.Lock()
	var lost []chan outcome
	for key, p := range waiting {
		if p.req == req {
			lost = append(lost, p.ch)
			delete(waiting, key)
		}
	}
	mu.Unlock()
	for _, ch := range lost {
		ch <- outcome{err: "the request was taken for lost"}
	}
	return nil
}
