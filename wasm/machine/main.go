//go:build js && wasm

// Command machine is the sampling machine's WebAssembly module, hosted by
// web/machine.html in an iframe of its own: ebiten adds
// a full-window canvas and paints the page, so it cannot share a page with
// other UI. The simulation is package machine; this file only draws it and
// talks to the host page.
//
// The host calls globalThis.dpplayMachine.command(msg) with one of
//
//	{type: "config", mechanisms, factors, scores, epsilon, sensitivity, seed, speed, fallTime}
//	{type: "pause", paused?}   (no paused: toggle)
//	{type: "step"} {type: "reset"} {type: "speed", speed} {type: "motion", fallTime}
//
// (factors: each lane's ε is its factor times epsilon, machine.Config).
//
// It starts with the settings of globalThis.dpplayMachineConfig (a config
// message) and sends reports through globalThis.dpplayMachineReport(msg):
// {type: "ready"}, {type: "state", lanes, inFlight, paused} (a few times a
// second while something changes), {type: "firstBall"} while drawing the
// first frame that shows a ball of a configuration, {type: "fps", fps, frames, inFlight} every
// second (frames drawn in that second, so the budget can be measured), and
// {type: "error", message}.
//
// The canvas has no text (ebitenutil's debug font would pull in net/http and
// image/png, about 450 KB gzipped); machine.html lays real HTML labels over
// it, using the geometry below: lanes side by side with 12 px gaps, a 28 px
// title strip, the top 38% of the rest for falling balls, the bins below,
// and a 34 px strip for the candidates' names.
package main

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"time"

	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/dpplay/dpplay/machine"
)

// Okabe–Ito colours (figures.Palette; not imported, to keep gonum/plot's
// fonts out of this module).
var (
	background = color.RGBA{0x16, 0x1b, 0x22, 0xff}
	panel      = color.RGBA{0x22, 0x29, 0x33, 0xff}
	exactLine  = color.RGBA{0xF0, 0xE4, 0x42, 0xff}
	laneBars   = []color.RGBA{{0x00, 0x72, 0xB2, 0xff}, {0xD5, 0x5E, 0x00, 0xff}}
	laneBalls  = []color.RGBA{{0x56, 0xB4, 0xE9, 0xff}, {0xE6, 0x9F, 0x00, 0xff}}
)

type game struct {
	m        *machine.Machine
	cmds     chan js.Value
	ball     *ebiten.Image
	frames   int
	since    time.Time
	lastSent time.Time
	sentKey  [3]int
	first    bool
	ready    bool
	yMax     float64
	scale    float64 // logical pixels per CSS pixel (≤ 1), from Layout
	verts    []ebiten.Vertex
	idx      []uint16
}

// maxPixels caps the logical screen: headless Chromium draws WebGL in
// software, where every full-screen pass costs, so a large window is drawn
// at a reduced resolution and scaled up by ebiten's final copy.
const maxPixels = 420_000

func report(msg map[string]any) {
	if f := js.Global().Get("dpplayMachineReport"); f.Type() == js.TypeFunction {
		f.Invoke(js.ValueOf(msg))
	}
}

func floats(v js.Value) []float64 {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	n := v.Length()
	if n > machine.MaxCandidates+1 {
		n = machine.MaxCandidates + 1
	}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = v.Index(i).Float()
	}
	return xs
}

func num(v js.Value, name string, def float64) float64 {
	if x := v.Get(name); x.Type() == js.TypeNumber {
		return x.Float()
	}
	return def
}

// readConfig returns cfg with the fields that the config message v sets.
func readConfig(cfg machine.Config, v js.Value) machine.Config {
	if ms := v.Get("mechanisms"); ms.Type() == js.TypeObject {
		cfg.Mechanisms = nil
		for i := 0; i < ms.Length() && i < 3; i++ {
			cfg.Mechanisms = append(cfg.Mechanisms, ms.Index(i).String())
		}
		cfg.Factors = floats(v.Get("factors"))
	}
	if s := floats(v.Get("scores")); s != nil {
		cfg.Scores = s
	}
	cfg.Epsilon = num(v, "epsilon", cfg.Epsilon)
	cfg.Sensitivity = num(v, "sensitivity", cfg.Sensitivity)
	cfg.Speed = num(v, "speed", cfg.Speed)
	cfg.FallTime = num(v, "fallTime", cfg.FallTime)
	if s := num(v, "seed", float64(cfg.Seed)); s >= 0 && s <= 1<<53 {
		cfg.Seed = uint64(s)
	}
	return cfg
}

