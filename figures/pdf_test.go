package figures

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strconv"
	"testing"
)

// A PDF figure is well formed: the cross-reference table points at each
// object, startxref at the table, every stream's /Length is its length,
// and the image stream inflates to height rows of one filter byte and
// width RGB pixels, at PDFDPI over the page's size in points.
func TestPDFStructure(t *testing.T) {
	f := one(t, "exponential-mechanism", "")
	b, err := Render(f, "pdf", 16, 11)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no startxref at the end: %q", b[len(b)-40:])
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(b[xref:], []byte("xref\n0 7\n")) {
		t.Fatalf("startxref %d points at %q", xref, b[xref:xref+10])
	}
	for i, off := range regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(b[xref:], -1) {
		o, _ := strconv.Atoi(string(off[1]))
		if want := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(b[o:], []byte(want)) {
			t.Errorf("object %d: offset %d points at %q", i+1, o, b[o:o+10])
		}
	}
	streams := regexp.MustCompile(`(?s)/Length (\d+) >>\nstream\n`).FindAllSubmatchIndex(b, -1)
	if len(streams) != 2 {
		t.Fatalf("%d streams", len(streams))
	}
	for _, s := range streams {
		n, _ := strconv.Atoi(string(b[s[2]:s[3]]))
		if !bytes.HasPrefix(b[s[1]+n:], []byte("\nendstream")) {
			t.Errorf("a stream of /Length %d does not end there", n)
		}
	}
	dims := regexp.MustCompile(`/Width (\d+) /Height (\d+) `).FindSubmatch(b)
	w, _ := strconv.Atoi(string(dims[1]))
	h, _ := strconv.Atoi(string(dims[2]))
	px := func(cm float64) int { return int(cm/2.54*PDFDPI + 0.5) }
	if w != px(16) || h != px(11) {
		t.Errorf("image %d × %d px, want %d × %d", w, h, px(16), px(11))
	}
	n, _ := strconv.Atoi(string(b[streams[0][2]:streams[0][3]]))
	z, err := zlib.NewReader(bytes.NewReader(b[streams[0][1] : streams[0][1]+n]))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(z)
	if err != nil || len(raw) != h*(1+3*w) {
		t.Errorf("image stream inflates to %d bytes (%v), want %d", len(raw), err, h*(1+3*w))
	}
	if !bytes.Contains(b, []byte("/MediaBox [0 0 453.5433 311.811]")) {
		t.Error("the page is not 16 × 11 cm")
	}
}
