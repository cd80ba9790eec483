//go:build js && wasm

// Command synth is the lazily loaded module of SmallDB and MWEM on the
// medical table. It registers globalThis.dpplay_synth with methods that
// take one plain object; lists of numbers cross as Float64Arrays:
//
//	start({k, queries, m, epsilon, seed, probe, columns?, counts?}) →   (columns, counts: a user's own table)
//	    {handle (0 if refused), refused, columns, counts, n, queryNames, trueAnswers, universe, candidates,
//	     probeRate, probeCandidates, predictedMs, alpha, prop44, thm45, thm45Size, beta}
//	advance({handle, stage, chunk, maxMs}) → view
//	reweight({handle, epsilon, stage?}) → view (stage 4…6; absent: stay)
//	curve({handle}) → {epsilons, expected, quantile, prop44, thm45, thm45Size}
//	close({handle}) → {}
//	mwem({k, queries, rounds, upto, replays, epsilon, seed, m, columns?, counts?}) →
//	    {queryNames, trueAnswers, query, chosen, estimate, measurement, updated, roundError, answers,
//	     distribution, maxError, initialError, spent, budget, noiseScale, charges, done,
//	     smalldbExpected, smalldbQuantile, smalldbCandidates (−1 when m's SmallDB is too large to score here)}
//
// view = {stage, stageName, scored, candidates, scoringMs, rate, epsilon, levelErrors, levelCounts, levelProbs,
// levelCDF, levelShare, bandEdges, bandHeights, bandWidth (the levels' charts, synth.View),
// expected, quantile, prop44, tailProp44, thm45, thm45Size, level, synthetic, maxError, syntheticAnswers,
// learned, best, learnedSynthetic, learnedReal, bestReal}. prop44 is Proposition 4.4 at the run's m and
// tailProp44 the exact probability of exceeding it; thm45 is Theorem 4.5's bound, about SmallDB with
// thm45Size rows, not about this run unless m = thm45Size. SmallDB's scoring runs only inside advance, for
// about maxMs milliseconds a call, so the page shows progress and cancels by not calling again.
package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/app/synth"
	"github.com/dpplay/dpplay/wasm/jsio"
)

func main() { jsio.Serve("dpplay_synth", "synth") }

var (
	runs = synth.NewRuns()
	ref  synth.Reference
)

// ownTable reads a user's own table, {columns, counts} (its histogram over
// {0,1}^k), or nil when the call has none.
func ownTable(a js.Value) ([]string, []int) {
	cs := a.Get("columns")
	if cs.Type() != js.TypeObject {
		return nil, nil
	}
	columns := make([]string, cs.Length())
	for i := range columns {
		columns[i] = cs.Index(i).String()
	}
	var counts []int
	for _, c := range jsio.FromJS(a.Get("counts")) {
		counts = append(counts, int(c))
	}
	return columns, counts
}

func view(v synth.View) map[string]any {
	return map[string]any{
		"stage": v.Stage, "stageName": v.StageName, "scored": float64(v.Scored), "candidates": float64(v.Candidates),
		"scoringMs": v.ScoringMs, "rate": v.Rate, "epsilon": v.Epsilon,
		"levelErrors": jsio.ToJS(v.LevelErrors), "levelCounts": jsio.ToJS(v.LevelCounts), "levelProbs": jsio.ToJS(v.LevelProbs),
		"levelCDF": jsio.ToJS(v.LevelCDF), "levelShare": jsio.ToJS(v.LevelShare),
		"bandEdges": jsio.ToJS(v.BandEdges), "bandHeights": jsio.ToJS(v.BandHeights), "bandWidth": v.BandWidth,
		"expected": v.Expected, "quantile": v.Quantile, "prop44": v.Prop44, "tailProp44": v.TailProp44,
		"thm45": v.Thm45, "thm45Size": v.Thm45Size,
		"level": v.Level, "synthetic": jsio.ToJS(v.Synthetic), "maxError": v.MaxError,
		"syntheticAnswers": jsio.ToJS(v.SyntheticAnswers),
		"learned":          v.Learned, "best": v.Best, "learnedSynthetic": v.LearnedSynthetic, "learnedReal": v.LearnedReal, "bestReal": v.BestReal,
	}
}

