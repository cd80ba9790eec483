package figures

import (
	"bytes"
	"compress/zlib"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfPage is what a page's content streams draw, read by drawPDF.
type pdfPage struct {
	ops   map[string]int // how many times each operator occurs
	fills []pdfShape     // the filled paths, in drawing order
}

// pdfShape is one painted path: its bounding box in page space (points,
// y up) and how many of each path operator built it.
type pdfShape struct {
	minX, minY, maxX, maxY float64
	ops                    map[string]int
}

func (s pdfShape) size() (w, h float64) { return s.maxX - s.minX, s.maxY - s.minY }

// streamDict matches a stream's dictionary (one level of nesting allowed)
// up to the stream keyword.
var streamDict = regexp.MustCompile(`<<((?:[^<>]|<<[^<>]*>>)*)>>\s*stream\r?\n`)

// pdfStreams returns every stream of the PDF b, inflated where its filter
// is FlateDecode, with its dictionary.
func pdfStreams(t *testing.T, b []byte) (dicts []string, data [][]byte) {
	t.Helper()
	for _, m := range streamDict.FindAllSubmatchIndex(b, -1) {
		dict := string(b[m[2]:m[3]])
		l := regexp.MustCompile(`/Length (\d+)`).FindStringSubmatch(dict)
		if l == nil {
			t.Fatalf("a stream without a direct /Length: %s", dict)
		}
		n, _ := strconv.Atoi(l[1])
		if m[1]+n > len(b) || !bytes.HasPrefix(bytes.TrimLeft(b[m[1]+n:], "\r\n"), []byte("endstream")) {
			t.Fatalf("a stream of /Length %d does not end there", n)
		}
		raw := b[m[1] : m[1]+n]
		if strings.Contains(dict, "/FlateDecode") {
			z, err := zlib.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if raw, err = io.ReadAll(z); err != nil {
				t.Fatal(err)
			}
		}
		dicts, data = append(dicts, dict), append(data, raw)
	}
	return dicts, data
}

// drawPDF interprets a content stream of paths: it keeps the current
// transformation (cm, q, Q), maps each path's points to page space and
// records each filled path's bounding box. Text, images and strings are
// counted as operators but not drawn.
func drawPDF(content []byte) pdfPage {
	page := pdfPage{ops: map[string]int{}}
	ctm := [6]float64{1, 0, 0, 1, 0, 0}
	var stack [][6]float64
	var args []float64
	path := pdfShape{minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1), ops: map[string]int{}}
	add := func(x, y float64) {
		px, py := ctm[0]*x+ctm[2]*y+ctm[4], ctm[1]*x+ctm[3]*y+ctm[5]
		path.minX, path.maxX = math.Min(path.minX, px), math.Max(path.maxX, px)
		path.minY, path.maxY = math.Min(path.minY, py), math.Max(path.maxY, py)
	}
	for _, tok := range strings.Fields(string(content)) {
		if x, err := strconv.ParseFloat(tok, 64); err == nil {
			args = append(args, x)
			continue
		}
		page.ops[tok]++
		switch tok {
		case "q":
			stack = append(stack, ctm)
		case "Q":
			ctm, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case "cm":
			a := args[len(args)-6:]
			ctm = [6]float64{
				a[0]*ctm[0] + a[1]*ctm[2], a[0]*ctm[1] + a[1]*ctm[3],
				a[2]*ctm[0] + a[3]*ctm[2], a[2]*ctm[1] + a[3]*ctm[3],
				a[4]*ctm[0] + a[5]*ctm[2] + ctm[4], a[4]*ctm[1] + a[5]*ctm[3] + ctm[5],
			}
		case "m", "l", "c", "v", "y":
			for i := 0; i+1 < len(args); i += 2 {
				add(args[i], args[i+1])
			}
			path.ops[tok]++
		case "re":
			x, y, w, h := args[0], args[1], args[2], args[3]
			add(x, y)
			add(x+w, y+h)
			path.ops[tok]++
		case "h":
			path.ops[tok]++
		case "f", "f*", "F", "B", "B*", "b", "b*", "S", "s", "n":
			if tok != "S" && tok != "s" && tok != "n" {
				page.fills = append(page.fills, path)
			}
			path = pdfShape{minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1), ops: map[string]int{}}
		}
		args = args[:0]
	}
	return page
}

// renderedPDF renders f as a 16 × 11 cm PDF and reads its one page.
func renderedPDF(t *testing.T, f *Figure) ([]byte, pdfPage) {
	t.Helper()
	b, err := Render(f, "pdf", 16, 11)
	if err != nil {
		t.Fatal(err)
	}
	dicts, data := pdfStreams(t, b)
	var content []byte
	for i, d := range dicts {
		if !strings.Contains(d, "/Subtype") && !strings.Contains(d, "/Type") {
			content = append(append(content, data[i]...), '\n')
		}
	}
	return b, drawPDF(content)
}

