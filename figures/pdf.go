package figures

import (
	"errors"
	"fmt"
	"io"
	"time"

	"codeberg.org/go-pdf/fpdf"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfDate is the PDF's creation and modification date, so that the same
// figure always gives the same bytes.
var pdfDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func init() {
	// vgpdf's fpdf document takes these from fpdf's package defaults.
	fpdf.SetDefaultCreationDate(pdfDate)
	fpdf.SetDefaultModificationDate(pdfDate)
	fpdf.SetDefaultCatalogSort(true)
}

// renderPDF draws the figure as a one-page vector PDF of w × h points with
// gonum's vgpdf: lines, areas and glyph marks as PDF paths, and text as the
// glyph outlines of its font (outlineCanvas).
func renderPDF(out io.Writer, f *Figure, w, h vg.Length) error {
	cv := vgpdf.New(w, h)
	draw1(f, draw.New(outlineCanvas{cv}))
	_, err := cv.WriteTo(out)
	return err
}

// outlineCanvas is a vgpdf canvas that fills each string's glyph outlines
// instead of writing PDF text. vgpdf writes text in code page 1252, which
// has no ε, Δ or −, and builds its font files in a temporary directory,
// which the browser does not have; outlines need neither, and show the
// glyphs the SVG and PNG show.
type outlineCanvas struct{ *vgpdf.Canvas }

// FillString fills the outlines of s in face, its baseline starting at pt.
func (c outlineCanvas) FillString(face font.Face, pt vg.Point, s string) {
	if face.Font.Size == 0 {
		return
	}
	c.Fill(glyphPath(face, pt, s))
}

// glyphPath returns the outlines of s in face as a path, its baseline
// starting at pt. The glyphs are placed as face.Width measures them: each
// advance plus the kerning of each pair. A quadratic segment (TrueType's)
// becomes the cubic with controls at 2/3 of the way to its control point,
// the same curve.
func glyphPath(face font.Face, pt vg.Point, s string) vg.Path {
	var (
		buf   sfnt.Buffer
		f     = face.Face
		ppem  = fixed.Int26_6(f.UnitsPerEm())
		scale = face.Font.Size / font.Points(float64(ppem))
		path  vg.Path
		x     fixed.Int26_6
		prev  sfnt.GlyphIndex
		first = true
	)
	// at maps a point of a glyph at pen position x (y down, in ppem
	// units) to the canvas (y up).
	at := func(p fixed.Point26_6) vg.Point {
		return vg.Point{X: pt.X + vg.Length(x+p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
	}
	for _, r := range s {
		idx, err := f.GlyphIndex(&buf, r)
		if err != nil {
			panic(fmt.Errorf("figures: glyph index of %q: %w", r, err))
		}
		if !first {
			k, err := f.Kern(&buf, prev, idx, ppem, xfont.HintingNone)
			if err != nil && !errors.Is(err, sfnt.ErrNotFound) {
				panic(fmt.Errorf("figures: kerning before %q: %w", r, err))
			}
			x += k
		}
		segs, err := f.LoadGlyph(&buf, idx, ppem, nil)
		if err != nil {
			panic(fmt.Errorf("figures: outline of %q: %w", r, err))
		}
		var from vg.Point // the pen, for a quadratic's cubic controls
		for j, sg := range segs {
			switch sg.Op {
			case sfnt.SegmentOpMoveTo:
				if j > 0 {
					path.Close()
				}
				from = at(sg.Args[0])
				path.Move(from)
			case sfnt.SegmentOpLineTo:
				from = at(sg.Args[0])
				path.Line(from)
			case sfnt.SegmentOpQuadTo:
				ctl, end := at(sg.Args[0]), at(sg.Args[1])
				path.CubeTo(twoThirds(from, ctl), twoThirds(end, ctl), end)
				from = end
			case sfnt.SegmentOpCubeTo:
				from = at(sg.Args[2])
				path.CubeTo(at(sg.Args[0]), at(sg.Args[1]), from)
			}
		}
		if len(segs) > 0 {
			path.Close()
		}
		adv, err := f.GlyphAdvance(&buf, idx, ppem, xfont.HintingNone)
		if err != nil {
			panic(fmt.Errorf("figures: advance of %q: %w", r, err))
		}
		x += adv
		prev, first = idx, false
	}
	return path
}

// twoThirds returns p + 2/3·(q − p).
func twoThirds(p, q vg.Point) vg.Point {
	return p.Add(q.Sub(p).Scale(2.0 / 3))
}
