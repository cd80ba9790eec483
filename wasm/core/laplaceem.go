//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// The Laplace mechanism as an exponential mechanism:
//
//	laplaceEM({value, sensitivity, epsilon, lo, hi, spacing, tight, seed, draws}) →
//	    {run, certified, loss, emScale, scale, x, em, laplace, edges, density}
func init() {
	jsio.Register("laplaceEM", func(a js.Value) (map[string]any, error) {
		r, err := selection.LaplaceFromExponential(selection.LaplaceEMRequest{
			Value: a.Get("value").Float(), Sensitivity: a.Get("sensitivity").Float(), Epsilon: a.Get("epsilon").Float(),
			Lo: a.Get("lo").Float(), Hi: a.Get("hi").Float(), Spacing: a.Get("spacing").Float(),
			Tight: a.Get("tight").Truthy(), Seed: uint64(a.Get("seed").Float()), Draws: a.Get("draws").Int(),
		})
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"run": r.Run, "certified": r.Certified, "loss": r.Loss, "emScale": r.EMScale, "scale": r.Scale,
			"x": jsio.ToJS(r.X), "em": jsio.ToJS(r.EM), "laplace": jsio.ToJS(r.Laplace),
			"edges": jsio.ToJS(r.Edges), "density": jsio.ToJS(r.Density),
		}, nil
	})
}
