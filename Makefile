# dpplay: `make serve` and `make test` do all set-up on a fresh machine.
SHELL := /bin/bash
GO ?= go
WASM_EXEC_DIR := $(shell $(GO) env GOROOT)/lib/wasm
JS_ENV := PATH="$(WASM_EXEC_DIR):$$PATH" GOOS=js GOARCH=wasm

.PHONY: check check-static check-go check-unit test test-go test-race test-wasm bench fuzz

# `make check`: the feedback to run while you work (under a minute on two
# cores with a warm build cache): formatting, a tidy go.mod, vet natively and
# for js/wasm, the layer rule (internal/deps), the Go tests of every package
# but the end-to-end ones with -short and without -race, and the JS unit
# tests in Node. `make test` runs all of it in full (RACE_PKGS, which start
# goroutines, with -race).
RACE_PKGS := ./lecture/... ./internal/serve/... ./cmd/...
RACE_RE := /(lecture|internal/serve|cmd|e2e)(/|$$)

check: check-static check-go check-unit

# No committed file that .gitignore excludes (git add -f can add a compiled
# test). GOOS=js vet covers the packages that build only for the browser;
# lecture's tests link modernc.org/sqlite, which has no js/wasm build, and
# lecture has no js-only file, so native vet covers it (and GOOS=js vet of
# cmd/cloudflare compiles it for js).
check-static:
	$(GO) mod tidy -diff
	@ignored=$$(git ls-files -ci --exclude-standard 2>/dev/null); \
	  if [ -n "$$ignored" ]; then echo "committed but ignored (git rm --cached them): $$ignored"; exit 1; fi
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/... ./cmd/cloudflare

check-go:
	$(GO) test -short -count=1 $$($(GO) list ./... | grep -v /e2e/)

check-unit: node_modules/.package-lock.json
	node --test e2e/unit/

# `make test`: everything CI runs. The suites run side by side, each line
# they print prefixed with the suite's name, and a table of what each took
# ends the run (scripts/times.sh). One dist/ and one build/dpplay serve
# them all, built first. The browser suite, the longest, takes the first of
# the three job slots and builds the site within it (as a prerequisite the
# site would wait for a slot, which the Go suites hold for minutes).
SUITES := browser lecture wasm race go static unit
.PHONY: test-suites $(SUITES:%=suite-%)
test:
	@scripts/setup.sh
	@rm -rf build/times && mkdir -p build/times
	@$(MAKE) --no-print-directory build/dpplay node_modules/.package-lock.json
	@$(MAKE) --no-print-directory -j3 --output-sync=none test-suites; rc=$$?; scripts/times.sh build/times; exit $$rc

test-suites: $(SUITES:%=suite-%)

TIMED = scripts/timed.sh
suite-static:
	@$(TIMED) static $(MAKE) --no-print-directory check-static
suite-unit: node_modules/.package-lock.json
	@$(TIMED) unit $(MAKE) --no-print-directory check-unit
suite-go:
	@$(TIMED) go $(MAKE) --no-print-directory test-go
suite-race:
	@$(TIMED) race $(MAKE) --no-print-directory test-race
suite-wasm:
	@$(TIMED) wasm $(MAKE) --no-print-directory test-wasm
suite-lecture: build/dpplay cloudflare-deps cloudflare-build
	@$(TIMED) lecture $(MAKE) --no-print-directory test-lecture-run
suite-browser:
	@$(TIMED) site $(MAKE) --no-print-directory site build/dpplay
	@$(TIMED) browser $(MAKE) --no-print-directory test-browser-run

test-go:
	$(GO) test -count=1 $$($(GO) list ./... | grep -vE '$(RACE_RE)')

test-race:
	$(GO) test -race -count=1 $(RACE_PKGS)

# Every Go fuzz target (testing.F) for FUZZTIME each. `make test` (go test)
# already runs each one over its seed corpus and testdata/fuzz.
FUZZTIME ?= 30s
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; done

