package lecture

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dpplay/dpplay/core/rng"
)

// SessionInfo is the public view of a session.
type SessionInfo struct {
	Code            string         `json:"code"`
	Display         string         `json:"display"`
	Budget          float64        `json:"epsilon_budget"`
	Spent           float64        `json:"epsilon_spent"`
	Remaining       float64        `json:"epsilon_remaining"`
	Activities      []ActivityInfo `json:"activities"`
	InstructorToken string         `json:"instructor_token,omitempty"`
	// Current is the activity the projector shows and the phones follow
	// (0 until the instructor picks one).
	Current int64 `json:"current"`
	Door
}

// Door is who may still answer in a session: at most Roster distinct
// students, of whom Joined have answered so far, and new ones only while
// Open. The projector shows Joined beside the answer count, so ids invented
// to stuff the ballot are visible to the room.
type Door struct {
	Roster int64 `json:"roster"`
	Joined int64 `json:"joined"`
	// Addresses is how many client addresses the joined students came
	// from: a thousand students from one address is a hall behind one NAT,
	// or a script.
	Addresses int64 `json:"addresses"`
	Open      bool  `json:"door_open"`
	// Answers is how many answers the session holds, of the MaxAnswers it
	// keeps: at the cap every new answer is refused, which the
	// instructor's view explains.
	Answers    int64 `json:"answers"`
	MaxAnswers int64 `json:"max_answers"`
	// Opened is when the instructor last opened the door after closing it
	// (Unix seconds; 0 if never): pruning can remove everyone who joined
	// before, that is who never came through the door opened then.
	Opened int64 `json:"door_opened"`
}

// ActivityInfo is the public view of an activity: its definition, how many
// students have answered, and its releases. Never an answer.
type ActivityInfo struct {
	ID           int64 `json:"id"`
	Spec         Spec  `json:"spec"`
	Closed       bool  `json:"closed"`
	Participants int   `json:"participants"`
	// Releases are the activity's newest ShownReleases releases, oldest
	// first (only on the reply for one activity).
	Releases []*ReleaseInfo `json:"releases,omitempty"`
	// This activity's share of the ledger: its releases and their ε.
	ReleaseCount  int     `json:"release_count"`
	ActivitySpent float64 `json:"activity_epsilon_spent"`
	// The session's budget, so a phone polling one activity sees ε left.
	Budget    float64 `json:"epsilon_budget"`
	Spent     float64 `json:"epsilon_spent"`
	Remaining float64 `json:"epsilon_remaining"`
	*Door
	// The session's current activity, on the reply for one activity: a
	// phone polling its activity sees when the projector moves on.
	Current *int64 `json:"current,omitempty"`
}

// ReleaseInfo is one release as stored in the ledger.
type ReleaseInfo struct {
	Seq          int64   `json:"seq"`
	Activity     int64   `json:"activity"`
	Epsilon      float64 `json:"epsilon"`
	Participants int     `json:"participants"`
	Result       *Result `json:"result"`
	Created      int64   `json:"created"`
	// Filled in on the reply to a release request.
	Spent     *float64 `json:"epsilon_spent,omitempty"`
	Remaining *float64 `json:"epsilon_remaining,omitempty"`
}

// ledgerOf fills the budget figures of a reply from a session's units:
// remaining is exact, and spent never shows above the budget because the
// units never exceed it.
func ledgerOf(budget, spent int64) (b, sp, left float64) {
	return Epsilon(budget), Epsilon(spent), Epsilon(max(0, budget-spent))
}

// etagOf names the replies of a session at a version; kind tells the
// session's reply ("s") from an activity's ("a").
func etagOf(kind string, version int64) string {
	return `"` + kind + strconv.FormatInt(version, 10) + `"`
}

