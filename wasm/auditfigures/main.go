//go:build js && wasm

// Command auditfigures is the figure-export module of the exact privacy
// auditor: the figures module plus package auditfig, which runs the audit. Only the
// auditor's "Export figure" loads it (web/page/export.js).
package main

import (
	_ "github.com/dpplay/dpplay/figures/auditfig"
	"github.com/dpplay/dpplay/wasm/figjs"
)

func main() { figjs.Serve("dpplay_auditfigures", "auditfigures") }