# The core's tests compiled to WebAssembly and run in Node: that it behaves
# the same there. -short leaves the long searches to the native run.
test-wasm:
	$(JS_ENV) $(GO) test -short -count=1 ./core/...

bench:
	$(GO) test -run '^$$' -bench . -count 3 ./core/... ./app/audit/sparse ./app/data | awk -f scripts/bench-rate.awk
	@echo "--- the same core benchmarks compiled to WebAssembly, in Node (the CSV parser as the page's worker runs it)"
	$(JS_ENV) $(GO) test -run '^$$' -bench 'SourceUint64|ExponentialBatch|SmallDB|AuditExponential5|Parse100k' ./core/rng ./core/mech ./core/synth ./core/audit ./app/data
	@echo "--- lazy modules (every dist/wasm module but core, loaded on demand)"
	@for m in $(filter-out core,$(WASM_MODULES)); do f=dist/wasm/$$m.wasm; if [ -f $$f ]; then echo "$$m.wasm (on demand): $$(wc -c <$$f) bytes, $$(gzip -9c $$f | wc -c) gzipped"; else echo "$$m.wasm: not in dist/ (make site builds it)"; fi; done
	@set -o pipefail; DPPLAY_BIN=$(DPPLAY_BIN) LECTURE_E2E=1 LECTURE_WRANGLER=1 LECTURE_ATTACK_SECONDS=20 $(GO) test -count=1 -timeout 30m -v -run '^(TestLoad|TestLectureHall|TestSlowBodyAttack|TestSlowReadAttack|TestWriteFlood|TestReadFlood)$$' ./e2e/lecture/ | \
	  grep -E '^\s+\w+_test.go:[0-9]+: (load|attack):|^(FAIL|ok)'

# --- Lecture API: `dpplay serve` over SQLite, and the same handler as
# a Cloudflare worker (cmd/cloudflare) in workerd with a local D1: cloudflare/dev.mjs
# runs it through Miniflare, without wrangler dev's proxy (docs/lecture.md);
# wrangler applies the D1 migrations.
PORT ?= 8787
WORKER_ENV := WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true CLOUDFLARE_CF_FETCH_ENABLED=false

.PHONY: test-lecture test-lecture-run test-hall cloudflare-deps cloudflare-build cloudflare-dev

cloudflare/node_modules/.package-lock.json: cloudflare/package-lock.json
	npm ci --prefix cloudflare --no-audit --no-fund --loglevel=error

cloudflare-deps: cloudflare/node_modules/.package-lock.json

# make bench also runs the load tests against the worker.
bench: cloudflare-deps cloudflare-build build/dpplay

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
# in workerd (local D1), the kill -9 test and the attacks on both. The load
# tests (500 students, the lecture hall's 1,000 phones) pass or fail on how
# fast the machine answers, so they run in make bench (and make test-hall).
LOAD_TESTS := ^(TestLoad|TestLectureHall)$$
# The attacks are watched for 5 s at full strength (LECTURE_ATTACK_SECONDS
# unset); make bench watches them for 20.
test-lecture: build/dpplay cloudflare-deps cloudflare-build
	$(MAKE) --no-print-directory test-lecture-run
test-lecture-run:
	DPPLAY_BIN=$(DPPLAY_BIN) LECTURE_E2E=1 LECTURE_WRANGLER=1 $(GO) test -count=1 -timeout 30m -skip '$(LOAD_TESTS)' ./e2e/lecture/

# 1,000 phones, 200 requests in flight, on `dpplay serve` and on the worker.
test-hall: cloudflare-deps cloudflare-build build/dpplay
	DPPLAY_BIN=$(DPPLAY_BIN) LECTURE_E2E=1 LECTURE_WRANGLER=1 $(GO) test -count=1 -timeout 30m -v -run '^TestLectureHall$$' ./e2e/lecture/

# --- The browser playground: wasm modules, static site, Chromium e2e.
# `make site` writes dist/ (relative URLs: works under any sub-path, e.g. /dpplay/).
# After editing lessons/ or web/, run `make site` again and reload the page;
# `dpplay serve` serves dist/ from disk, so no restart is needed.
ADDR ?= 127.0.0.1:8080
WASM_BUILD := GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w'

