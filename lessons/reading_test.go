package lessons

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// One idea at a time: a lesson's reading stays short enough to finish in
// one sitting, and the minutes it states are what reading it and using its
// widgets and exercises take.
const (
	// maxReadingWords bounds a lesson's reading: its prose and predict
	// blocks, outside widgets, exercises, instructor notes and references.
	maxReadingWords = 1600
	// wordsPerMinute is a student's reading speed for this kind of text.
	wordsPerMinute = 200
	// Minutes for each part a student works through besides the prose: a
	// widget (but not a class activity, run only in a lecture), an exercise
	// and a predict question.
	widgetMinutes, exerciseMinutes, predictMinutes = 4, 3, 1
	// minutesMargin is how far a lesson's stated minutes may stray from the
	// estimate, as a share of it (and never by less than minutesSlack).
	minutesMargin, minutesSlack = 0.25, 3
)

var (
	reFrontMatter = regexp.MustCompile(`(?s)\A---\n.*?\n---\n`)
	reFence       = regexp.MustCompile("(?s)```(\\w+)[^\n]*\n(.*?)\n```")
	reMath        = regexp.MustCompile(`(?s)\$\$.+?\$\$|\$[^$\n]+?\$`)
	reMdLink      = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	reMinutes     = regexp.MustCompile(`(?m)^minutes: (\d+)$`)
	reCheckbox    = regexp.MustCompile(`(?m)^- \[[ x]\] `)
	rePage        = regexp.MustCompile(`(?m)^kind: page$`)
)

// reading returns the part of a lesson a student reads as prose: the body
// without front matter, without widget, exercise and notes blocks (predict
// blocks stay: their question, choices and reveal are read), and without
// its references.
func reading(src string) string {
	body := reFrontMatter.ReplaceAllString(src, "")
	body = reFence.ReplaceAllStringFunc(body, func(b string) string {
		if m := reFence.FindStringSubmatch(b); m[1] == "predict" {
			return m[2]
		}
		return ""
	})
	if i := strings.Index(body, "\n## References\n"); i >= 0 {
		body = body[:i]
	}
	return body
}

// words counts the words of Markdown text: a formula ($…$ or $$…$$) is one
// word, a link counts its text, and only tokens with a letter or a digit
// count (a dash or a table rule is not a word).
func words(text string) int {
	text = strings.ReplaceAll(text, `\$`, "dollars")
	text = reCheckbox.ReplaceAllString(text, "- ")
	text = reMath.ReplaceAllString(text, " formula ")
	text = reMdLink.ReplaceAllString(text, "$1")
	n := 0
	for _, f := range strings.Fields(text) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// blocks counts a lesson's fenced blocks of one kind; for widgets, class
// activities (widget classrun) are left out.
func blocks(src, kind string) int {
	n := 0
	for _, m := range reFence.FindAllStringSubmatch(src, -1) {
		if m[1] != kind {
			continue
		}
		if kind == "widget" && strings.HasPrefix(m[0], "```widget classrun") {
			continue
		}
		n++
	}
	return n
}

// estimatedMinutes is how long a student takes over a lesson: its reading
// at wordsPerMinute, plus the fixed minutes for each widget, exercise and
// predict question.
func estimatedMinutes(src string) float64 {
	return float64(words(reading(src)))/wordsPerMinute +
		float64(widgetMinutes*blocks(src, "widget")+exerciseMinutes*blocks(src, "exercise")+predictMinutes*blocks(src, "predict"))
}

// statedMinutes is the lesson's front-matter minutes (not its instructor
// notes' lecture time).
func statedMinutes(t *testing.T, slug, src string) int {
	t.Helper()
	fm := reFrontMatter.FindString(src)
	m := reMinutes.FindStringSubmatch(fm)
	if m == nil {
		t.Fatalf("%s states no minutes", slug)
	}
	v, _ := strconv.Atoi(m[1])
	return v
}

func TestReadingLength(t *testing.T) {
	for slug, src := range lessonFiles(t) {
		if slug == "glossary" || rePage.MatchString(reFrontMatter.FindString(src)) {
			continue // a reference page, read a term at a time, or a page that is not a lesson
		}
		if n := words(reading(src)); n > maxReadingWords {
			t.Errorf("%s: the reading runs to %d words, more than %d: split the lesson or trim it", slug, n, maxReadingWords)
		} else {
			t.Logf("%s: %d words", slug, n)
		}
	}
}

func TestStatedMinutes(t *testing.T) {
	for slug, src := range lessonFiles(t) {
		if rePage.MatchString(reFrontMatter.FindString(src)) {
			continue
		}
		est := estimatedMinutes(src)
		got := float64(statedMinutes(t, slug, src))
		if margin := math.Max(minutesMargin*est, minutesSlack); math.Abs(got-est) > margin {
			t.Errorf("%s states %v minutes; reading %d words at %d a minute, %d widgets, %d exercises and %d predict questions take about %.0f (±%.0f)",
				slug, got, words(reading(src)), wordsPerMinute, blocks(src, "widget"), blocks(src, "exercise"), blocks(src, "predict"), est, margin)
		} else {
			t.Logf("%s: states %v minutes, estimate %.1f", slug, got, est)
		}
	}
}

// The counter itself: what it counts and what it leaves out.
func TestWords(t *testing.T) {
	src := "---\ntitle: T\nminutes: 5\n---\n**Before:** [The exponential mechanism](#/x) — a $\\frac{1}{2}$ price of \\$4.01.\n\n" +
		"```widget expmech\nid: a\n---\nCaption words here.\n```\n\n```predict\nWhich one?\n- [x] This.\n---\nBecause.\n```\n\n" +
		"| a | b |\n|---|---:|\n\n```exercise\nanswer: 1\n---\nQuestion words.\n```\n\n## References\n\n- Someone. A paper.\n"
	// Before, The, exponential, mechanism, a, formula, price, of, dollars4.01,
	// Which, one?, This., Because., a, b.
	if n := words(reading(src)); n != 15 {
		t.Errorf("words = %d, want 15: %q", n, reading(src))
	}
	if est := estimatedMinutes(src); math.Abs(est-(15.0/200+4+3+1)) > 1e-12 {
		t.Errorf("estimate %v", est)
	}
}
