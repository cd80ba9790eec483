//go:build js && wasm

// Command core is the first-load WebAssembly module of the playground. It
// runs inside a Web Worker (web/worker.js) and
// registers one object, globalThis.dpplay_core, whose methods take one plain
// object of arguments and return one plain object: numbers cross as
// Float64Arrays, never as JSON, so encoding/json stays out of the module
// (about 280 KB gzipped).
//
// Methods (see web/engine/client.js for the page-side wrapper):
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
	"syscall/js"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// streams keeps the page's draw streams between calls.
var streams = selection.New()

func main() { jsio.Serve("dpplay_core", "core") }

// The selection mechanisms and the privacy budget. Other methods are
// registered in files of their own beside this one.
func init() {
	jsio.Register("probabilities", func(a js.Value) (map[string]any, error) {
		p, err := streams.Probabilities(request(a))
		if err != nil {
			return nil, err
		}
		return map[string]any{"p": jsio.ToJS(p)}, nil
	})
	jsio.Register("draws", func(a js.Value) (map[string]any, error) {
		c, err := streams.Draws(a.Get("slot").String(), request(a), uint64(a.Get("seed").Float()), a.Get("n").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{"counts": jsio.ToJS(c)}, nil
	})
	jsio.Register("fromArticle", func(a js.Value) (map[string]any, error) {
		e, err := selection.FromArticle(a.Get("epsilonArticle").Float(), a.Get("sensitivity").Float())
		if err != nil {
			return nil, err
		}
		return map[string]any{"epsilon": e}, nil
	})
	jsio.Register("account", func(a js.Value) (map[string]any, error) {
		labels := a.Get("labels")
		eps, del := jsio.FromJS(a.Get("epsilons")), jsio.FromJS(a.Get("deltas"))
		charges := make([]selection.Charge, len(eps))
		for i := range charges {
			charges[i] = selection.Charge{Label: labels.Index(i).String(), Epsilon: eps[i]}
			if i < len(del) {
				charges[i].Delta = del[i]
			}
		}
		l, err := selection.Account(a.Get("budget").Float(), a.Get("budgetDelta").Float(), charges)
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
			"accepted":  jsio.ToJS(acc),
			"errors":    errs,
			"spent":     jsio.ToJS([]float64{l.SpentEpsilon, l.SpentDelta}),
			"remaining": jsio.ToJS([]float64{l.RemainingEpsilon, l.RemainingDelta}),
		}, nil
	})
}

func request(a js.Value) selection.Request {
	q := selection.Request{
		Mechanism:   a.Get("mechanism").String(),
		Scores:      jsio.FromJS(a.Get("scores")),
		Epsilon:     a.Get("epsilon").Float(),
		Sensitivity: a.Get("sensitivity").Float(),
	}
	if m := a.Get("measure"); m.Truthy() {
		q.Measure = jsio.FromJS(m)
	}
	return q
}