// seen reports whether r's If-None-Match names tag (or is "*").
func seen(r *http.Request, tag string) bool {
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

// POST /api/sessions  {"epsilon_budget": ε, "roster": n}?  → 201 {"code", "instructor_token", …}
//
// With an instructor key set (Options.CreateKey), only its holder, or the
// server's own machine (Options.Local), starts sessions, so a student on
// the same network can neither start sessions nor use up the instructor's
// allowance; without one, each address may start CreateLimit per window.
func (h *Handler) createSession(ctx context.Context, r *http.Request) (int, any, error) {
	keyed := h.opts.CreateKey != ""
	if keyed && !(h.opts.Local != nil && h.opts.Local(r)) {
		switch k := bearer(r); {
		case k == "":
			return 0, nil, errNoKey
		case !sameSecret(k, h.keyHash):
			return 0, nil, errWrongKey
		}
	}
	var req struct {
		Budget *float64 `json:"epsilon_budget"`
		Roster *int64   `json:"roster"`
	}
	if err := decode(r, &req, true); err != nil {
		return 0, nil, err
	}
	budget := h.opts.DefaultBudget
	if req.Budget != nil {
		budget = *req.Budget
	}
	units, ok := Units(budget)
	if !ok || budget > MaxBudget {
		return 0, nil, bad("epsilon_budget: must lie in (0, %g], in steps of %g", MaxBudget, EpsilonUnit)
	}
	roster := int64(DefaultRoster)
	if req.Roster != nil {
		roster = *req.Roster
		if roster < 1 || roster > MaxRoster {
			return 0, nil, bad("roster: must be a whole number of students from 1 to %d", MaxRoster)
		}
	}
	if !keyed {
		n, err := h.count(ctx, "new:"+h.clientTag(r, ""), h.window(GuessWindow), GuessWindow)
		if err != nil {
			return 0, nil, err
		}
		if n > int64(h.opts.CreateLimit) {
			return 0, nil, &apiError{http.StatusTooManyRequests, "too many new sessions from this address; wait and try again", 60}
		}
	}
	token, hash := newToken()
	now := h.opts.Now().Unix()
	for range 5 { // a collision in 2⁴⁰ codes is rare; retrying is enough
		code := newCode()
		res, err := h.exec(ctx, h.db, `INSERT INTO sessions (code, token_hash, budget, budget_units, created, touched, roster, door_open)
VALUES (?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (code) DO NOTHING`, code, hash, Epsilon(units), units, now, now, roster)
		if err != nil {
			return 0, nil, err
		}
		if k, err := res.RowsAffected(); err != nil {
			return 0, nil, err
		} else if k == 1 {
			b, sp, left := ledgerOf(units, 0)
			return http.StatusCreated, SessionInfo{
				Code: code, Display: FormatCode(code), InstructorToken: token,
				Budget: b, Spent: sp, Remaining: left, Activities: []ActivityInfo{},
				Door: Door{Roster: roster, Open: true, MaxAnswers: int64(h.opts.MaxAnswers)},
			}, nil
		}
	}
	return 0, nil, errors.New("lecture: no free session code after 5 tries")
}

// GET /api/sessions/{code} → 200 SessionInfo (activities without releases)
func (h *Handler) getSession(ctx context.Context, r *http.Request, rawCode string) (int, any, error) {
	s, err := h.lookup(ctx, r, rawCode)
	if err != nil {
		return 0, nil, err
	}
	tag := etagOf("s", s.version)
	if seen(r, tag) {
		return http.StatusNotModified, notModified{tag}, nil
	}
	key := "s:" + s.code
	if b := h.replies.get(key, s.version); b != nil {
		return http.StatusOK, tagged{tag, b}, nil
	}
	info, err := h.sessionInfo(ctx, s)
	if err != nil {
		return 0, nil, err
	}
	b, err := h.replies.encode(key, s.version, info)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, tagged{tag, b}, nil
}

// sessionInfo reads the public view of s: one row per activity, each
// with the counts its triggers keep, whatever the session holds.
func (h *Handler) sessionInfo(ctx context.Context, s *session) (*SessionInfo, error) {
	rows, err := h.query(ctx, h.rd, `SELECT a.id, a.config, a.closed, a.answers,
  (SELECT COUNT(*) FROM releases r WHERE r.session = a.session AND r.activity = a.id),
  (SELECT COALESCE(SUM(eps_units), 0) FROM releases r WHERE r.session = a.session AND r.activity = a.id)
FROM activities a WHERE a.session = ? ORDER BY a.id`, s.code)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	b, sp, left := ledgerOf(s.budgetUnits, s.spentUnits)
	info := SessionInfo{Code: s.code, Display: FormatCode(s.code), Budget: b, Spent: sp,
		Remaining: left, Activities: []ActivityInfo{}, Current: s.current, Door: *s.door()}
	for rows.Next() {
		var a ActivityInfo
		var config string
		var closed, units int64
		if err := rows.Scan(&a.ID, &config, &closed, &a.Participants, &a.ReleaseCount, &units); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(config), &a.Spec); err != nil {
			return nil, err
		}
		a.Closed = closed != 0
		a.ActivitySpent = Epsilon(units)
		a.Budget, a.Spent, a.Remaining = info.Budget, info.Spent, info.Remaining
		info.Activities = append(info.Activities, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return &info, nil
}

// POST /api/sessions/{code}/activities  Spec → 201 {"id"}  (instructor)
func (h *Handler) createActivity(ctx context.Context, r *http.Request, rawCode string) (int, any, error) {
	var spec Spec
	s, err := h.instructorRequest(ctx, r, rawCode, &spec, false)
	if err != nil {
		return 0, nil, err
	}
	if err := spec.check(); err != nil {
		return 0, nil, err
	}
	config, err := json.Marshal(spec)
	if err != nil {
		return 0, nil, err
	}
	// The next id and the cap on activities are decided inside the insert,
	// so two concurrent creations cannot take the same id.
	var id int64
	err = h.queryRow(ctx, h.db, `INSERT INTO activities (session, id, kind, config, closed, created)
SELECT ?, next, ?, ?, 0, ? FROM
  (SELECT COALESCE(MAX(id), 0) + 1 AS next, COUNT(*) AS n FROM activities WHERE session = ?)
WHERE n < ?
RETURNING id`, []any{&id}, s.code, spec.Kind, string(config), h.opts.Now().Unix(), s.code, MaxActivities)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, errorf(http.StatusConflict, "a session holds at most %d activities", MaxActivities)
	}
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, map[string]int64{"id": id}, nil
}

// activity loads an activity's definition and state.
func (h *Handler) activity(ctx context.Context, s *session, rawID string) (id int64, spec *Spec, closed bool, participants int, err error) {
	id, err = parseActivityID(rawID)
	if err != nil {
		return 0, nil, false, 0, err
	}
	var config string
	var c int64
	err = h.queryRow(ctx, h.rd, `SELECT config, closed, answers FROM activities WHERE session = ? AND id = ?`,
		[]any{&config, &c, &participants}, s.code, id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, false, 0, errNoActivity
	}
	if err != nil {
		return 0, nil, false, 0, err
	}
	spec = new(Spec)
	if err := json.Unmarshal([]byte(config), spec); err != nil {
		return 0, nil, false, 0, err
	}
	return id, spec, c != 0, participants, nil
}

// sessionActivity returns the session rawCode names, with lookup's checks,
// and the activity rawID names in it: what a phone's request about one
// activity reads first.
func (h *Handler) sessionActivity(ctx context.Context, r *http.Request, rawCode, rawID string) (s *session, id int64, spec *Spec, closed bool, err error) {
	if s, err = h.lookup(ctx, r, rawCode); err != nil {
		return nil, 0, nil, false, err
	}
	id, spec, closed, _, err = h.activity(ctx, s, rawID)
	return s, id, spec, closed, err
}

// GET /api/sessions/{code}/activities/{id} → 200 ActivityInfo
//
// A poll that names the version it has seen (If-None-Match) gets 304 after
// one read of the session's row.
func (h *Handler) getActivity(ctx context.Context, r *http.Request, rawCode, rawID string) (int, any, error) {
	s, err := h.lookup(ctx, r, rawCode)
	if err != nil {
		return 0, nil, err
	}
	tag := etagOf("a", s.version)
	if _, err := parseActivityID(rawID); err != nil {
		return 0, nil, err
	}
	if seen(r, tag) {
		return http.StatusNotModified, notModified{tag}, nil
	}
	key := "a:" + s.code + ":" + rawID
	if b := h.replies.get(key, s.version); b != nil {
		return http.StatusOK, tagged{tag, b}, nil
	}
	id, spec, closed, n, err := h.activity(ctx, s, rawID)
	if err != nil {
		return 0, nil, err
	}
	b, sp, left := ledgerOf(s.budgetUnits, s.spentUnits)
	info := ActivityInfo{ID: id, Spec: *spec, Closed: closed, Participants: n, Releases: []*ReleaseInfo{},
		Budget: b, Spent: sp, Remaining: left, Door: s.door(), Current: &s.current}
	var units int64
	if err := h.queryRow(ctx, h.rd, `SELECT COUNT(*), COALESCE(SUM(eps_units), 0) FROM releases WHERE session = ? AND activity = ?`,
		[]any{&info.ReleaseCount, &units}, s.code, id); err != nil {
		return 0, nil, err
	}
	info.ActivitySpent = Epsilon(units)
	rows, err := h.query(ctx, h.rd, `SELECT seq, eps_units, participants, result, created FROM
  (SELECT * FROM releases WHERE session = ? AND activity = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`, s.code, id, ShownReleases)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		rel := &ReleaseInfo{Activity: id, Result: new(Result)}
		var result string
		var u int64
		if err := rows.Scan(&rel.Seq, &u, &rel.Participants, &result, &rel.Created); err != nil {
			return 0, nil, err
		}
		rel.Epsilon = Epsilon(u)
		if err := json.Unmarshal([]byte(result), rel.Result); err != nil {
			return 0, nil, err
		}
		info.Releases = append(info.Releases, rel)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	body, err := h.replies.encode(key, s.version, info)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, tagged{tag, body}, nil
}

// clientTag is all the database keeps of the address r came from: the
// first 64 bits, in hexadecimal, of HMAC-SHA256 under the handler's secret
// of scope (a session code, or "" for the counts of wrong codes and new
// sessions), a zero byte and the address's rate-limit key (ClientKey).
// Enough to tell addresses apart, within a scope and a secret, and no
// more: without the secret, which the database does not hold, no one can
// test a guessed address against a tag.
func (h *Handler) clientTag(r *http.Request, scope string) string {
	mac := hmac.New(sha256.New, h.secret)
	mac.Write([]byte(scope + "\x00" + ClientKey(h.opts.ClientIP(r))))
	return hex.EncodeToString(mac.Sum(nil)[:8])
}

// PUT /api/sessions/{code}/activities/{id}/submissions/{student}  Answer → 200
//
// Idempotent: the row is keyed by student, so a repeat or a changed answer
// replaces the old one. The reply is sent only after the statement has
// committed, which with SQLite's WAL and synchronous=FULL means on disk.
func (h *Handler) submit(ctx context.Context, r *http.Request, rawCode, rawID, student string) (int, any, error) {
	if err := h.answerAllowed(r); err != nil {
		return 0, nil, err
	}
	s, id, spec, closed, err := h.sessionActivity(ctx, r, rawCode, rawID)
	if err != nil {
		return 0, nil, err
	}
	if !validStudent(student) {
		return 0, nil, errorf(http.StatusBadRequest, "student id: 1 to %d characters from A-Z a-z 0-9 - _", MaxStudentIDLen)
	}
	var a Answer
	if err := decode(r, &a, false); err != nil {
		return 0, nil, err
	}
	stored, err := encodeAnswer(spec, &a)
	if err != nil {
		return 0, nil, err
	}
	if closed {
		return 0, nil, errClosed
	}
	// A new student is refused before anything is written if the door is
	// closed or the roster full, as the session was read; past that, they
	// count against their address's JoinLimit, so that a script cannot
	// fill the roster in a second with invented ids.
	var on int64
	if err := h.queryRow(ctx, h.rd, `SELECT COUNT(*) FROM students WHERE session = ? AND student = ?`, []any{&on}, s.code, student); err != nil {
		return 0, nil, err
	}
	if on == 0 && !s.doorOpen {
		return 0, nil, errDoorClosed
	}
	if on == 0 && s.joined >= s.roster {
		return 0, nil, errRosterFull
	}
	if !h.students.take(s.code + "/" + student) {
		return 0, nil, errAnswerLimited
	}
	release, err := h.classWrite(ctx)
	if err != nil {
		return 0, nil, err
	}
	defer release()
	if on == 0 && h.opts.JoinLimit > 0 {
		if ok, err := h.countUnder(ctx, "join:"+s.code+":"+h.clientTag(r, s.code), JoinWindow, int64(h.opts.JoinLimit)); err != nil {
			return 0, nil, err
		} else if !ok {
			return 0, nil, errJoinLimited
		}
	}
	// One statement stores the answer, so an answer costs one commit
	// whether or not it is the student's first. Its WHERE clause holds every
	// condition: the activity is open (so an answer cannot slip in after the
	// instructor closed it), the student is on the roster or may join it
	// (the door is open and fewer than roster students have joined), and
	// the session has room for a new answer. The trigger submissions_join
	// puts a new student on the roster and counts the answer within the
	// same statement, and SQLite and D1 run a statement atomically, so
	// concurrent new students cannot overfill the roster.
	//
	// The statement returns the newest release of the activity at the
	// moment the answer was stored: later releases are drawn from this
	// answer (but for one being drawn at that very moment), which is how a
	// pricing student's phone knows which release its outcome belongs to
	// without the server ever sending a value back.
	// The loop ends: a retry happens only after a refused write was found to
	// have no reason, which takes the instructor reopening the activity or
	// the door in between; a few tries bound even that.
	for try := 0; ; try++ {
		var after int64
		err = h.queryRow(ctx, h.db, `INSERT INTO submissions (session, activity, student, answer, updated, client)
SELECT ?, ?, ?, ?, ?, ? FROM sessions s WHERE s.code = ?
  AND EXISTS (SELECT 1 FROM activities WHERE session = ? AND id = ? AND closed = 0)
  AND (EXISTS (SELECT 1 FROM students WHERE session = ? AND student = ?)
    OR (s.door_open = 1 AND s.joined < s.roster))
  AND (s.answers < ? OR EXISTS (SELECT 1 FROM submissions WHERE session = ? AND activity = ? AND student = ?))
ON CONFLICT (session, activity, student) DO UPDATE SET answer = excluded.answer, updated = excluded.updated
RETURNING (SELECT COALESCE(MAX(seq), 0) FROM releases WHERE session = ? AND activity = ?)`,
			[]any{&after}, s.code, id, student, stored, h.opts.Now().Unix(), h.clientTag(r, s.code), s.code,
			s.code, id, s.code, student, h.opts.MaxAnswers, s.code, id, student, s.code, id)
		if err == nil {
			return http.StatusOK, map[string]any{"stored": true, "activity": id, "after_release": after}, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, nil, err
		}
		if err := h.refusal(ctx, s, id, student); err != nil {
			return 0, nil, err
		}
		// Between the refused write and the read the student joined
		// through another answer, or the instructor reopened the activity
		// or the door: write again.
		if try == 3 {
			return 0, nil, errClosed
		}
	}
}

// answerAllowed applies the limit on answers per address (WriteRate),
// which needs nothing read, so a flood costs no query. The limit per
// student id (StudentRate) is applied once an answer is found valid, just
// before it is written.
func (h *Handler) answerAllowed(r *http.Request) error {
	if h.writes != nil && !h.writes.take(ClientKey(h.opts.ClientIP(r))) {
		return errWriteLimited
	}
	return nil
}

// classWrite takes one of the ClassWriters slots for an answer's writes,
// waiting at most Options.ClassWait, and returns the function that gives it back:
// the instructor's writes take no slot, so they queue for the writer
// behind at most ClassWriters answers.
func (h *Handler) classWrite(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(h.opts.ClassWait)
	defer t.Stop()
	select {
	case h.class <- struct{}{}:
		return func() { <-h.class }, nil
	case <-t.C:
		return nil, errClassBusy
	case <-ctx.Done():
		return nil, errClassBusy
	}
}

// refusal says why the answer of student to activity id of s stored
// nothing: the activity is closed, the student is not on the roster and
// the door is closed or the roster is full, or the session holds its
// Options.MaxAnswers. It returns nil if, as read now, none of these holds.
func (h *Handler) refusal(ctx context.Context, s *session, id int64, student string) error {
	var closed, door, joined, roster, answers, on, had int64
	err := h.queryRow(ctx, h.db, `SELECT a.closed, s.door_open, s.joined, s.roster, s.answers,
  (SELECT COUNT(*) FROM students WHERE session = s.code AND student = ?),
  (SELECT COUNT(*) FROM submissions WHERE session = s.code AND activity = a.id AND student = ?)
FROM sessions s JOIN activities a ON a.session = s.code AND a.id = ? WHERE s.code = ?`,
		[]any{&closed, &door, &joined, &roster, &answers, &on, &had}, student, student, id, s.code)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return errClosed
	case err != nil:
		return err
	case closed != 0:
		return errClosed
	case answers >= int64(h.opts.MaxAnswers) && had == 0:
		return errSessionFull
	case on > 0:
		return nil
	case door == 0:
		return errDoorClosed
	case joined >= roster:
		return errRosterFull
	}
	return nil
}

