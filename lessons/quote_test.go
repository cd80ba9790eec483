package lessons

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lessonText returns the lesson file whose slug (front matter `slug:`) is
// slug, with runs of white space collapsed to one space so that a quoted
// figure may wrap across lines.
func lessonText(t *testing.T, slug string) string {
	t.Helper()
	return strings.Join(strings.Fields(lessonFile(t, slug)), " ")
}

// lessonFiles returns the text of every lesson file, keyed by its slug
// (front matter `slug:`).
func lessonFiles(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := reSlug.FindSubmatch(b); m != nil {
			out[string(m[1])] = string(b)
		}
	}
	return out
}

// lessonFile returns the text of the lesson file whose slug is slug.
func lessonFile(t *testing.T, slug string) string {
	t.Helper()
	s, ok := lessonFiles(t)[slug]
	if !ok {
		t.Fatalf("no lesson has slug %q", slug)
	}
	return s
}

// quoted fails t unless the lesson with the given slug contains every one of
// texts. Each text is what the lesson says, built by the caller from a value
// the test computed (for example fmt.Sprintf("about %.0f%%", 100*p)), so a
// change in the code that moves the value breaks the test.
func quoted(t *testing.T, slug string, texts ...string) {
	t.Helper()
	s := lessonText(t, slug)
	for _, x := range texts {
		if !strings.Contains(s, strings.Join(strings.Fields(x), " ")) {
			t.Errorf("lesson %s does not say %q", slug, x)
		}
	}
}
