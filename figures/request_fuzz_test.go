package figures

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// ParseRequest reads a hash from the page (or any hand-made link): it never
// panics, and what it accepts is in range: a lesson in [1, 99], a size in
// [MinSizeCM, MaxSizeCM], a title of at most MaxTitle printable characters.
// Validate then checks the widget's state without panicking either.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		"#lesson=2&widget=exponential-mechanism&id=meet&title=Choosing+a+meeting+day&eps=0.7&seed=42&step=3",
		"#lesson=3&widget=report-noisy-max&title=%E2%80%AE&fig=histogram&width=4&height=60",
		"#widget=epsilon-band&title=a%0Ab&width=NaN&lesson=100",
		"#lesson=8&widget=smalldb&k=2.5&q=marginals:9&title=" + strings.Repeat("x", MaxTitle+1),
		"", "#&&==&", "#%zz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, hash string) {
		req, w, h, err := ParseRequest(hash)
		if err != nil {
			return
		}
		if req.Lesson != 0 && (req.Lesson < 1 || req.Lesson > 99) {
			t.Errorf("lesson %d accepted", req.Lesson)
		}
		if !(w >= MinSizeCM && w <= MaxSizeCM && h >= MinSizeCM && h <= MaxSizeCM) {
			t.Errorf("size %v × %v accepted", w, h)
		}
		if utf8.RuneCountInString(req.Title) > MaxTitle || strings.IndexFunc(req.Title, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			t.Errorf("title %q accepted", req.Title)
		}
		_ = Validate(req.Widget, req.Params)
	})
}
