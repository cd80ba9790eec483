package lecture

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/dpplay/dpplay/core/account"
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
	Open   bool  `json:"door_open"`
}

// ActivityInfo is the public view of an activity: its definition, how many
// students have answered, and its releases. Never an answer.
type ActivityInfo struct {
	ID           int64          `json:"id"`
	Spec         Spec           `json:"spec"`
	Closed       bool           `json:"closed"`
	Participants int            `json:"participants"`
	Releases     []*ReleaseInfo `json:"releases,omitempty"`
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

func remaining(budget, spent float64) float64 { return math.Max(0, budget-spent) }

// POST /api/sessions  {"epsilon_budget": ε, "roster": n}?  → 201 {"code", "instructor_token", …}
func (h *Handler) createSession(ctx context.Context, r *http.Request) (int, any, error) {
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
		if !(budget > 0 && budget <= MaxBudget) {
			return 0, nil, bad("epsilon_budget: must lie in (0, %g]", MaxBudget)
		}
	}
	roster := int64(DefaultRoster)
	if req.Roster != nil {
		roster = *req.Roster
		if roster < 1 || roster > MaxRoster {
			return 0, nil, bad("roster: must be a whole number of students from 1 to %d", MaxRoster)
		}
	}
	n, err := h.countGuessN(ctx, "new:"+ClientKey(h.opts.ClientIP(r)), h.window())
	if err != nil {
		return 0, nil, err
	}
	if n > int64(h.opts.CreateLimit) {
		return 0, nil, errorf(http.StatusTooManyRequests, "too many new sessions from this address; wait and try again")
	}
	token, hash := newToken()
	for range 5 { // a collision in 2⁴⁰ codes is rare; retrying is enough
		code := newCode()
		res, err := h.exec(ctx, h.db, `INSERT INTO sessions (code, token_hash, budget, created, roster, door_open)
VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (code) DO NOTHING`, code, hash, budget, h.opts.Now().Unix(), roster)
		if err != nil {
			return 0, nil, err
		}
		if k, err := res.RowsAffected(); err != nil {
			return 0, nil, err
		} else if k == 1 {
			return http.StatusCreated, SessionInfo{
				Code: code, Display: FormatCode(code), InstructorToken: token,
				Budget: budget, Remaining: budget, Activities: []ActivityInfo{},
				Door: Door{Roster: roster, Open: true},
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
	info, err := h.sessionInfo(ctx, s)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, info, nil
}

// sessionInfo reads the public view of s.
func (h *Handler) sessionInfo(ctx context.Context, s *session) (*SessionInfo, error) {
	// Before the query: a read holding its rows while waiting for another
	// connection of the pool would deadlock once every connection did so.
	door, err := h.door(ctx, s)
	if err != nil {
		return nil, err
	}
	rows, err := h.query(ctx, h.rd, `SELECT a.id, a.config, a.closed,
  (SELECT COUNT(*) FROM submissions u WHERE u.session = a.session AND u.activity = a.id),
  (SELECT COUNT(*) FROM releases r WHERE r.session = a.session AND r.activity = a.id),
  (SELECT COALESCE(SUM(epsilon), 0) FROM releases r WHERE r.session = a.session AND r.activity = a.id)
FROM activities a WHERE a.session = ? ORDER BY a.id`, s.code)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	info := SessionInfo{Code: s.code, Display: FormatCode(s.code), Budget: s.budget, Spent: s.spent,
		Remaining: remaining(s.budget, s.spent), Activities: []ActivityInfo{}, Current: s.current, Door: *door}
	for rows.Next() {
		var a ActivityInfo
		var config string
		var closed int64
		if err := rows.Scan(&a.ID, &config, &closed, &a.Participants, &a.ReleaseCount, &a.ActivitySpent); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(config), &a.Spec); err != nil {
			return nil, err
		}
		a.Closed = closed != 0
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
	err = h.queryRow(ctx, h.rd, `SELECT config, closed,
  (SELECT COUNT(*) FROM submissions WHERE session = ? AND activity = ?)
FROM activities WHERE session = ? AND id = ?`, []any{&config, &c, &participants}, s.code, id, s.code, id)
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

// GET /api/sessions/{code}/activities/{id} → 200 ActivityInfo
func (h *Handler) getActivity(ctx context.Context, r *http.Request, rawCode, rawID string) (int, any, error) {
	s, err := h.lookup(ctx, r, rawCode)
	if err != nil {
		return 0, nil, err
	}
	id, spec, closed, n, err := h.activity(ctx, s, rawID)
	if err != nil {
		return 0, nil, err
	}
	door, err := h.door(ctx, s)
	if err != nil {
		return 0, nil, err
	}
	info := ActivityInfo{ID: id, Spec: *spec, Closed: closed, Participants: n, Releases: []*ReleaseInfo{},
		Budget: s.budget, Spent: s.spent, Remaining: remaining(s.budget, s.spent), Door: door, Current: &s.current}
	rows, err := h.query(ctx, h.rd, `SELECT seq, epsilon, participants, result, created
FROM releases WHERE session = ? AND activity = ? ORDER BY seq`, s.code, id)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		rel := &ReleaseInfo{Activity: id, Result: new(Result)}
		var result string
		if err := rows.Scan(&rel.Seq, &rel.Epsilon, &rel.Participants, &result, &rel.Created); err != nil {
			return 0, nil, err
		}
		if err := json.Unmarshal([]byte(result), rel.Result); err != nil {
			return 0, nil, err
		}
		info.Releases = append(info.Releases, rel)
		info.ReleaseCount++
		info.ActivitySpent += rel.Epsilon
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, info, nil
}

// PUT /api/sessions/{code}/activities/{id}/submissions/{student}  Answer → 200
//
// Idempotent: the row is keyed by student, so a repeat or a changed answer
// replaces the old one. The reply is sent only after the statement has
// committed, which with SQLite's WAL and synchronous=FULL means on disk.
func (h *Handler) submit(ctx context.Context, r *http.Request, rawCode, rawID, student string) (int, any, error) {
	s, err := h.lookup(ctx, r, rawCode)
	if err != nil {
		return 0, nil, err
	}
	id, spec, closed, _, err := h.activity(ctx, s, rawID)
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
	// One statement stores the answer, so an answer costs one commit
	// whether or not it is the student's first. Its WHERE clause holds every
	// condition: the activity is open (so an answer cannot slip in after the
	// instructor closed it), and the student is on the roster or may join
	// it (the door is open and fewer than roster students have joined). The
	// trigger submissions_join puts a new student on the roster within the
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
		err = h.queryRow(ctx, h.db, `INSERT INTO submissions (session, activity, student, answer, updated)
SELECT ?, ?, ?, ?, ? FROM sessions s WHERE s.code = ?
  AND EXISTS (SELECT 1 FROM activities WHERE session = ? AND id = ? AND closed = 0)
  AND (EXISTS (SELECT 1 FROM students WHERE session = ? AND student = ?)
    OR (s.door_open = 1 AND (SELECT COUNT(*) FROM students WHERE session = ?) < s.roster))
ON CONFLICT (session, activity, student) DO UPDATE SET answer = excluded.answer, updated = excluded.updated
RETURNING (SELECT COALESCE(MAX(seq), 0) FROM releases WHERE session = ? AND activity = ?)`,
			[]any{&after}, s.code, id, student, stored, h.opts.Now().Unix(), s.code,
			s.code, id, s.code, student, s.code, s.code, id)
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

// refusal says why the answer of student to activity id of s stored
// nothing: the activity is closed, or the student is not on the roster and
// the door is closed or the roster is full. It returns nil if, as read
// now, none of these holds.
func (h *Handler) refusal(ctx context.Context, s *session, id int64, student string) error {
	var closed, door, on int64
	err := h.queryRow(ctx, h.db, `SELECT a.closed, s.door_open,
  (SELECT COUNT(*) FROM students WHERE session = s.code AND student = ?)
FROM sessions s JOIN activities a ON a.session = s.code AND a.id = ? WHERE s.code = ?`,
		[]any{&closed, &door, &on}, student, id, s.code)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return errClosed
	case err != nil:
		return err
	case closed != 0:
		return errClosed
	case on > 0:
		return nil
	case door == 0:
		return errDoorClosed
	default:
		return errRosterFull
	}
}

// door reads s's roster state: its limit, whether it is open and how many
// students have joined.
func (h *Handler) door(ctx context.Context, s *session) (*Door, error) {
	d := &Door{Roster: s.roster, Open: s.doorOpen}
	err := h.queryRow(ctx, h.rd, `SELECT COUNT(*) FROM students WHERE session = ?`, []any{&d.Joined}, s.code)
	return d, err
}

// POST /api/sessions/{code}/door  {"open": bool} → 200 Door (instructor)
//
// Closing the door keeps every student who has answered and refuses new
// ones; the instructor closes it once the room has joined.
func (h *Handler) setDoor(ctx context.Context, r *http.Request, rawCode string) (int, any, error) {
	var req struct {
		Open *bool `json:"open"`
	}
	s, err := h.instructorRequest(ctx, r, rawCode, &req, false)
	if err != nil {
		return 0, nil, err
	}
	if req.Open == nil {
		return 0, nil, bad("open is required (true or false)")
	}
	open := int64(0)
	if *req.Open {
		open = 1
	}
	if _, err := h.exec(ctx, h.db, `UPDATE sessions SET door_open = ? WHERE code = ?`, open, s.code); err != nil {
		return 0, nil, err
	}
	s.doorOpen = *req.Open
	d, err := h.door(ctx, s)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, d, nil
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
	res, err := h.exec(ctx, h.db, `UPDATE sessions SET current = ? WHERE code = ?
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

// POST /api/sessions/{code}/activities/{id}/releases  {"epsilon": ε} → 201 ReleaseInfo (instructor)
//
// The budget is checked twice. First with core/account over the ledger
// (the releases table), which gives the refusal its message. Then the
// insert itself repeats the check in its WHERE clause, against the ledger as
// it stands at that instant: of two concurrent releases that together would
// overspend, the second inserts nothing and its draw is thrown away unseen.
func (h *Handler) release(ctx context.Context, r *http.Request, rawCode, rawID string) (int, any, error) {
	var req struct {
		Epsilon *float64 `json:"epsilon"`
	}
	s, err := h.instructorRequest(ctx, r, rawCode, &req, false)
	if err != nil {
		return 0, nil, err
	}
	if req.Epsilon == nil {
		return 0, nil, bad("epsilon is required")
	}
	eps := *req.Epsilon
	if !(eps > 0 && eps <= MaxEpsilon) {
		return 0, nil, bad("epsilon: must lie in (0, %g]", MaxEpsilon)
	}
	id, spec, _, _, err := h.activity(ctx, s, rawID)
	if err != nil {
		return 0, nil, err
	}
	if spec.Kind == KindHistogram && eps < MinHistogramEpsilon {
		return 0, nil, bad("epsilon: a histogram release needs ε ≥ %g (noise scale 2/ε at most 2^28)", MinHistogramEpsilon)
	}
	acct, err := account.New(s.budget, 0)
	if err != nil {
		return 0, nil, err
	}
	if s.spent > 0 {
		err = acct.Spend("earlier releases", s.spent, 0)
	}
	if err == nil {
		err = acct.Spend("activity "+strconv.FormatInt(id, 10), eps, 0)
	}
	if errors.Is(err, account.ErrBudget) {
		return 0, nil, errorf(http.StatusConflict, "privacy budget exhausted: ε = %g remains of %g", remaining(s.budget, s.spent), s.budget)
	} else if err != nil {
		return 0, nil, bad("epsilon: %v", err)
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
	err = h.queryRow(ctx, h.db, `INSERT INTO releases (session, seq, activity, epsilon, participants, result, created)
SELECT ?, next, ?, ?, ?, ?, ? FROM
  (SELECT COALESCE(MAX(seq), 0) + 1 AS next, COALESCE(SUM(epsilon), 0) AS spent FROM releases WHERE session = ?)
WHERE spent + ? <= ? AND next <= ?
RETURNING seq`, []any{&rel.Seq}, s.code, id, eps, len(answers), string(text), now, s.code, eps, s.budget*(1+budgetSlack), h.opts.MaxReleases)
	if errors.Is(err, sql.ErrNoRows) {
		// A tiny ε leaves the budget almost whole; the cap on releases is
		// what keeps a token holder from making every poll of the room
		// carry millions of them.
		return 0, nil, errorf(http.StatusConflict, "privacy budget exhausted by a concurrent release, or the session has had its %d releases", h.opts.MaxReleases)
	}
	if err != nil {
		return 0, nil, err
	}
	// The total after this release, read back from the ledger: s.spent is
	// from before the request, and a concurrent release may have landed
	// since. Bounding by seq gives the total as of this release exactly,
	// whatever is inserted after it, and needs no transaction (D1 has none).
	var spent float64
	if err := h.queryRow(ctx, h.db, `SELECT SUM(epsilon) FROM releases WHERE session = ? AND seq <= ?`,
		[]any{&spent}, s.code, rel.Seq); err != nil {
		return 0, nil, err
	}
	left := remaining(s.budget, spent)
	rel.Spent, rel.Remaining = &spent, &left
	return http.StatusCreated, rel, nil
}

// MinHistogramEpsilon is the smallest ε of a histogram release: the exact
// discrete Laplace sampler takes scales up to rng.MaxDiscreteScale = 2²⁸, and
// the scale is HistogramSensitivity/ε.
const MinHistogramEpsilon = float64(HistogramSensitivity) / rng.MaxDiscreteScale

// budgetSlack matches core/account's tolerance, so that ten releases of
// ε/10 use up a budget of ε exactly in both checks.
const budgetSlack = 1e-9
