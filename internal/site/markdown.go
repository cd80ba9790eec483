package site

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/widget"
)

// renderer turns a lesson's Markdown body into HTML. It supports the subset
// the lessons need — ATX headings, paragraphs, bullet and numbered lists,
// block quotes, pipe tables, fenced code, $…$ and $$…$$ math (\$ for a dollar sign), **strong**,
// *emphasis*, `code` and [links](url) — plus four fenced blocks that make a
// lesson interactive:
//
//	```widget NAME   an interactive widget (web/widgets/NAME.js) with its starting parameters
//	```predict       a predict-then-reveal question: "- [ ]" / "- [x]" choices, then --- and the reveal
//	```exercise      a checked exercise: answer/tolerance or check: module.function, example-right and
//	                 example-wrong (tried by the browser tests), then --- and the prompt
//	```notes         instructor notes, collapsed: minutes: N, then --- and the notes
//
// Raw HTML is escaped, never passed through.
type renderer struct {
	file    string
	widgets map[string]bool
	uses    []WidgetUse
	ids     map[string]int
	blockN  int

	exercises, predicts int // numbered when a lesson has more than one
}

// numberMark leaves a placeholder for a block's number; numberBlocks fills it
// in once the lesson is rendered and the count is known, so headings (and
// the landmarks they name) stay unique.
func numberMark(kind string, n int) string { return fmt.Sprintf("\x00%s#%d\x00", kind, n) }

func numberBlocks(html, kind string, count int) string {
	for k := 1; k <= count; k++ {
		num := ""
		if count > 1 {
			num = fmt.Sprintf(" %d", k)
		}
		html = strings.Replace(html, numberMark(kind, k), num, 1)
	}
	return html
}

// Block is a fenced block's header: "key: value" lines before a "---" line.
// Values that look like JSON (numbers, true/false, [..], {..}, "..") are
// parsed as JSON; anything else is a string.
type Block map[string]any

// WidgetUse is one widget block of a lesson: the widget module, its id in
// the lesson (the prefix of its keys in the URL) and its starting
// parameters. `dpplay figures` draws each one's figures from these.
type WidgetUse struct {
	Name   string
	ID     string
	Params Block
}

func parseHeader(lines []string) (Block, error) {
	h := Block{}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("header line %q is not key: value", l)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var x any
		if v != "" && (strings.ContainsAny(v[:1], "[{\"-0123456789") || v == "true" || v == "false") && json.Unmarshal([]byte(v), &x) == nil {
			h[k] = x
		} else {
			h[k] = v
		}
	}
	return h, nil
}

// splitBlock separates a fenced block's header from its Markdown body at the
// first line that is exactly "---"; without one, everything is body unless
// headerOnly.
func splitBlock(lines []string, headerOnly bool) (head, body []string) {
	for i, l := range lines {
		if strings.TrimSpace(l) == "---" {
			return lines[:i], lines[i+1:]
		}
	}
	if headerOnly {
		return lines, nil
	}
	return nil, lines
}

func (r *renderer) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.file, line, fmt.Sprintf(format, args...))
}

var (
	reHeading  = regexp.MustCompile(`^(#{1,4})\s+(.*)$`)
	reBullet   = regexp.MustCompile(`^\s{0,3}[-*]\s+(.*)$`)
	reNumber   = regexp.MustCompile(`^\s{0,3}\d+[.)]\s+(.*)$`)
	reFence    = regexp.MustCompile("^```\\s*([A-Za-z0-9_-]*)\\s*([A-Za-z0-9_-]*)\\s*$")
	reTableSep = regexp.MustCompile(`^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$`)
)

