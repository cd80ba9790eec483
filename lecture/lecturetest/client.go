// Package lecturetest holds the lecture API's black-box test suite and load
// generator. The suite talks HTTP to a base URL only, so the same code runs
// against the handler in process, against `dpplay serve` with a real SQLite
// file, and against the worker in workerd with local D1.
package lecturetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Client is a small JSON client that remembers every response body, so a
// test can check at the end that no body ever carried a submitted value.
type Client struct {
	Base string // e.g. http://127.0.0.1:8080 (no trailing slash)
	HTTP *http.Client

	// Key is the server's instructor key, sent with every request that
	// starts a session without another credential; Remote says the server
	// takes this client for another machine (so it needs the key), and
	// HostChecked that it refuses Host names not its own.
	Key         string
	Remote      bool
	HostChecked bool

	mu     sync.Mutex
	bodies []string
}

// NewClient returns a client for base.
func NewClient(base string) *Client {
	tr := &http.Transport{MaxIdleConns: 1000, MaxIdleConnsPerHost: 1000, IdleConnTimeout: 30 * time.Second}
	return &Client{Base: strings.TrimSuffix(base, "/"), HTTP: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// Response is one reply: status, headers, raw body and the body decoded
// as an object.
type Response struct {
	Status int
	Header http.Header
	Raw    string
	JSON   map[string]any
}

// Do sends a request. body is sent as is when it is a string or []byte and
// JSON-encoded otherwise; nil sends no body. A POST or PUT says
// Content-Type: application/json, as the API requires of every request that
// changes state.
func (c *Client) Do(method, path, token string, body any) (*Response, error) {
	h := http.Header{}
	if method == "POST" || method == "PUT" {
		h.Set("Content-Type", "application/json")
	}
	if method == "POST" && path == "/api/sessions" && token == "" {
		token = c.Key
	}
	return c.DoHeader(method, path, token, body, h)
}

// Answer PUTs a student's answer to path (an activity's submissions/ID).
// The answer is idempotent, so, as a browser does, it is resent at once
// when a kept-alive connection turns out to have been closed by the server
// before any reply (workerd closes connections idle for 5 s, and a starved
// client can reuse one before it sees the close). Go resends only requests
// it knows to be idempotent; a nil Idempotency-Key says so without sending
// the header.
func (c *Client) Answer(path string, body any) (*Response, error) {
	h := http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": nil}
	return c.DoHeader("PUT", path, "", body, h)
}

// DoHeader is Do with the request headers given (and none added but the
// token's Authorization).
func (c *Client) DoHeader(method, path, token string, body any, header http.Header) (*Response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, c.Base+path, rd)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, raw, err := c.send(req, token)
	if err != nil {
		return nil, err
	}
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return out, fmt.Errorf("%s %s: content type %q, want application/json (body %.200q)", method, path, ct, raw)
	}
	if err := json.Unmarshal([]byte(raw), &out.JSON); err != nil {
		return out, fmt.Errorf("%s %s: body is not a JSON object: %v (%.200q)", method, path, err, raw)
	}
	return out, nil
}

// Raw sends a GET and returns the status, the headers and the body as
// bytes, whatever their type; the body joins those searched for leaks.
func (c *Client) Raw(path, token string) (int, http.Header, string, error) {
	req, err := http.NewRequest("GET", c.Base+path, nil)
	if err != nil {
		return 0, nil, "", err
	}
	resp, body, err := c.send(req, token)
	if resp == nil {
		return 0, nil, "", err
	}
	return resp.StatusCode, resp.Header, body, err
}

// send sends req, with the token's Authorization when there is one, and
// reads the whole body, which joins those searched for leaks (Bodies). The
// response is nil only when no reply came.
func (c *Client) send(req *http.Request, token string) (*http.Response, string, error) {
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	c.mu.Lock()
	c.bodies = append(c.bodies, string(raw))
	c.mu.Unlock()
	return resp, string(raw), err
}

// GetStatus sends GET path with the header key set to value (the client
// address a test stands for, say) and returns the reply's status code, or 0
// after reporting a failed request on t. The body is not read.
func (c *Client) GetStatus(t testing.TB, path, key, value string) int {
	req, _ := http.NewRequest("GET", c.Base+path, nil)
	req.Header.Set(key, value)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		t.Error(err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Bodies returns every response body seen so far.
func (c *Client) Bodies() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bodies...)
}

// must is Do for tests: it fails t on a transport error or on a status other
// than want, and returns the decoded body.
func (c *Client) must(t testing.TB, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	r, err := c.Do(method, path, token, body)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d; body %s", method, path, r.Status, want, r.Raw)
	}
	return r.JSON
}

// refused is a request a test expects refused: its token (empty: none),
// its body and the status it must get.
type refused struct {
	token  string
	body   any
	status int
}

// refuses sends each request to method path and reports on t every one
// answered with another status.
func (c *Client) refuses(t testing.TB, method, path string, rs ...refused) {
	t.Helper()
	for _, r := range rs {
		if got, err := c.Do(method, path, r.token, r.body); err != nil || got.Status != r.status {
			t.Errorf("%s %s %v with token %t: %v %+v, want %d", method, path, r.body, r.token != "", err, got, r.status)
		}
	}
}

// Must is must for tests outside this package.
func (c *Client) Must(t testing.TB, want int, method, path, token string, body any) map[string]any {
	t.Helper()
	return c.must(t, want, method, path, token, body)
}

// Session is a created session.
type Session struct {
	Code, Token string
}

// NewSession creates a session with the given budget (0: the server's default).
func (c *Client) NewSession(t testing.TB, budget float64) Session {
	t.Helper()
	var body any
	if budget > 0 {
		body = map[string]float64{"epsilon_budget": budget}
	}
	m := c.must(t, http.StatusCreated, "POST", "/api/sessions", "", body)
	code, _ := m["code"].(string)
	tok, _ := m["instructor_token"].(string)
	if code == "" || tok == "" {
		t.Fatalf("POST /api/sessions: missing code or token in %v", m)
	}
	return Session{Code: code, Token: tok}
}

// NewActivity creates an activity and returns its id path prefix.
func (c *Client) NewActivity(t testing.TB, s Session, spec any) string {
	t.Helper()
	m := c.must(t, http.StatusCreated, "POST", "/api/sessions/"+s.Code+"/activities", s.Token, spec)
	id, ok := m["id"].(float64)
	if !ok || id < 1 {
		t.Fatalf("create activity: bad id in %v", m)
	}
	return fmt.Sprintf("/api/sessions/%s/activities/%d", s.Code, int(id))
}
