package data

// MaxTables is how many parsed tables a Tables keeps.
const MaxTables = 4

// Tables holds the last MaxTables parsed tables of one page under the
// handles it gave them, so that the page sends a file once and then asks
// for its columns by handle. Handles count up from 1 and are never reused;
// adding a table past MaxTables forgets the oldest. The zero value is
// ready to use.
type Tables struct {
	tables map[int]*Table
	next   int
}

// Add stores t and returns its handle.
func (ts *Tables) Add(t *Table) int {
	if ts.tables == nil {
		ts.tables, ts.next = map[int]*Table{}, 1
	}
	delete(ts.tables, ts.next-MaxTables)
	h := ts.next
	ts.tables[h] = t
	ts.next++
	return h
}

// Get returns the table stored under handle h, or an error that asks for
// the file again when it has been forgotten or never was.
func (ts *Tables) Get(h int) (*Table, error) {
	t, ok := ts.tables[h]
	if !ok {
		return nil, &Error{Msg: "this file is no longer loaded; load it again"}
	}
	return t, nil
}
