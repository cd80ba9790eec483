package site

import (
	"strings"
	"testing"
)

// Each widget's fragment holds its figure whole (nested figures and a
// script that spells </figure> included) and the engine modules of the
// site index, and nothing else of the lesson.
func TestEmbedFragments(t *testing.T) {
	fig := func(id, body string) string {
		return `<figure class="widget" id="w-` + id + `" data-widget="x" data-id="` + id + `">` + body + `</figure>`
	}
	one := fig("one", `<figure class="chart"><svg></svg></figure><script type="application/json" class="widget-calls">["</figure>"]</script><p>after</p>`)
	two := fig("two", "<p>2</p>")
	l := &Lesson{Slug: "les", HTML: "<p>Text before.</p>\n" + one + "\n<p>Between.</p>" + two + "<p>After.</p>"}
	files := map[string][]byte{}
	if err := embedFragments(files, []*Lesson{l}, map[string]wasmInfo{"core": {"wasm/core.wasm", 4}}); err != nil {
		t.Fatal(err)
	}
	const head = `<script type="application/json" id="site-index">{"wasm":{"core":{"file":"wasm/core.wasm","bytes":4}}}</script>` + "\n"
	for id, want := range map[string]string{"one": head + one + "\n", "two": head + two + "\n"} {
		if got := string(files[EmbedFragment("les", id)]); got != want {
			t.Errorf("%s:\n%s\nwant\n%s", EmbedFragment("les", id), got, want)
		}
	}
	if len(files) != 2 || !embedFragment(EmbedFragment("les", "one")) || embedFragment("les/index.html") {
		t.Errorf("files %v", files)
	}
	l.HTML = strings.TrimSuffix(fig("bad", "<p>no end"), "</figure>")
	if err := embedFragments(files, []*Lesson{l}, map[string]wasmInfo{}); err == nil {
		t.Error("a figure with no end is not an error")
	}
}