// render converts lines (starting at file line first) to HTML.
func (r *renderer) render(lines []string, first int) (string, error) {
	var out strings.Builder
	i := 0
	for i < len(lines) {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		ln := first + i
		switch {
		case trimmed == "":
			i++
		case reFence.MatchString(trimmed):
			m := reFence.FindStringSubmatch(trimmed)
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
				j++
			}
			if j == len(lines) {
				return "", r.errorf(ln, "unclosed ``` block")
			}
			html, err := r.fenced(m[1], m[2], lines[i+1:j], ln+1)
			if err != nil {
				return "", err
			}
			out.WriteString(html)
			i = j + 1
		case trimmed == "$$":
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) != "$$" {
				j++
			}
			if j == len(lines) {
				return "", r.errorf(ln, "unclosed $$ block")
			}
			m, err := TeXToMathML(strings.Join(lines[i+1:j], " "), true)
			if err != nil {
				return "", r.errorf(ln, "%v", err)
			}
			out.WriteString(`<div class="math-display">` + m + "</div>\n")
			i = j + 1
		case strings.HasPrefix(trimmed, "$$") && strings.HasSuffix(trimmed, "$$") && len(trimmed) > 4:
			m, err := TeXToMathML(trimmed[2:len(trimmed)-2], true)
			if err != nil {
				return "", r.errorf(ln, "%v", err)
			}
			out.WriteString(`<div class="math-display">` + m + "</div>\n")
			i++
		case reHeading.MatchString(trimmed):
			m := reHeading.FindStringSubmatch(trimmed)
			level := len(m[1]) // the lesson title is the page's only h1
			if level < 2 {
				level = 2
			}
			inner, err := r.inline(m[2], ln)
			if err != nil {
				return "", err
			}
			id := r.slug(m[2])
			fmt.Fprintf(&out, "<h%d id=\"%s\">%s</h%d>\n", level, id, inner, level)
			i++
		case strings.HasPrefix(trimmed, ">"):
			var quote []string
			for i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">") {
				quote = append(quote, strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(lines[i]), ">"), " "))
				i++
			}
			inner, err := r.render(quote, ln)
			if err != nil {
				return "", err
			}
			out.WriteString("<blockquote class=\"callout\">\n" + inner + "</blockquote>\n")
		case strings.HasPrefix(trimmed, "|") && i+1 < len(lines) && reTableSep.MatchString(strings.TrimSpace(lines[i+1])):
			j := i + 2
			for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|") {
				j++
			}
			t, err := r.table(lines[i:j], ln)
			if err != nil {
				return "", err
			}
			out.WriteString(t)
			i = j
		case reBullet.MatchString(line) || reNumber.MatchString(line):
			tag, re := "ul", reBullet
			if reNumber.MatchString(line) && !reBullet.MatchString(line) {
				tag, re = "ol", reNumber
			}
			out.WriteString("<" + tag + ">\n")
			for i < len(lines) && re.MatchString(lines[i]) {
				item := []string{re.FindStringSubmatch(lines[i])[1]}
				lnItem := first + i
				i++
				// Continuation lines are indented and not a new item.
				for i < len(lines) && strings.TrimSpace(lines[i]) != "" && strings.HasPrefix(lines[i], "  ") && !re.MatchString(lines[i]) {
					item = append(item, strings.TrimSpace(lines[i]))
					i++
				}
				inner, err := r.inline(strings.Join(item, " "), lnItem)
				if err != nil {
					return "", err
				}
				out.WriteString("<li>" + inner + "</li>\n")
			}
			out.WriteString("</" + tag + ">\n")
		default:
			var para []string
			for i < len(lines) {
				t := strings.TrimSpace(lines[i])
				if t == "" || reFence.MatchString(t) || reHeading.MatchString(t) || strings.HasPrefix(t, ">") || t == "$$" ||
					(len(para) > 0 && (reBullet.MatchString(lines[i]) || reNumber.MatchString(lines[i]))) {
					break
				}
				para = append(para, t)
				i++
			}
			inner, err := r.inline(strings.Join(para, " "), ln)
			if err != nil {
				return "", err
			}
			out.WriteString("<p>" + inner + "</p>\n")
		}
	}
	return out.String(), nil
}

