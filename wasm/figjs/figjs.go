//go:build js && wasm

// Package figjs is the glue of the figure-export modules (wasm/figures and
// wasm/auditfigures): it registers one method on the module's global,
//
//	render({hash, format}) → {bytes: Uint8Array, name, mime}
//
// where hash is a request in the form of figures.ParseRequest:
// "#lesson=3&widget=epsilon-band&id=band&fig=logratio&eps=2&…", the widget's own
// keys from the page's URL (web/export.js builds it). The bytes are those
// `dpplay figures` writes for the same state. A module draws the charts
// its imports register.
package figjs

import (
	"syscall/js"

	"github.com/dpplay/dpplay/core/validate"
	"github.com/dpplay/dpplay/figures"
	"github.com/dpplay/dpplay/wasm/jsio"
)

var mimes = map[string]string{"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf"}

// Serve registers render and serves the module as global (jsio.Serve).
func Serve(global, module string) {
	jsio.Register("render", render)
	jsio.Serve(global, module)
}

func render(a js.Value) (map[string]any, error) {
	hash, format := a.Get("hash"), a.Get("format")
	if hash.Type() != js.TypeString || format.Type() != js.TypeString {
		return nil, validate.Errorf("render", "takes {hash, format}, two strings")
	}
	req, width, height, err := figures.ParseRequest(hash.String())
	if err != nil {
		return nil, err
	}
	figs, err := figures.Build(req)
	if err != nil {
		return nil, err
	}
	f := figs[0] // the widget's first figure unless fig= names one
	b, err := figures.Render(f, format.String(), width, height)
	if err != nil {
		return nil, err
	}
	return map[string]any{"bytes": jsio.BytesToJS(b), "name": f.FileName(format.String()), "mime": mimes[format.String()]}, nil
}
