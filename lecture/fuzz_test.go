package lecture

import (
	"bytes"
	"encoding/csv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzNormalizeCode: any text either fails or gives a canonical code that
// normalizes to itself.
func FuzzNormalizeCode(f *testing.F) {
	for _, s := range []string{"ABCD-EFGH", "abcd efgh", "oIlL-0000", "", "ABCD/EFGH", strings.Repeat("A", 25), "ÄBCDEFGH"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, ok := NormalizeCode(s)
		if !ok {
			return
		}
		if len(code) != CodeLen || strings.Trim(code, codeAlphabet) != "" {
			t.Fatalf("NormalizeCode(%q) = %q", s, code)
		}
		if again, ok := NormalizeCode(code); !ok || again != code {
			t.Fatalf("NormalizeCode(%q) = %q, not canonical", code, again)
		}
	})
}

// FuzzStudentID: an accepted id is 1–64 characters of [A-Za-z0-9_-].
func FuzzStudentID(f *testing.F) {
	for _, s := range []string{"alice", "a.b", "", strings.Repeat("x", 65), "x\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !validStudent(s) {
			return
		}
		if len(s) == 0 || len(s) > MaxStudentIDLen || strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
			t.Fatalf("validStudent(%q) = true", s)
		}
	})
}

// FuzzActivityID: an accepted id is a canonical decimal from 1 up.
func FuzzActivityID(f *testing.F) {
	for _, s := range []string{"1", "01", "0", "999999999", "1e3", "-1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := parseActivityID(s)
		if err == nil && (id < 1 || strings.TrimLeft(s, "0123456789") != "" || s[0] == '0') {
			t.Fatalf("parseActivityID(%q) = %d", s, id)
		}
	})
}

// FuzzBodies decodes arbitrary bodies as each request type of the API and
// validates them: nothing panics, every refusal is an apiError whose message
// never contains the body, and an accepted spec or answer survives its own
// checks again (encodeAnswer output is what Scores reads back).
func FuzzBodies(f *testing.F) {
	for _, s := range []string{
		`{"kind": "meeting-day", "options": ["Mon", "Tue"], "prompt": "p"}`,
		`{"kind": "histogram", "min": 0, "max": 10, "bins": 5}`,
		`{"kind": "pricing", "prices": [1, 2, 4.01]}`,
		`{"available": [0, 1]}`, `{"value": 3.5}`, `{"epsilon": 0.5}`, `{"epsilon_budget": 2, "roster": 30}`,
		`{"open": false}`, `{"activity": 2}`, `[1]`, `{"value": 1e400}`, `{"available": [1, 1]}`, `{} {}`, "{\"kind\": \"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := func() *httptestRequest { return newReq(body) }
		check := func(err error) {
			if err == nil {
				return
			}
			ae, ok := err.(*apiError)
			if !ok {
				t.Fatalf("%T %v is not an apiError", err, err)
			}
			if ae.status < 400 || ae.status > 499 {
				t.Fatalf("status %d for a client's body", ae.status)
			}
			if len(body) >= 6 && utf8.Valid(body) && strings.Contains(ae.msg, string(body)) {
				t.Fatalf("message %q repeats the body", ae.msg)
			}
		}
		var spec Spec
		err := decode(req().r, &spec, false)
		if err == nil {
			err = spec.check()
			if err == nil {
				again := spec
				if err := again.check(); err != nil {
					t.Fatalf("a checked spec fails its check again: %v", err)
				}
				var a Answer
				if e := decode(req().r, &a, false); e == nil {
					if stored, e := encodeAnswer(&spec, &a); e == nil && spec.Kind != KindPricing {
						if sc := Scores(&spec, []string{stored}); sumOf(sc) > float64(len(spec.Options)+1) {
							t.Fatalf("one answer scores %v", sc)
						}
					} else {
						check(e)
					}
				} else {
					check(e)
				}
			}
		}
		check(err)
		var door struct {
			Open *bool `json:"open"`
		}
		check(decode(req().r, &door, false))
		var current struct {
			Activity *int64 `json:"activity"`
		}
		check(decode(req().r, &current, false))
		var sess struct {
			Budget *float64 `json:"epsilon_budget"`
			Roster *int64   `json:"roster"`
		}
		check(decode(req().r, &sess, true))
	})
}

func sumOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

type httptestRequest struct{ r *http.Request }

func newReq(body []byte) *httptestRequest {
	r := httptest.NewRequest("POST", "/api/sessions", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return &httptestRequest{r: r}
}

// FuzzParseEpsilon: an accepted ε from a query string is a finite number in
// (0, MaxEpsilon], and every refusal is a 422 that does not repeat the text.
func FuzzParseEpsilon(f *testing.F) {
	for _, s := range []string{"0.5", "1e-3", "10", "10.0000001", "0", "-0", "NaN", "Inf", "0x1p-2", "1e400", "", " 1", "1_0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		eps, err := ParseEpsilon(s)
		if err != nil {
			ae, ok := err.(*apiError)
			if !ok || ae.status != 422 || (len(s) >= 4 && strings.Contains(ae.msg, s)) {
				t.Fatalf("ParseEpsilon(%q): %v", s, err)
			}
			return
		}
		if math.IsNaN(eps) || !(eps > 0 && eps <= MaxEpsilon) || len(s) > 32 {
			t.Fatalf("ParseEpsilon(%q) = %v", s, eps)
		}
	})
}

// FuzzLedgerCSV: whatever an instructor types as a prompt or an option, the
// export parses back as CSV with one row per release and the text intact
// (but for control characters and the apostrophes that defuse it), and no
// cell, split on commas, semicolons or tabs as spreadsheets of different
// locales do, has a piece that starts as a formula (issue 28, finding 8).
func FuzzLedgerCSV(f *testing.F) {
	for _, s := range [][2]string{{"When?", "Mon"}, {"=1+1", "+A"}, {"a,b\n\"c\"", "@x"}, {"-2", "\tx"}, {"\r", "é"},
		{"Which day?;=HYPERLINK(1)", "a, -1"}, {"x\t@y", "b;  +c"}, {"nul\x00", "bell\a"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, prompt, option string) {
		if !utf8.ValidString(prompt) || !utf8.ValidString(option) {
			return // JSON bodies are UTF-8: the API never stores anything else
		}
		choice := 0
		l := &Ledger{Budget: 1, Activities: []LedgerActivity{{ID: 1, Kind: KindMeetingDay, Prompt: prompt}},
			Releases: []LedgerRelease{{ReleaseInfo: ReleaseInfo{Seq: 1, Activity: 1, Epsilon: 0.5, Participants: 3,
				Result: &Result{Choice: &choice, Option: option}, Created: 1}, Kind: KindMeetingDay, Total: 0.5}}}
		rows, err := csv.NewReader(bytes.NewReader(l.CSV())).ReadAll()
		if err != nil || len(rows) != 2 || len(rows[1]) != 10 {
			t.Fatalf("CSV of prompt %q option %q: %v %q", prompt, option, err, rows)
		}
		for _, x := range rows[1] {
			for _, piece := range strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == ';' || r == '\t' }) {
				piece = strings.TrimLeft(piece, " ")
				if piece != "" && (strings.ContainsRune("=+-@", rune(piece[0])) || unicode.IsControl(rune(piece[0]))) {
					t.Fatalf("cell %q has a piece %q that starts as a formula", x, piece)
				}
			}
			for _, r := range x {
				if unicode.IsControl(r) {
					t.Fatalf("cell %q holds a control character", x)
				}
			}
		}
		drop := func(s string) string {
			return strings.Map(func(r rune) rune {
				if r == '\'' || unicode.IsControl(r) {
					return -1
				}
				return r
			}, s)
		}
		if got := drop(rows[1][4]); got != drop(prompt) {
			t.Fatalf("prompt %q came back as %q", prompt, rows[1][4])
		}
	})
}
