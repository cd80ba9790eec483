//go:build js && wasm

// Package figjs is the glue of the figure-export modules (wasm/figures and
// wasm/auditfigures): it registers one method on the module's global,
//
//	render({hash, format}) → {bytes: Uint8Array, name, mime}
//
// where hash is a request in the form of figures.ParseRequest:
// "#lesson=3&widget=epsilon-band&id=band&fig=logratio&eps=2&…", the widget's own
// keys from the page's URL (web/page/export.js builds it), drawn by
// figures.ExportHash. A module draws the charts its imports register.
package figjs

import (
	"syscall/js"

	"github.com/dpplay/dpplay/figures"
	"github.com/dpplay/dpplay/wasm/jsio"
)

// Serve registers render and serves the module as global (jsio.Serve).
func Serve(global, module string) {
	jsio.Register("render", render)
	jsio.Serve(global, module)
}

func render(a js.Value) (map[string]any, error) {
	// A value that is not a string reads as "<number: 3>" and the like,
	// which ParseRequest and Render refuse with their own messages.
	e, err := figures.ExportHash(a.Get("hash").String(), a.Get("format").String())
	if err != nil {
		return nil, err
	}
	return map[string]any{"bytes": jsio.BytesToJS(e.Bytes), "name": e.Name, "mime": e.MIME}, nil
}