// A PDF figure is vector: its page draws with path operators (moves,
// lines, curves, strokes and fills), holds no image, inline or XObject,
// and draws the title's glyph outlines; the page is 16 × 11 cm.
func TestPDFIsVector(t *testing.T) {
	f := one(t, "exponential-mechanism", "")
	b, page := renderedPDF(t, f)
	for _, op := range []string{"m", "l", "c", "h", "S", "f"} {
		if page.ops[op] == 0 {
			t.Errorf("no %s operator in the page: %v", op, page.ops)
		}
	}
	for _, op := range []string{"Do", "BI", "ID", "EI"} {
		if page.ops[op] != 0 {
			t.Errorf("the page draws an image (%s × %d)", op, page.ops[op])
		}
	}
	_, data := pdfStreams(t, b)
	for _, s := range append(data, b) {
		if regexp.MustCompile(`/Subtype\s*/Image`).Match(s) {
			t.Error("the PDF holds an image")
		}
	}
	if !regexp.MustCompile(`/MediaBox \[0 0 453\.54\d* 311\.81\d*\]`).Match(b) {
		t.Error("the page is not 16 × 11 cm")
	}

	// The title's first line, in the title's face, is one filled path of
	// the same contours, curves and size somewhere on the page.
	line := strings.Split(f.fullTitle(), "\n")[0]
	face := font.DefaultCache.Lookup(plot.DefaultFont, 11)
	want := shapeOf(glyphPath(face, vg.Point{}, line))
	found := false
	for _, s := range page.fills {
		w, h := s.size()
		ww, wh := want.size()
		if s.ops["m"] == want.ops["m"] && s.ops["c"] == want.ops["c"] && math.Abs(w-ww) < 0.01 && math.Abs(h-wh) < 0.01 {
			found = true
		}
	}
	if !found {
		t.Errorf("no filled path is the outline of %q (%v, %.2f × %.2f pt)", line, want.ops, want.maxX-want.minX, want.maxY-want.minY)
	}
}

// shapeOf is a vg.Path's bounding box and operators, in the PDF's names.
func shapeOf(p vg.Path) pdfShape {
	s := pdfShape{minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1), ops: map[string]int{}}
	name := map[int]string{vg.MoveComp: "m", vg.LineComp: "l", vg.CurveComp: "c", vg.CloseComp: "h"}
	for _, c := range p {
		s.ops[name[c.Type]]++
		for _, pt := range append(c.Control, c.Pos) {
			if c.Type == vg.CloseComp {
				break
			}
			s.minX, s.maxX = math.Min(s.minX, pt.X.Points()), math.Max(s.maxX, pt.X.Points())
			s.minY, s.maxY = math.Min(s.minY, pt.Y.Points()), math.Max(s.maxY, pt.Y.Points())
		}
	}
	return s
}

// Text is filled glyph outlines where the font puts the glyphs: each
// contour one subpath, the string's box the glyphs' boxes from the font's
// own bounds at their advances, and ε, Δ and − drawn like any letter.
func TestPDFTextIsOutlined(t *testing.T) {
	face := font.DefaultCache.Lookup(plot.DefaultFont, 20)
	const s = "ε = −1, Δ"
	pt := vg.Point{X: 30, Y: 40}
	cv := vgpdf.New(300, 100)
	outlineCanvas{cv}.FillString(face, pt, s)
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	dicts, data := pdfStreams(t, buf.Bytes())
	var page pdfPage
	for i, d := range dicts {
		if !strings.Contains(d, "/Type") {
			page = drawPDF(data[i])
		}
	}
	if len(page.fills) != 1 || page.ops["BT"] != 0 {
		t.Fatalf("%d filled paths and %d text objects, want one path and no text", len(page.fills), page.ops["BT"])
	}
	got := page.fills[0]

	// The expected box, from the font's glyph bounds (y down) at each
	// advance plus kerning.
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	contours := 0
	for i, r := range []rune(s) {
		if r == ' ' {
			continue
		}
		x := pt.X + face.Width(string([]rune(s)[:i+1])) - face.Width(string(r))
		bounds := glyphBounds(t, face, r)
		minX, maxX = math.Min(minX, (x+bounds[0]).Points()), math.Max(maxX, (x+bounds[2]).Points())
		minY, maxY = math.Min(minY, (pt.Y-bounds[3]).Points()), math.Max(maxY, (pt.Y-bounds[1]).Points())
		contours += map[rune]int{'ε': 1, '=': 2, '−': 1, '1': 1, ',': 1, 'Δ': 2}[r]
	}
	if got.ops["m"] != contours || got.ops["h"] != contours {
		t.Errorf("%d subpaths, %d closed; %q has %d contours", got.ops["m"], got.ops["h"], s, contours)
	}
	for _, d := range []float64{got.minX - minX, got.minY - minY, got.maxX - maxX, got.maxY - maxY} {
		if math.Abs(d) > 0.02 {
			t.Errorf("outline box [%.3f %.3f %.3f %.3f], the glyphs' [%.3f %.3f %.3f %.3f]", got.minX, got.minY, got.maxX, got.maxY, minX, minY, maxX, maxY)
			break
		}
	}
}

// glyphBounds is r's box in face from the font's bounds: min x, min y,
// max x, max y, y down from the baseline.
func glyphBounds(t *testing.T, face font.Face, r rune) [4]vg.Length {
	t.Helper()
	var buf sfnt.Buffer
	ppem := fixed.Int26_6(face.Face.UnitsPerEm())
	idx, err := face.Face.GlyphIndex(&buf, r)
	if err != nil || idx == 0 {
		t.Fatalf("no glyph for %q: %v", r, err)
	}
	b, _, err := face.Face.GlyphBounds(&buf, idx, ppem, xfont.HintingNone)
	if err != nil {
		t.Fatal(err)
	}
	scale := face.Font.Size / font.Points(float64(ppem))
	return [4]vg.Length{vg.Length(b.Min.X) * scale, vg.Length(b.Min.Y) * scale, vg.Length(b.Max.X) * scale, vg.Length(b.Max.Y) * scale}
}
