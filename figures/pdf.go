package figures

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/dpplay/dpplay/core/validate"
)

// pdfDate is written as the PDF's creation date, so that the same figure
// always gives the same bytes.
const pdfDate = "D:20000101000000Z"

// writePDF writes a one-page PDF of w × h points that shows the PNG image
// png across the whole page, with title in the document's information.
//
// The image's PNG data stream (its IDAT chunks joined) is a zlib stream of
// filtered rows, which PDF's FlateDecode with the PNG predictors
// (/Predictor 15) reads as it is: the page holds the raster without
// decoding or compressing it again. png must be 8-bit RGB, not interlaced:
// what image/png writes for an opaque image.
func writePDF(buf *bytes.Buffer, png []byte, w, h float64, title string) error {
	width, height, data, err := pngRGB(png)
	if err != nil {
		return err
	}
	draw := fmt.Sprintf("q %s 0 0 %s 0 0 cm /Im0 Do Q", pdfNum(w), pdfNum(h))
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>", pdfNum(w), pdfNum(h)),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns %d >> /Length %d >>\nstream\n%s\nendstream", width, height, width, len(data), data),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(draw), draw),
		fmt.Sprintf("<< /Title %s /Creator (dpplay figures) /CreationDate (%s) /ModDate (%s) >>", pdfText(title), pdfDate, pdfDate),
	}
	buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = buf.Len()
		fmt.Fprintf(buf, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := buf.Len()
	fmt.Fprintf(buf, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(buf, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, len(objects), xref)
	return nil
}

// pngRGB returns the size of an 8-bit RGB, non-interlaced PNG and its data
// stream, the IDAT chunks' contents joined.
func pngRGB(png []byte) (width, height int, data []byte, err error) {
	const sig = "\x89PNG\r\n\x1a\n"
	if !bytes.HasPrefix(png, []byte(sig)) {
		return 0, 0, nil, validate.Errorf("pdf", "the raster is not a PNG")
	}
	for p := png[len(sig):]; len(p) >= 12; {
		n := int(binary.BigEndian.Uint32(p))
		if n > len(p)-12 {
			break
		}
		kind, body := string(p[4:8]), p[8:8+n]
		switch kind {
		case "IHDR":
			if n != 13 || body[8] != 8 || body[9] != 2 || body[12] != 0 {
				return 0, 0, nil, validate.Errorf("pdf", "the raster is not an 8-bit RGB PNG")
			}
			width, height = int(binary.BigEndian.Uint32(body)), int(binary.BigEndian.Uint32(body[4:]))
		case "IDAT":
			data = append(data, body...)
		}
		p = p[12+n:]
	}
	if width == 0 || len(data) == 0 {
		return 0, 0, nil, validate.Errorf("pdf", "the PNG has no header or no image data")
	}
	return width, height, data, nil
}

// pdfNum writes a length in points with at most 4 decimals.
func pdfNum(x float64) string {
	s := fmt.Sprintf("%.4f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// pdfText writes s as a PDF text string: UTF-16BE with a byte-order mark,
// in hexadecimal, so that any character survives.
func pdfText(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}
