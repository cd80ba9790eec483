package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runFiguresCmd(t *testing.T, args ...string) (figuresResult, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"figures", "-lessons", "../../lessons"}, args...), &out, &errOut)
	var res figuresResult
	if code == 0 {
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out.String())
		}
	}
	return res, errOut.String(), code
}

// A page link's state is drawn for the widget it names, the lesson's other
// widgets keep their starting parameters, and the same state writes the same
// bytes.
func TestFiguresCommand(t *testing.T) {
	dir := t.TempDir()
	res, stderr, code := runFiguresCmd(t, "-out", dir, "-format", "svg,png", "-state", "#/exponential-mechanism?meet.eps=0.5&meet.seed=9&meet.step=3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []string{"lesson2-meet-histogram.svg", "lesson2-meet-histogram.png", "lesson2-adult-histogram.svg", "lesson2-adult-histogram.png", "lesson2-mu-histogram.svg", "lesson2-mu-histogram.png"}
	for i, f := range res.Files {
		if i >= len(want) || f != filepath.Join(dir, want[i]) {
			t.Fatalf("files %v, want %v in %s", res.Files, want, dir)
		}
	}
	if link := res.Links["lesson2-meet"]; !strings.Contains(link, "meet.eps=0.5") || !strings.Contains(link, "meet.seed=9") || !strings.HasPrefix(link, "exponential-mechanism/#") {
		t.Errorf("link %q lost the settings", link)
	}
	if link := res.Links["lesson2-adult"]; !strings.Contains(link, "adult.eps=1") {
		t.Errorf("the other widget's link %q is not at its starting state", link)
	}
	svg, err := os.ReadFile(res.Files[0])
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Fatalf("%s is not an SVG: %v", res.Files[0], err)
	}
	dir2 := t.TempDir()
	again, _, _ := runFiguresCmd(t, "-out", dir2, "-format", "svg", "-lesson", "2", "-state", "#meet.eps=0.5&meet.seed=9&meet.step=3")
	b, _ := os.ReadFile(again.Files[0])
	if !bytes.Equal(svg, b) {
		t.Error("the short form of the same state wrote a different SVG")
	}
}

// Every lesson with a widget gets its figures, named by lesson, widget and
// figure.
func TestFiguresEveryLesson(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every figure")
	}
	res, stderr, code := runFiguresCmd(t, "-out", t.TempDir(), "-format", "svg")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	seen := map[string]bool{}
	for _, f := range res.Files {
		seen[strings.SplitN(filepath.Base(f), "-", 2)[0]] = true
	}
	lessons, err := filepath.Glob("../../lessons/[0-9]*.md")
	if err != nil || len(lessons) < 12 {
		t.Fatalf("lessons: %v %v", lessons, err)
	}
	for _, f := range lessons {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		order, _, _ := strings.Cut(strings.SplitN(string(b), "\norder: ", 2)[1], "\n")
		l := "lesson" + order
		if strings.Contains(string(b), "```widget") && !seen[l] {
			t.Errorf("no figure for %s (files %v)", l, res.Files)
		}
	}
}

// -state takes a page's address in every form a reader may copy it, and a
// link of the site's first form, and reads the same state from each.
func TestFigureStateAddresses(t *testing.T) {
	const state = "meet.eps=0.5&meet.seed=9&step=3"
	for _, addr := range []string{
		"https://dpplay.github.io/dpplay/exponential-mechanism/#" + state,
		"http://127.0.0.1:8080/exponential-mechanism/index.html#" + state,
		"/dpplay/exponential-mechanism/#" + state,
		"exponential-mechanism/#" + state,
		" #/exponential-mechanism?" + state + " ",
		"https://dpplay.github.io/dpplay/#/exponential-mechanism?" + state,
	} {
		st, err := parseFigureState(addr)
		if err != nil {
			t.Errorf("%q: %v", addr, err)
			continue
		}
		if st.slug != "exponential-mechanism" || st.byID["meet"]["eps"] != "0.5" || st.byID["meet"]["seed"] != "9" || st.shared["step"] != "3" {
			t.Errorf("%q: slug %q, by id %v, shared %v", addr, st.slug, st.byID, st.shared)
		}
	}
	// The short form has no lesson's address; a fragment naming a heading
	// is no state.
	if st, err := parseFigureState("#lesson=2&eps=1"); err != nil || st.slug != "" || st.lesson != "2" {
		t.Errorf("short form: %+v, %v", st, err)
	}
	if st, err := parseFigureState("exponential-mechanism/#references"); err != nil || st.slug != "exponential-mechanism" || len(st.shared)+len(st.byID) != 0 {
		t.Errorf("a heading: %+v, %v", st, err)
	}
}

// Any page link works as -state: a value the page would clamp is clamped
// with the page's note, and the figure is the one the page shows for it.
func TestFiguresClampLikeThePage(t *testing.T) {
	for _, tc := range []struct{ state, note, link string }{
		{"exponential-mechanism/#meet.eps=50&meet.step=2", "meet.eps = 50 is outside 0.01 … 20, so 20 is used.", "meet.eps=20"},
		{"#lesson=2&meet.eps=-1&meet.step=2", "meet.eps = -1 is outside 0.01 … 20, so 0.01 is used.", "meet.eps=0.01"},
		{"https://dpplay.github.io/dpplay/exponential-mechanism/#meet.data=nope&meet.step=2", `meet.data: "nope" is not one of`, "meet.data=adult"},
		{"#/exponential-mechanism?meet.seed=2.6&meet.step=2", "meet.seed = 2.6 must be a whole number, so 3 is used.", "meet.seed=3"},
		// A value that fits is kept as it is, digit for digit, as the page keeps it.
		{"exponential-mechanism/#meet.eps=0.30000000000000004&meet.step=2", "", "meet.eps=0.30000000000000004"},
		// A link that hides or locks controls draws the same figure.
		{"exponential-mechanism/#meet.eps=2&meet.hide=seed,batch&meet.lock=eps&meet.step=2", "", "meet.eps=2"},
		{"https://dpplay.github.io/dpplay/embed.html#/exponential-mechanism/meet?eps=3&step=2&lock=eps&theme=dark", "", "meet.eps=3"},
		{"exponential-mechanism/#meet.hide=controls&meet.step=2", `meet.hide: "controls" is not a setting of this widget, so it was ignored.`, "meet.eps=1"},
	} {
		res, stderr, code := runFiguresCmd(t, "-out", t.TempDir(), "-format", "svg", "-state", tc.state)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.state, code, stderr)
			continue
		}
		if got := strings.Join(res.Notes, "\n"); !strings.Contains(got, tc.note) || (tc.note == "") != (got == "") {
			t.Errorf("%s: notes %q, want %q", tc.state, res.Notes, tc.note)
		}
		if link := res.Links["lesson2-meet"]; !strings.Contains(link, tc.link) {
			t.Errorf("%s: link %q lacks %s", tc.state, link, tc.link)
		}
	}
}
