//go:build js && wasm

// Command ready is a module that starts as every dpplay module does, under
// the name it is built with (-ldflags -X main.name=…), with one method:
// double({x}) → {y: 2x}.
package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/wasm/jsio"
)

var name = "ready"

func main() {
	jsio.Register("double", func(a js.Value) (map[string]any, error) {
		return map[string]any{"y": 2 * a.Get("x").Float()}, nil
	})
	jsio.Serve("dpplay_"+name, name)
}
