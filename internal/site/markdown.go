package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gmrenderer "github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/dpplay/dpplay/app/widget"
)

// renderer turns a lesson's Markdown body into HTML. The Markdown is
// CommonMark with GitHub's pipe tables (github.com/yuin/goldmark), plus
// $…$ and $$…$$ math (ordinary LaTeX) converted to MathML by Math (\$ is a
// dollar sign), and four fenced blocks that make a lesson interactive:
//
//	```widget NAME   an interactive widget (web/widgets/NAME.js) with its starting parameters
//	```predict       a predict-then-reveal question: "- [ ]" / "- [x]" choices, then --- and the reveal
//	```exercise      a checked exercise: answer/decimals or check: module.function, example-right and
//	                 example-wrong (tried by the browser tests), then --- and the prompt
//	```notes         instructor notes, collapsed: minutes: N, then --- and the notes
//
// Raw HTML is escaped, never passed through, and a link whose scheme could
// run code (javascript:, vbscript:, file:, data:) keeps its text and loses
// its link. Headings start at h2 (the lesson title is the page's one h1)
// and get an id made from their text.
type renderer struct {
	file    string
	math    *Math
	widgets map[string]bool
	uses    []WidgetUse
	ids     map[string]int
	blockN  int

	exercises, predicts int // numbered when a lesson has more than one

	md goldmark.Markdown
	// src is the text being rendered and first the file line it starts on,
	// to report errors by file line; nested blocks render their bodies
	// with their own.
	src   []byte
	first int
}

