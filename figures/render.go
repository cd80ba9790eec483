package figures

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/dpplay/dpplay/core/validate"
)

// Formats lists the output formats Render knows: three pictures and json,
// the numbers and labels each chart draws.
func Formats() []string { return []string{"svg", "png", "pdf", "json"} }

// PNGDPI is the resolution of PNG output: a 16 cm figure is 1260 pixels wide,
// sharp on a projector.
const PNGDPI = 200

var renderMu sync.Mutex

func init() {
	// Sans-serif reads better on slides than plot's default serif.
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

// Render draws f as svg, png or pdf at the spec's size in centimetres. The
// output is a pure function of f and the size.
func Render(f *Figure, format string, widthCM, heightCM float64) ([]byte, error) {
	if !(widthCM >= MinSizeCM && widthCM <= MaxSizeCM && heightCM >= MinSizeCM && heightCM <= MaxSizeCM) {
		return nil, validate.Errorf("size", "must be %d–%d cm each way, got %v × %v", MinSizeCM, MaxSizeCM, widthCM, heightCM)
	}
	w, h := vg.Length(widthCM)*vg.Centimeter, vg.Length(heightCM)*vg.Centimeter
	// One figure is drawn at a time: gonum/plot's fonts and defaults are
	// package state.
	renderMu.Lock()
	defer renderMu.Unlock()
	var buf bytes.Buffer
	switch format {
	case "svg":
		cv := vgsvg.New(w, h)
		draw1(f, draw.New(cv))
		if _, err := cv.WriteTo(&buf); err != nil {
			return nil, err
		}
	case "png":
		cv := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI), vgimg.UseBackgroundColor(color.White))
		draw1(f, draw.New(cv))
		if _, err := (vgimg.PngCanvas{Canvas: cv}).WriteTo(&buf); err != nil {
			return nil, err
		}
	case "pdf":
		if err := renderPDF(&buf, f, w, h); err != nil {
			return nil, err
		}
	case "json":
		return renderJSON(f)
	default:
		return nil, validate.Errorf("format", "must be one of %v, got %q", Formats(), format)
	}
	return buf.Bytes(), nil
}

// draw1 lays out the plot, or the grid of panels under the figure's title,
// above the legend, so the legend never hides data.
func draw1(f *Figure, dc draw.Canvas) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	title := f.fullTitle()
	if f.Panels == nil {
		p, leg := f.plot(title)
		drawWithLegend(dc, leg, func(area draw.Canvas) { p.Draw(area) })
		return
	}
	plots := make([]*plot.Plot, len(f.Panels))
	var leg plot.Legend
	for i, pf := range f.Panels {
		var l plot.Legend
		plots[i], l = pf.plot(pf.Title)
		plots[i].Title.TextStyle.Font.Size = 10
		plots[i].Y.Label.Text = "" // the page's panels name no category axis
		if i == 0 {
			leg = l
		}
	}
	drawWithLegend(dc, leg, func(area draw.Canvas) {
		sty := plots[0].Title.TextStyle
		sty.Font.Size = 11
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		area.FillText(sty, vg.Point{X: (area.Min.X + area.Max.X) / 2, Y: area.Max.Y}, title)
		area.Max.Y -= sty.Height(title) + 8
		const cols = 2
		tiles := draw.Tiles{Rows: (len(plots) + cols - 1) / cols, Cols: cols, PadX: 14, PadY: 10}
		for i, p := range plots {
			p.Draw(tiles.At(area, i%cols, i/cols))
		}
	})
}

// fullTitle is the title a figure shows: the widget's heading on the page
// above the figure's own title, or without a heading "Lesson N · " before it.
func (f *Figure) fullTitle() string {
	if f.Heading != "" {
		return f.Heading + "\n" + f.Title
	}
	return fmt.Sprintf("Lesson %d · %s", f.Lesson, f.Title)
}

