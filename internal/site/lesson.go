package site

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Lesson is one rendered lesson file.
type Lesson struct {
	Slug       string      `json:"slug"`
	Title      string      `json:"title"`
	Order      int         `json:"order"`
	Summary    string      `json:"summary"`
	Minutes    int         `json:"minutes,omitempty"`
	Objectives []string    `json:"-"`
	Widgets    []string    `json:"widgets"` // widget modules the lesson needs (web/widgets/NAME.js)
	Uses       []WidgetUse `json:"-"`       // the lesson's widget blocks, in reading order
	HTML       string      `json:"-"`       // the lesson's article, objectives included
}

var reSlug = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ParseLesson reads a lesson: front matter between "---" lines with
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
func ParseLesson(file string, src []byte) (*Lesson, error) {
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
	l := &Lesson{}
	var list *[]string
	for i := 1; i < end; i++ {
		raw := lines[i]
		t := strings.TrimSpace(raw)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "- ") && list != nil {
			*list = append(*list, strings.TrimSpace(t[2:]))
			continue
		}
		k, v, ok := strings.Cut(t, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: front matter line %q is not key: value", file, i+1, t)
		}
		v = strings.TrimSpace(v)
		list = nil
		switch strings.TrimSpace(k) {
		case "title":
			l.Title = v
		case "slug":
			l.Slug = v
		case "summary":
			l.Summary = v
		case "order", "minutes":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s must be a whole number, got %q", file, i+1, k, v)
			}
			if k == "order" {
				l.Order = n
			} else {
				l.Minutes = n
			}
		case "objectives":
			list = &l.Objectives
		default:
			return nil, fmt.Errorf("%s:%d: unknown front matter key %q", file, i+1, k)
		}
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
	case len(l.Objectives) == 0:
		return nil, fmt.Errorf("%s: front matter needs a list of objectives", file)
	}
	r := &renderer{file: file, widgets: map[string]bool{}, ids: map[string]int{}}
	body, err := r.render(lines[end+1:], end+2)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<article class=\"lesson\" data-slug=\"%s\" aria-labelledby=\"lesson-title\">\n", l.Slug)
	title, err := r.inline(l.Title, 2)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "<p class=\"lesson-kicker\">Lesson %d</p>\n<h1 id=\"lesson-title\" tabindex=\"-1\">%s</h1>\n", l.Order, title)
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
	for w := range r.widgets {
		l.Widgets = append(l.Widgets, w)
	}
	sort.Strings(l.Widgets)
	return l, nil
}

// LoadLessons parses every *.md file in dir, sorted by order then slug, and
// checks that slugs and orders are unique.
func LoadLessons(dir string) ([]*Lesson, error) {
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
		l, err := ParseLesson(f, src)
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