func init() {
	jsio.Register("start", func(a js.Value) (map[string]any, error) {
		spec := synth.Spec{
			K: a.Get("k").Int(), Kind: a.Get("queries").String(), Size: a.Get("m").Int(),
			Epsilon: a.Get("epsilon").Float(), Seed: uint64(a.Get("seed").Float()), Probe: uint64(a.Get("probe").Float()),
		}
		spec.Columns, spec.Counts = ownTable(a)
		h, p, err := runs.Start(spec)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"handle": h, "refused": p.Refused, "columns": jsio.Strings(p.Columns), "counts": jsio.ToJS(p.Counts), "n": p.N,
			"queryNames": jsio.Strings(p.Queries), "trueAnswers": jsio.ToJS(p.TrueAnswers), "universe": p.Universe,
			"candidates": p.Candidates, "probeRate": p.ProbeRate, "probeCandidates": float64(p.ProbeCandidates),
			"predictedMs": p.PredictedMs, "alpha": p.Alpha, "prop44": p.Prop44, "thm45": p.Thm45, "thm45Size": p.Thm45Size, "beta": synth.Beta,
		}, nil
	})
	jsio.Register("advance", func(a js.Value) (map[string]any, error) {
		v, err := runs.Advance(a.Get("handle").Int(), a.Get("stage").Int(), uint64(a.Get("chunk").Float()), a.Get("maxMs").Float())
		if err != nil {
			return nil, err
		}
		return view(v), nil
	})
	jsio.Register("reweight", func(a js.Value) (map[string]any, error) {
		stage := -1
		if s := a.Get("stage"); s.Type() == js.TypeNumber {
			stage = s.Int()
		}
		v, err := runs.Reweight(a.Get("handle").Int(), a.Get("epsilon").Float(), stage)
		if err != nil {
			return nil, err
		}
		return view(v), nil
	})
	jsio.Register("curve", func(a js.Value) (map[string]any, error) {
		c, err := runs.Curve(a.Get("handle").Int())
		if err != nil {
			return nil, err
		}
		sizes := make([]float64, len(c.Thm45Size))
		for i, m := range c.Thm45Size {
			sizes[i] = float64(m)
		}
		return map[string]any{"epsilons": jsio.ToJS(c.Epsilons), "expected": jsio.ToJS(c.Expected),
			"quantile": jsio.ToJS(c.Quantile), "prop44": jsio.ToJS(c.Prop44), "thm45": jsio.ToJS(c.Thm45),
			"thm45Size": jsio.ToJS(sizes)}, nil
	})
	jsio.Register("close", func(a js.Value) (map[string]any, error) {
		runs.Close(a.Get("handle").Int())
		return map[string]any{}, nil
	})
	jsio.Register("mwem", func(a js.Value) (map[string]any, error) {
		k, kind, eps := a.Get("k").Int(), a.Get("queries").String(), a.Get("epsilon").Float()
		columns, counts := ownTable(a)
		v, err := synth.MWEM(synth.MWEMSpec{
			K: k, Kind: kind, Rounds: a.Get("rounds").Int(), Upto: a.Get("upto").Int(),
			Replays: a.Get("replays").Int(), Epsilon: eps, Seed: uint64(a.Get("seed").Float()),
			Columns: columns, Counts: counts,
		})
		if err != nil {
			return nil, err
		}
		out := map[string]any{
			"queryNames": jsio.Strings(v.Queries), "trueAnswers": jsio.ToJS(v.TrueAnswers), "query": jsio.ToJS(v.Query),
			"chosen": jsio.ToJS(v.Chosen), "estimate": jsio.ToJS(v.Estimate), "measurement": jsio.ToJS(v.Measurement),
			"updated": jsio.ToJS(v.Updated), "roundError": jsio.ToJS(v.RoundError), "answers": jsio.ToJS(v.Answers),
			"distribution": jsio.ToJS(v.Distribution), "maxError": v.MaxError, "initialError": v.InitialError, "spent": v.Spent, "budget": v.Budget,
			"noiseScale": v.NoiseScale, "charges": v.Charges, "done": v.Done,
			"smalldbExpected": 0.0, "smalldbQuantile": 0.0, "smalldbCandidates": -1.0,
		}
		// SmallDB at the same ε on the same data, for the comparison; an
		// instance too large to score in one call is simply left out.
		if m := a.Get("m").Int(); m > 0 {
			if e, q, n, err := ref.ExpectedData(k, columns, counts, kind, m, eps); err == nil {
				out["smalldbExpected"], out["smalldbQuantile"], out["smalldbCandidates"] = e, q, float64(n)
			}
		}
		return out, nil
	})
}
