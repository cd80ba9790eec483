//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/dpplay/dpplay/app/selection"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// Accuracy and expected loss:
//
//	accuracyLossCurve({scores, sensitivity, mechanisms: "a,b", epsilons}) → {loss}
//	accuracyReport({scores, epsilon, sensitivity, t, counts?}) →
//	    {opt, optimal, threshold, exact, bound, empirical, levels, exactCDF, drawCDF?}
//	accuracyMeasureBound({scores, measure?, epsilonArticle, t}) → {bound, exact, near}
//
// loss is mechanism-major: loss[m*len(epsilons)+k].
func init() {
	jsio.Register("accuracyLossCurve", func(a js.Value) (map[string]any, error) {
		names := strings.Split(a.Get("mechanisms").String(), ",")
		l, err := selection.LossCurve(jsio.FromJS(a.Get("scores")), a.Get("sensitivity").Float(), names, jsio.FromJS(a.Get("epsilons")))
		if err != nil {
			return nil, err
		}
		return map[string]any{"loss": jsio.ToJS(l)}, nil
	})
	jsio.Register("accuracyReport", func(a js.Value) (map[string]any, error) {
		var counts []float64
		if c := a.Get("counts"); !c.IsUndefined() && !c.IsNull() {
			counts = jsio.FromJS(c)
		}
		r, err := selection.AccuracyReport(jsio.FromJS(a.Get("scores")), a.Get("epsilon").Float(), a.Get("sensitivity").Float(), a.Get("t").Float(), counts)
		if err != nil {
			return nil, err
		}
		out := map[string]any{
			"opt": r.Opt, "optimal": r.Optimal, "threshold": r.Threshold, "exact": r.Exact, "bound": r.Bound,
			"empirical": r.Empirical, "levels": jsio.ToJS(r.Levels), "exactCDF": jsio.ToJS(r.ExactCDF),
		}
		if r.DrawCDF != nil {
			out["drawCDF"] = jsio.ToJS(r.DrawCDF)
		}
		return out, nil
	})
	jsio.Register("accuracyMeasureBound", func(a js.Value) (map[string]any, error) {
		var measure []float64
		if m := a.Get("measure"); !m.IsUndefined() && !m.IsNull() {
			measure = jsio.FromJS(m)
		}
		bound, exact, near, err := selection.MeasureBound(jsio.FromJS(a.Get("scores")), measure, a.Get("epsilonArticle").Float(), a.Get("t").Float())
		if err != nil {
			return nil, err
		}
		return map[string]any{"bound": bound, "exact": exact, "near": near}, nil
	})
}