// POST /api/sessions/{code}/door  {"open": bool, "roster": n} → 200 Door (instructor)
//
// Closing the door keeps every student who has answered and refuses new
// ones; the instructor closes it once the room has joined. Opening it
// again records when (Door.Opened), for pruning. A roster raised here lets
// the class in after a script has filled the old one; either field may be
// left out, not both.
func (h *Handler) setDoor(ctx context.Context, r *http.Request, rawCode string) (int, any, error) {
	var req struct {
		Open   *bool  `json:"open"`
		Roster *int64 `json:"roster"`
	}
	s, err := h.instructorRequest(ctx, r, rawCode, &req, false)
	if err != nil {
		return 0, nil, err
	}
	if req.Open == nil && req.Roster == nil {
		return 0, nil, bad("open (true or false) or roster is required")
	}
	open, roster := s.doorOpen, s.roster
	if req.Open != nil {
		open = *req.Open
	}
	if req.Roster != nil {
		if roster = *req.Roster; roster < 1 || roster > MaxRoster {
			return 0, nil, bad("roster: must be a whole number of students from 1 to %d", MaxRoster)
		}
	}
	o := int64(0)
	if open {
		o = 1
	}
	if _, err := h.exec(ctx, h.db, `UPDATE sessions SET door_open = ?, roster = ?, version = version + 1,
  doors = doors + (door_open = 0 AND ? = 1),
  door_opened = CASE WHEN door_open = 0 AND ? = 1 THEN ? ELSE door_opened END WHERE code = ?`, o, roster, o, o, h.opts.Now().Unix(), s.code); err != nil {
		return 0, nil, err
	}
	if s, err = h.lookup(ctx, r, rawCode); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.door(), nil
}

