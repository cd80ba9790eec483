package site

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Lesson is one rendered lesson file.
type Lesson struct {
	Slug       string      `json:"slug"`
	Title      string      `json:"title"`
	Order      int         `json:"order"`
	Label      string      `json:"label,omitempty"` // what the page calls it instead of "Lesson <order>", e.g. "Reference"
	Summary    string      `json:"summary"`
	Minutes    int         `json:"minutes,omitempty"`
	Kind       string      `json:"-"`                  // "page" for a page that is not a lesson (about): no objectives, not in the lesson list
	Requires   []string    `json:"requires,omitempty"` // slugs linked from the body's "**Before this lesson:**" paragraph
	Predicts   int         `json:"predicts,omitempty"` // predict-then-reveal questions in the lesson
	Exercises  int         `json:"exercises,omitempty"`
	Objectives []string    `json:"-"`
	Widgets    []string    `json:"widgets"` // widget modules the lesson needs (web/widgets/NAME.js)
	Uses       []WidgetUse `json:"-"`       // the lesson's widget blocks, in reading order
	HTML       string      `json:"-"`       // the lesson's article, objectives included
}

var reSlug = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ParseLesson reads a lesson: YAML front matter between "---" lines with
// title, order, slug, summary, minutes and a list of objectives, then the
// Markdown body.
//
//	---
//	title: The exponential mechanism
//	order: 1
//	slug: exponential-mechanism
//	summary: One sentence for the lesson list.
//	objectives:
//	  - Compute the exact probabilities …
//	---
//
// math renders its formulas.
func ParseLesson(file string, src []byte, math *Math) (*Lesson, error) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return nil, fmt.Errorf("%s:1: a lesson starts with front matter between --- lines", file)
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("%s: front matter is not closed with ---", file)
	}
	l, err := parseFrontMatter(file, []byte(strings.Join(lines[1:end], "\n")))
	if err != nil {
		return nil, err
	}
	if l.Slug == "" {
		l.Slug = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		l.Slug = strings.TrimLeft(l.Slug, "0123456789-")
	}
	switch {
	case l.Title == "":
		return nil, fmt.Errorf("%s: front matter needs a title", file)
	case !reSlug.MatchString(l.Slug):
		return nil, fmt.Errorf("%s: slug %q must be lower-case words joined by -", file, l.Slug)
	case l.Kind != "" && l.Kind != "page":
		return nil, fmt.Errorf("%s: kind %q must be empty or \"page\"", file, l.Kind)
	case len(l.Objectives) == 0 && l.Kind != "page":
		return nil, fmt.Errorf("%s: front matter needs a list of objectives", file)
	}
	l.Requires = requires(lines[end+1:])
	r := newRenderer(file, math)
	body, err := r.render(lines[end+1:], end+2)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	title, err := r.inline(l.Title, 2)
	if err != nil {
		return nil, err
	}
	if l.Kind == "page" {
		fmt.Fprintf(&b, "<article class=\"lesson page\" data-slug=\"%s\" aria-labelledby=\"lesson-title\">\n<h1 id=\"lesson-title\" tabindex=\"-1\">%s</h1>\n%s</article>\n", l.Slug, title, body)
		l.HTML = b.String()
		return l, nil
	}
	fmt.Fprintf(&b, "<article class=\"lesson\" data-slug=\"%s\" aria-labelledby=\"lesson-title\">\n", l.Slug)
	fmt.Fprintf(&b, "<p class=\"lesson-kicker\">%s</p>\n<h1 id=\"lesson-title\" tabindex=\"-1\">%s</h1>\n", html.EscapeString(l.Kicker()), title)
	b.WriteString("<section class=\"objectives\" aria-labelledby=\"objectives-h\">\n<h2 id=\"objectives-h\">You will be able to</h2>\n<ul>\n")
	for _, o := range l.Objectives {
		inner, err := r.inline(o, 1)
		if err != nil {
			return nil, err
		}
		b.WriteString("<li>" + inner + "</li>\n")
	}
	b.WriteString("</ul>\n")
	if l.Minutes > 0 {
		fmt.Fprintf(&b, "<p class=\"lesson-time\">About %d minutes.</p>\n", l.Minutes)
	}
	b.WriteString("</section>\n")
	b.WriteString(body)
	b.WriteString("</article>\n")
	l.HTML = numberBlocks(numberBlocks(b.String(), "exercise", r.exercises), "predict", r.predicts)
	l.Uses = r.uses
	l.Predicts, l.Exercises = r.predicts, r.exercises
	for w := range r.widgets {
		l.Widgets = append(l.Widgets, w)
	}
	sort.Strings(l.Widgets)
	return l, nil
}

