package lecture

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
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

// FuzzStudentID: the ids clients make are accepted exactly when they are
// [A-Za-z0-9_-] only, a student id 1–MaxStudentIDLen long and a release
// request 16–64.
func FuzzStudentID(f *testing.F) {
	for _, s := range []string{"alice", "a.b", "", strings.Repeat("x", 65), "x\x00", "é", "0123456789abcdef", strings.Repeat("r", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		chars := strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == ""
		if got, want := validStudent(s), chars && len(s) >= 1 && len(s) <= MaxStudentIDLen; got != want {
			t.Fatalf("validStudent(%q) = %v", s, got)
		}
		if got, want := RequestID(s), chars && len(s) >= 16 && len(s) <= 64; got != want {
			t.Fatalf("RequestID(%q) = %v", s, got)
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
		`{"open": false}`, `{"open": true, "roster": 40}`, `{"activity": 2}`, `{"before_door": true}`,
		`{"epsilon": 0.2, "request": "0123456789abcdef0123456789abcdef"}`, `{"epsilon": 0.2, "request": "<b>"}`, `[1]`, `{"value": 1e400}`, `{"available": [1, 1]}`, `{} {}`, "{\"kind\": \"\xff\"}",
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
			Open   *bool  `json:"open"`
			Roster *int64 `json:"roster"`
		}
		check(decode(req().r, &door, false))
		var release struct {
			Epsilon *float64 `json:"epsilon"`
			Request *string  `json:"request"`
		}
		check(decode(req().r, &release, false))
		var current struct {
			Activity *int64 `json:"activity"`
		}
		check(decode(req().r, &current, false))
		var prune struct {
			BeforeDoor bool `json:"before_door"`
		}
		check(decode(req().r, &prune, true))
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
// locales do, has a piece that starts as a formula a spreadsheet would run.
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

// FuzzUnits: an accepted ε is a whole number of units, at least one, and
// the ε the units stand for is the number read, to 10⁻¹²; charging never
// rounds a number down to nothing.
func FuzzUnits(f *testing.F) {
	for _, x := range []float64{0.1, 0.30000000000000004, 3, 1e-6, 1e-9, 5e-324, 1e-17, 0.0000015, 10, 100, -1, math.Inf(1), math.NaN()} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		u, ok := Units(x)
		if !ok {
			return
		}
		if u < 1 || math.Abs(Epsilon(u)-x) > 1e-12*math.Max(1, x) {
			t.Fatalf("Units(%v) = %d, Epsilon = %v", x, u, Epsilon(u))
		}
		if again, ok := Units(Epsilon(u)); !ok || again != u {
			t.Fatalf("Units(Epsilon(%d)) = %d, %v", u, again, ok)
		}
	})
}

// FuzzStrictKeys: a body whose top-level object repeats a key, or has a
// key equal to a field's name but for case, is refused, whatever the rest.
func FuzzStrictKeys(f *testing.F) {
	for _, s := range []string{`{"epsilon": 0.1, "epsilon": 3}`, `{"EPSILON": 3}`, `{"epsilon": 1}`, `{"a": {"b": 1, "b": 2}}`, `[{"x":1}]`, `{"epsilon": 0.1}{"epsilon": 3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req struct {
			Epsilon *float64 `json:"epsilon"`
		}
		if decode(newReq(body).r, &req, false) != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return
			}
			k := tok.(string)
			if seen[k] || k != "epsilon" && strings.EqualFold(k, "epsilon") {
				t.Fatalf("%q accepted with key %q", body, k)
			}
			seen[k] = true
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				return
			}
		}
	})
}

// FuzzClean: what Clean keeps has no control character nor bidirectional
// override, no spaces at either end, and cleaning it again changes nothing.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"Which day?", " a\tb\r\n", "x\x00y", "\u202eevil", "  ", "é\u2066"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Clean(s)
		for _, r := range c {
			if unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
				t.Fatalf("Clean(%q) = %q keeps %U", s, c, r)
			}
		}
		if c != strings.TrimSpace(c) || Clean(c) != c {
			t.Fatalf("Clean(%q) = %q, not clean", s, c)
		}
	})
}