func (g *game) configure(cfg machine.Config) error {
	m, err := machine.New(cfg)
	if err != nil {
		return err
	}
	g.m, g.first = m, false
	g.yMax = 0
	for _, l := range m.Lanes {
		for _, p := range l.Probs {
			g.yMax = math.Max(g.yMax, p)
		}
	}
	g.yMax = math.Min(1, g.yMax*1.15+0.02)
	g.sentKey = [3]int{-1}
	return nil
}

func (g *game) command(v js.Value) error {
	switch v.Get("type").String() {
	case "config":
		return g.configure(readConfig(g.m.Config(), v))
	case "pause":
		p := v.Get("paused")
		if p.Type() == js.TypeBoolean {
			g.m.SetPaused(p.Bool())
		} else {
			g.m.SetPaused(!g.m.Paused())
		}
	case "step":
		g.m.Step()
	case "reset":
		g.m.Reset()
		g.first = false
	case "speed":
		return g.m.SetSpeed(num(v, "speed", -1))
	case "motion":
		return g.m.SetFallTime(num(v, "fallTime", -1))
	default:
		return fmt.Errorf("unknown command %q", v.Get("type").String())
	}
	g.sentKey = [3]int{-1}
	return nil
}

func (g *game) Update() error {
	if !g.ready {
		g.ready = true
		report(map[string]any{"type": "ready"})
	}
	for {
		select {
		case v := <-g.cmds:
			if err := g.command(v); err != nil {
				report(map[string]any{"type": "error", "message": err.Error()})
			}
			continue
		default:
		}
		break
	}
	g.m.Advance(1.0 / float64(ebiten.TPS()))
	g.sendState(false)
	return nil
}

// sendState reports the counts at most 5 times a second, and only when they
// changed, so the host's live region is not flooded.
func (g *game) sendState(force bool) {
	key := [3]int{g.m.Lanes[0].Landed, g.m.InFlight(), 0}
	if g.m.Paused() {
		key[2] = 1
	}
	if !force && (key == g.sentKey || time.Since(g.lastSent) < 200*time.Millisecond) {
		return
	}
	g.sentKey, g.lastSent = key, time.Now()
	lanes := make([]any, len(g.m.Lanes))
	for i, l := range g.m.Lanes {
		counts := make([]any, len(l.Counts))
		probs := make([]any, len(l.Probs))
		for j := range l.Counts {
			counts[j], probs[j] = l.Counts[j], l.Probs[j]
		}
		lanes[i] = map[string]any{"mechanism": l.Mechanism, "counts": counts, "probs": probs, "landed": l.Landed, "released": l.Released}
	}
	report(map[string]any{"type": "state", "lanes": lanes, "inFlight": g.m.InFlight(), "paused": g.m.Paused()})
}

