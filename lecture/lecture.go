// Package lecture is the server side of the live lecture: the class
// submits private answers from their phones, and the projector shows only
// what a differentially private mechanism releases, each release charged to
// the session's visible ε budget.
//
// It is a plain net/http handler over database/sql with one schema (Schema)
// and one code path for both storage back ends: an SQLite file under
// `dpplay serve` and Cloudflare D1 under cmd/cloudflare. Every request does its
// work in the database and keeps nothing in memory between requests, because
// on Workers each request may run in a fresh instance. D1 has no interactive
// transactions, so every state change is a single SQL statement whose WHERE
// clause carries the condition it depends on (activity still open, budget not
// spent): the database's own atomicity then stands in for a transaction.
//
// Privacy rules the handler enforces, not the page:
//   - No response, log line or error message contains a raw submission. Error
//     messages are fixed strings naming a field, never echoing a value.
//   - A release is refused once the session's ε budget would be exceeded
//     (core/account semantics: a refused release charges nothing).
//   - The instructor token is 128 random bits; only its SHA-256 is stored, and
//     it is compared in constant time.
package lecture

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"log"
	mrand "math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dpplay/dpplay/core/rng/osrand"
)

// Limits of the API. They bound the work one request can cause.
const (
	MaxBody         = 8 << 10 // bytes in a request body
	DefaultBudget   = 3.0     // ε of a new session unless it asks otherwise
	MaxBudget       = 100.0   // largest ε budget a session may ask for
	MaxEpsilon      = 10.0    // largest ε of a single release
	MaxActivities   = 100     // activities per session
	MaxReleases     = 1000    // releases per session
	MaxStudentIDLen = 64
	DefaultRoster   = 1000  // most distinct students of a session created without a roster
	MaxRoster       = 10000 // largest roster a session may ask for
	// ShownReleases is how many of an activity's newest releases its poll
	// carries (release_count says how many there are; the ledger has all).
	ShownReleases = 20
	// DefaultSessionTTL is how long a session that sees nothing is kept.
	DefaultSessionTTL = 30 * 24 * time.Hour
)

// MaxAnswers is the most answers a session keeps: a full roster answering
// every activity of a session (MaxRoster × MaxActivities). Each answer
// belongs to a student on the roster, one per activity (the primary key of
// submissions), and pruning takes a student's answers with them, so
// students alone never reach it: it bounds what a session stores. Should it
// be reached, the instructor's view says why answers are refused
// (Door.Answers).
const MaxAnswers = MaxRoster * MaxActivities

// Rate limit on wrong join codes. A guess is one request naming a
// well-formed code of a session that does not exist. The limit only ever
// refuses wrong codes: a request naming a session that exists is answered
// whatever its address has guessed, so a student flooding wrong codes cannot
// lock out a class (or its instructor) sharing their NAT address. It bounds
// the database work wrong codes cause; what keeps a stranger out of a session
// is the code's 40 random bits (docs/security.md has the arithmetic), and what
// bounds the harm of one who gets in is the roster (MaxRoster) and the door.
// GuessLimit leaves room for every student of a campus of 5,000 behind one
// address to mistype once while joining.
const (
	GuessLimit  = 5000
	GuessWindow = 10 * time.Minute
	// CreateLimit bounds new sessions per client address and window when
	// no instructor key is set (Options.CreateKey).
	CreateLimit = 200
	// JoinLimit bounds the new students one address may add to a session
	// per JoinWindow: a script inventing ids fills a roster no faster,
	// while a hall of 500 behind one NAT address all get in within two
	// minutes however they arrive (a phone refused with 429 tries again
	// after Retry-After).
	JoinLimit  = 300
	JoinWindow = time.Minute
	// ReadRate is the cost of unauthenticated reads one address may make
	// per second, with a burst of twice as much: a read costs 1 plus 1 per
	// 8 KB of its reply. A hall of 1,000 phones polling every 1.5 s costs
	// about 700 a second; a client pulling a large session's full reply
	// (170 KB) as fast as it can is held to about 45 a second.
	ReadRate = 1000
	// WriteRate is how many answers one address may send a second, with
	// a burst of twice as many: a hall of 1,000 phones behind one NAT
	// address all answering at once is through in about 3 s (those
	// refused with 429 send again after Retry-After), while a script
	// gets no more of the one writer than that.
	WriteRate = 200
	// StudentRate is how many answers one student id may send a second,
	// with a burst of StudentBurst: a phone sends one per activity, and
	// again when its student changes their mind.
	StudentRate  = 1
	StudentBurst = 10
	// ClassWriters is how many of the class's answers may be waiting for
	// the database's writer at once (Options.ClassWriters): the
	// instructor's writes (the door, a release, a new activity) never wait
	// for more than these, however many phones are answering. An answer
	// that cannot start its write within ClassWait is refused with 429.
	ClassWriters = 4
	ClassWait    = 5 * time.Second
)