// drawWithLegend draws the legend at the bottom of dc and the rest with
// body.
func drawWithLegend(dc draw.Canvas, leg plot.Legend, body func(draw.Canvas)) {
	pad := vg.Length(6)
	lr := leg.Rectangle(dc)
	lh := lr.Max.Y - lr.Min.Y
	legArea := draw.Crop(dc, pad*3, -pad, pad, 0)
	legArea.Max.Y = legArea.Min.Y + lh
	// A little room on the right keeps the last tick label off the edge.
	body(draw.Crop(dc, 0, -2*pad, lh+pad, 0))
	leg.Draw(legArea)
}

// plot turns the figure's series into a gonum plot titled title and a
// separate legend.
func (f *Figure) plot(title string) (*plot.Plot, plot.Legend) {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 11
	p.Title.Padding = 6
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font.Size = 11
		ax.Tick.Label.Font.Size = 9.5
	}
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = 9.5
	leg.ThumbnailWidth = 0.8 * vg.Centimeter
	leg.Padding = 1.5

	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal.Color = color.Gray{Y: 225}
	p.Add(grid)

	o := orient{horizontal: f.Horizontal && f.Categories != nil, n: len(f.Categories)}
	switch {
	case o.horizontal:
		rev := slices.Clone(f.Categories)
		slices.Reverse(rev)
		p.NominalY(rev...)
		p.Y.Padding = 0
		p.Y.Min, p.Y.Max = -0.5, float64(o.n)-0.5
		p.X.Label.Text, p.Y.Label.Text = f.YLabel+" (%)", f.XLabel
		p.X.Min, p.X.Max = 0, shareMax(f.Series)
		p.X.Tick.Marker = percentTicks{}
		grid.Vertical, grid.Horizontal = grid.Horizontal, grid.Vertical
	case f.Categories != nil:
		p.NominalX(f.Categories...)
		p.X.Padding = 0
		p.X.Min, p.X.Max = -0.5, float64(len(f.Categories))-0.5
		long := 0
		for _, c := range f.Categories {
			long = max(long, len([]rune(c)))
		}
		if float64(long)*0.19 > 0.9*16/float64(len(f.Categories)) {
			p.X.Tick.Label.Rotation = math.Pi / 9
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YTop
		}
	}
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	lines := 0 // Line and Steps series so far
	for _, s := range f.Series {
		// Each series is one or two plotters, which also draw its legend
		// thumbnail.
		var parts []interface {
			plot.Plotter
			plot.Thumbnailer
		}
		switch s.Kind {
		case Bars:
			parts = append(parts, &bars{s: s, o: o})
		case Marks:
			parts = append(parts, &marks{s: s, o: o})
		case Band:
			parts = append(parts, &band{s: s})
		case Line, Steps:
			l, _ := plotter.NewLine(xys(s.X, s.Y))
			l.LineStyle = lineStyle(s)
			if s.Kind == Steps {
				l.StepStyle = plotter.PostStep
			}
			parts = append(parts, l)
			if sc := lineMarks(s, lines, nLines(f.Series)); sc != nil {
				parts = append(parts, sc)
			}
			lines++
		case Rule:
			parts = append(parts, &rule{s: s})
		case Points:
			sc, _ := plotter.NewScatter(xys(s.X, s.Y))
			sc.GlyphStyle = draw.GlyphStyle{Color: Colour(s.Colour), Radius: 2.5, Shape: draw.CircleGlyph{}}
			parts = append(parts, sc)
		case ErrorBars:
			parts = append(parts, &errorBars{s: s})
		}
		var th []plot.Thumbnailer
		for _, pt := range parts {
			p.Add(pt)
			th = append(th, pt)
		}
		if s.Name != "" && th != nil {
			leg.Add(s.Name, th...)
		}
	}
	if f.XMax > f.XMin {
		p.X.Min, p.X.Max = f.XMin, f.XMax
	}
	if f.YMax > f.YMin && !o.horizontal {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	}
	return p, leg
}

