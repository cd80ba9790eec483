package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every page of the web shell opens with the head mark, so each gets the
// shared head (a page without it would ship with no doctype or charset).
func TestPagesOpenWithHeadMark(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "web", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in web/: %v", err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), headMark+"\n") {
			t.Errorf("%s does not open with %s", p, headMark)
		}
	}
}

func TestFillHeads(t *testing.T) {
	files := map[string][]byte{
		"a.html":         []byte(headMark + "\n<title>a</title>"),
		"lessons/b.html": []byte(headMark),
		"c.js":           []byte(headMark),
	}
	fillHeads(files)
	if got := string(files["a.html"]); got != pageHead+"\n<title>a</title>" {
		t.Errorf("a.html = %q", got)
	}
	for _, n := range []string{"lessons/b.html", "c.js"} {
		if string(files[n]) != headMark {
			t.Errorf("%s changed: %q", n, files[n])
		}
	}
	if !strings.HasPrefix(pageHead, "<!doctype html>\n") || !strings.Contains(pageHead, `<meta charset="utf-8">`) {
		t.Errorf("pageHead = %q", pageHead)
	}
}
