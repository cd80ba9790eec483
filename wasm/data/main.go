//go:build js && wasm

// Command data is the lazily loaded module that reads a user's own CSV file
// in the browser (package app/data); nothing is uploaded. It registers
// globalThis.dpplay_data with methods that take one plain object:
//
//	parse({bytes: Uint8Array, header: 'auto'|'yes'|'no'}) →
//	    {handle, names, kinds ('binary'|'number'|'category' per column), rows, delimiter, hasHeader, ms}
//	categories({handle, column, max}) → {names, counts}
//	scores({handle, name, score, max}) → {names, scores}
//	numbers({handle, column, min?, max?}) → {values}
//	histogram({handle, columns: [j…]}) → {counts}   (over {0,1}^k, first column most significant)
//
// Columns are 0-based indices. The last data.MaxTables parsed tables are kept.
package main

import (
	"math"
	"syscall/js"
	"time"

	"github.com/dpplay/dpplay/app/data"
	"github.com/dpplay/dpplay/wasm/jsio"
)

func main() { jsio.Serve("dpplay_data", "data") }

var tables data.Tables

// onTable registers a method over the parsed table that a.handle names.
func onTable(name string, f func(t *data.Table, a js.Value) (map[string]any, error)) {
	jsio.Register(name, func(a js.Value) (map[string]any, error) {
		t, err := tables.Get(a.Get("handle").Int())
		if err != nil {
			return nil, err
		}
		return f(t, a)
	})
}

func init() {
	jsio.Register("parse", func(a js.Value) (map[string]any, error) {
		start := time.Now()
		src := a.Get("bytes")
		n := src.Get("length").Int()
		if n > data.MaxBytes {
			return nil, &data.Error{Msg: "the file is larger than the limit of 16 MB"}
		}
		b := make([]byte, n)
		js.CopyBytesToGo(b, src)
		h := data.HeaderAuto
		switch a.Get("header").String() {
		case "yes":
			h = data.HeaderYes
		case "no":
			h = data.HeaderNo
		}
		t, err := data.Parse(b, h)
		if err != nil {
			return nil, err
		}
		handle := tables.Add(t)
		kinds := make([]any, len(t.Names))
		for j := range kinds {
			kinds[j] = string(t.Kind(j))
		}
		return map[string]any{
			"handle": handle, "names": jsio.Strings(t.Names), "kinds": kinds, "rows": t.Rows(),
			"delimiter": string(t.Delimiter), "hasHeader": t.HasHeader,
			"ms": float64(time.Since(start).Microseconds()) / 1000,
		}, nil
	})
	onTable("categories", func(t *data.Table, a js.Value) (map[string]any, error) {
		names, counts, err := t.Categories(a.Get("column").Int(), a.Get("max").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{"names": jsio.Strings(names), "counts": jsio.ToJS(counts)}, nil
	})
	onTable("scores", func(t *data.Table, a js.Value) (map[string]any, error) {
		names, scores, err := t.Scores(a.Get("name").Int(), a.Get("score").Int(), a.Get("max").Int())
		if err != nil {
			return nil, err
		}
		return map[string]any{"names": jsio.Strings(names), "scores": jsio.ToJS(scores)}, nil
	})
	onTable("numbers", func(t *data.Table, a js.Value) (map[string]any, error) {
		lo, hi := math.Inf(-1), math.Inf(1)
		if m := a.Get("min"); m.Type() == js.TypeNumber {
			lo = m.Float()
		}
		if m := a.Get("max"); m.Type() == js.TypeNumber {
			hi = m.Float()
		}
		xs, err := t.NumbersIn(a.Get("column").Int(), lo, hi)
		if err != nil {
			return nil, err
		}
		return map[string]any{"values": jsio.ToJS(xs)}, nil
	})
	onTable("histogram", func(t *data.Table, a js.Value) (map[string]any, error) {
		cs := a.Get("columns")
		cols := make([]int, cs.Length())
		for i := range cols {
			cols[i] = cs.Index(i).Int()
		}
		counts, err := t.Histogram(cols)
		if err != nil {
			return nil, err
		}
		return map[string]any{"counts": jsio.ToJS(counts)}, nil
	})
}
