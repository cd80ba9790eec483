//go:build js && wasm

// Package jsio is the JavaScript side of every dpplay WebAssembly module: a
// registry of methods and the typed-array conversions they use. Each module
// registers its methods (usually in init functions, one file per lesson's
// needs) and calls Serve; numbers cross as Float64Arrays, never JSON.
package jsio

import (
	"encoding/binary"
	"math"
	"syscall/js"
)

// A Method takes one plain JS object of arguments and returns one plain
// object; an error becomes {error: message}.
type Method func(args js.Value) (map[string]any, error)

var methods = map[string]Method{}

// Register adds a method; registering a name twice is a programming error
// caught at start-up.
func Register(name string, m Method) {
	if _, dup := methods[name]; dup {
		panic("jsio: method " + name + " registered twice")
	}
	methods[name] = m
}

// Serve publishes the registered methods as globalThis[global], tells the
// worker the module named module is ready, and blocks forever.
func Serve(global, module string) {
	api := js.Global().Get("Object").New()
	for name, m := range methods {
		export(api, name, m)
	}
	js.Global().Set(global, api)
	if ready := js.Global().Get("dpplayReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(module)
	}
	select {}
}

// export wraps f so that a Go error or panic becomes {error: message}: a
// bad request must never take the worker down.
func export(api js.Value, name string, f Method) {
	api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = map[string]any{"error": name + ": internal error"}
			}
		}()
		arg := js.Undefined()
		if len(args) > 0 {
			arg = args[0]
		}
		out, err := f(arg)
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		return out
	}))
}

var uint8Array = js.Global().Get("Uint8Array")
var float64Array = js.Global().Get("Float64Array")

// FromJS copies a Float64Array (or any typed array of float64) into Go.
func FromJS(v js.Value) []float64 {
	if !v.Truthy() {
		return nil
	}
	n := v.Get("length").Int()
	raw := make([]byte, 8*n)
	js.CopyBytesToGo(raw, uint8Array.New(v.Get("buffer"), v.Get("byteOffset"), 8*n))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return xs
}

// ToJS copies xs into a new Float64Array.
func ToJS(xs []float64) js.Value {
	raw := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(x))
	}
	u := uint8Array.New(len(raw))
	js.CopyBytesToJS(u, raw)
	return float64Array.New(u.Get("buffer"))
}

// Strings converts xs to a []any that js.ValueOf turns into an array of
// strings (js.ValueOf takes no []string).
func Strings(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// BytesToJS copies b into a new Uint8Array.
func BytesToJS(b []byte) js.Value {
	u := uint8Array.New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}