// lineGlyphs are the page's line charts' markers (web/charts/line.js) for
// the palette colours they draw series in: circle, square, triangle and
// diamond for series 0 to 3, in palette entries 0, 3, 2 and 4.
var lineGlyphs = map[int]draw.GlyphDrawer{0: draw.CircleGlyph{}, 3: draw.BoxGlyph{}, 2: draw.PyramidGlyph{}, 4: diamond{}}

// lineMarks marks every k-th point of the i-th of n lines as the page does,
// k = round(points/8), starting at point i·k/n, or returns nil when the
// series' colour has no marker on the page.
func lineMarks(s Series, i, n int) *plotter.Scatter {
	g, ok := lineGlyphs[s.Colour]
	if !ok || len(s.X) == 0 {
		return nil
	}
	every := max(1, int(math.Round(float64(len(s.X))/8)))
	var pts plotter.XYs
	for k := range s.X {
		if (k+i*every/n)%every == 0 {
			pts = append(pts, plotter.XY{X: s.X[k], Y: s.Y[k]})
		}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: Colour(s.Colour), Radius: 2.8, Shape: g}
	return sc
}

// nLines counts the Line and Steps series.
func nLines(series []Series) int {
	n := 0
	for _, s := range series {
		if s.Kind == Line || s.Kind == Steps {
			n++
		}
	}
	return n
}

func lineStyle(s Series) draw.LineStyle {
	ls := draw.LineStyle{Color: Colour(s.Colour), Width: 1.8}
	if s.Dashed {
		ls.Dashes = []vg.Length{6, 3}
	}
	return ls
}

func xys(x, y []float64) plotter.XYs {
	pts := make(plotter.XYs, len(x))
	for i := range x {
		pts[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return pts
}

func rangeOf(xs ...[]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range xs {
		for _, x := range s {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	return lo, hi
}

// orient places a series' (position, value) pairs: the position along x
// and the value up y, or, in a horizontal chart of n categories, the value
// along x and the position down y, the first category at the top.
type orient struct {
	horizontal bool
	n          int
}

func (o orient) xy(pos, val float64) (x, y float64) {
	if o.horizontal {
		return val, float64(o.n-1) - pos
	}
	return pos, val
}

// rect returns the data range of positions lo..hi and values a..b.
func (o orient) rect(lo, hi, a, b float64) (xmin, xmax, ymin, ymax float64) {
	x0, y0 := o.xy(lo, a)
	x1, y1 := o.xy(hi, b)
	return math.Min(x0, x1), math.Max(x0, x1), math.Min(y0, y1), math.Max(y0, y1)
}

// box returns the canvas polygon of positions lo..hi and values a..b.
func (o orient) box(c draw.Canvas, p *plot.Plot, lo, hi, a, b float64) []vg.Point {
	tx, ty := p.Transforms(&c)
	xmin, xmax, ymin, ymax := o.rect(lo, hi, a, b)
	x0, x1, y0, y1 := tx(xmin), tx(xmax), ty(ymin), ty(ymax)
	return c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
}

// bars draws filled bars of width s.Width centred on each X, from 0 to Y;
// in a horizontal chart each on a track across the whole value axis.
type bars struct {
	s Series
	o orient
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	for i := range b.s.X {
		lo, hi := b.s.X[i]-b.s.Width/2, b.s.X[i]+b.s.Width/2
		if b.o.horizontal {
			c.FillPolygon(SiteTrack, b.o.box(c, p, lo, hi, p.X.Min, p.X.Max))
		}
		c.FillPolygon(Colour(b.s.Colour), b.o.box(c, p, lo, hi, 0, b.s.Y[i]))
	}
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	lo, hi := rangeOf(b.s.X)
	_, top := rangeOf(b.s.Y)
	return b.o.rect(lo-b.s.Width/2, hi+b.s.Width/2, 0, math.Max(top, 0))
}

func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	r.Min.Y += 2
	r.Max.Y -= 2
	c.SetColor(Colour(b.s.Colour))
	c.Fill(r.Path())
}

// marks draws the exact value of each X as a line across its bar with a
// dot, or in a horizontal chart with a diamond, as the page draws it.
type marks struct {
	s Series
	o orient
}

func (m *marks) style() (draw.LineStyle, draw.GlyphStyle) {
	col := Colour(m.s.Colour)
	ls, gs := draw.LineStyle{Color: col, Width: 2}, draw.GlyphStyle{Color: col, Radius: 2.4, Shape: draw.CircleGlyph{}}
	if m.o.horizontal {
		ls.Width, gs.Radius, gs.Shape = 1.8, 4, diamond{}
	}
	return ls, gs
}

func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ls, gs := m.style()
	for i := range m.s.X {
		x0, y0 := m.o.xy(m.s.X[i]-m.s.Width/2, m.s.Y[i])
		x1, y1 := m.o.xy(m.s.X[i]+m.s.Width/2, m.s.Y[i])
		x, y := m.o.xy(m.s.X[i], m.s.Y[i])
		c.StrokeLine2(ls, tx(x0), ty(y0), tx(x1), ty(y1))
		c.DrawGlyph(gs, vg.Point{X: tx(x), Y: ty(y)})
	}
}

func (m *marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	lo, hi := rangeOf(m.s.X)
	a, b := rangeOf(m.s.Y)
	return m.o.rect(lo-m.s.Width/2, hi+m.s.Width/2, a, b)
}

func (m *marks) Thumbnail(c *draw.Canvas) {
	ls, gs := m.style()
	x, y := (c.Min.X+c.Max.X)/2, (c.Min.Y+c.Max.Y)/2
	if m.o.horizontal {
		c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
	} else {
		c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
	}
	c.DrawGlyph(gs, vg.Point{X: x, Y: y})
}

// diamond is the page's mark glyph: a square on its corner, edged in white.
type diamond struct{}

func (diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var path vg.Path
	path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	path.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	path.Close()
	c.SetColor(sty.Color)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: color.White, Width: 1})
	c.Stroke(path)
}