func (r *renderer) slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	id := strings.TrimSuffix(b.String(), "-")
	if id == "" {
		id = "section"
	}
	r.ids[id]++
	if n := r.ids[id]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	l = strings.TrimSuffix(l, "|")
	cells := strings.Split(l, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

func (r *renderer) table(lines []string, ln int) (string, error) {
	var b strings.Builder
	b.WriteString("<div class=\"table-wrap\"><table>\n<thead><tr>")
	aligns := splitRow(lines[1])
	for k, c := range splitRow(lines[0]) {
		inner, err := r.inline(c, ln)
		if err != nil {
			return "", err
		}
		b.WriteString("<th scope=\"col\"" + align(aligns, k) + ">" + inner + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, l := range lines[2:] {
		b.WriteString("<tr>")
		for k, c := range splitRow(l) {
			inner, err := r.inline(c, ln)
			if err != nil {
				return "", err
			}
			b.WriteString("<td" + align(aligns, k) + ">" + inner + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
	return b.String(), nil
}

func align(aligns []string, k int) string {
	if k < len(aligns) && strings.HasSuffix(aligns[k], ":") {
		return ` class="num"`
	}
	return ""
}

// fenced renders a ``` block.
func (r *renderer) fenced(kind, name string, lines []string, ln int) (string, error) {
	r.blockN++
	switch kind {
	case "widget":
		if name == "" {
			return "", r.errorf(ln-1, "```widget needs a name, e.g. ```widget expmech")
		}
		headLines, body := splitBlock(lines, true)
		h, err := parseHeader(headLines)
		if err != nil {
			return "", r.errorf(ln, "%v", err)
		}
		id, _ := h["id"].(string)
		if id == "" {
			id = name
		}
		delete(h, "id")
		title, _ := h["title"].(string)
		delete(h, "title")
		r.widgets[name] = true
		r.uses = append(r.uses, WidgetUse{Name: name, ID: id, Params: h})
		params, _ := json.Marshal(h)
		caption, err := r.render(body, ln)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		// data-figures names the figures "Export figure" can draw of this
		// widget (package widget); a widget without any gets no button.
		fmt.Fprintf(&b, "<figure class=\"widget\" id=\"w-%s\" data-widget=\"%s\" data-id=\"%s\" data-params=\"%s\" data-figures=\"%s\" aria-labelledby=\"w-%s-title\">\n",
			id, name, id, html.EscapeString(string(params)), strings.Join(widget.Figures(name), ","), id)
		if title == "" {
			title = "Interactive"
		}
		fmt.Fprintf(&b, "<h3 class=\"widget-title\" id=\"w-%s-title\">%s</h3>\n", id, html.EscapeString(title))
		b.WriteString("<div class=\"widget-body\" aria-busy=\"true\"><p class=\"widget-loading\">Loading the interactive part…</p></div>\n")
		if caption != "" {
			b.WriteString("<figcaption>" + caption + "</figcaption>\n")
		}
		b.WriteString("</figure>\n")
		return b.String(), nil
	case "predict":
		return r.predict(lines, ln)
	case "exercise":
		headLines, body := splitBlock(lines, false)
		h, err := parseHeader(headLines)
		if err != nil {
			return "", r.errorf(ln, "%v", err)
		}
		if h["answer"] == nil && h["check"] == nil {
			return "", r.errorf(ln, "```exercise needs answer: or check:")
		}
		// Every exercise carries one right and one wrong example answer:
		// the browser tests type both and expect the page to say so.
		if h["example-right"] == nil || h["example-wrong"] == nil {
			return "", r.errorf(ln, "```exercise needs example-right: and example-wrong: (answers the e2e tests try)")
		}
		prompt, err := r.render(body, ln)
		if err != nil {
			return "", err
		}
		if c, ok := h["check"].(string); ok {
			mod, _, _ := strings.Cut(c, ".")
			r.widgets[mod] = true
		}
		label, _ := h["label"].(string)
		if label == "" {
			label = "Your answer"
		}
		params, _ := json.Marshal(h)
		id := fmt.Sprintf("ex-%d", r.blockN)
		var b strings.Builder
		fmt.Fprintf(&b, "<section class=\"exercise\" id=\"%s\" data-params=\"%s\" aria-labelledby=\"%s-h\">\n", id, html.EscapeString(string(params)), id)
		r.exercises++
		fmt.Fprintf(&b, "<h3 id=\"%s-h\">Exercise%s</h3>\n%s", id, numberMark("exercise", r.exercises), prompt)
		fmt.Fprintf(&b, "<form class=\"exercise-form\"><label for=\"%s-in\">%s</label> <input id=\"%s-in\" name=\"answer\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\"> <button type=\"submit\">Check</button></form>\n", id, html.EscapeString(label), id)
		fmt.Fprintf(&b, "<p class=\"exercise-result\" role=\"status\" aria-live=\"polite\"></p>\n</section>\n")
		return b.String(), nil
	case "notes":
		headLines, body := splitBlock(lines, false)
		h, err := parseHeader(headLines)
		if err != nil {
			return "", r.errorf(ln, "%v", err)
		}
		inner, err := r.render(body, ln)
		if err != nil {
			return "", err
		}
		summary := "Instructor notes"
		if m, ok := h["minutes"].(float64); ok {
			summary += fmt.Sprintf(" (about %g minutes)", m)
		}
		return "<details class=\"notes\"><summary>" + summary + "</summary>\n" + inner + "</details>\n", nil
	case "math":
		m, err := TeXToMathML(strings.Join(lines, " "), true)
		if err != nil {
			return "", r.errorf(ln, "%v", err)
		}
		return `<div class="math-display">` + m + "</div>\n", nil
	}
	cls := ""
	if kind != "" {
		cls = ` class="language-` + html.EscapeString(kind) + `"`
	}
	return "<pre><code" + cls + ">" + html.EscapeString(strings.Join(lines, "\n")) + "</code></pre>\n", nil
}

var reChoice = regexp.MustCompile(`^\s*-\s+\[([ xX])\]\s+(.*)$`)

// predict renders a predict-then-reveal question as a radio group and a
// hidden explanation; web/app.js wires the Reveal button.
func (r *renderer) predict(lines []string, ln int) (string, error) {
	q, reveal := splitBlock(lines, true)
	var prompt []string
	type choice struct {
		text    string
		correct bool
	}
	var choices []choice
	for _, l := range q {
		if m := reChoice.FindStringSubmatch(l); m != nil {
			choices = append(choices, choice{m[2], m[1] != " "})
		} else {
			prompt = append(prompt, l)
		}
	}
	if len(choices) < 2 || len(reveal) == 0 {
		return "", r.errorf(ln, "```predict needs at least two '- [ ]' choices (one '- [x]') and a '---' line before the reveal")
	}
	r.predicts++
	id := fmt.Sprintf("predict-%d", r.blockN)
	promptHTML, err := r.render(prompt, ln)
	if err != nil {
		return "", err
	}
	revealHTML, err := r.render(reveal, ln)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<section class=\"predict\" id=\"%s\" aria-labelledby=\"%s-h\">\n<h3 id=\"%s-h\">Predict, then reveal%s</h3>\n", id, id, id, numberMark("predict", r.predicts))
	fmt.Fprintf(&b, "<fieldset><legend>%s</legend>\n", strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(promptHTML), "<p>"), "</p>"))
	for k, c := range choices {
		inner, err := r.inline(c.text, ln)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "<label class=\"choice\"><input type=\"radio\" name=\"%s\" value=\"%d\" data-correct=\"%t\"> <span>%s</span></label>\n", id, k, c.correct, inner)
	}
	fmt.Fprintf(&b, "</fieldset>\n<button type=\"button\" class=\"reveal-button\" aria-expanded=\"false\" aria-controls=\"%s-reveal\">Reveal the answer</button>\n", id)
	fmt.Fprintf(&b, "<div class=\"reveal\" id=\"%s-reveal\" hidden>\n<p class=\"verdict\" role=\"status\"></p>\n%s</div>\n</section>\n", id, revealHTML)
	return b.String(), nil
}

var (
	reCode   = regexp.MustCompile("`([^`]+)`")
	reMath   = regexp.MustCompile(`\$([^$]+)\$`)
	reStrong = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	reEm     = regexp.MustCompile(`(^|[^\w*])\*([^*\s][^*]*)\*`)
	reDollar = regexp.MustCompile(`\\\$`)
	reLink   = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// inline renders a paragraph's text: code and math are cut out first so
// their contents are not taken for emphasis.
func (r *renderer) inline(s string, ln int) (string, error) {
	var held []string
	hold := func(h string) string {
		held = append(held, h)
		return fmt.Sprintf("\x00%d\x00", len(held)-1)
	}
	var err error
	s = reCode.ReplaceAllStringFunc(s, func(m string) string {
		return hold("<code>" + html.EscapeString(m[1:len(m)-1]) + "</code>")
	})
	// \$ is a dollar sign, not math: prices in lesson 9.
	s = reDollar.ReplaceAllStringFunc(s, func(string) string { return hold("$") })
	s = reMath.ReplaceAllStringFunc(s, func(m string) string {
		h, e := TeXToMathML(m[1:len(m)-1], false)
		if e != nil && err == nil {
			err = r.errorf(ln, "%v", e)
		}
		return hold(h)
	})
	if err != nil {
		return "", err
	}
	s = html.EscapeString(s)
	s = reLink.ReplaceAllStringFunc(s, func(m string) string {
		p := reLink.FindStringSubmatch(m)
		href := p[2]
		if strings.HasPrefix(strings.ToLower(href), "javascript:") {
			href = "#"
		}
		return `<a href="` + href + `">` + p[1] + "</a>"
	})
	s = reStrong.ReplaceAllString(s, "<strong>$1</strong>")
	s = reEm.ReplaceAllString(s, "$1<em>$2</em>")
	for k := len(held) - 1; k >= 0; k-- {
		s = strings.Replace(s, fmt.Sprintf("\x00%d\x00", k), held[k], 1)
	}
	return s, nil
}
