//go:build js && wasm

// Command figures is the figure-export module (about 12 MB, 4.6 MB
// gzipped, because gonum/plot links its fonts). The page loads it only when
// a student or instructor presses "Export figure" (web/export.js). It
// registers globalThis.dpplayFigures with one method:
//
//	render(hash, format) → {bytes: Uint8Array, name, mime} or {error}
//
// where hash is a request in the form of figures.ParseRequest:
// "#lesson=3&widget=epsband&id=band&fig=logratio&eps=2&…", the widget's own
// keys from the page's URL (web/export.js builds it). The bytes are those
// `dpplay figures` writes for the same state.
package main

import (
	"syscall/js"

	"github.com/dpplay/dpplay/figures"
)

var mimes = map[string]string{"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf"}

func render(hash, format string) (map[string]any, error) {
	req, width, height, err := figures.ParseRequest(hash)
	if err != nil {
		return nil, err
	}
	figs, err := figures.Build(req)
	if err != nil {
		return nil, err
	}
	f := figs[0] // the widget's first figure unless fig= names one
	b, err := figures.Render(f, format, width, height)
	if err != nil {
		return nil, err
	}
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	return map[string]any{"bytes": arr, "name": f.FileName(format), "mime": mimes[format]}, nil
}

func main() {
	api := js.Global().Get("Object").New()
	api.Set("render", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return map[string]any{"error": "render(hash, format) takes two strings"}
		}
		out, err := render(args[0].String(), args[1].String())
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		return out
	}))
	js.Global().Set("dpplayFigures", api)
	if f := js.Global().Get("dpplayFiguresReady"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
	select {}
}