var (
	reBefore  = regexp.MustCompile(`^\*\*Before this lesson:\*\*`)
	reLessonA = regexp.MustCompile(`\]\(#/([a-z0-9-]+)\)`)
)

// requires returns the lessons a body names as its prerequisites: the slugs
// linked from its "**Before this lesson:**" paragraph, the glossary left out.
func requires(body []string) []string {
	var out []string
	for i, line := range body {
		if !reBefore.MatchString(line) {
			continue
		}
		// The paragraph runs to the next blank line.
		para := line
		for _, l := range body[i+1:] {
			if strings.TrimSpace(l) == "" {
				break
			}
			para += " " + l
		}
		for _, m := range reLessonA.FindAllStringSubmatch(para, -1) {
			if m[1] != "glossary" && !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
		break
	}
	return out
}

// Kicker is the line above the lesson's title: its label if it has one,
// otherwise "Lesson" and its order.
func (l *Lesson) Kicker() string {
	if l.Label != "" {
		return l.Label
	}
	return fmt.Sprintf("Lesson %d", l.Order)
}

// NavMark is the short mark beside the lesson in the navigation: the first
// letter of its label, or its order.
func (l *Lesson) NavMark() string {
	for _, r := range l.Label {
		return string(r)
	}
	return fmt.Sprint(l.Order)
}

// frontMatter is the YAML between a lesson's "---" lines.
type frontMatter struct {
	Title      string   `yaml:"title"`
	Order      int      `yaml:"order"`
	Label      string   `yaml:"label"`
	Slug       string   `yaml:"slug"`
	Summary    string   `yaml:"summary"`
	Minutes    int      `yaml:"minutes"`
	Kind       string   `yaml:"kind"`
	Objectives []string `yaml:"objectives"`
}

func parseFrontMatter(file string, src []byte) (*Lesson, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	var fm frontMatter
	if err := dec.Decode(&fm); err != nil && err != io.EOF {
		if _, key, ok := strings.Cut(err.Error(), "field "); ok && strings.Contains(key, " not found in type") {
			key, _, _ = strings.Cut(key, " ")
			return nil, fmt.Errorf("%s: unknown front matter key %q", file, key)
		}
		return nil, fmt.Errorf("%s: front matter: %v", file, err)
	}
	return &Lesson{Title: fm.Title, Order: fm.Order, Label: fm.Label, Slug: fm.Slug, Summary: fm.Summary, Minutes: fm.Minutes, Kind: fm.Kind, Objectives: fm.Objectives}, nil
}

// LoadLessons parses every *.md file in dir, sorted by order then slug, and
// checks that slugs and orders are unique; math renders their formulas.
func LoadLessons(dir string, math *Math) ([]*Lesson, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	var out []*Lesson
	slugs := map[string]string{}
	for _, f := range files {
		if strings.EqualFold(filepath.Base(f), "README.md") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		l, err := ParseLesson(f, src, math)
		if err != nil {
			return nil, err
		}
		if prev, ok := slugs[l.Slug]; ok {
			return nil, fmt.Errorf("%s and %s both have slug %q", prev, f, l.Slug)
		}
		slugs[l.Slug] = f
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no lessons (*.md) in %s", dir)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Order != out[j].Order {
			return out[i].Order < out[j].Order
		}
		return out[i].Slug < out[j].Slug
	})
	return out, nil
}
