package figures

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/core/validate"
)

// A chart is the figure side of one widget (web/widgets/NAME.js): the
// parameters of its state (widget.Schema), and how its figures are computed
// from them.
type chart struct {
	params []widget.Param
	// names lists the figures build returns, in order: widget.Figures.
	names []string
	build func(v Values) ([]*Figure, error)
}

// charts maps a widget's name to its figures. A widget that is not here has
// no "Export figure" button (the page asks HasChart through the site build).
var charts = map[string]chart{}

// Register adds a widget's chart, whose params and figures are those
// package widget lists for it; each file of charts calls it from init, and
// so does package auditfig, which is apart because of its size.
func Register(name string, build func(v Values) ([]*Figure, error)) {
	c := chart{params: widget.Schema(name), names: widget.Figures(name), build: build}
	charts[name] = c
}

// Widgets lists the widgets that have figures, sorted.
func Widgets() []string { return slices.Sorted(maps.Keys(charts)) }

// Names lists the figures of a widget, or nil if it has none.
func Names(name string) []string { return charts[name].names }

// Request asks for the figures of one widget in one lesson.
type Request struct {
	Lesson int               // the lesson the widget is in
	Widget string            // the widget module: exponential-mechanism, epsilon-band, …
	ID     string            // the widget's id in its lesson; "" means Widget
	Figure string            // one of Names(Widget), or "" for all of them
	Title  string            // the widget's heading in its lesson (its block's title:), or ""
	Params map[string]string // the widget's state: its URL keys without the "id." prefix
}

// Figure sizes, in centimetres.
const (
	DefaultWidthCM  = 16
	DefaultHeightCM = 11
	MinSizeCM       = 4
	MaxSizeCM       = 60
)

// MaxTitle is the longest widget title a request may carry, in characters.
const MaxTitle = 120

// ParseRequest reads a request from a URL hash of the form
//
//	#lesson=3&widget=epsilon-band&id=band&title=…&fig=logratio&eps=2&scale=broken&width=20&height=12
//
// which is what the page's "Export figure" sends (web/page/export.js); a widget's
// former name (widget=epsband) is read as its name now. Keys other
// than lesson, widget, id, title, fig, width and height are the widget's
// state; width and height (cm) default to 16 × 11. A title is at most
// MaxTitle characters of printable text.
func ParseRequest(hash string) (req Request, width, height float64, err error) {
	q, err := url.ParseQuery(strings.TrimPrefix(strings.TrimSpace(hash), "#"))
	if err != nil {
		return req, 0, 0, validate.Errorf("state", "is not a URL hash of key=value pairs: %v", err)
	}
	req.Params = map[string]string{}
	width, height = DefaultWidthCM, DefaultHeightCM
	for k, vs := range q {
		v := vs[len(vs)-1]
		switch k {
		case "lesson":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 99 {
				return req, 0, 0, validate.Errorf("lesson", "must be a lesson number in [1, 99], got %q", v)
			}
			req.Lesson = n
		case "widget":
			req.Widget = widget.Name(v)
		case "id":
			req.ID = v
		case "title":
			if utf8.RuneCountInString(v) > MaxTitle || strings.IndexFunc(v, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
				return req, 0, 0, validate.Errorf("title", "must be at most %d printable characters", MaxTitle)
			}
			req.Title = v
		case "fig":
			req.Figure = v
		case "width", "height":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= MinSizeCM && x <= MaxSizeCM) {
				return req, 0, 0, validate.Errorf(k, "must be between %d and %d cm, got %q", MinSizeCM, MaxSizeCM, v)
			}
			if k == "width" {
				width = x
			} else {
				height = x
			}
		default:
			req.Params[k] = v
		}
	}
	return req, width, height, nil
}

// Build computes the figures a request asks for. Each figure records the
// state it was drawn from (Figure.State), defaults filled in.
func Build(req Request) ([]*Figure, error) {
	c, ok := charts[req.Widget]
	if !ok {
		return nil, validate.Errorf("widget", "%q has no figures; these do: %s", req.Widget, strings.Join(Widgets(), ", "))
	}
	if req.Figure != "" && !slices.Contains(c.names, req.Figure) {
		return nil, validate.Errorf("fig", "widget %s has no figure %q; it has %s", req.Widget, req.Figure, strings.Join(c.names, ", "))
	}
	v, err := resolve(c.params, req.Params)
	if err != nil {
		return nil, err
	}
	figs, err := c.build(v)
	if err != nil {
		return nil, err
	}
	id := req.ID
	if id == "" {
		id = req.Widget
	}
	state := make([][2]string, len(c.params))
	for i, p := range c.params {
		state[i] = [2]string{p.Key, v.Str(p.Key)}
	}
	var out []*Figure
	for _, f := range figs {
		if req.Figure != "" && f.Name != req.Figure {
			continue
		}
		f.Lesson, f.Widget, f.Heading, f.State = req.Lesson, id, req.Title, state
		out = append(out, f)
	}
	return out, nil
}
