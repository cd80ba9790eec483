package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/figures"
	_ "github.com/dpplay/dpplay/figures/auditfig" // the auditor's charts
	"github.com/dpplay/dpplay/internal/site"
)

type figuresResult struct {
	Out   string   `json:"out"`
	Files []string `json:"files"`
	Bytes int64    `json:"bytes"`
	// Links maps each widget drawn ("lesson3-band") to the page link that
	// shows the same state: #/slug?id.key=value&…
	Links map[string]string `json:"links"`
	// Notes says what of the state was changed to make it valid, as the
	// page's note above the lesson does: "meet.eps = 50 is outside 0.01 … 20,
	// so 20 is used."
	Notes []string `json:"notes,omitempty"`
}

// figureState is what -state says: a lesson (0 for all), settings for
// every widget in scope (shared) or for one widget id (byID), one figure
// name, and the size.
type figureState struct {
	lesson, slug  string
	fig           string
	shared        map[string]string
	byID          map[string]map[string]string
	width, height float64
}

// parseFigureState reads a page's address, https://…/slug/#id.key=value&…
// (or any part of it from the slug on, or a link of the site's first form,
// #/slug?id.key=value&…: site.ParseAddress), or the short form
// #lesson=N&key=value&id.key=value&fig=name&width=cm&height=cm, where a key
// without an id applies to every widget that has it.
func parseFigureState(addr string) (figureState, error) {
	st := figureState{shared: map[string]string{}, byID: map[string]map[string]string{}, width: figures.DefaultWidthCM, height: figures.DefaultHeightCM}
	var h string
	st.slug, h = site.ParseAddress(addr)
	q, err := url.ParseQuery(h)
	if err != nil {
		return st, fmt.Errorf("is not a page address with key=value pairs: %v", err)
	}
	for k, vs := range q {
		v := vs[len(vs)-1]
		id, key, prefixed := strings.Cut(k, ".")
		switch {
		case prefixed:
			if st.byID[id] == nil {
				st.byID[id] = map[string]string{}
			}
			st.byID[id][key] = v
		case k == "lesson":
			st.lesson = v
		case k == "fig":
			st.fig = v
		case k == "width" || k == "height":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= figures.MinSizeCM && x <= figures.MaxSizeCM) {
				return st, fmt.Errorf("%s must be between %d and %d cm, got %q", k, figures.MinSizeCM, figures.MaxSizeCM, v)
			}
			if k == "width" {
				st.width = x
			} else {
				st.height = x
			}
		default:
			st.shared[k] = v
		}
	}
	return st, nil
}

func runFigures(args []string, stdout io.Writer) error {
	fs := newFlagSet("figures")
	out := fs.String("out", "figures-out", "directory to write the figures into (created if needed)")
	format := fs.String("format", "svg,png,pdf", "comma-separated formats: svg, png, pdf, json (the numbers each chart draws)")
	lesson := fs.Int("lesson", 0, "draw only this lesson's figures (0: every lesson)")
	state := fs.String("state", "", "a page's address, 'slug/#id.key=value&…' (or the whole link, or an embed page's address), or '#lesson=N&key=value' (see docs/figures.md)")
	lessonsDir := fs.String("lessons", "lessons", "the lessons directory, for each widget's starting parameters")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := parseFigureState(*state)
	if err != nil {
		return usagef("-state: %v", err)
	}
	var formats []string
	for _, f := range strings.Split(*format, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		ok := false
		for _, g := range figures.Formats() {
			ok = ok || f == g
		}
		if !ok {
			return usagef("-format: %q is not one of %v", f, figures.Formats())
		}
		formats = append(formats, f)
	}
	lessons, err := site.LoadLessons(*lessonsDir, nil) // its widgets, not its formulas
	if err != nil {
		return usagef("-lessons: %v", err)
	}
	want := *lesson
	if st.lesson != "" {
		n, err := strconv.Atoi(st.lesson)
		if err != nil || (want != 0 && n != want) {
			return usagef("-state: lesson=%s disagrees with -lesson %d", st.lesson, want)
		}
		want = n
	}
	var inScope []*site.Lesson
	for _, l := range lessons {
		if (want == 0 || l.Order == want) && (st.slug == "" || l.Slug == st.slug) {
			inScope = append(inScope, l)
		}
	}
	if len(inScope) == 0 {
		return usagef("no lesson matches (-lesson %d, slug %q)", want, st.slug)
	}
	type job struct {
		lesson *site.Lesson
		req    figures.Request
	}
	var jobs []job
	var notes []string
	for _, l := range inScope {
		for _, u := range l.Uses {
			if figures.Names(u.Name) == nil || (st.fig != "" && !slices.Contains(figures.Names(u.Name), st.fig)) {
				continue
			}
			req, changed := useRequest(l, u, st.shared, st.byID[u.ID])
			req.Figure = st.fig
			notes = append(notes, changed...)
			jobs = append(jobs, job{l, req})
		}
	}
	if len(jobs) == 0 {
		return usagef("no widget in scope has a figure %q", st.fig)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	res := figuresResult{Out: *out, Files: []string{}, Links: map[string]string{}, Notes: notes}
	for _, j := range jobs {
		figs, err := figures.Build(j.req)
		if err != nil {
			return usagef("lesson %d, widget %s: %v", j.req.Lesson, j.req.ID, err)
		}
		for _, f := range figs {
			for _, ext := range formats {
				b, err := figures.Render(f, ext, st.width, st.height)
				if err != nil {
					return err
				}
				p := filepath.Join(*out, f.FileName(ext))
				if err := os.WriteFile(p, b, 0o644); err != nil {
					return err
				}
				res.Files = append(res.Files, p)
				res.Bytes += int64(len(b))
			}
			res.Links[fmt.Sprintf("lesson%d-%s", f.Lesson, f.Widget)] = pageLink(j.lesson.Slug, f)
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}

// useRequest is the figure request for widget u of lesson l: its parameters
// in the lesson, then those of over (in order), coerced as the page coerces
// a link's, with notes on what was changed.
func useRequest(l *site.Lesson, u site.WidgetUse, over ...map[string]string) (figures.Request, []string) {
	params := map[string]string{}
	for k, v := range u.Params {
		params[k] = widget.URLText(v)
	}
	for _, o := range over {
		for k, v := range o {
			params[k] = v
		}
	}
	params, changed := widget.Coerce(u.Name, u.ID+".", params)
	return figures.Request{Lesson: l.Order, Widget: u.Name, ID: u.ID, Title: u.Title, Params: params}, changed
}

// pageLink is the address, relative to the site's root, of the page showing
// the figure's widget state.
func pageLink(slug string, f *figures.Figure) string {
	parts := make([]string, 0, len(f.State))
	for _, kv := range f.State {
		if kv[1] == "" {
			continue // an empty list: the page leaves it out too
		}
		parts = append(parts, url.QueryEscape(f.Widget+"."+kv[0])+"="+url.QueryEscape(kv[1]))
	}
	sort.Strings(parts)
	return site.PageAddress(slug, strings.Join(parts, "&"))
}
