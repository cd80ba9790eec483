package site

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// EmbedFragment is the address, in the built site, of the fragment the
// embed page (web/embed/embedpage.js) fetches for widget id of lesson slug.
func EmbedFragment(slug, id string) string { return "embed/" + slug + "/" + id + ".html" }

// embedFragment reports whether a built file is a widget's fragment for
// the embed page: fetched only by a framed widget, so the service worker
// does not precache the lot.
func embedFragment(name string) bool { return strings.HasPrefix(name, "embed/") }

var reWidgetFigure = regexp.MustCompile(`<figure class="widget" [^>]*\bdata-id="([^"]+)"`)

// embedFragments adds to files one fragment per widget figure of each
// lesson (EmbedFragment): the figure as the lesson's page holds it, with
// the build's drawing of its opening state, after a script element with id
// site-index holding {"wasm": wasm}, the site index's engine modules. The
// embed page needs only that, not the whole lesson page. Its URLs stay
// written for the lesson's page: the embed page resolves them against the
// lesson's address.
func embedFragments(files map[string][]byte, lessons []*Lesson, wasm map[string]wasmInfo) error {
	index, err := json.Marshal(map[string]map[string]wasmInfo{"wasm": wasm})
	if err != nil {
		return err
	}
	head := indexScript(index) + "\n"
	for _, l := range lessons {
		for _, m := range reWidgetFigure.FindAllStringSubmatchIndex(l.HTML, -1) {
			id := l.HTML[m[2]:m[3]]
			end := figureEnd(l.HTML, m[0])
			if end < 0 {
				return fmt.Errorf("lesson %s: the figure of widget %q has no end", l.Slug, id)
			}
			files[EmbedFragment(l.Slug, id)] = []byte(head + l.HTML[m[0]:end] + "\n")
		}
	}
	return nil
}

// figureEnd returns the offset just past the </figure> that closes the
// figure opening at start in s, counting nested figures and skipping the
// raw text of script elements; −1 if there is none.
func figureEnd(s string, start int) int {
	depth := 0
	for i := start; i < len(s); {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		rest := s[i:]
		switch {
		case strings.HasPrefix(rest, "<script"):
			k := strings.Index(rest, "</script>")
			if k < 0 {
				return -1
			}
			i += k + len("</script>")
			continue
		case strings.HasPrefix(rest, "<figure") && len(rest) > 7 && (rest[7] == ' ' || rest[7] == '>'):
			depth++
		case strings.HasPrefix(rest, "</figure>"):
			depth--
			if depth == 0 {
				return i + len("</figure>")
			}
		}
		i++
	}
	return -1
}
