package lessons

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var (
	reLessonLink = regexp.MustCompile(`\[([^\]]+)\]\(#/([a-z0-9-]+)[^)]*\)`)
	reTitle      = regexp.MustCompile(`(?m)^title: (.+)$`)
)

// TestLinkTextIsTitle checks that every link from one lesson to another
// reads as the linked lesson's title (its first letter may be lower case,
// mid-sentence), so a reader always knows where a link goes and a renamed
// lesson cannot leave an old name behind. Terms link to the glossary
// instead, whose links may name any term; pages that are not lessons
// (kind: page) are left out too.
func TestLinkTextIsTitle(t *testing.T) {
	files := lessonFiles(t)
	titles := map[string]string{}
	for slug, src := range files {
		fm := reFrontMatter.FindString(src)
		if slug == "glossary" || rePage.MatchString(fm) {
			continue
		}
		m := reTitle.FindStringSubmatch(fm)
		if m == nil {
			t.Fatalf("%s has no title", slug)
		}
		titles[slug] = strings.Trim(m[1], `"`)
	}
	links := 0
	for slug, src := range files {
		for _, m := range reLessonLink.FindAllStringSubmatch(reFrontMatter.ReplaceAllString(src, ""), -1) {
			title, ok := titles[m[2]]
			if !ok {
				continue
			}
			links++
			if !sameTitle(m[1], title) {
				t.Errorf("%s links to #/%s as %q; the lesson's title is %q", slug, m[2], m[1], title)
			}
		}
	}
	if links < 20 {
		t.Errorf("only %d links between lessons found: the pattern no longer matches them", links)
	}
}

// sameTitle says whether a link's text is the title, allowing its first
// letter alone to differ in case.
func sameTitle(text, title string) bool {
	a, na := utf8.DecodeRuneInString(text)
	b, nb := utf8.DecodeRuneInString(title)
	return unicode.ToLower(a) == unicode.ToLower(b) && text[na:] == title[nb:]
}
