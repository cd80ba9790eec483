//go:build js && wasm

// Command panics is a module that panics at start, before it is ready: it
// registers a method twice, which jsio refuses.
package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/wasm/jsio"
)

func main() {
	m := func(js.Value) (map[string]any, error) { return nil, nil }
	jsio.Register("twice", m)
	jsio.Register("twice", m)
	jsio.Serve("dpplay_panics", "panics")
}
