# dpplay: `make serve` and `make test` do all set-up on a fresh machine.
SHELL := /bin/bash
GO ?= go
WASM_EXEC_DIR := $(shell $(GO) env GOROOT)/lib/wasm
JS_ENV := PATH="$(WASM_EXEC_DIR):$$PATH" GOOS=js GOARCH=wasm

.PHONY: test test-go test-js bench

test: test-go test-js

# Native tests with the race detector, plus formatting and vet.
test-go:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

# The same core tests compiled to WebAssembly and run in Node.
test-js:
	$(JS_ENV) $(GO) test -count=1 ./core/...

bench:
	$(GO) test -run '^$$' -bench . -count 3 ./core/... | awk -f scripts/bench-rate.awk
