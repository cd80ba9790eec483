# dpplay: `make serve` and `make test` do all set-up on a fresh machine.
SHELL := /bin/bash
GO ?= go
WASM_EXEC_DIR := $(shell $(GO) env GOROOT)/lib/wasm
JS_ENV := PATH="$(WASM_EXEC_DIR):$$PATH" GOOS=js GOARCH=wasm

.PHONY: test test-go test-js bench fuzz

test: test-go test-js test-lecture

# Native tests with the race detector, plus formatting, vet, a tidy go.mod, and
# no committed file that .gitignore excludes (git add -f can add a compiled test).
test-go:
	$(GO) mod tidy -diff
	@ignored=$$(git ls-files -ci --exclude-standard 2>/dev/null); \
	  if [ -n "$$ignored" ]; then echo "committed but ignored (git rm --cached them): $$ignored"; exit 1; fi
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# Every Go fuzz target (testing.F) for FUZZTIME each. `make test` (go test)
# already runs each one over its seed corpus and testdata/fuzz.
FUZZTIME ?= 30s
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; done

# The same core tests compiled to WebAssembly and run in Node.
test-js:
	$(JS_ENV) $(GO) test -count=1 ./core/...

bench:
	$(GO) test -run '^$$' -bench . -count 3 ./core/... | awk -f scripts/bench-rate.awk
	@echo "--- the same core benchmarks compiled to WebAssembly, in Node"
	$(JS_ENV) $(GO) test -run '^$$' -bench 'SourceUint64|ExponentialBatch|SmallDB|AuditExponential5' ./core/rng ./core/mech ./core/synth ./core/audit
	@echo "--- lazy modules (every dist/wasm module but core, loaded on demand)"
	@for m in $(filter-out core,$(WASM_MODULES)); do f=dist/wasm/$$m.wasm; if [ -f $$f ]; then echo "$$m.wasm (on demand): $$(wc -c <$$f) bytes, $$(gzip -9c $$f | wc -c) gzipped"; else echo "$$m.wasm: not in dist/ (make site builds it)"; fi; done
	@set -o pipefail; LECTURE_E2E=1 LECTURE_WRANGLER=1 LECTURE_ATTACK_SECONDS=20 $(GO) test -count=1 -timeout 30m -v -run '^(TestLoad|TestLectureHall|TestSlowBodyAttack|TestReadFlood)$$' ./e2e/lecture/ | \
	  grep -E '^\s+\w+_test.go:[0-9]+: (load|attack):|^(FAIL|ok)'

# --- Lecture API: `dpplay serve` over SQLite, and the same handler as
# a Cloudflare worker (cmd/cloudflare) in workerd with a local D1: cloudflare/dev.mjs
# runs it through Miniflare, without wrangler dev's proxy (docs/lecture.md);
# wrangler applies the D1 migrations.
PORT ?= 8787
WORKER_ENV := WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true CLOUDFLARE_CF_FETCH_ENABLED=false

.PHONY: test-lecture test-hall cloudflare-deps cloudflare-build cloudflare-dev

cloudflare/node_modules/.package-lock.json: cloudflare/package-lock.json
	npm ci --prefix cloudflare --no-audit --no-fund --loglevel=error

cloudflare-deps: cloudflare/node_modules/.package-lock.json

# make bench also runs the lecture-hall load test against the worker.
bench: cloudflare-deps cloudflare-build

# The generator writes wasm_exec.js (its copy of Go's, which cloudflare/entry.mjs
# imports) beside an entry module of its own that we do not use: it starts a
# Go instance per request (docs/lecture.md).
cloudflare-build:
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o cloudflare/build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o cloudflare/build/app.wasm ./cmd/cloudflare

cloudflare-dev: cloudflare-deps cloudflare-build
	cd cloudflare && $(WORKER_ENV) npx wrangler d1 migrations apply DB --local && \
	  node dev.mjs --ip 127.0.0.1 --port $(PORT)

# The API suite against `dpplay serve` (real SQLite file) and against the worker
# in workerd (local D1), the 500-student load test, the kill -9 test and the
# lecture hall (1,000 phones) on both.
test-lecture: cloudflare-deps cloudflare-build
	LECTURE_E2E=1 LECTURE_WRANGLER=1 $(GO) test -count=1 -timeout 30m ./e2e/lecture/

# 1,000 phones, 200 requests in flight, on `dpplay serve` and on the worker.
test-hall: cloudflare-deps cloudflare-build
	LECTURE_E2E=1 LECTURE_WRANGLER=1 $(GO) test -count=1 -timeout 30m -v -run '^TestLectureHall$$' ./e2e/lecture/

# --- The browser playground: wasm modules, static site, Chromium e2e.
# `make site` writes dist/ (relative URLs: works under any sub-path, e.g. /dpplay/).
# After editing lessons/ or web/, run `make site` again and reload the page;
# `dpplay serve` serves dist/ from disk, so no restart is needed.
ADDR ?= 127.0.0.1:8080
WASM_BUILD := GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w'

.PHONY: site serve test-e2e bench-web

# Every wasm/<name>/main.go is a module, built to build/<name>.wasm and
# published as dist/wasm/<name>.wasm; the page loads all but core on demand.
WASM_MODULES := $(patsubst wasm/%/main.go,%,$(wildcard wasm/*/main.go))
GO_SOURCES := $(shell find . -name '*.go' -not -path './node_modules/*' -not -path './cloudflare/*' 2>/dev/null) go.mod

build/%.wasm: $(GO_SOURCES)
	@mkdir -p build
	$(WASM_BUILD) -o $@ ./wasm/$*

comma := ,
empty :=
space := $(empty) $(empty)
# The site builder pre-renders each widget's opening state under Node (linkedom).
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

site: $(WASM_MODULES:%=build/%.wasm) node_modules/.package-lock.json
	$(GO) run ./cmd/dpplay site -lessons lessons -web web -out dist \
	  -wasm $(subst $(space),$(comma),$(foreach m,$(WASM_MODULES),$(m)=build/$(m).wasm)) \
	  -wasm-exec $(WASM_EXEC_DIR)/wasm_exec.js -prerender scripts/prerender.mjs

serve: site
	$(GO) run ./cmd/dpplay serve -dir dist -addr $(ADDR)

test: test-e2e
test-e2e: site
	scripts/setup.sh
	node --test --test-concurrency=1 e2e/web/ e2e/qr.test.mjs e2e/figures.test.mjs e2e/machine.test.mjs e2e/lecture-page.test.mjs

bench: bench-web
bench-web: site
	scripts/setup.sh
	node scripts/bundle-size.mjs dist
	node scripts/audit-bench.mjs dist
	@echo "--- page load (first paint, first chart, slider live; longest tasks), cold and warm, localhost and slow 4G + 4x CPU; Lighthouse mobile"
	node scripts/perf-bench.mjs dist 3
	@echo "--- sampling machine: press to first ball, cold and warm, localhost and slow 4G + 4x CPU"
	node scripts/machine-bench.mjs dist 3
	@echo "--- dpplay serve on slow 4G: core.wasm and the first page's files, with the encoding served"
	node scripts/serve-bench.mjs dist 3
