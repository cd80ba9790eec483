package lecture

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Ledger is the export of a whole session: every release with its ε and
// the running total, and each activity's share. It holds what the room has
// seen and nothing else: never an answer, a student id or a token.
type Ledger struct {
	Code       string           `json:"code"`
	Display    string           `json:"display"`
	Budget     float64          `json:"epsilon_budget"`
	Spent      float64          `json:"epsilon_spent"`
	Remaining  float64          `json:"epsilon_remaining"`
	Activities []LedgerActivity `json:"activities"`
	Releases   []LedgerRelease  `json:"releases"`
}

// LedgerActivity is one activity's line of the ledger.
type LedgerActivity struct {
	ID           int64   `json:"id"`
	Kind         string  `json:"kind"`
	Prompt       string  `json:"prompt"`
	Participants int     `json:"participants"`
	Releases     int     `json:"releases"`
	Spent        float64 `json:"epsilon_spent"`
}

// LedgerRelease is one release of the ledger, with the session's total ε
// up to and including it.
type LedgerRelease struct {
	ReleaseInfo
	Kind  string  `json:"kind"`
	Total float64 `json:"epsilon_total"`
}

// file is a reply that is not JSON: a download.
type file struct {
	contentType, name string
	data              []byte
}

// GET /api/sessions/{code}/ledger     → 200 Ledger (instructor)
// GET /api/sessions/{code}/ledger.csv → 200 text/csv, one row per release (instructor)
func (h *Handler) ledger(ctx context.Context, r *http.Request, rawCode string, asCSV bool) (int, any, error) {
	s, err := h.instructor(ctx, r, rawCode)
	if err != nil {
		return 0, nil, err
	}
	sess, err := h.sessionInfo(ctx, s)
	if err != nil {
		return 0, nil, err
	}
	l := &Ledger{Code: sess.Code, Display: sess.Display, Budget: sess.Budget, Activities: []LedgerActivity{}, Releases: []LedgerRelease{}}
	kinds := map[int64]string{}
	for _, a := range sess.Activities {
		kinds[a.ID] = a.Spec.Kind
		l.Activities = append(l.Activities, LedgerActivity{ID: a.ID, Kind: a.Spec.Kind, Prompt: a.Spec.Prompt,
			Participants: a.Participants, Releases: a.ReleaseCount, Spent: a.ActivitySpent})
	}
	rows, err := h.query(ctx, h.rd, `SELECT seq, activity, eps_units, participants, result, created
FROM releases WHERE session = ? ORDER BY seq`, s.code)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	var total int64
	for rows.Next() {
		rel := LedgerRelease{ReleaseInfo: ReleaseInfo{Result: new(Result)}}
		var result string
		var units int64
		if err := rows.Scan(&rel.Seq, &rel.Activity, &units, &rel.Participants, &result, &rel.Created); err != nil {
			return 0, nil, err
		}
		if err := json.Unmarshal([]byte(result), rel.Result); err != nil {
			return 0, nil, err
		}
		total += units
		rel.Epsilon = Epsilon(units)
		rel.Kind, rel.Total = kinds[rel.Activity], Epsilon(total)
		l.Releases = append(l.Releases, rel)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	_, l.Spent, l.Remaining = ledgerOf(s.budgetUnits, total)
	if !asCSV {
		return http.StatusOK, l, nil
	}
	return http.StatusOK, &file{contentType: "text/csv; charset=utf-8", name: "dpplay-" + l.Display + ".csv", data: l.CSV()}, nil
}

// CSV writes the ledger as one row per release: seq, the time in UTC,
// the activity's id, kind and prompt, ε, the session's total ε after it,
// the number of answers it was drawn from, and its result. Text cells are
// defused (cell), since prompts and labels are typed by people.
func (l *Ledger) CSV() []byte {
	prompts := map[int64]string{}
	for _, a := range l.Activities {
		prompts[a.ID] = a.Prompt
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"seq", "time_utc", "activity", "kind", "prompt", "epsilon", "epsilon_total", "epsilon_budget", "participants", "result"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range l.Releases {
		w.Write([]string{strconv.FormatInt(r.Seq, 10), time.Unix(r.Created, 0).UTC().Format(time.RFC3339),
			strconv.FormatInt(r.Activity, 10), cell(r.Kind), cell(prompts[r.Activity]), g(r.Epsilon), g(r.Total), g(l.Budget),
			strconv.Itoa(r.Participants), cell(r.Result.String())})
	}
	w.Flush()
	return b.Bytes()
}

// cell guards a text cell against being read as a spreadsheet formula by
// any spreadsheet: one that splits the file on commas, on semicolons (the
// list separator of many locales) or on tabs. Wherever a piece of the text
// would start a cell, at its start or after one of those separators and
// any spaces, with =, +, -, @ or a control character, an apostrophe goes
// in front, which spreadsheets take as "this is text". Control characters
// are dropped (Clean keeps them out of what is stored; a database written
// before it may hold some).
func cell(s string) string {
	var b strings.Builder
	start := true // at the start of a piece
	for _, r := range s {
		if unicode.IsControl(r) {
			continue
		}
		if start && strings.ContainsRune("=+-@", r) {
			b.WriteByte('\'')
		}
		b.WriteRune(r)
		switch {
		case r == ',' || r == ';':
			start = true
		case r != ' ':
			start = false
		}
	}
	return b.String()
}

// String writes a result for people: the chosen option, the posted price,
// or each histogram range with its noisy count ("[0, 2): 3; [2, 4]: −1"),
// negative numbers with the minus sign U+2212, which no spreadsheet takes
// for the start of a formula.
func (r *Result) String() string {
	g := func(x float64) string {
		if x < 0 {
			return "−" + strconv.FormatFloat(-x, 'g', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	switch {
	case r.Choice != nil:
		return r.Option
	case r.Price != nil:
		return g(*r.Price)
	case len(r.Edges) == len(r.Counts)+1:
		parts := make([]string, len(r.Counts))
		for i, c := range r.Counts {
			end := ")"
			if i == len(r.Counts)-1 {
				end = "]"
			}
			parts[i] = "[" + g(r.Edges[i]) + ", " + g(r.Edges[i+1]) + end + ": " + g(c)
		}
		return strings.Join(parts, "; ")
	}
	return ""
}
