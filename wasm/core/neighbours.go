//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// The exponential mechanism on neighbouring data sets:
//
//	neighboursCompare({slot, x, y, epsilon, sensitivity, broken, seed, n}) →
//	    {claimed, run, px, py, logRatio, loss, countX, countY, estimate, low, high, drawn, breaches, z}
func init() {
	jsio.Register("neighboursCompare", func(a js.Value) (map[string]any, error) {
		r, err := streams.CompareNeighbours(a.Get("slot").String(), jsio.FromJS(a.Get("x")), jsio.FromJS(a.Get("y")),
			a.Get("epsilon").Float(), a.Get("sensitivity").Float(), a.Get("broken").Truthy(),
			uint64(a.Get("seed").Float()), a.Get("n").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"claimed": r.Claimed, "run": r.Run, "loss": r.Loss, "breaches": r.Breaches, "z": selection.IntervalZ,
			"px": jsio.ToJS(r.PX), "py": jsio.ToJS(r.PY), "logRatio": jsio.ToJS(r.LogRatio),
			"countX": jsio.ToJS(r.CountX), "countY": jsio.ToJS(r.CountY),
			"estimate": jsio.ToJS(r.Estimate), "low": jsio.ToJS(r.Low), "high": jsio.ToJS(r.High), "drawn": jsio.ToJS(r.Drawn),
		}, nil
	})
}
