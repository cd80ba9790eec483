//go:build js && wasm

// Command svt is the lazily loaded module of the lesson on the sparse vector
// technique (app/audit/sparse over core/audit/pair): exact distributions and
// audits of the technique and its variants, without the auditor's
// expression library. It registers globalThis.dpplay_svt with methods that
// take one plain object:
//
//	stream({answers, eps, c, t}) → {above, below, halted (per query), thresholdScale, queryScale,
//	    expectedTops, alpha, beta, miss, exact}
//	variants({eps, c}) → {algorithms, sources, claims, proven, thresholdScales, queryScales, cutoffs, releases}
//	audit({algorithm, eps, c, t, x, y}) → {loss (Infinity when unbounded), unbounded, holds, err, claim, proven,
//	    worst, worstLogP, worstLogQ, worstLimit, rows, rowP, rowQ, rowLogRatio, ms}
//	challenges() → {ids, titles, tasks, hints, algorithms, epsilons, cutoffs (0: never halts), thresholds, x, y (flattened), n}
//	try({id, x, y, output}) → {logP, logQ, loss, breaks, output}
package main

import (
	"math"
	"syscall/js"
	"time"

	"github.com/dpplay/dpplay/app/audit/sparse"
	"github.com/dpplay/dpplay/wasm/jsio"
)

func main() { jsio.Serve("dpplay_svt", "svt") }

func init() {
	jsio.Register("stream", func(a js.Value) (map[string]any, error) {
		s, err := sparse.NewStream(jsio.FromJS(a.Get("answers")), a.Get("eps").Float(), a.Get("c").Int(), a.Get("t").Float())
		if err != nil {
			return nil, err
		}
		return map[string]any{"above": jsio.ToJS(s.Above), "below": jsio.ToJS(s.Below), "halted": jsio.ToJS(s.Halted),
			"thresholdScale": s.ThresholdScale, "queryScale": s.QueryScale, "expectedTops": s.ExpectedTops,
			"alpha": s.Alpha, "beta": s.Beta, "miss": s.Miss, "exact": s.Exact}, nil
	})
	jsio.Register("variants", func(a js.Value) (map[string]any, error) {
		vs, err := sparse.Variants(a.Get("eps").Float(), a.Get("c").Int())
		if err != nil {
			return nil, err
		}
		var src []string
		var alg, claim, proven, ts, qs, cut, rel []float64
		for i, v := range vs {
			src = append(src, v.Source)
			alg, claim, proven = append(alg, float64(i+1)), append(claim, v.Claim), append(proven, v.Proven)
			ts, qs = append(ts, v.SVT.ThresholdScale), append(qs, v.SVT.QueryScale)
			cut, rel = append(cut, float64(v.SVT.Cutoff)), append(rel, float64(v.SVT.Release))
		}
		return map[string]any{"algorithms": jsio.ToJS(alg), "sources": jsio.Strings(src), "claims": jsio.ToJS(claim),
			"proven": jsio.ToJS(proven), "thresholdScales": jsio.ToJS(ts), "queryScales": jsio.ToJS(qs),
			"cutoffs": jsio.ToJS(cut), "releases": jsio.ToJS(rel)}, nil
	})
	jsio.Register("audit", func(a js.Value) (map[string]any, error) {
		t0 := time.Now()
		r, err := sparse.NewAudit(a.Get("algorithm").Int(), a.Get("eps").Float(), a.Get("c").Int(), a.Get("t").Float(),
			jsio.FromJS(a.Get("x")), jsio.FromJS(a.Get("y")))
		if err != nil {
			return nil, err
		}
		var outs []string
		var p, q, lr []float64
		for _, row := range r.Rows {
			outs, p, q, lr = append(outs, row.Output), append(p, row.P), append(q, row.Q), append(lr, row.LogRatio)
		}
		return map[string]any{"loss": r.Loss, "unbounded": r.Unbounded, "holds": r.Holds, "err": r.Err,
			"claim": r.Variant.Claim, "proven": r.Variant.Proven, "source": r.Variant.Source,
			"worst": r.Worst.Text, "worstLogP": r.Worst.LogP, "worstLogQ": r.Worst.LogQ, "worstLimit": r.Worst.Limit,
			"rows": jsio.Strings(outs), "rowP": jsio.ToJS(p), "rowQ": jsio.ToJS(q), "rowLogRatio": jsio.ToJS(lr),
			"ms": float64(time.Since(t0).Microseconds()) / 1000}, nil
	})
	jsio.Register("challenges", func(js.Value) (map[string]any, error) {
		var ids, titles, tasks, hints []string
		var alg, eps, cut, th, x, y []float64
		n := 0
		for _, c := range sparse.Challenges() {
			ids, titles, tasks, hints = append(ids, c.ID), append(titles, c.Title), append(tasks, c.Task), append(hints, c.Hint)
			alg, eps = append(alg, float64(c.Algorithm)), append(eps, c.Epsilon)
			cut, th = append(cut, float64(c.Halts())), append(th, c.Threshold)
			x, y, n = append(x, c.X...), append(y, c.Y...), len(c.X)
		}
		return map[string]any{"ids": jsio.Strings(ids), "titles": jsio.Strings(titles), "tasks": jsio.Strings(tasks), "hints": jsio.Strings(hints),
			"algorithms": jsio.ToJS(alg), "epsilons": jsio.ToJS(eps), "cutoffs": jsio.ToJS(cut), "thresholds": jsio.ToJS(th),
			"x": jsio.ToJS(x), "y": jsio.ToJS(y), "n": n}, nil
	})
	jsio.Register("try", func(a js.Value) (map[string]any, error) {
		c, err := sparse.FindChallenge(a.Get("id").String())
		if err != nil {
			return nil, err
		}
		r, err := c.Try(jsio.FromJS(a.Get("x")), jsio.FromJS(a.Get("y")), a.Get("output").String())
		if err != nil {
			return nil, err
		}
		return map[string]any{"logP": r.LogP, "logQ": r.LogQ, "loss": r.Loss, "breaks": r.Breaks, "output": r.Output,
			"unbounded": math.IsInf(r.Loss, 1)}, nil
	})
}
