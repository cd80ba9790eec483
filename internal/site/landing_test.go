package site

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func mustLesson(t *testing.T, src string) *Lesson {
	t.Helper()
	l, err := ParseLesson("t.md", []byte(src), testMath)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

const (
	first  = "---\ntitle: First & foremost\norder: 1\nslug: first\nsummary: Starts <here>.\nminutes: 20\nobjectives:\n  - a\n---\n**Before this lesson:** nothing.\n\n## Part one\n\nAlpha text.\n\n```predict\nWhich?\n- [ ] no\n- [x] yes\n---\nBecause yes.\n```\n\n```notes\n---\nSecret instructor words.\n```\n"
	second = "---\ntitle: Second\norder: 2\nslug: second\nsummary: Then this.\nminutes: 15\nobjectives:\n  - b\n---\n**Before this lesson:** [First](#/first), terms in the\n[glossary](#/glossary) and [First again](#/first).\n\n## Part two\n\nBeta text with $\\varepsilon$.\n\n```exercise\nanswer: 2\nexample-right: 2\nexample-wrong: 3\n---\nHow many?\n```\n"
	about  = "---\ntitle: About\norder: 100\nkind: page\nslug: about\n---\nWho made it.\n"
)

func TestRequiresAndCounts(t *testing.T) {
	l := mustLesson(t, second)
	if strings.Join(l.Requires, ",") != "first" {
		t.Errorf("Requires = %q, want [first] (glossary and repeats left out, paragraph over two lines)", l.Requires)
	}
	if l.Exercises != 1 || l.Predicts != 0 {
		t.Errorf("counts: %d exercises, %d predictions; want 1, 0", l.Exercises, l.Predicts)
	}
	if l := mustLesson(t, first); len(l.Requires) != 0 || l.Predicts != 1 {
		t.Errorf("first: Requires %q, %d predictions", l.Requires, l.Predicts)
	}
	if err := checkRequires([]*Lesson{l}); err == nil || !strings.Contains(err.Error(), "#/first") {
		t.Errorf("a prerequisite that is no lesson: err = %v", err)
	}
}

func TestPage(t *testing.T) {
	p := mustLesson(t, about)
	if p.Kind != "page" || strings.Contains(p.HTML, "objectives") || strings.Contains(p.HTML, "lesson-kicker") {
		t.Errorf("a page has no objectives or kicker:\n%s", p.HTML)
	}
	lessons, pages := splitPages([]*Lesson{mustLesson(t, first), p})
	if len(lessons) != 1 || len(pages) != 1 || pages[0].Slug != "about" {
		t.Errorf("splitPages: %d lessons, %d pages", len(lessons), len(pages))
	}
	if _, err := ParseLesson("t.md", []byte(strings.Replace(about, "kind: page", "kind: poster", 1)), testMath); err == nil {
		t.Error("kind: poster accepted")
	}
}

func TestLanding(t *testing.T) {
	h := Landing([]*Lesson{mustLesson(t, first), mustLesson(t, second)})
	for _, want := range []string{
		`href="first/">Start with “First &amp; foremost”</a>`,
		`<a href="first/">First &amp; foremost</a>`,
		`Starts &lt;here&gt;.`, // summaries are text, never markup
		`About 20 minutes`,
		`After: <a href="first/">First &amp; foremost</a>`,
		`<a href="glossary/">glossary</a>`,
		`<a href="handout/">The course handout</a>`,
		`No lesson needed first`,
		`data-progress="second"`,
		`id="continue-link"`,
		`course of 2 interactive lessons (about an hour`,
		`<a href="lecture.html?role=host">Run a live lecture</a>`, // the instructors' section
		`<code>dpplay figures</code>`,
		`“Embed or share”`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("landing lacks %q:\n%s", want, h)
		}
	}
}