// POST /api/sessions/{code}/prune {"before_door": bool} → 200 {"removed": n, …Door} (instructor)
//
// Takes off the roster every student without an answer to an activity that
// is open now, with their answers: after a script has filled the roster
// with invented ids, the instructor opens an activity, the room answers it,
// and pruning leaves the class and frees the rest of the roster. A script
// that answers every open activity survives that; with before_door, the
// students removed are instead all who joined before the instructor last
// opened the door (Door.Opened), answers or not: the instructor closes the
// door, opens it once the class is ready, and only those who came in
// through it stay. A student removed joins again by answering. The second
// statement removes the answers of students no longer on the roster; a
// student who answers in between is put back on the roster by that
// answer, so keeps it.
func (h *Handler) prune(ctx context.Context, r *http.Request, rawCode string) (int, any, error) {
	var req struct {
		BeforeDoor bool `json:"before_door"`
	}
	s, err := h.instructorRequest(ctx, r, rawCode, &req, true)
	if err != nil {
		return 0, nil, err
	}
	// The rows deleted are counted from RETURNING: D1's count of changes
	// includes those its triggers make.
	var rows *sql.Rows
	if req.BeforeDoor {
		rows, err = h.query(ctx, h.db, `DELETE FROM students WHERE session = ?
  AND door < (SELECT doors FROM sessions WHERE code = ?) RETURNING student`, s.code, s.code)
	} else {
		rows, err = h.query(ctx, h.db, `DELETE FROM students WHERE session = ? AND NOT EXISTS
  (SELECT 1 FROM submissions u JOIN activities a ON a.session = u.session AND a.id = u.activity
   WHERE u.session = students.session AND u.student = students.student AND a.closed = 0)
RETURNING student`, s.code)
	}
	if err != nil {
		return 0, nil, err
	}
	var removed int64
	for rows.Next() {
		removed++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	if _, err := h.exec(ctx, h.db, `DELETE FROM submissions WHERE session = ?
  AND NOT EXISTS (SELECT 1 FROM students WHERE session = submissions.session AND student = submissions.student)`, s.code); err != nil {
		return 0, nil, err
	}
	if s, err = h.lookup(ctx, r, rawCode); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, struct {
		Removed int64 `json:"removed"`
		*Door
	}{removed, s.door()}, nil
}

// POST /api/sessions/{code}/activities/{id}/close → 200 (instructor)
// POST /api/sessions/{code}/activities/{id}/open  → 200 (instructor)
//
// Closing refuses further answers (409) and keeps those stored; opening
// takes answers again. Releases are allowed either way.
func (h *Handler) closeActivity(ctx context.Context, r *http.Request, rawCode, rawID string, close bool) (int, any, error) {
	s, err := h.instructorRequest(ctx, r, rawCode, &struct{}{}, true)
	if err != nil {
		return 0, nil, err
	}
	id, _, _, _, err := h.activity(ctx, s, rawID)
	if err != nil {
		return 0, nil, err
	}
	closed := int64(0)
	if close {
		closed = 1
	}
	if _, err := h.exec(ctx, h.db, `UPDATE activities SET closed = ? WHERE session = ? AND id = ?`, closed, s.code, id); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"id": id, "closed": close}, nil
}