// Options configures a Handler. The zero value is the production setting.
type Options struct {
	// DefaultBudget is the ε budget of a session created without one;
	// 0 means DefaultBudget.
	DefaultBudget float64

	// AllowOrigin, when not empty, is sent as Access-Control-Allow-Origin so
	// a static site on another origin (GitHub Pages) can use this API. The
	// instructor token travels in a header, never a cookie, so "*" leaks
	// nothing; but a request that changes state and carries an Origin header
	// is accepted only from the API's own host or from AllowOrigin, so with
	// one named origin no other web site can make its visitors' browsers
	// create sessions or send answers ("*" accepts every origin).
	AllowOrigin string

	// ClientIP returns the address a request came from, used only to key the
	// rate limit. Nil means the host part of RemoteAddr. On Workers it reads
	// the CF-Connecting-IP header.
	ClientIP func(*http.Request) string

	// ClientSecret keys what the database keeps of a client's address
	// (Handler.clientTag): HMAC-SHA256 under it, never the address or a
	// plain hash of it. Nil draws 32 random bytes for the Memory, so that
	// nothing on disk can turn a stored tag back into an address; the tags
	// of one address then differ between processes (docs/security.md).
	ClientSecret []byte

	// Source, if not nil, replaces the cryptographic random source of the
	// mechanisms. It is for tests that compare releases with the mechanisms'
	// exact probabilities at a fixed seed; it must be safe for concurrent
	// use. Never set it in a deployment: releases drawn from a known seed
	// protect no one.
	Source mrand.Source

	// GuessLimit, CreateLimit, JoinLimit, ReadRate, WriteRate, MaxReleases
	// and MaxAnswers override the limits of the same names (0 means the
	// default; a negative JoinLimit, ReadRate or WriteRate turns that limit
	// off, as a load test playing a whole hall from one address must);
	// tests lower them.
	GuessLimit, CreateLimit, JoinLimit, ReadRate, WriteRate, MaxReleases, MaxAnswers int

	// ClassWriters replaces ClassWriters (0: the default): SQLite has one
	// writer, a few answers ahead of the instructor's write are enough to
	// keep it busy; D1 takes many statements at once, each slower.
	ClassWriters int

	// ClassWait replaces ClassWait (0: the default). Tests that count
	// what a burst stores lengthen it, so that a loaded machine's slow
	// writes are not taken for refusals of another kind.
	ClassWait time.Duration

	// CreateKey, when set, is the instructor key: starting a session needs
	// it (Authorization: Bearer <key>) unless Local reports that the request
	// comes from the server's own machine. Without it anyone may start
	// sessions, CreateLimit per address and window.
	CreateKey string
	Local     func(*http.Request) bool

	// Host, when set, reports whether a request's Host header names this
	// API (DNS rebinding); a request for any other is refused with 421.
	Host func(host string) bool

	// SessionTTL is how long a session that sees no change is kept before
	// Expire deletes it; 0 means DefaultSessionTTL.
	SessionTTL time.Duration

	// Now replaces time.Now in tests of the rate-limit windows.
	Now func() time.Time

	// Memory, if not nil, is what handlers built one per request share:
	// the read limit's counts and the replies kept for polls (the
	// Cloudflare worker builds a handler per request in one long-lived
	// instance). Nil gives the handler its own.
	Memory *Memory

	// Reader, if not nil, serves the read-only queries, while the db given
	// to New takes the writes. SQLite in WAL mode lets readers run beside
	// the one writer, so `dpplay serve` gives reads their own pool and its
	// writer a single connection (which queues writers in Go instead of in
	// SQLite's busy-wait). The statements are the same either way.
	Reader *sql.DB

	// Logf reports internal errors (never request bodies). Nil means log.Printf.
	Logf func(format string, args ...any)
}