func (g *game) Draw(screen *ebiten.Image) {
	g.frames++
	if now := time.Now(); now.Sub(g.since) >= time.Second {
		fps := float64(g.frames) / now.Sub(g.since).Seconds()
		report(map[string]any{"type": "fps", "fps": fps, "frames": g.frames, "inFlight": g.m.InFlight(), "tps": ebiten.ActualTPS()})
		g.frames, g.since = 0, now
	}
	// One fill per frame (the screen is not cleared first): in software
	// WebGL the frame rate is set by how many full-screen passes there are.
	screen.Fill(panel)
	b := screen.Bounds()
	w, h := float32(b.Dx()), float32(b.Dy())
	k := float32(g.scale)
	lanes := len(g.m.Lanes)
	gap := 12 * k
	laneW := (w - gap*float32(lanes+1)) / float32(lanes)
	bins := len(g.m.Config().Scores)
	top := 28 * k
	fallH := (h - top) * 0.38
	binTop := top + fallH
	binH := h - binTop - 34*k
	vector.DrawFilledRect(screen, 0, 0, w, top, background, false)
	for i := 1; i < lanes; i++ {
		vector.DrawFilledRect(screen, float32(i)*(laneW+gap), top, gap, h-top, background, false)
	}
	for i, l := range g.m.Lanes {
		x0 := gap + float32(i)*(laneW+gap)
		binW := laneW / float32(bins)
		for j := 0; j < bins; j++ {
			bx := x0 + float32(j)*binW
			share := 0.0
			if l.Landed > 0 {
				share = float64(l.Counts[j]) / float64(l.Landed)
			}
			bh := float32(math.Min(share/g.yMax, 1)) * binH
			vector.DrawFilledRect(screen, bx+2, binTop+binH-bh, binW-4, bh, laneBars[i%2], false)
			vector.StrokeLine(screen, bx, binTop, bx, binTop+binH, 1, color.RGBA{0x55, 0x5f, 0x6b, 0xff}, false)
			py := binTop + binH - float32(l.Probs[j]/g.yMax)*binH
			vector.StrokeLine(screen, bx+2, py, bx+binW-2, py, 3*k, exactLine, false)
		}
		vector.StrokeLine(screen, x0, binTop+binH, x0+laneW, binTop+binH, 1, color.RGBA{0x88, 0x92, 0x9e, 0xff}, false)
	}
	// Balls: every ball is a quad of one small sprite, all in a single
	// DrawTriangles call; one DrawImage per ball costs a few microseconds of
	// wasm each, which at 2,000 balls is a large part of a frame.
	d := float32(g.ball.Bounds().Dx())
	r := d / 2 * k
	g.verts, g.idx = g.verts[:0], g.idx[:0]
	for _, ball := range g.m.Balls() {
		if len(g.verts)+4 > 65532 {
			break
		}
		x, y := g.m.Position(ball)
		x0 := gap + float32(ball.Lane)*(laneW+gap)
		px := x0 + float32(x)*laneW/float32(bins)
		py := top + float32(y)*fallH
		c := laneBalls[ball.Lane%2]
		cr, cg, cb := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255
		n := uint16(len(g.verts))
		for _, q := range [4][4]float32{{-1, -1, 0, 0}, {1, -1, d, 0}, {-1, 1, 0, d}, {1, 1, d, d}} {
			g.verts = append(g.verts, ebiten.Vertex{DstX: px + q[0]*r, DstY: py + q[1]*r, SrcX: q[2], SrcY: q[3], ColorR: cr, ColorG: cg, ColorB: cb, ColorA: 1})
		}
		g.idx = append(g.idx, n, n+1, n+2, n+1, n+3, n+2)
	}
	if len(g.idx) > 0 {
		screen.DrawTriangles(g.verts, g.idx, g.ball, nil)
	}
	// The first frame that shows a ball, falling or (reduced motion) landed.
	if !g.first && g.m.Lanes[0].Released > 0 {
		g.first = true
		report(map[string]any{"type": "firstBall"})
	}
}

func (g *game) Layout(outsideWidth, outsideHeight int) (int, int) {
	g.scale = 1
	if px := float64(outsideWidth) * float64(outsideHeight); px > maxPixels {
		g.scale = math.Sqrt(maxPixels / px)
	}
	return max(1, int(float64(outsideWidth)*g.scale)), max(1, int(float64(outsideHeight)*g.scale))
}

func ballImage(d int) *ebiten.Image {
	img := image.NewRGBA(image.Rect(0, 0, d, d))
	c := float64(d-1) / 2
	for y := 0; y < d; y++ {
		for x := 0; x < d; x++ {
			dist := math.Hypot(float64(x)-c, float64(y)-c)
			a := math.Max(0, math.Min(1, c+0.5-dist))
			v := uint8(255 * a)
			img.Set(x, y, color.RGBA{v, v, v, v})
		}
	}
	return ebiten.NewImageFromImage(img)
}

func main() {
	g := &game{cmds: make(chan js.Value, 256), since: time.Now(), scale: 1}
	// The host's settings, read before the first frame so the exact
	// probabilities (which take a moment for report noisy max) are worked
	// out once rather than for a default first.
	cfg := machine.DefaultConfig()
	if v := js.Global().Get("dpplayMachineConfig"); v.Type() == js.TypeObject {
		cfg = readConfig(cfg, v)
	}
	if err := g.configure(cfg); err != nil {
		report(map[string]any{"type": "error", "message": err.Error()})
		if err := g.configure(machine.DefaultConfig()); err != nil {
			panic(err)
		}
	}
	g.ball = ballImage(7)
	api := js.Global().Get("Object").New()
	api.Set("command", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 1 {
			select {
			case g.cmds <- args[0]:
			default:
				return "busy"
			}
		}
		return nil
	}))
	js.Global().Set("dpplayMachine", api)
	ebiten.SetWindowTitle("dpplay sampling machine")
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetScreenClearedEveryFrame(false)
	if err := ebiten.RunGame(g); err != nil {
		report(map[string]any{"type": "error", "message": err.Error()})
	}
}
