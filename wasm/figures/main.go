//go:build js && wasm

// Command figures is the figure-export module: gonum/plot, with its fonts
// and back ends, and every chart of package figures. The page's worker loads it only when a student or instructor
// presses "Export figure" (web/page/export.js); its one method, render, is
// package figjs's. The auditor's figures are in wasm/auditfigures.
package main

import "github.com/dpplay/dpplay/wasm/figjs"

func main() { figjs.Serve("dpplay_figures", "figures") }