func newRenderer(file string, math *Math) *renderer {
	r := &renderer{file: file, math: math, widgets: map[string]bool{}, ids: map[string]int{}}
	r.md = goldmark.New(
		goldmark.WithExtensions(extension.Table),
		goldmark.WithParserOptions(
			parser.WithBlockParsers(util.Prioritized(mathBlockParser{}, 650)),
			parser.WithInlineParsers(util.Prioritized(mathInlineParser{}, 150)),
		),
		goldmark.WithRendererOptions(gmrenderer.WithNodeRenderers(util.Prioritized(r, 100))),
	)
	return r
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
	Title  string // the widget's heading on the page
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

// fenced renders a ``` block.
func (r *renderer) fenced(kind, name string, lines []string, ln int) (string, error) {
	r.blockN++
	switch kind {
	case "widget":
		if name == "" {
			return "", r.errorf(ln-1, "```widget needs a name, e.g. ```widget exponential-mechanism")
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
		if title == "" {
			title = "Interactive"
		}
		r.widgets[name] = true
		r.uses = append(r.uses, WidgetUse{Name: name, ID: id, Title: title, Params: h})
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
		fmt.Fprintf(&b, "<h3 class=\"widget-title\" id=\"w-%s-title\">%s</h3>\n", id, html.EscapeString(title))
		// Read without JavaScript, the page shows the widget's pre-rendered
		// drawing, inert, and says why its controls do nothing.
		b.WriteString(noscriptNote + "\n")
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
		// An answer is checked at the precision its question asks for,
		// decimals: N, or exactly when absent (web/base/number.js givesAnswer;
		// lessons/exercise_test.go holds each exercise to its question).
		if _, ok := h["tolerance"]; ok {
			return "", r.errorf(ln, "```exercise takes decimals: (the precision its question asks for), not tolerance:")
		}
		if d, ok := h["decimals"]; ok {
			if f, isNum := d.(float64); !isNum || f != math.Trunc(f) || f < 1 {
				return "", r.errorf(ln, "```exercise decimals: %v is not a whole number of decimals", d)
			}
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
		b.WriteString("<noscript><p class=\"exercise-noscript\">Checking an answer needs JavaScript, which is turned off.</p></noscript>\n")
		fmt.Fprintf(&b, "<form class=\"exercise-form\"><label for=\"%s-in\">%s</label> <input id=\"%s-in\" name=\"answer\" type=\"text\" spellcheck=\"false\" autocomplete=\"off\"> <button type=\"submit\">Check</button></form>\n", id, html.EscapeString(label), id)
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
		m, err := r.math.MathML(strings.Join(lines, " "), true)
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
// hidden explanation; web/lesson/predict.js wires the Reveal button.
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

// render converts Markdown lines, the first of which is file line first, to
// HTML.
func (r *renderer) render(lines []string, first int) (string, error) {
	src := []byte(strings.Join(lines, "\n"))
	doc := r.md.Parser().Parse(text.NewReader(src))
	savedSrc, savedFirst := r.src, r.first
	r.src, r.first = src, first
	defer func() { r.src, r.first = savedSrc, savedFirst }()
	var b bytes.Buffer
	if err := r.md.Renderer().Render(&b, src, doc); err != nil {
		return "", err
	}
	return b.String(), nil
}

// inline renders one line of Markdown (a title, an objective, a choice)
// without the paragraph around it.
func (r *renderer) inline(s string, ln int) (string, error) {
	h, err := r.render([]string{s}, ln)
	if err != nil {
		return "", err
	}
	h = strings.TrimSuffix(h, "\n")
	if strings.HasPrefix(h, "<p>") && strings.HasSuffix(h, "</p>") && strings.Count(h, "<p>") == 1 {
		h = h[len("<p>") : len(h)-len("</p>")]
	}
	return h, nil
}

// line returns the file line of offset in the text being rendered.
func (r *renderer) line(offset int) int {
	offset = min(max(offset, 0), len(r.src))
	return r.first + bytes.Count(r.src[:offset], []byte("\n"))
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

// RegisterFuncs renders the nodes whose HTML the lessons define; goldmark's
// own renderer does the rest (paragraphs, lists, emphasis, code, images).
func (r *renderer) RegisterFuncs(reg gmrenderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindText, r.renderText)
	reg.Register(ast.KindHeading, r.renderHeading)
	reg.Register(ast.KindBlockquote, wrap("<blockquote class=\"callout\">\n", "</blockquote>\n"))
	reg.Register(ast.KindFencedCodeBlock, r.renderFenced)
	reg.Register(ast.KindLink, r.renderLink)
	reg.Register(ast.KindAutoLink, r.renderAutoLink)
	reg.Register(ast.KindRawHTML, r.renderRawHTML)
	reg.Register(ast.KindHTMLBlock, r.renderHTMLBlock)
	// A wide table scrolls inside its wrapper, so the wrapper takes focus
	// for a keyboard to scroll it (WCAG 2.1.1).
	reg.Register(east.KindTable, wrap("<div class=\"table-wrap\" tabindex=\"0\"><table>\n", "</tbody></table></div>\n"))
	reg.Register(east.KindTableHeader, wrap("<thead><tr>", "</tr></thead>\n<tbody>\n"))
	reg.Register(east.KindTableRow, wrap("<tr>", "</tr>\n"))
	reg.Register(east.KindTableCell, r.renderTableCell)
	reg.Register(kindMath, r.renderMath)
	reg.Register(kindMathBlock, r.renderMathBlock)
}

// wrap renders a node as fixed markup around its children.
func wrap(open, close string) gmrenderer.NodeRendererFunc {
	return func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(open)
		} else {
			_, _ = w.WriteString(close)
		}
		return ast.WalkContinue, nil
	}
}

// renderText writes text with a line break inside a paragraph as a space.
func (r *renderer) renderText(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Text)
	v := n.Segment.Value(source)
	switch {
	case n.IsRaw():
		ghtml.DefaultWriter.RawWrite(w, v)
	default:
		ghtml.DefaultWriter.Write(w, v)
	}
	switch {
	case n.HardLineBreak():
		_, _ = w.WriteString("<br>\n")
	case n.SoftLineBreak():
		_ = w.WriteByte(' ')
	}
	return ast.WalkContinue, nil
}

func (r *renderer) renderHeading(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	level := max(n.Level, 2)
	if entering {
		var raw []byte
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			raw = append(raw, seg.Value(source)...)
		}
		fmt.Fprintf(w, "<h%d id=\"%s\">", level, r.slug(string(raw)))
	} else {
		fmt.Fprintf(w, "</h%d>\n", level)
	}
	return ast.WalkContinue, nil
}

func (r *renderer) renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if ghtml.IsDangerousURL(n.Destination) {
		return ast.WalkContinue, nil // the text alone
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<a href=\"")
	_, _ = w.Write(util.EscapeHTML(util.URLEscape([]byte(fromPage(string(n.Destination))), true)))
	_ = w.WriteByte('"')
	if n.Title != nil {
		_, _ = w.WriteString(` title="`)
		ghtml.DefaultWriter.Write(w, n.Title)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

func (r *renderer) renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	label := util.EscapeHTML(n.Label(source))
	url := n.URL(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	if ghtml.IsDangerousURL(url) {
		_, _ = w.Write(label)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<a href=\"")
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(url, false)))
	_, _ = w.WriteString("\">")
	_, _ = w.Write(label)
	_, _ = w.WriteString("</a>")
	return ast.WalkContinue, nil
}