.PHONY: site serve test-e2e test-browser-run shots bench-web

# Every wasm/<name>/main.go is a module, built to build/<name>.wasm and
# published as dist/wasm/<name>.wasm; the page loads all but core on demand.
WASM_MODULES := $(patsubst wasm/%/main.go,%,$(wildcard wasm/*/main.go))
GO_SOURCES := $(shell find . -name '*.go' -not -path './node_modules/*' -not -path './cloudflare/*' 2>/dev/null) go.mod

# One dpplay binary for every suite that runs it, by its absolute path
# (DPPLAY_BIN).
DPPLAY_BIN := $(CURDIR)/build/dpplay
build/dpplay: $(GO_SOURCES)
	@mkdir -p build
	$(GO) build -o $@ ./cmd/dpplay

build/%.wasm: $(GO_SOURCES)
	@mkdir -p build
	$(WASM_BUILD) -o $@ ./wasm/$*

comma := ,
empty :=
space := $(empty) $(empty)
# The site builder pre-renders each widget's opening state under Node (linkedom).
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# The site's public address, for canonical links, link previews and
# sitemap.xml (the Pages workflow passes its own); empty for none (docs/web.md).
BASE_URL ?= https://dpplay.github.io/dpplay/

site: $(WASM_MODULES:%=build/%.wasm) node_modules/.package-lock.json
	$(GO) run ./cmd/dpplay site -lessons lessons -web web -out dist -base-url '$(BASE_URL)' \
	  -wasm $(subst $(space),$(comma),$(foreach m,$(WASM_MODULES),$(m)=build/$(m).wasm)) \
	  -wasm-exec $(WASM_EXEC_DIR)/wasm_exec.js -prerender scripts/prerender.mjs

serve: site
	$(GO) run ./cmd/dpplay serve -dir dist -addr $(ADDR)

# The browser suites: the markup in Node (e2e/dist), Chromium (the sweep
# first, the longest file), then Firefox and WebKit (e2e/engines), two files
# at a time against one server and one Chromium (e2e/run.mjs). One file
# alone: node e2e/run.mjs e2e/web/share.test.mjs (after make site).
BROWSER_FILES := e2e/web/sweep.test.mjs $(wildcard e2e/engines/*.test.mjs) e2e/lecture-page.test.mjs \
  $(wildcard e2e/web/*.test.mjs) e2e/figures.test.mjs e2e/machine.test.mjs $(wildcard e2e/dist/*.test.mjs)
test-e2e: site build/dpplay
	scripts/setup.sh
	$(MAKE) --no-print-directory test-browser-run
test-browser-run:
	DPPLAY_BIN=$(DPPLAY_BIN) DPPLAY_TIMES=$(CURDIR)/build/times/browser.tsv node e2e/run.mjs $(BROWSER_FILES)

# The browser suite with its screenshots, in e2e/screenshots/: `make test`
# takes none, as they are for a person to look at (about a second of CPU each).
shots: site build/dpplay
	scripts/setup.sh
	SHOTS=$(CURDIR)/e2e/screenshots $(MAKE) --no-print-directory test-browser-run

bench: bench-web
bench-web: site
	scripts/setup.sh
	node scripts/bundle-size.mjs dist
	node scripts/audit-bench.mjs dist
	@echo "--- page load (first paint, first chart, slider live; longest tasks), cold and warm, localhost and slow 4G + 4x CPU; Lighthouse mobile"
	node scripts/perf-bench.mjs dist 3
	@echo "--- sampling machine: press to first ball, cold and warm, localhost and slow 4G + 4x CPU; frames per second with 2,000 balls"
	node scripts/machine-bench.mjs dist 3
	@echo "--- dpplay serve on slow 4G: core.wasm and the first page's files, with the encoding served"
	node scripts/serve-bench.mjs dist 3