// Handler serves the lecture API under /api/.
type Handler struct {
	db   *sql.DB // writes
	rd   *sql.DB // reads: Options.Reader, or db
	opts Options

	wstmts, rstmts stmts
	reads          *buckets // the read limit per address (nil: none)
	writes         *buckets // the answer limit per address (nil: none)
	students       *buckets // the answer limit per student id
	class          chan struct{}
	secret         []byte   // Options.ClientSecret, or the Memory's own
	replies        *replies // recent poll replies, by session version
	keyHash        []byte   // SHA-256 of Options.CreateKey
}

// New returns the API handler over db, whose tables must already exist
// (Steps, applied by package sqlitedb or by wrangler on D1).
func New(db *sql.DB, opts Options) (*Handler, error) {
	if db == nil {
		return nil, errors.New("lecture: nil database")
	}
	// A zero limit is the package default.
	opts.DefaultBudget = cmp.Or(opts.DefaultBudget, DefaultBudget)
	opts.GuessLimit = cmp.Or(opts.GuessLimit, GuessLimit)
	opts.CreateLimit = cmp.Or(opts.CreateLimit, CreateLimit)
	opts.MaxReleases = cmp.Or(opts.MaxReleases, MaxReleases)
	opts.MaxAnswers = cmp.Or(opts.MaxAnswers, MaxAnswers)
	opts.JoinLimit = cmp.Or(opts.JoinLimit, JoinLimit)
	opts.ReadRate = cmp.Or(opts.ReadRate, ReadRate)
	opts.WriteRate = cmp.Or(opts.WriteRate, WriteRate)
	opts.ClassWriters = cmp.Or(opts.ClassWriters, ClassWriters)
	opts.ClassWait = cmp.Or(opts.ClassWait, ClassWait)
	opts.SessionTTL = cmp.Or(opts.SessionTTL, DefaultSessionTTL)
	if !(opts.DefaultBudget > 0) || opts.DefaultBudget > MaxBudget {
		return nil, fmt.Errorf("lecture: default budget must be in (0, %g], got %v", MaxBudget, opts.DefaultBudget)
	}
	if opts.GuessLimit < 0 || opts.CreateLimit < 0 || opts.MaxReleases < 0 || opts.MaxAnswers < 0 || opts.ClassWriters < 0 || opts.ClassWait < 0 || opts.SessionTTL < 0 {
		return nil, errors.New("lecture: negative limit")
	}
	if opts.ClientIP == nil {
		opts.ClientIP = remoteHost
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logf == nil {
		opts.Logf = log.Printf
	}
	rd := opts.Reader
	if rd == nil {
		rd = db
	}
	sum := sha256.Sum256([]byte(opts.CreateKey))
	if opts.Memory == nil {
		opts.Memory = NewMemory()
	}
	m := opts.Memory
	m.once.Do(func() {
		m.secret = opts.ClientSecret
		if m.secret == nil {
			m.secret = make([]byte, 32)
			crand.Read(m.secret)
		}
		m.reads = newBuckets(float64(opts.ReadRate), 2*float64(opts.ReadRate), opts.Now)
		m.writes = newBuckets(float64(opts.WriteRate), 2*float64(opts.WriteRate), opts.Now)
		m.students = newBuckets(StudentRate, StudentBurst, opts.Now)
		m.class = make(chan struct{}, opts.ClassWriters)
	})
	h := &Handler{db: db, rd: rd, opts: opts, keyHash: sum[:], replies: &m.replies, students: m.students, class: m.class, secret: m.secret}
	if opts.ReadRate > 0 {
		h.reads = m.reads
	}
	if opts.WriteRate > 0 {
		h.writes = m.writes
	}
	return h, nil
}

// random returns the generator for one request's mechanism draws.
func (h *Handler) random() *mrand.Rand {
	if h.opts.Source != nil {
		return mrand.New(h.opts.Source)
	}
	return osrand.New()
}

func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ClientKey turns an address into the rate limit's key. IPv6 addresses are
// cut to their /48 prefix: one host usually owns a whole /64, and one
// customer of an ISP or a tunnel broker commonly a /56 or /48, 65,536 /64s
// it could otherwise rotate through, each with a fresh count. A campus is
// typically one /48, which then shares a count as it shares one IPv4 NAT
// address; the limits only ever refuse wrong codes and new sessions.
func ClientKey(ip string) string {
	a, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return "unknown"
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(48)
	return p.String()
}

// apiError is a client error: an HTTP status and a fixed message that never
// contains anything the client sent; retry, if positive, is the Retry-After
// in seconds.
type apiError struct {
	status int
	msg    string
	retry  int
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

var (
	errNotFound      = errorf(http.StatusNotFound, "no such route")
	errNoSession     = errorf(http.StatusNotFound, "unknown session code")
	errNoActivity    = errorf(http.StatusNotFound, "unknown activity")
	errUnauthorized  = errorf(http.StatusUnauthorized, "instructor token required (Authorization: Bearer <token>)")
	errForbidden     = errorf(http.StatusForbidden, "wrong instructor token")
	errRateLimited   = &apiError{http.StatusTooManyRequests, "too many wrong session codes from this address; wait and try again", 60}
	errReadLimited   = &apiError{http.StatusTooManyRequests, "too many requests from this address; wait a moment", 1}
	errJoinLimited   = &apiError{http.StatusTooManyRequests, "many students are joining from this network at once; this phone sends again in a few seconds", 5}
	errWriteLimited  = &apiError{http.StatusTooManyRequests, "many answers are coming from this network at once; this phone sends again in a moment", 1}
	errAnswerLimited = &apiError{http.StatusTooManyRequests, "this student's answers are coming faster than anyone answers; this phone sends again in a moment", 1}
	errClassBusy     = &apiError{http.StatusTooManyRequests, "the server is busy storing the class's answers; this phone sends again in a moment", 1}
	errClosed        = errorf(http.StatusConflict, "activity is closed")
	errNotJSON       = errorf(http.StatusUnsupportedMediaType, "requests that change state must have Content-Type: application/json")
	errForeignOrigin = errorf(http.StatusForbidden, "requests from another web site are not accepted")
	errWrongHost     = errorf(http.StatusMisdirectedRequest, "this API does not answer to that host name")
	errDoorClosed    = errorf(http.StatusForbidden, "the instructor has closed this session to new students")
	errRosterFull    = errorf(http.StatusForbidden, "this session's roster is full: no more new students can answer")
	errSessionFull   = errorf(http.StatusConflict, "this session holds as many answers as one session keeps, so it takes no more; the instructor's screen says what to do")
	errNoKey         = errorf(http.StatusUnauthorized, "starting a session needs the instructor key (Authorization: Bearer <key>) that the server printed when it started")
	errWrongKey      = errorf(http.StatusForbidden, "wrong instructor key")
)

// overReadLimit marks a read past its address's read limit: it is answered
// only with the instructor's token of the session it names.
type overReadLimit struct{}

// notModified is the reply to a poll that has already seen the session's
// current version.
type notModified struct{ tag string }

// tagged is a reply with its ETag.
type tagged struct {
	tag  string
	body any
}

// ServeHTTP routes /api/... requests.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Content-Type-Options", "nosniff")
	if h.opts.AllowOrigin != "" {
		hdr.Set("Access-Control-Allow-Origin", h.opts.AllowOrigin)
		hdr.Set("Access-Control-Expose-Headers", "ETag, Retry-After")
		hdr.Set("Vary", "Origin")
		if r.Method == http.MethodOptions {
			hdr.Set("Access-Control-Allow-Methods", "GET, POST, PUT")
			hdr.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match")
			hdr.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if h.opts.Host != nil && !h.opts.Host(r.Host) {
		st, b := h.fail(errWrongHost)
		h.write(w, st, b)
		return
	}
	key := ""
	if r.Method == http.MethodGet && h.reads != nil {
		key = ClientKey(h.opts.ClientIP(r))
		if !h.reads.take(key) {
			if r.Header.Get("Authorization") == "" {
				st, b := h.fail(errReadLimited)
				h.write(w, st, b)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), overReadLimit{}, true))
		}
	}
	st, b := h.route(r)
	if t, ok := b.(tagged); ok && key != "" {
		// What the reply's size costs past the 1 paid, before it is sent,
		// so that concurrent reads of an address see the charge.
		if raw, ok := t.body.(rawJSON); ok {
			h.reads.charge(key, float64(len(raw)/8192))
		}
	}
	h.write(w, st, b)
}

// write sends a reply from route.
func (h *Handler) write(w http.ResponseWriter, status int, body any) {
	hdr := w.Header()
	switch b := body.(type) {
	case *file:
		hdr.Set("Content-Type", b.contentType)
		hdr.Set("Content-Disposition", `attachment; filename="`+b.name+`"`)
		w.WriteHeader(status)
		w.Write(b.data)
		return
	case notModified:
		hdr.Set("ETag", b.tag)
		w.WriteHeader(http.StatusNotModified)
		return
	case tagged:
		hdr.Set("ETag", b.tag)
		body = b.body
	}
	switch b := body.(type) {
	case rawJSON:
		hdr.Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(b)
		return
	case *apiError:
		if b.retry > 0 {
			hdr.Set("Retry-After", strconv.Itoa(b.retry))
		}
		body = map[string]string{"error": b.msg}
	}
	writeJSON(w, status, body)
}

// checkWrite refuses a request that changes state (any method but GET,
// HEAD and OPTIONS) unless it declares a JSON body and, if it names an
// Origin, comes from this API's own host or from Options.AllowOrigin.
//
// A web page can send a POST to any address without asking, but only with
// a form's content type (or none); declaring application/json makes the
// browser ask first (a CORS preflight), which another origin only passes
// where AllowOrigin lets it. The Origin check also covers browsers and
// proxies that do not preflight. Tools such as curl send no Origin and pass.
func (h *Handler) checkWrite(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if o := r.Header.Get("Origin"); o != "" && !h.originAllowed(o, r.Host) {
		return errForeignOrigin
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return errNotJSON
	}
	return nil
}

// originAllowed reports whether origin (scheme://host[:port]) is host, this
// API's own, or the configured AllowOrigin.
func (h *Handler) originAllowed(origin, host string) bool {
	if h.opts.AllowOrigin == "*" || origin == h.opts.AllowOrigin {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && strings.EqualFold(u.Host, host)
}

// segments splits an escaped URL path at its slashes and unescapes each
// segment, so that an escaped slash (%2F) stays inside its segment: a join
// code typed as "CODE/activities/1" names no session, not an activity.
func segments(escaped string) ([]string, bool) {
	seg := strings.Split(strings.Trim(escaped, "/"), "/")
	for i, s := range seg {
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		seg[i] = u
	}
	return seg, true
}

func (h *Handler) route(r *http.Request) (int, any) {
	seg, ok := segments(r.URL.EscapedPath())
	if !ok {
		return h.fail(errNotFound)
	}
	if len(seg) == 1 && seg[0] == "api" {
		// What a page asks first, to tell this API from a static host
		// (GitHub Pages) that has none.
		if r.Method != http.MethodGet {
			return h.fail(errorf(http.StatusMethodNotAllowed, "method %s not allowed here; use GET", r.Method))
		}
		return http.StatusOK, map[string]any{"service": "dpplay lecture", "schema": len(Steps)}
	}
	if len(seg) < 2 || seg[0] != "api" || seg[1] != "sessions" {
		return h.fail(errNotFound)
	}
	seg = seg[2:]
	ctx := r.Context()

	type route struct {
		method string
		run    func() (int, any, error)
	}
	var rt route
	switch {
	case len(seg) == 0:
		rt = route{http.MethodPost, func() (int, any, error) { return h.createSession(ctx, r) }}
	case len(seg) == 1:
		rt = route{http.MethodGet, func() (int, any, error) { return h.getSession(ctx, r, seg[0]) }}
	case len(seg) == 2 && seg[1] == "door":
		rt = route{http.MethodPost, func() (int, any, error) { return h.setDoor(ctx, r, seg[0]) }}
	case len(seg) == 2 && seg[1] == "prune":
		rt = route{http.MethodPost, func() (int, any, error) { return h.prune(ctx, r, seg[0]) }}
	case len(seg) == 2 && seg[1] == "activities":
		rt = route{http.MethodPost, func() (int, any, error) { return h.createActivity(ctx, r, seg[0]) }}
	case len(seg) == 2 && seg[1] == "current":
		rt = route{http.MethodPost, func() (int, any, error) { return h.setCurrent(ctx, r, seg[0]) }}
	case len(seg) == 2 && (seg[1] == "ledger" || seg[1] == "ledger.csv"):
		rt = route{http.MethodGet, func() (int, any, error) { return h.ledger(ctx, r, seg[0], seg[1] == "ledger.csv") }}
	case len(seg) == 3 && seg[1] == "activities":
		rt = route{http.MethodGet, func() (int, any, error) { return h.getActivity(ctx, r, seg[0], seg[2]) }}
	case len(seg) == 4 && seg[1] == "activities" && seg[3] == "releases":
		rt = route{http.MethodPost, func() (int, any, error) { return h.release(ctx, r, seg[0], seg[2]) }}
	case len(seg) == 4 && seg[1] == "activities" && (seg[3] == "close" || seg[3] == "open"):
		rt = route{http.MethodPost, func() (int, any, error) { return h.closeActivity(ctx, r, seg[0], seg[2], seg[3] == "close") }}
	case len(seg) == 4 && seg[1] == "activities" && seg[3] == "noise":
		rt = route{http.MethodGet, func() (int, any, error) { return h.noise(ctx, r, seg[0], seg[2]) }}
	case len(seg) == 5 && seg[1] == "activities" && seg[3] == "submissions":
		rt = route{http.MethodPut, func() (int, any, error) { return h.submit(ctx, r, seg[0], seg[2], seg[4]) }}
	default:
		return h.fail(errNotFound)
	}
	if r.Method != rt.method {
		return h.fail(errorf(http.StatusMethodNotAllowed, "method %s not allowed here; use %s", r.Method, rt.method))
	}
	if err := h.checkWrite(r); err != nil {
		return h.fail(err)
	}
	status, body, err := rt.run()
	if err != nil {
		return h.fail(err)
	}
	return status, body
}

// fail turns an error into a response. Anything that is not an apiError is
// an internal failure: it is logged (the message comes from the database
// driver or our own code, never from a request body) and the client gets a
// generic 500.
func (h *Handler) fail(err error) (int, any) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.status, ae
	}
	h.opts.Logf("lecture: internal error: %v", err)
	return http.StatusInternalServerError, map[string]string{"error": "internal error"}
}

