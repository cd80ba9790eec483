//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// The Laplace mechanism as an exponential mechanism:
//
//	laplaceEM({value, sensitivity, epsilon, range, spacing, tight, seed, draws}) →
//	    {lo, hi, run, certified, loss, overEpsilon, emScale, scale, x, em, laplace, edges, density}
//
// range is "wide" or "bounded" (selection.LaplaceEMRange).
func init() {
	jsio.Register("laplaceEM", func(a js.Value) (map[string]any, error) {
		dq, eps := a.Get("sensitivity").Float(), a.Get("epsilon").Float()
		lo, hi, err := selection.LaplaceEMRange(a.Get("range").String(), dq, eps)
		if err != nil {
			return nil, err
		}
		r, err := selection.LaplaceFromExponential(selection.LaplaceEMRequest{
			Value: a.Get("value").Float(), Sensitivity: dq, Epsilon: eps,
			Lo: lo, Hi: hi, Spacing: a.Get("spacing").Float(),
			Tight: a.Get("tight").Truthy(), Seed: uint64(a.Get("seed").Float()), Draws: a.Get("draws").Int(),
		})
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"lo": r.Lo, "hi": r.Hi, "run": r.Run, "certified": r.Certified, "loss": r.Loss, "overEpsilon": r.OverEpsilon, "emScale": r.EMScale, "scale": r.Scale,
			"x": jsio.ToJS(r.X), "em": jsio.ToJS(r.EM), "laplace": jsio.ToJS(r.Laplace),
			"edges": jsio.ToJS(r.Edges), "density": jsio.ToJS(r.Density),
		}, nil
	})
}
