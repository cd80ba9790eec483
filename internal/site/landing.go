package site

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
)

// splitPages separates the lessons from the pages (kind: page, such as the
// about page), keeping their order.
func splitPages(all []*Lesson) (lessons, pages []*Lesson) {
	for _, l := range all {
		if l.Kind == "page" {
			pages = append(pages, l)
		} else {
			lessons = append(lessons, l)
		}
	}
	return lessons, pages
}

// checkRequires reports a prerequisite that names no lesson.
func checkRequires(lessons []*Lesson) error {
	known := map[string]bool{}
	for _, l := range lessons {
		known[l.Slug] = true
	}
	for _, l := range lessons {
		for _, s := range l.Requires {
			if !known[s] {
				return fmt.Errorf("lesson %s: \"Before this lesson\" links to #/%s, which is not a lesson", l.Slug, s)
			}
		}
	}
	return nil
}

// Landing renders the page the site's root shows: what dpplay is and for
// whom, what to know first, the lessons as a map with their summaries,
// minutes and prerequisites, and what instructors can do with them. web/landing.js fills in the reader's progress
// and "continue where you left off" from the device's storage.
func Landing(lessons []*Lesson) string {
	title := map[string]string{}
	for _, l := range lessons {
		title[l.Slug] = l.Title
	}
	e := html.EscapeString
	var b strings.Builder
	numbered := 0
	minutes := 0
	for _, l := range lessons {
		if l.Label == "" {
			numbered++
			minutes += l.Minutes
		}
	}
	first := lessons[0]
	b.WriteString(`<article class="lesson landing" data-slug="" aria-labelledby="lesson-title">
<header class="hero">
<p class="lesson-kicker">A differential-privacy playground</p>
<h1 id="lesson-title" tabindex="-1">Learn differential privacy by moving ε and watching what happens</h1>
`)
	hours := "an hour"
	if h := (minutes + 30) / 60; h > 1 {
		hours = fmt.Sprintf("%d hours", h)
	}
	fmt.Fprintf(&b, `<p class="lede">dpplay is a free course of %d interactive lessons (about %s in all) on the mechanisms that choose, count and price privately: the exponential mechanism, report noisy max, permute-and-flip, the Laplace mechanism, synthetic data and private pricing. Every chart is computed exactly, in your browser, by the same code the tests check.</p>
`, numbered, hours)
	b.WriteString(`<p>It is written for students meeting differential privacy for the first time, in a course or on their own, and for instructors who project it in a lecture: every setting is in the address, so a link reproduces exactly what is on screen.</p>
<p class="hero-actions">`)
	fmt.Fprintf(&b, `<a class="button primary" href="%s">Start with “%s”</a>`, PageAddress(first.Slug, ""), e(first.Title))
	b.WriteString(`<a class="button continue" id="continue-link" href="./" hidden><span class="continue-label">Continue where you left off:</span> <span class="continue-title"></span></a>`)
	// Instructors look for the lecture mode at the top of the site.
	b.WriteString(`<a class="button" href="lecture.html?role=host" data-lecture-link>Run a live lecture with your class</a></p>
</header>
<section class="first" aria-labelledby="first-h">
<h2 id="first-h">What to know first</h2>
<ul>
<li><strong>Probability at school level:</strong> what the probability of an event is, and the functions <var>e</var><sup><var>x</var></sup> and ln <var>x</var>. Nothing about privacy: the first lesson starts from the beginning.</li>
<li><strong>How a page works:</strong> predict before you reveal, move the controls and watch the chart; the exercises check your answer on the spot. Your answers and progress stay on this device and are never sent anywhere.</li>
<li><strong>Words you meet</strong> are defined in the <a href="glossary/">glossary</a>; where the facts come from is listed at the end of each lesson and on the <a href="about/">about page</a>.</li>
</ul>
</section>
<section class="map" aria-labelledby="map-h">
<h2 id="map-h">The lessons</h2>
<p class="map-progress-all" id="progress-all" hidden><span class="progress-all-text"></span> <button type="button" class="link-button" id="forget-progress">Forget my progress</button></p>
<ol class="lesson-map">
`)
	for _, l := range lessons {
		fmt.Fprintf(&b, `<li class="map-item" data-slug="%s"><span class="map-num" aria-hidden="true">%s</span><div class="map-body"><h3 class="map-title"><a href="%s">%s</a></h3>
<p class="map-summary">%s</p>
<p class="map-meta">`, l.Slug, e(l.NavMark()), PageAddress(l.Slug, ""), e(l.Title), e(l.Summary))
		var meta []string
		if l.Minutes > 0 {
			meta = append(meta, fmt.Sprintf(`<span class="map-minutes">About %d minutes</span>`, l.Minutes))
		}
		if len(l.Requires) > 0 {
			var links []string
			for _, s := range l.Requires {
				links = append(links, fmt.Sprintf(`<a href="%s">%s</a>`, PageAddress(s, ""), e(title[s])))
			}
			meta = append(meta, `<span class="map-requires">After: `+strings.Join(links, ", ")+`</span>`)
		} else if l.Label == "" {
			meta = append(meta, `<span class="map-requires">No lesson needed first</span>`)
		}
		b.WriteString(strings.Join(meta, ` <span aria-hidden="true">·</span> `))
		b.WriteString(`</p><p class="map-progress" data-progress="` + l.Slug + `"></p></div></li>
`)
	}
	b.WriteString(`</ol>
</section>
<section class="teach" aria-labelledby="teach-h">
<h2 id="teach-h">For instructors</h2>
<ul>
<li><strong><a href="lecture.html?role=host">Run a live lecture</a>:</strong> students join on their phones by QR code and answer; the room sees only what a private mechanism releases, with the ε it cost. It needs <code>dpplay serve</code> on your laptop or the Cloudflare back end.</li>
<li><strong>Present:</strong> the Present button, or <kbd>f</kbd>, fills the screen with the widget you are using, sized for a projector; <kbd>?</kbd> lists the keys.</li>
<li><strong>Embed and share:</strong> “Embed or share” under every widget gives the code to put it in your own slides, course page or notebook, a QR code, and a link that fixes what you choose: <em>lock</em> a control (shown, fixed at your value) or <em>hide</em> it, so an exercise starts where you set it.</li>
<li><strong><a href="handout/">The course handout</a>:</strong> every lesson on one printable page, with the answers to the predictions.</li>
<li><strong>Figures for your slides:</strong> “Export figure” under a chart, or <code>dpplay figures</code> for every chart of every lesson as SVG, PNG or PDF, drawn from the same numbers the page shows.</li>
</ul>
</section>
<section class="more" aria-labelledby="more-h">
<h2 id="more-h">Also here</h2>
<ul>
<li><a href="about/">About dpplay</a>: sources, credits and licences.</li>
</ul>
</section>
</article>
`)
	return b.String()
}