// renderRawHTML shows inline HTML as the text it is.
func (r *renderer) renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
		}
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows a block of HTML as a paragraph of its text.
func (r *renderer) renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.HTMLBlock)
		var raw []byte
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			raw = append(raw, seg.Value(source)...)
		}
		if n.HasClosure() {
			raw = append(raw, n.ClosureLine.Value(source)...)
		}
		_, _ = w.WriteString("<p>")
		_, _ = w.Write(util.EscapeHTML(bytes.TrimSpace(raw)))
		_, _ = w.WriteString("</p>\n")
	}
	return ast.WalkSkipChildren, nil
}

// renderTableCell gives a right- or centre-aligned column the class num
// (numbers, right-aligned by the stylesheet).
func (r *renderer) renderTableCell(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*east.TableCell)
	tag := "td"
	if _, ok := n.Parent().(*east.TableHeader); ok {
		tag = "th"
	}
	if !entering {
		fmt.Fprintf(w, "</%s>", tag)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<" + tag)
	if tag == "th" {
		_, _ = w.WriteString(` scope="col"`)
	}
	if n.Alignment == east.AlignRight || n.Alignment == east.AlignCenter {
		_, _ = w.WriteString(` class="num"`)
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

// renderFenced renders a ``` block: one of the lesson blocks, display math
// (```math) or code.
func (r *renderer) renderFenced(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var kind, name string
	fence := -1 // the offset of the opening fence's line
	if n.Info != nil {
		fields := strings.Fields(string(n.Info.Segment.Value(source)))
		if len(fields) > 0 {
			kind = fields[0]
		}
		if len(fields) > 1 {
			name = fields[1]
		}
		fence = n.Info.Segment.Start
	}
	var lines []string
	end := fence
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		if i == 0 && fence < 0 {
			fence = bytes.LastIndexByte(source[:max(seg.Start-1, 0)], '\n') + 1
		}
		lines = append(lines, strings.TrimSuffix(string(seg.Value(source)), "\n"))
		end = seg.Stop
	}
	ln := r.line(max(fence, 0))
	// goldmark runs an unclosed fence to the end of the text; a lesson
	// block must be closed.
	if end >= 0 {
		if nl := bytes.IndexByte(source[end:], '\n'); n.Lines().Len() == 0 && nl >= 0 {
			end += nl + 1
		} else if n.Lines().Len() == 0 {
			end = len(source)
		}
		if len(bytes.TrimSpace(source[min(end, len(source)):])) == 0 {
			return ast.WalkStop, r.errorf(ln, "unclosed ``` block")
		}
	}
	h, err := r.fenced(kind, name, lines, ln+1)
	if err != nil {
		return ast.WalkStop, err
	}
	_, _ = w.WriteString(h)
	return ast.WalkSkipChildren, nil
}

func (r *renderer) renderMath(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*mathNode)
	m, err := r.math.MathML(n.tex, false)
	if err != nil {
		return ast.WalkStop, r.errorf(r.line(n.offset), "%v", err)
	}
	// A formula is one object to line breaking, which may part it from the
	// punctuation around it ("$x$," would start a line with the comma): a
	// word joiner keeps them together.
	if t, ok := node.PreviousSibling().(*ast.Text); ok {
		if c, _ := utf8.DecodeLastRune(t.Segment.Value(source)); strings.ContainsRune("([“‘", c) {
			_, _ = w.WriteString(wordJoiner)
		}
	}
	_, _ = w.WriteString(m)
	if t, ok := node.NextSibling().(*ast.Text); ok {
		if c, _ := utf8.DecodeRune(t.Segment.Value(source)); strings.ContainsRune(",.;:!?)]”’", c) {
			_, _ = w.WriteString(wordJoiner)
		}
	}
	return ast.WalkSkipChildren, nil
}

