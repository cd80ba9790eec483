//go:build js && wasm

// Command worker runs the lecture API on Cloudflare Workers with D1 as its
// database, through github.com/syumai/workers. It is the same
// lecture.Handler that `dpplay serve` mounts over SQLite; only the
// database/sql connector and the client-address source differ.
//
// Build (see the worker-build target of the Makefile):
//
//	go run github.com/syumai/workers/cmd/workers-assets-gen@v0.32.0 -mode=go -o worker/build
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o worker/build/app.wasm ./cmd/worker
//
// main registers serve on the runtime context's binding object and waits;
// worker/entry.mjs starts an instance of this program for each request,
// with at most a few running at once in an isolate (docs/lecture.md says
// why), and calls serve once. Nothing is kept between requests: the rate
// limit, the budget ledger and the submissions all live in D1.
package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"syscall/js"

	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/d1"

	"github.com/dpplay/dpplay/lecture"
)

// binding is the D1 binding's name in wrangler.toml.
const binding = "DB"

func main() {
	js.Global().Get("context").Get("binding").Set("serve", js.FuncOf(serve))
	select {}
}

// serve is binding.serve(request, done): request is {method, url,
// headers: [[name, value], …], body: Uint8Array or null}; done is called
// once with {status, headers, body}.
func serve(_ js.Value, args []js.Value) any {
	req, done := args[0], args[1]
	r, err := request(req)
	if err != nil {
		done.Invoke(errorReply(http.StatusBadRequest, "malformed request").js())
		return nil
	}
	h, err := handler()
	if err != nil {
		println("worker:", err.Error())
		done.Invoke(errorReply(http.StatusInternalServerError, "internal error").js())
		return nil
	}
	go func() {
		w := &response{header: http.Header{}}
		defer func() {
			// A panic still gets a JSON reply.
			if p := recover(); p != nil {
				println("worker: panic:", fmt.Sprint(p))
				w = errorReply(http.StatusInternalServerError, "internal error")
			}
			done.Invoke(w.js())
		}()
		defer h.db.Close()
		h.ServeHTTP(w, r)
	}()
	return nil
}

// requestHandler is a lecture.Handler with the database it owns.
type requestHandler struct {
	*lecture.Handler
	db *sql.DB
}

// handler builds the request's handler from the runtime context's env.
func handler() (requestHandler, error) {
	conn, err := d1.OpenConnector(binding)
	if err != nil {
		return requestHandler{}, fmt.Errorf("D1 binding: %v", err)
	}
	db := sql.OpenDB(conn)
	origin := cloudflare.Getenv("ALLOWED_ORIGIN")
	if origin == "" {
		origin = "*"
	}
	// GUESS_LIMIT, when set, replaces lecture.GuessLimit: the end-to-end
	// tests lower it to race wrong guesses against D1's own counter.
	guessLimit, _ := strconv.Atoi(cloudflare.Getenv("GUESS_LIMIT"))
	h, err := lecture.New(db, lecture.Options{
		AllowOrigin: origin,
		GuessLimit:  guessLimit,
		// Cloudflare sets CF-Connecting-IP to the client's address; the
		// worker sees no socket address of its own.
		ClientIP: func(r *http.Request) string { return r.Header.Get("CF-Connecting-IP") },
		Logf: func(format string, args ...any) {
			println("worker: " + fmt.Sprintf(format, args...))
		},
	})
	if err != nil {
		db.Close()
		return requestHandler{}, err
	}
	return requestHandler{h, db}, nil
}

// request converts the entry module's plain request object.
func request(v js.Value) (*http.Request, error) {
	var body []byte
	if b := v.Get("body"); b.Truthy() {
		body = make([]byte, b.Get("byteLength").Int())
		js.CopyBytesToGo(body, b)
	}
	r, err := http.NewRequest(v.Get("method").String(), v.Get("url").String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hs := v.Get("headers")
	for i := range hs.Length() {
		kv := hs.Index(i)
		r.Header.Add(kv.Index(0).String(), kv.Index(1).String())
	}
	return r, nil
}

// response is an http.ResponseWriter that keeps the whole reply: the API's
// replies are small JSON objects.
type response struct {
	status int
	header http.Header
	body   bytes.Buffer
}

func (w *response) Header() http.Header { return w.header }

func (w *response) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *response) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// js converts the reply to {status, headers: [[name, value], …], body}.
func (w *response) js() js.Value {
	w.WriteHeader(http.StatusOK)
	headers := js.Global().Get("Array").New()
	for name, values := range w.header {
		for _, v := range values {
			headers.Call("push", js.ValueOf([]any{name, v}))
		}
	}
	body := js.Global().Get("Uint8Array").New(w.body.Len())
	js.CopyBytesToJS(body, w.body.Bytes())
	return js.ValueOf(map[string]any{"status": w.status, "headers": headers, "body": body})
}

// errorReply is a JSON error reply like the handler's own.
func errorReply(status int, msg string) *response {
	w := &response{header: http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"no-store"}}}
	w.WriteHeader(status)
	fmt.Fprintf(&w.body, "{\"error\":%q}\n", msg)
	return w
}
