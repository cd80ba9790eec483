//go:build js && wasm

// Command audit is the lazily loaded module of the lesson "Check a mechanism
// yourself": the exact privacy auditor (core/audit) with its score
// expressions. It registers globalThis.dpplay_audit with methods that take one
// plain object:
//
//	run({mechanism, score, sensitivity, epsilon, candidates, maxCount, neighbours, from, count}) →
//	    {loss (Infinity when unbounded), unbounded, holds, pairs, dataSets, next, total,
//	     data, neighbour, output (−1: continuous), point, description, logPData, logPNeighbour,
//	     p, q, logRatio (the worst pair's distributions; selection mechanisms only)}
//	growth({…the same config…, maxCount}) → {counts, losses}
//	gallery() → {examples: [{id, title, mistake, fix, surprise, claim: config, other: config}]}
//	challenges() → {challenges: [{id, title, task, hint, config, x, y}]}
//	try({id, x, y, output}) → {logP, logQ, loss (Infinity when unbounded), unbounded, breaks}
package main

import (
	"math"
	"syscall/js"

	auditapp "github.com/dpplay/dpplay/app/audit"
	"github.com/dpplay/dpplay/wasm/jsio"
)

func main() { jsio.Serve("dpplay_audit", "audit") }

func config(a js.Value) auditapp.Config {
	return auditapp.Config{Mechanism: a.Get("mechanism").String(), Score: a.Get("score").String(),
		Sensitivity: a.Get("sensitivity").String(), Epsilon: a.Get("epsilon").Float(),
		Candidates: a.Get("candidates").Int(), MaxCount: a.Get("maxCount").Int(), Neighbours: a.Get("neighbours").String()}
}

func configJS(c auditapp.Config) map[string]any {
	return map[string]any{"mechanism": c.Mechanism, "score": c.Score, "sensitivity": c.Sensitivity, "epsilon": c.Epsilon,
		"candidates": c.Candidates, "maxCount": c.MaxCount, "neighbours": c.Neighbours}
}

// ints reads counts sent as numbers; a count that is not a whole number
// becomes −1, which the challenge refuses.
func ints(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
		if float64(out[i]) != x {
			out[i] = -1
		}
	}
	return out
}

func floats(xs []int) js.Value {
	f := make([]float64, len(xs))
	for i, x := range xs {
		f[i] = float64(x)
	}
	return jsio.ToJS(f)
}

var session auditapp.Session

func init() {
	jsio.Register("run", func(a js.Value) (map[string]any, error) {
		v, err := session.Run(config(a), a.Get("from").Int(), a.Get("count").Int())
		if err != nil {
			return nil, err
		}
		w := v.Worst
		return map[string]any{
			"loss": v.Loss, "unbounded": v.Unbounded, "holds": v.Holds, "pairs": float64(v.Pairs),
			"dataSets": float64(v.DataSets), "next": v.Next, "total": v.Total,
			"data": floats(w.Data), "neighbour": floats(w.Neighbour), "output": w.Output, "point": jsio.ToJS(w.Point),
			"description": w.Description, "logPData": w.LogPData, "logPNeighbour": w.LogPNeighbour,
			"p": jsio.ToJS(v.P), "q": jsio.ToJS(v.Q), "logRatio": jsio.ToJS(v.LogRatio),
		}, nil
	})
	jsio.Register("growth", func(a js.Value) (map[string]any, error) {
		counts, losses, err := auditapp.Growth(config(a), a.Get("maxCount").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{"counts": jsio.ToJS(counts), "losses": jsio.ToJS(losses)}, nil
	})
	jsio.Register("challenges", func(js.Value) (map[string]any, error) {
		var out []any
		for _, c := range auditapp.Challenges() {
			out = append(out, map[string]any{"id": c.ID, "title": c.Title, "task": c.Task, "hint": c.Hint,
				"config": configJS(c.Config), "x": floats(c.X), "y": floats(c.Y)})
		}
		return map[string]any{"challenges": out}, nil
	})
	jsio.Register("try", func(a js.Value) (map[string]any, error) {
		c, err := auditapp.FindChallenge(a.Get("id").String())
		if err != nil {
			return nil, err
		}
		r, err := c.Try(ints(jsio.FromJS(a.Get("x"))), ints(jsio.FromJS(a.Get("y"))), a.Get("output").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{"logP": r.LogP, "logQ": r.LogQ, "loss": r.Loss, "unbounded": math.IsInf(r.Loss, 1), "breaks": r.Breaks}, nil
	})
	jsio.Register("gallery", func(js.Value) (map[string]any, error) {
		var out []any
		for _, e := range auditapp.Gallery() {
			out = append(out, map[string]any{"id": e.ID, "title": e.Title, "mistake": e.Mistake, "fix": e.Fix,
				"surprise": e.Surprise, "claim": configJS(e.Claim), "other": configJS(e.Other)})
		}
		return map[string]any{"examples": out}, nil
	})
}
