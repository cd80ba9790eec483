//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// The floating-point attack and the discrete Laplace mechanism:
//
//	floatAttack({q, neighbour, sensitivity, epsilon, draws, seed}) →
//	    {outputs, ruledOut, count, neighbourCount}
//	floatDiscreteLaplace({value, sensitivity, epsilon, draws, seed, lo, hi}) →
//	    {pmf, counts, outside, epsilon}
func init() {
	jsio.Register("floatAttack", func(a js.Value) (map[string]any, error) {
		r, err := selection.FloatAttack(a.Get("q").Float(), a.Get("neighbour").Float(), a.Get("sensitivity").Float(),
			a.Get("epsilon").Float(), a.Get("draws").Int(), uint64(a.Get("seed").Float()))
		if err != nil {
			return nil, err
		}
		ruled := make([]float64, len(r.RuledOut))
		for i, b := range r.RuledOut {
			if b {
				ruled[i] = 1
			}
		}
		return map[string]any{"outputs": jsio.ToJS(r.Outputs), "ruledOut": jsio.ToJS(ruled), "count": r.Count, "neighbourCount": r.Neighbour}, nil
	})
	jsio.Register("floatDiscreteLaplace", func(a js.Value) (map[string]any, error) {
		pmf, counts, outside, eps, err := selection.DiscreteLaplaceHistogram(int64(a.Get("value").Int()), int64(a.Get("sensitivity").Int()),
			a.Get("epsilon").Float(), a.Get("draws").Int(), uint64(a.Get("seed").Float()), int64(a.Get("lo").Int()), int64(a.Get("hi").Int()))
		if err != nil {
			return nil, err
		}
		return map[string]any{"pmf": jsio.ToJS(pmf), "counts": jsio.ToJS(counts), "outside": outside, "epsilon": eps}, nil
	})
}