// session is what a request learns about the session its path names, in
// one read of its row.
type session struct {
	code        string
	tokenHash   []byte
	budgetUnits int64 // ε budget in EpsilonUnits
	spentUnits  int64 // ε spent, in EpsilonUnits
	roster      int64
	doorOpen    bool
	current     int64 // the activity the projector shows, 0 if none yet
	version     int64 // goes up with every change a poll shows
	joined      int64
	addresses   int64
	answers     int64
	maxAnswers  int64 // Options.MaxAnswers
	doorOpened  int64 // when the instructor last opened the door (Unix s), 0 if never
}

func (s *session) door() *Door {
	return &Door{Roster: s.roster, Joined: s.joined, Addresses: s.addresses, Open: s.doorOpen,
		Answers: s.answers, MaxAnswers: s.maxAnswers, Opened: s.doorOpened}
}

// lookup finds the session named by rawCode in one read. A session that
// exists is always returned, whatever the client's count of wrong codes; a
// code that names no session is counted against the client (wrongCode). A
// read past its address's read limit (overReadLimit) is answered only with
// the session's instructor token.
func (h *Handler) lookup(ctx context.Context, r *http.Request, rawCode string) (*session, error) {
	code, ok := NormalizeCode(rawCode)
	if !ok {
		// A malformed code names no session, so refusing it tells a
		// guesser nothing and costs the address no guess: a student who
		// typed seven symbols does not eat into the class's allowance.
		return nil, errNoSession
	}
	s := &session{code: code, maxAnswers: int64(h.opts.MaxAnswers)}
	var door int64
	err := h.queryRow(ctx, h.rd, `SELECT token_hash, budget_units, roster, door_open, current, version, joined, addresses, answers, door_opened,
  (SELECT COALESCE(SUM(eps_units), 0) FROM releases WHERE session = ?)
FROM sessions WHERE code = ?`, []any{&s.tokenHash, &s.budgetUnits, &s.roster, &door, &s.current, &s.version, &s.joined, &s.addresses, &s.answers, &s.doorOpened, &s.spentUnits}, code, code)
	if errors.Is(err, sql.ErrNoRows) {
		if ctx.Value(overReadLimit{}) != nil {
			return nil, errReadLimited
		}
		return nil, h.wrongCode(ctx, r)
	}
	if err != nil {
		return nil, err
	}
	s.doorOpen = door != 0
	if ctx.Value(overReadLimit{}) != nil && authorize(r, s) != nil {
		return nil, errReadLimited
	}
	return s, nil
}