// POST /api/sessions/{code}/current  {"activity": id} → 200 {"current": id} (instructor)
//
// Puts activity id on the projector; every phone polling the session's
// activities follows it.
func (h *Handler) setCurrent(ctx context.Context, r *http.Request, rawCode string) (int, any, error) {
	var req struct {
		Activity *int64 `json:"activity"`
	}
	s, err := h.instructorRequest(ctx, r, rawCode, &req, false)
	if err != nil {
		return 0, nil, err
	}
	if req.Activity == nil {
		return 0, nil, bad("activity is required (an activity id of this session)")
	}
	res, err := h.exec(ctx, h.db, `UPDATE sessions SET current = ?, version = version + 1 WHERE code = ?
  AND EXISTS (SELECT 1 FROM activities WHERE session = ? AND id = ?)`, *req.Activity, s.code, s.code, *req.Activity)
	if err != nil {
		return 0, nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, nil, err
	} else if n == 0 {
		return 0, nil, errNoActivity
	}
	return http.StatusOK, map[string]int64{"current": *req.Activity}, nil
}

// POST /api/sessions/{code}/activities/{id}/releases  {"epsilon": ε, "request": id} → 201 ReleaseInfo (instructor)
//
// request, optional, is an id the client draws afresh for each release it
// means to make (RequestID): a request that repeats one already recorded
// in the session, a second click or a resent request, is answered 200 with
// that release, as of it, and charges nothing; with another activity or ε
// it is refused. The id is unique in the session's ledger, so of two such
// requests at once one records the release and the other is given it.
//
// ε is charged in whole EpsilonUnits (Units): the budget check is integer
// arithmetic, first against the ledger as the request found it, which gives
// the refusal its message, then inside the insert, against the ledger as it
// stands at that instant: of two concurrent releases that together would
// overspend, the second inserts nothing and its draw is thrown away unseen.
// The mechanism draws with the ε charged.
func (h *Handler) release(ctx context.Context, r *http.Request, rawCode, rawID string) (int, any, error) {
	var req struct {
		Epsilon *float64 `json:"epsilon"`
		Request *string  `json:"request"`
	}
	s, err := h.instructorRequest(ctx, r, rawCode, &req, false)
	if err != nil {
		return 0, nil, err
	}
	if req.Epsilon == nil {
		return 0, nil, bad("epsilon is required")
	}
	var request any // NULL when the client sends none
	if req.Request != nil {
		if !RequestID(*req.Request) {
			return 0, nil, bad("request: 16 to 64 letters, digits, - or _, drawn afresh for each release")
		}
		request = *req.Request
	}
	units, ok := Units(*req.Epsilon)
	if !ok || *req.Epsilon > MaxEpsilon {
		return 0, nil, bad("epsilon: must lie in (0, %g], in steps of %g", MaxEpsilon, EpsilonUnit)
	}
	eps := Epsilon(units)
	id, spec, _, _, err := h.activity(ctx, s, rawID)
	if err != nil {
		return 0, nil, err
	}
	if spec.Kind == KindHistogram && eps < MinHistogramEpsilon {
		return 0, nil, bad("epsilon: a histogram release needs ε ≥ %g (noise scale 2/ε at most 2^28)", MinHistogramEpsilon)
	}
	// A repeat is answered before the budget is checked: the release that
	// spent the last of it is still the one the client asked for.
	if rel, err := h.recorded(ctx, s, request, id, units); rel != nil || err != nil {
		return http.StatusOK, rel, err
	}
	if s.spentUnits+units > s.budgetUnits {
		_, _, left := ledgerOf(s.budgetUnits, s.spentUnits)
		return 0, nil, errorf(http.StatusConflict, "privacy budget exhausted: ε = %g remains of %g", left, Epsilon(s.budgetUnits))
	}

	var answers []string
	rows, err := h.query(ctx, h.rd, `SELECT answer FROM submissions WHERE session = ? AND activity = ?`, s.code, id)
	if err != nil {
		return 0, nil, err
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return 0, nil, err
		}
		answers = append(answers, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	if len(answers) == 0 {
		// Nothing to release yet; refusing costs nothing and saves budget.
		return 0, nil, errorf(http.StatusConflict, "no answers yet")
	}
	result, err := draw(spec, answers, eps, h.random())
	if err != nil {
		return 0, nil, err
	}
	text, err := json.Marshal(result)
	if err != nil {
		return 0, nil, err
	}
	now := h.opts.Now().Unix()
	rel := &ReleaseInfo{Activity: id, Epsilon: eps, Participants: len(answers), Result: result, Created: now}
	err = h.queryRow(ctx, h.db, `INSERT INTO releases (session, seq, activity, epsilon, eps_units, participants, result, created, request)
SELECT ?, next, ?, ?, ?, ?, ?, ?, ? FROM
  (SELECT COALESCE(MAX(seq), 0) + 1 AS next, COALESCE(SUM(eps_units), 0) AS spent FROM releases WHERE session = ?)
WHERE spent + ? <= (SELECT budget_units FROM sessions WHERE code = ?) AND next <= ?
ON CONFLICT (session, request) WHERE request IS NOT NULL DO NOTHING
RETURNING seq`, []any{&rel.Seq}, s.code, id, eps, units, len(answers), string(text), now, request, s.code, units, s.code, h.opts.MaxReleases)
	if errors.Is(err, sql.ErrNoRows) {
		// The same request, sent twice at once: the other one recorded it.
		if rel, err := h.recorded(ctx, s, request, id, units); rel != nil || err != nil {
			return http.StatusOK, rel, err
		}
		// A tiny ε leaves the budget almost whole; the cap on releases is
		// what keeps a token holder from making the ledger grow without end.
		return 0, nil, errorf(http.StatusConflict, "privacy budget exhausted by a concurrent release, or the session has had its %d releases", h.opts.MaxReleases)
	}
	if err != nil {
		return 0, nil, err
	}
	if err := h.asOf(ctx, s, rel); err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, rel, nil
}

// asOf fills in rel's budget figures as of rel, read back from the ledger:
// s.spentUnits is from before the request, and a concurrent release may
// have landed since. Bounding by seq gives the total as of this release
// exactly, whatever is inserted after it, and needs no transaction (D1 has
// none).
func (h *Handler) asOf(ctx context.Context, s *session, rel *ReleaseInfo) error {
	var spent int64
	if err := h.queryRow(ctx, h.db, `SELECT SUM(eps_units) FROM releases WHERE session = ? AND seq <= ?`,
		[]any{&spent}, s.code, rel.Seq); err != nil {
		return err
	}
	_, sp, left := ledgerOf(s.budgetUnits, spent)
	rel.Spent, rel.Remaining = &sp, &left
	return nil
}

// recorded is the release of session s recorded for request (nil when
// request is nil or names none), with its budget figures as of it; a
// request recorded for another activity or ε is refused.
func (h *Handler) recorded(ctx context.Context, s *session, request any, activity, units int64) (*ReleaseInfo, error) {
	if request == nil {
		return nil, nil
	}
	rel := &ReleaseInfo{Result: new(Result)}
	var u int64
	var result string
	err := h.queryRow(ctx, h.db, `SELECT seq, activity, eps_units, participants, result, created FROM releases WHERE session = ? AND request = ?`,
		[]any{&rel.Seq, &rel.Activity, &u, &rel.Participants, &result, &rel.Created}, s.code, request)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if rel.Activity != activity || u != units {
		return nil, errorf(http.StatusConflict, "request: this id was sent with another release (ε = %g of activity %d)", Epsilon(u), rel.Activity)
	}
	rel.Epsilon = Epsilon(u)
	if err := json.Unmarshal([]byte(result), rel.Result); err != nil {
		return nil, err
	}
	return rel, h.asOf(ctx, s, rel)
}

// RequestID reports whether id can name a release request: 16 to 64
// letters, digits, '-' or '_' (128 random bits in hexadecimal are 32).
func RequestID(id string) bool { return idChars(id, 16, 64) }

// MinHistogramEpsilon is the smallest ε of a histogram release: the exact
// discrete Laplace sampler takes scales up to rng.MaxDiscreteScale = 2²⁸, and
// the scale is HistogramSensitivity/ε.
const MinHistogramEpsilon = float64(HistogramSensitivity) / rng.MaxDiscreteScale

// Expire deletes the sessions that have seen no change for the session
// TTL (Options.SessionTTL), with everything they hold, and returns how many
// went. Children go first, each in one statement, since D1 has no
// transactions; a session half deleted is deleted whole by the next run.
func (h *Handler) Expire(ctx context.Context) (int64, error) {
	cut := h.opts.Now().Add(-h.opts.SessionTTL).Unix()
	old := `(SELECT code FROM sessions WHERE touched < ?)`
	for _, table := range []string{"submissions", "students", "releases", "activities"} {
		if _, err := h.exec(ctx, h.db, `DELETE FROM `+table+` WHERE session IN `+old, cut); err != nil {
			return 0, err
		}
	}
	res, err := h.exec(ctx, h.db, `DELETE FROM sessions WHERE touched < ?`, cut)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ExpireEvery runs Expire now and then every period until ctx ends,
// logging failures.
func (h *Handler) ExpireEvery(ctx context.Context, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		if _, err := h.Expire(ctx); err != nil && ctx.Err() == nil {
			h.opts.Logf("lecture: expiring old sessions: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