// shareMax is the value axis' end in a horizontal chart, as the page picks
// it (niceMax in web/charts/bars.js): the first of 1%, 2%, 5%, 10%, 20%, 25%,
// 40%, 50%, 60%, 80% and 100% at or above 1.04 × the largest value.
func shareMax(series []Series) float64 {
	top := 0.0
	for _, s := range series {
		if s.Kind == Bars || s.Kind == Marks {
			_, hi := rangeOf(s.Y)
			top = math.Max(top, hi)
		}
	}
	top *= 1.04
	for _, m := range []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.8, 1} {
		if top <= m {
			return m
		}
	}
	return math.Ceil(top)
}

// percentTicks labels a share axis in whole percent at the page's steps:
// 1% up to 5%, 5% up to 25%, 10% up to 50%, else 25%.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 0.25
	switch {
	case hi <= 0.05:
		step = 0.01
	case hi <= 0.25:
		step = 0.05
	case hi <= 0.5:
		step = 0.1
	}
	var ticks []plot.Tick
	for i := 0; float64(i)*step <= hi+1e-9; i++ {
		t := float64(i) * step
		ticks = append(ticks, plot.Tick{Value: t, Label: strconv.Itoa(int(math.Round(100*t))) + "%"})
	}
	return ticks
}

// band shades the region between Lo and Hi, edged by dashed lines.
type band struct{ s Series }

func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	var pts []vg.Point
	for i := range b.s.X {
		pts = append(pts, vg.Point{X: tx(b.s.X[i]), Y: ty(b.s.Hi[i])})
	}
	for i := len(b.s.X) - 1; i >= 0; i-- {
		pts = append(pts, vg.Point{X: tx(b.s.X[i]), Y: ty(b.s.Lo[i])})
	}
	c.FillPolygon(tint(Colour(b.s.Colour)), c.ClipPolygonXY(pts))
	edge := draw.LineStyle{Color: Colour(b.s.Colour), Width: 1.2, Dashes: []vg.Length{5, 3}}
	for _, ys := range [][]float64{b.s.Lo, b.s.Hi} {
		line := make([]vg.Point, len(b.s.X))
		for i := range b.s.X {
			line[i] = vg.Point{X: tx(b.s.X[i]), Y: ty(ys[i])}
		}
		c.StrokeLines(edge, c.ClipLinesXY(line)...)
	}
}