// A SearchEntry is one section of a lesson in the search index: the lesson,
// the heading's id and text, and the section's plain text.
type SearchEntry struct {
	Slug    string `json:"s"`
	ID      string `json:"i,omitempty"`
	Heading string `json:"h"`
	Text    string `json:"t"`
}

var (
	reH2    = regexp.MustCompile(`<h2 id="([^"]*)"[^>]*>(.*?)</h2>`)
	reMath  = regexp.MustCompile(`(?s)<math\b.*?</math>`)
	reTag   = regexp.MustCompile(`(?s)<[^>]*>`)
	reSpace = regexp.MustCompile(`\s+`)
	reNotes = regexp.MustCompile(`(?s)<details class="notes">.*?</details>`)
	// What is not the lesson's text: scripts, the notes that controls need
	// JavaScript, buttons, the exercise's form, and a widget's body (up to
	// its caption or its end), which holds its placeholder or its drawing.
	reNotText    = regexp.MustCompile(`(?s)<script\b.*?</script>|<noscript>.*?</noscript>|<button\b.*?</button>|<form class="exercise-form">.*?</form>`)
	reWidgetDraw = regexp.MustCompile(`(?s)<div [^>]*\bclass="widget-body".*?(<figcaption>|</figure>)`)
)

// plainText strips tags and formulas from rendered HTML and unescapes it.
func plainText(h string) string {
	h = reMath.ReplaceAllString(h, " ")
	h = reTag.ReplaceAllString(h, " ")
	return strings.TrimSpace(reSpace.ReplaceAllString(html.UnescapeString(h), " "))
}