// fromPage reports whether r may be a call of a page's script: a browser
// says what a request is for (Sec-Fetch-Dest "empty" for fetch) and which
// page made it (Origin), and an <img> or <iframe> that a hostile page
// points at the API, or a fetch of that page, is neither. Clients that send
// none of these headers (scripts, curl) pass.
func (h *Handler) fromPage(r *http.Request) bool {
	if d := r.Header.Get("Sec-Fetch-Dest"); d != "" && d != "empty" {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && !h.originAllowed(o, r.Host) {
		return false
	}
	return true
}

// wrongCode counts a wrong code against the client's address and returns
// the refusal: 404 within the limit, 429 past it (countUnder). A request a hostile page made a
// visitor's browser send (fromPage) is refused without counting, so that
// such a page cannot spend the allowance of the visitor's network.
func (h *Handler) wrongCode(ctx context.Context, r *http.Request) error {
	if !h.fromPage(r) {
		return errNoSession
	}
	ok, err := h.countUnder(ctx, "code:"+h.clientTag(r, ""), GuessWindow, int64(h.opts.GuessLimit))
	if err != nil {
		return err
	}
	if !ok {
		return errRateLimited
	}
	return errNoSession
}

// countUnder counts one more against key in the current window of length
// d, unless the count has reached limit, and reports whether the count,
// this one included, is within limit. A count already at the limit refuses
// without a write. Otherwise the decision comes from the count the
// increment itself returns: reading, comparing and then incrementing would
// let concurrent requests all see the same count and all get through.
func (h *Handler) countUnder(ctx context.Context, key string, d time.Duration, limit int64) (bool, error) {
	win := h.window(d)
	var n int64
	if err := h.queryRow(ctx, h.rd, `SELECT COALESCE(MAX(failures), 0) FROM guesses WHERE client = ? AND win = ?`,
		[]any{&n}, key, win); err != nil {
		return false, err
	}
	if n >= limit {
		return false, nil
	}
	n, err := h.count(ctx, key, win, d)
	if err != nil {
		return false, err
	}
	return n <= limit, nil
}

// window is the start, in Unix seconds, of the current window of length d.
func (h *Handler) window(d time.Duration) int64 {
	now, w := h.opts.Now().Unix(), int64(d/time.Second)
	return now - now%w
}

// count adds one to key's count in the window starting at win (of length
// d) and returns the new count, atomically. Old windows of key's kind (the
// part of key before its colon) are pruned here, on the rare path, and only
// on a key's first count in a window: a flood should not make the delete
// run once per request (D1 bills rows read).
func (h *Handler) count(ctx context.Context, key string, win int64, d time.Duration) (int64, error) {
	var n int64
	err := h.queryRow(ctx, h.db, `INSERT INTO guesses (client, win, failures) VALUES (?, ?, 1)
ON CONFLICT (client, win) DO UPDATE SET failures = failures + 1
RETURNING failures`, []any{&n}, key, win)
	if err != nil {
		return 0, err
	}
	if n == 1 {
		kind, _, _ := strings.Cut(key, ":")
		if _, err := h.exec(ctx, h.db, `DELETE FROM guesses WHERE client >= ? AND client < ? AND win < ?`,
			kind+":", kind+";", win-int64(d/time.Second)); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// bearer returns the credential of r's Authorization: Bearer header, or "".
func bearer(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) {
		return ""
	}
	return strings.TrimSpace(auth[len(prefix):])
}

// sameSecret compares a credential with a secret's SHA-256: both sides are
// 32-byte hashes, so the comparison's time depends on neither the
// credential nor its length.
func sameSecret(credential string, hash []byte) bool {
	sum := sha256.Sum256([]byte(credential))
	return subtle.ConstantTimeCompare(sum[:], hash) == 1
}

// authorize checks the instructor's bearer token against the session.
func authorize(r *http.Request, s *session) error {
	tok := bearer(r)
	if tok == "" {
		return errUnauthorized
	}
	if !sameSecret(tok, s.tokenHash) {
		return errForbidden
	}
	return nil
}

// instructor looks up the session rawCode names and checks that the request
// carries its instructor's token.
func (h *Handler) instructor(ctx context.Context, r *http.Request, rawCode string) (*session, error) {
	s, err := h.lookup(ctx, r, rawCode)
	if err != nil {
		return nil, err
	}
	if err := authorize(r, s); err != nil {
		return nil, err
	}
	return s, nil
}

// instructorRequest checks the request as instructor does, then decodes
// its body into req (decode, with allowEmpty): a request without the token
// is refused before its body is read.
func (h *Handler) instructorRequest(ctx context.Context, r *http.Request, rawCode string, req any, allowEmpty bool) (*session, error) {
	s, err := h.instructor(ctx, r, rawCode)
	if err != nil {
		return nil, err
	}
	if err := decode(r, req, allowEmpty); err != nil {
		return nil, err
	}
	return s, nil
}

func parseActivityID(s string) (int64, error) {
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return 0, errNoActivity
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errNoActivity
		}
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0, errNoActivity
	}
	return id, nil
}

func validStudent(s string) bool { return idChars(s, 1, MaxStudentIDLen) }

// idChars reports whether s is lo to hi letters, digits, '-' or '_': the
// ids clients make (student ids, release requests).
func idChars(s string, lo, hi int) bool {
	if len(s) < lo || len(s) > hi {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