// An instructor finds the live lecture on the first screen, in the hero
// beside the first lesson, not only below the lesson map.
func TestLandingLeadsToTheLecture(t *testing.T) {
	h := Landing([]*Lesson{mustLesson(t, first), mustLesson(t, second)})
	hero, _, ok := strings.Cut(h, `</header>`)
	if !ok || !strings.Contains(hero, `<a class="button" href="lecture.html?role=host" data-lecture-link>Run a live lecture with your class</a>`) {
		t.Errorf("the hero has no way into the live lecture:\n%s", hero)
	}
}

func TestSearchIndex(t *testing.T) {
	// A widget as the pre-render leaves it: its drawing and the recording
	// of its engine calls are not the lesson's text.
	pre := mustLesson(t, second)
	pre.HTML = strings.Replace(pre.HTML, "<h2 id=\"part-two\">", `<figure class="widget"><h3 class="widget-title">A widget</h3><div data-prerendered="" inert="" class="widget-body"><p>Drawn 1,234</p></div><script type="application/json" class="widget-calls">[["k",{"Float64Array":[1]}]]</script></figure><h2 id="part-two">`, 1)
	idx := SearchIndex([]*Lesson{mustLesson(t, first), pre})
	b, _ := json.Marshal(idx)
	s := string(b)
	if strings.Contains(s, "Secret instructor") || strings.Contains(s, "<") {
		t.Errorf("index holds notes or markup: %s", s)
	}
	if strings.Contains(s, "Float64Array") || strings.Contains(s, "Drawn") || !strings.Contains(s, "A widget") {
		t.Errorf("index holds a widget's drawing or engine calls, or lost its title: %s", s)
	}
	var heads []string
	for _, e := range idx {
		heads = append(heads, e.Slug+"#"+e.ID+":"+e.Heading)
	}
	want := "first#:First & foremost|first#part-one:Part one|second#:Second|second#part-two:Part two"
	if strings.Join(heads, "|") != want {
		t.Errorf("entries %q, want %q", strings.Join(heads, "|"), want)
	}
	if !strings.Contains(idx[1].Text, "Alpha text") || !strings.Contains(idx[1].Text, "Because yes") {
		t.Errorf("section text %q", idx[1].Text)
	}
}

func TestHandout(t *testing.T) {
	pre := mustLesson(t, second)
	// The build's pre-render writes a widget's opening state, controls and
	// all, into its body, with the class after other attributes.
	pre.HTML += `<figure class="widget"><div data-prerendered="" inert="" class="widget-body"><button type="button">Start</button></div></figure>` +
		`<figure class="widget"><div class="widget-body" aria-busy="true"></div></figure>`
	h := Handout("<main><!--dpplay:handout--></main>", []*Lesson{mustLesson(t, first), pre})
	if n := len(regexp.MustCompile(`<div hidden [^>]*class="widget-body"`).FindAllString(h, -1)); n != 2 || strings.Count(h, `class="handout-widget"`) != 2 {
		t.Errorf("%d of 2 widget bodies hidden, %d pointers to the lesson", n, strings.Count(h, `class="handout-widget"`))
	}
	if strings.Contains(h, "reveal-button") || regexp.MustCompile(`class="reveal"[^>]* hidden`).MatchString(h) {
		t.Error("the handout keeps a Reveal button or a hidden explanation")
	}
	if !strings.Contains(h, `<label class="choice is-correct">`) || !strings.Contains(h, "Because yes.") {
		t.Error("the right choice is not marked or the explanation is missing")
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(h, -1) {
		if seen[m[1]] {
			t.Errorf("id %q twice", m[1])
		}
		seen[m[1]] = true
	}
	if !seen["first--lesson-title"] || !seen["second--lesson-title"] || !strings.Contains(h, `aria-labelledby="first--lesson-title"`) {
		t.Error("ids and their references are not prefixed with the lesson")
	}
	if strings.Contains(h, `href="#/`) || !strings.Contains(h, `<a href="../first/">First</a>`) || !strings.Contains(h, `open <a href="../second/">the lesson</a>`) {
		t.Error("lesson links in the handout (one level below the site's root) must go to the lessons' pages (../slug/)")
	}
}
