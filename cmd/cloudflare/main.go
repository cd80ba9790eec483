//go:build js && wasm

// Command cloudflare runs the lecture API on Cloudflare Workers with D1 as
// its database. It is the same lecture.Handler that `dpplay serve` mounts over
// SQLite; only the database/sql driver and the client-address source
// differ. github.com/syumai/workers supplies wasm_exec.js and its runtime
// context; D1 is reached through our own driver (d1.go), because its D1
// driver calls the binding from Go.
//
// Build (see the cloudflare-build target of the Makefile):
//
//	go run github.com/syumai/workers/cmd/workers-assets-gen@v0.32.0 -mode=go -o cloudflare/build
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o cloudflare/build/app.wasm ./cmd/cloudflare
//
// main registers serve and resolve on the runtime context's binding
// object and waits. cloudflare/entry.mjs runs one instance of this program per
// isolate for every request; each request's own JavaScript loop performs
// the D1 operations the handler enqueues (d1Conn) and collects the reply
// that serve leaves with bridge.reply. Go itself does no I/O, and its
// runtime's timers are deadlines that the request loops check, since
// workerd ties I/O and timers to the request that happens to be running Go
// (docs/lecture.md, "Go on Workers"). Nothing is kept between
// requests: the rate limit, the budget ledger and the submissions all live
// in D1.
package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/dpplay/dpplay/lecture"
)

func main() {
	b := js.Global().Get("context").Get("binding")
	b.Set("serve", js.FuncOf(serve))
	b.Set("resolve", js.FuncOf(resolve))
	b.Set("abandon", js.FuncOf(abandon))
	select {}
}

// bridge is the entry module's {enqueue(op), reply(req, reply)}.
func bridge() js.Value { return js.Global().Get("context").Get("binding").Get("bridge") }

// serve is binding.serve(req, request, vars): request is {method, url,
// headers: [[name, value], …], body: Uint8Array or null, task}; vars holds
// the request's env variables (handler). The reply, {status, headers,
// body}, goes to bridge.reply(req, reply) once. A request whose task is
// "expire", which only the entry module's scheduled handler makes, runs
// Handler.Expire instead of an HTTP request.
func serve(_ js.Value, args []js.Value) any {
	id, req, vars := args[0].Int(), args[1], args[2]
	reply := func(w *response) { bridge().Call("reply", id, w.js()) }
	r, err := request(req)
	if err != nil {
		reply(errorReply(http.StatusBadRequest, "malformed request"))
		return nil
	}
	db := sql.OpenDB(d1Conn{id})
	h, err := handler(db, vars)
	if err != nil {
		println("worker:", err.Error())
		db.Close()
		reply(errorReply(http.StatusInternalServerError, "internal error"))
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
			reply(w)
		}()
		defer db.Close()
		if req.Get("task").String() == "expire" {
			n, err := h.Expire(r.Context())
			if err != nil {
				println("worker: expire:", err.Error())
				w = errorReply(http.StatusInternalServerError, "internal error")
				return
			}
			fmt.Fprintf(&w.body, "{\"expired\":%d}\n", n)
			return
		}
		h.ServeHTTP(w, r)
	}()
	return nil
}

// memory is what the handlers of this instance's requests share: the read
// limit per address and the replies kept for polls.
var memory = lecture.NewMemory()

// handler builds the request's handler over db from its env variables:
//
//	ALLOWED_ORIGIN  the static site's origin when it is not the worker's;
//	                unset, only the worker's own origin may call it from
//	                a browser
//	INSTRUCTOR_KEY  the key that starting a session needs (a secret:
//	                `wrangler secret put INSTRUCTOR_KEY`); unset, no session
//	                can be started
//	ALLOWED_HOSTS   comma-separated host names the API answers to (its
//	                workers.dev name, a custom domain); unset, any
//	SESSION_TTL     how long a session that sees nothing is kept (a Go
//	                duration, default 720h)
//	GUESS_LIMIT     replaces lecture.GuessLimit: the end-to-end tests lower
//	                it to race wrong guesses against D1's own counter
//	JOIN_LIMIT      replaces lecture.JoinLimit; "0" turns it off (the
//	                lecture-hall load test plays 1,000 phones from one address)
//	WRITE_RATE      replaces lecture.WriteRate; "0" turns it off (likewise)
//	CLIENT_SECRET   the key of what D1 keeps of client addresses
//	                (lecture.Options.ClientSecret; a secret: `wrangler secret
//	                put CLIENT_SECRET`); unset, each instance draws its own
func handler(db *sql.DB, vars js.Value) (*lecture.Handler, error) {
	guessLimit, _ := strconv.Atoi(vars.Get("GUESS_LIMIT").String())
	joinLimit, err := strconv.Atoi(vars.Get("JOIN_LIMIT").String())
	if err == nil && joinLimit <= 0 {
		joinLimit = -1
	}
	writeRate, err := strconv.Atoi(vars.Get("WRITE_RATE").String())
	if err == nil && writeRate <= 0 {
		writeRate = -1
	}
	ttl, _ := time.ParseDuration(vars.Get("SESSION_TTL").String())
	key := vars.Get("INSTRUCTOR_KEY").String()
	if key == "" {
		// A key no one holds: sessions cannot be started until the
		// instructor sets one.
		key = "unset:" + strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	var host func(string) bool
	if list := vars.Get("ALLOWED_HOSTS").String(); list != "" {
		names := map[string]bool{}
		for _, n := range strings.Split(list, ",") {
			names[strings.ToLower(strings.TrimSpace(n))] = true
		}
		host = func(h string) bool {
			if name, _, err := net.SplitHostPort(h); err == nil {
				h = name
			}
			return names[strings.ToLower(h)]
		}
	}
	return lecture.New(db, lecture.Options{
		Memory:      memory,
		AllowOrigin: vars.Get("ALLOWED_ORIGIN").String(),
		GuessLimit:  guessLimit,
		JoinLimit:   joinLimit,
		CreateKey:   key,
		Host:        host,
		SessionTTL:  ttl,
		// D1 runs statements from many requests at once, each a round
		// trip: ClassWriters bounds the class's answers in flight per
		// instance, not a queue at one writer.
		WriteRate:    writeRate,
		ClassWriters: 64,
		ClientSecret: clientSecret(vars),
		// Cloudflare sets CF-Connecting-IP to the client's address; the
		// worker sees no socket address of its own.
		ClientIP: func(r *http.Request) string { return r.Header.Get("CF-Connecting-IP") },
		Logf: func(format string, args ...any) {
			println("worker: " + fmt.Sprintf(format, args...))
		},
	})
}

// clientSecret is CLIENT_SECRET as bytes, or nil when it is unset.
func clientSecret(vars js.Value) []byte {
	if s := vars.Get("CLIENT_SECRET").String(); s != "" {
		return []byte(s)
	}
	return nil
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