// wordJoiner (U+2060) forbids a line break where it stands.
const wordJoiner = "\u2060"

func (r *renderer) renderMathBlock(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*mathBlock)
	if !n.closed {
		return ast.WalkStop, r.errorf(r.line(n.offset), "unclosed $$ block")
	}
	m, err := r.math.MathML(strings.Join(n.tex, " "), true)
	if err != nil {
		return ast.WalkStop, r.errorf(r.line(n.offset), "%v", err)
	}
	_, _ = w.WriteString(`<div class="math-display">` + m + "</div>\n")
	return ast.WalkSkipChildren, nil
}

var (
	kindMath      = ast.NewNodeKind("Math")
	kindMathBlock = ast.NewNodeKind("MathBlock")
)

// mathNode is inline math, $tex$.
type mathNode struct {
	ast.BaseInline
	tex    string
	offset int
}

func (n *mathNode) Kind() ast.NodeKind { return kindMath }
func (n *mathNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"tex": n.tex}, nil)
}

// mathInlineParser reads $tex$ within one line. A $ without a closing one
// on the same line is a dollar sign, as is \$.
type mathInlineParser struct{}

func (mathInlineParser) Trigger() []byte { return []byte{'$'} }

func (mathInlineParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	end := bytes.IndexByte(line[1:], '$')
	if end < 1 {
		return nil
	}
	block.Advance(end + 2)
	return &mathNode{tex: string(line[1 : 1+end]), offset: seg.Start}
}

// mathBlock is display math: $$tex$$ on one line, or lines between two
// lines that are $$.
type mathBlock struct {
	ast.BaseBlock
	tex    []string
	offset int
	closed bool
}

func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }
func (n *mathBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"tex": strings.Join(n.tex, " ")}, nil)
}

type mathBlockParser struct{}

func (mathBlockParser) Trigger() []byte { return []byte{'$'} }

func (mathBlockParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	t := bytes.TrimSpace(line)
	n := &mathBlock{offset: seg.Start}
	switch {
	case string(t) == "$$":
	case len(t) > 4 && bytes.HasPrefix(t, []byte("$$")) && bytes.HasSuffix(t, []byte("$$")):
		n.tex, n.closed = []string{string(t[2 : len(t)-2])}, true
	default:
		return nil, parser.NoChildren
	}
	reader.Advance(len(bytes.TrimRight(line, "\n")))
	return n, parser.NoChildren
}

func (mathBlockParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	n := node.(*mathBlock)
	if n.closed {
		return parser.Close
	}
	line, _ := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	reader.Advance(len(bytes.TrimRight(line, "\n")))
	if t := string(bytes.TrimSpace(line)); t == "$$" {
		n.closed = true
		return parser.Close
	} else {
		n.tex = append(n.tex, t)
	}
	return parser.Continue | parser.NoChildren
}

func (mathBlockParser) Close(ast.Node, text.Reader, parser.Context) {}
func (mathBlockParser) CanInterruptParagraph() bool                 { return true }
func (mathBlockParser) CanAcceptIndentedLine() bool                 { return false }