func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = rangeOf(b.s.X)
	ymin, ymax = rangeOf(b.s.Lo, b.s.Hi)
	return
}

func (b *band) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	r.Min.Y += 2
	r.Max.Y -= 2
	c.SetColor(tint(Colour(b.s.Colour)))
	c.Fill(r.Path())
}

// tint mixes a palette colour with white, for areas behind data.
func tint(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((int(v) + 3*255) / 4) }
	return color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
}

// errorBars draws a dot at Y with a vertical interval from Lo to Hi.
type errorBars struct{ s Series }

func (e *errorBars) style() (draw.LineStyle, draw.GlyphStyle) {
	col := Colour(e.s.Colour)
	return draw.LineStyle{Color: col, Width: 1.5}, draw.GlyphStyle{Color: col, Radius: 2.6, Shape: draw.BoxGlyph{}}
}

func (e *errorBars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ls, gs := e.style()
	cap := vg.Length(3)
	for i := range e.s.X {
		x := tx(e.s.X[i])
		lo, hi := ty(e.s.Lo[i]), ty(e.s.Hi[i])
		c.StrokeLine2(ls, x, lo, x, hi)
		c.StrokeLine2(ls, x-cap, lo, x+cap, lo)
		c.StrokeLine2(ls, x-cap, hi, x+cap, hi)
		c.DrawGlyph(gs, vg.Point{X: x, Y: ty(e.s.Y[i])})
	}
}

func (e *errorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = rangeOf(e.s.X)
	ymin, ymax = rangeOf(e.s.Lo, e.s.Hi)
	return
}

func (e *errorBars) Thumbnail(c *draw.Canvas) {
	ls, gs := e.style()
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(ls, x, c.Min.Y+1, x, c.Max.Y-1)
	c.DrawGlyph(gs, vg.Point{X: x, Y: (c.Min.Y + c.Max.Y) / 2})
}

// rule draws a dashed vertical line at X[0] from the bottom of the plot to
// the top: a threshold or the setting the page is at.
type rule struct{ s Series }

func (r *rule) style() draw.LineStyle {
	return draw.LineStyle{Color: Colour(r.s.Colour), Width: 1.4, Dashes: []vg.Length{4, 3}}
}

func (r *rule) Plot(c draw.Canvas, p *plot.Plot) {
	tx, _ := p.Transforms(&c)
	x := tx(r.s.X[0])
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(r.style(), x, c.Min.Y, x, c.Max.Y)
}

// DataRange keeps the rule in view along x and leaves y to the data.
func (r *rule) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.s.X[0], r.s.X[0], math.Inf(1), math.Inf(-1)
}

func (r *rule) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(r.style(), c.Min.X, y, c.Max.X, y)
}

// Export is one rendered figure, as the page's "Export figure" downloads it.
type Export struct {
	Bytes []byte
	Name  string // the file name dpplay figures writes
	MIME  string
}

var mimes = map[string]string{"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf", "json": "application/json"}

// ExportHash renders the figure a request hash names (ParseRequest) in
// format: the widget's first figure unless fig= names one. The bytes are
// those `dpplay figures` writes for the same state.
func ExportHash(hash, format string) (Export, error) {
	req, width, height, err := ParseRequest(hash)
	if err != nil {
		return Export{}, err
	}
	figs, err := Build(req)
	if err != nil {
		return Export{}, err
	}
	f := figs[0]
	b, err := Render(f, format, width, height)
	if err != nil {
		return Export{}, err
	}
	return Export{Bytes: b, Name: f.FileName(format), MIME: mimes[format]}, nil
}