// SearchIndex splits every lesson and page at its h2 headings into entries
// for the site's search (web/shell/search.js), of their text only: it takes the
// lessons as written (before the pre-render draws the widgets and records
// their engine calls) and leaves out instructor notes and what is not text
// (reNotText).
func SearchIndex(all []*Lesson) []SearchEntry {
	var out []SearchEntry
	for _, l := range all {
		body := reNotes.ReplaceAllString(l.HTML, " ")
		body = reNotText.ReplaceAllString(body, " ")
		body = reWidgetDraw.ReplaceAllString(body, " $1")
		// The lesson's opening (title, summary, objectives and what comes
		// before its first section) is the first entry.
		locs := reH2.FindAllStringSubmatchIndex(body, -1)
		locs = slices.DeleteFunc(locs, func(m []int) bool { return body[m[2]:m[3]] == "objectives-h" })
		end := len(body)
		if len(locs) > 0 {
			end = locs[0][0]
		}
		out = append(out, SearchEntry{Slug: l.Slug, Heading: l.Title, Text: plainText(l.Summary + " " + body[:end])})
		for k, m := range locs {
			end := len(body)
			if k+1 < len(locs) {
				end = locs[k+1][0]
			}
			id := body[m[2]:m[3]]
			out = append(out, SearchEntry{Slug: l.Slug, ID: id, Heading: plainText(body[m[4]:m[5]]), Text: plainText(body[m[1]:end])})
		}
	}
	return out
}

var (
	reIDRef   = regexp.MustCompile(`\b(id|for|aria-labelledby|aria-controls|aria-describedby|name)="([^"]*)"`)
	reReveal  = regexp.MustCompile(`(?s)<button type="button" class="reveal-button".*?</button>\n?`)
	reSecName = regexp.MustCompile(`(<section\b[^>]*?) aria-labelledby="[^"]*"`)
	reHidden  = regexp.MustCompile(`(<div class="reveal" [^>]*?) hidden>`)
	reRadio   = regexp.MustCompile(`<label class="choice"><input type="radio"([^>]*) data-correct="(true|false)">`)
	// A widget's body, pre-rendered (its class after other attributes) or not.
	reWidgetBody = regexp.MustCompile(`<div ((?:[^>]*? )?)class="widget-body"`)
	reNoscript   = regexp.MustCompile(`(?s)<noscript>.*?</noscript>\n?`)
)

// Handout renders every lesson on one printable page (handout/): the
// lessons in order, predictions with their answers marked and explanations
// shown, no buttons, sections that are not landmarks, and a pointer from each widget to its lesson. Ids are
// prefixed with the lesson's slug, so that they stay unique on the page.
func Handout(shell string, lessons []*Lesson) string {
	var b strings.Builder
	b.WriteString(`<header class="handout-head"><p class="lesson-kicker">dpplay course handout</p><h1>Differential privacy, one mechanism at a time</h1>
<p>Every lesson of <a href="` + up + `">dpplay</a> on one page, for printing or reading offline. The interactive parts run in the lessons themselves; each widget here says where to find it. The answers to the predictions are marked and explained.</p>
<nav aria-label="Lessons in this handout"><ol>`)
	for _, l := range lessons {
		fmt.Fprintf(&b, `<li><a href="#%s">%s</a></li>`, l.Slug, html.EscapeString(l.Title))
	}
	b.WriteString("</ol></nav></header>\n")
	for _, l := range lessons {
		a := l.HTML
		a = reIDRef.ReplaceAllStringFunc(a, func(m string) string {
			s := reIDRef.FindStringSubmatch(m)
			var ids []string
			for _, id := range strings.Fields(s[2]) {
				ids = append(ids, l.Slug+"--"+id)
			}
			return s[1] + `="` + strings.Join(ids, " ") + `"`
		})
		a = strings.Replace(a, `<article class="lesson"`, `<article class="lesson" id="`+l.Slug+`"`, 1)
		a = reReveal.ReplaceAllString(a, "")
		a = reHidden.ReplaceAllString(a, "$1>")
		// Every lesson has regions named "Exercise" and "Predict, then
		// reveal"; on one page they would be landmarks with the same name.
		a = reSecName.ReplaceAllString(a, "$1")
		a = reRadio.ReplaceAllStringFunc(a, func(m string) string {
			s := reRadio.FindStringSubmatch(m)
			if s[2] == "true" {
				return `<label class="choice is-correct"><input type="radio"` + s[1] + ` checked disabled><span class="visually-hidden">(the right answer)</span>`
			}
			return `<label class="choice"><input type="radio"` + s[1] + ` disabled>`
		})
		a = reNoscript.ReplaceAllString(a, "")
		a = reWidgetBody.ReplaceAllString(a, `<p class="handout-widget">Interactive: open <a href="`+up+PageAddress(l.Slug, "")+`">the lesson</a> to use it.</p><div hidden ${1}class="widget-body"`)
		b.WriteString(a)
	}
	return strings.Replace(shell, handoutMark, b.String(), 1)
}
