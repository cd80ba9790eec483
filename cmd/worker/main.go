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
// Every request may start a fresh Go instance, so the handler is built per
// request and nothing is kept between requests: the rate limit, the budget
// ledger and the submissions all live in D1.
package main

import (
	"database/sql"
	"fmt"
	"net/http"
	"strconv"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/d1"

	"github.com/dpplay/dpplay/lecture"
)

// binding is the D1 binding's name in wrangler.toml.
const binding = "DB"

func serve(w http.ResponseWriter, r *http.Request) {
	fail := func() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":"internal error"}` + "\n"))
	}
	conn, err := d1.OpenConnector(binding)
	if err != nil {
		println("worker: D1 binding:", err.Error())
		fail()
		return
	}
	db := sql.OpenDB(conn)
	defer db.Close()
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
		println("worker:", err.Error())
		fail()
		return
	}
	h.ServeHTTP(w, r)
}

func main() {
	workers.Serve(http.HandlerFunc(serve))
}
