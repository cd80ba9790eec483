package lecture

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
		`{"open": false}`, `[1]`, `{"value": 1e400}`, `{"available": [1, 1]}`, `{} {}`, "{\"kind\": \"\xff\"}",
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
