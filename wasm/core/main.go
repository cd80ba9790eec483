//go:build js && wasm

// Command core is the first-load WebAssembly module of the playground
// (lessons 1 and 2). It runs inside a Web Worker (web/worker.js) and
// registers one object, globalThis.dpplay_core, whose methods take one plain
// object of arguments and return one plain object: numbers cross as
// Float64Arrays, never as JSON, so encoding/json stays out of the module
// (about 280 KB gzipped).
//
// Methods (see web/core.js for the page-side wrapper):
//
//	probabilities({mechanism, scores, measure?, epsilon, sensitivity}) → {p}
//	draws({slot, mechanism, scores, measure?, epsilon, sensitivity, seed, n}) → {counts}
//	fromArticle({epsilonArticle, sensitivity}) → {epsilon}
//	account({budget, budgetDelta, labels, epsilons, deltas}) → {accepted, errors, spent, remaining}
//
// Every method returns {error: "param: reason"} instead of throwing when
// the input is invalid; the message comes from core's validate package.
package main

import (
	"encoding/binary"
	"math"
	"syscall/js"

	"github.com/dpplay/dpplay/wasm/bridge"
)

var b = bridge.New()

func main() {
	api := js.Global().Get("Object").New()
	export(api, "probabilities", func(a js.Value) (map[string]any, error) {
		p, err := b.Probabilities(request(a))
		if err != nil {
			return nil, err
		}
		return map[string]any{"p": toJS(p)}, nil
	})
	export(api, "draws", func(a js.Value) (map[string]any, error) {
		c, err := b.Draws(a.Get("slot").String(), request(a), uint64(a.Get("seed").Float()), a.Get("n").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{"counts": toJS(c)}, nil
	})
	export(api, "fromArticle", func(a js.Value) (map[string]any, error) {
		e, err := bridge.FromArticle(a.Get("epsilonArticle").Float(), a.Get("sensitivity").Float())
		if err != nil {
			return nil, err
		}
		return map[string]any{"epsilon": e}, nil
	})
	export(api, "account", func(a js.Value) (map[string]any, error) {
		labels := a.Get("labels")
		eps, del := fromJS(a.Get("epsilons")), fromJS(a.Get("deltas"))
		charges := make([]bridge.Charge, len(eps))
		for i := range charges {
			charges[i] = bridge.Charge{Label: labels.Index(i).String(), Epsilon: eps[i]}
			if i < len(del) {
				charges[i].Delta = del[i]
			}
		}
		l, err := bridge.Account(a.Get("budget").Float(), a.Get("budgetDelta").Float(), charges)
		if err != nil {
			return nil, err
		}
		acc := make([]float64, len(l.Accepted))
		errs := make([]any, len(l.Errors))
		for i, ok := range l.Accepted {
			if ok {
				acc[i] = 1
			}
			errs[i] = l.Errors[i]
		}
		return map[string]any{
			"accepted":  toJS(acc),
			"errors":    errs,
			"spent":     toJS([]float64{l.SpentEpsilon, l.SpentDelta}),
			"remaining": toJS([]float64{l.RemainingEpsilon, l.RemainingDelta}),
		}, nil
	})
	js.Global().Set("dpplay_core", api)
	if ready := js.Global().Get("dpplayReady"); ready.Type() == js.TypeFunction {
		ready.Invoke("core")
	}
	select {}
}

// export wraps f so that a Go error or panic becomes {error: message}: a
// bad request must never take the worker down.
func export(api js.Value, name string, f func(js.Value) (map[string]any, error)) {
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

func request(a js.Value) bridge.Request {
	q := bridge.Request{
		Mechanism:   a.Get("mechanism").String(),
		Scores:      fromJS(a.Get("scores")),
		Epsilon:     a.Get("epsilon").Float(),
		Sensitivity: a.Get("sensitivity").Float(),
	}
	if m := a.Get("measure"); m.Truthy() {
		q.Measure = fromJS(m)
	}
	return q
}

var uint8Array = js.Global().Get("Uint8Array")
var float64Array = js.Global().Get("Float64Array")

// fromJS copies a Float64Array (or any typed array of float64) into Go.
func fromJS(v js.Value) []float64 {
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

// toJS copies xs into a new Float64Array.
func toJS(xs []float64) js.Value {
	raw := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(x))
	}
	u := uint8Array.New(len(raw))
	js.CopyBytesToJS(u, raw)
	return float64Array.New(u.Get("buffer"))
}
