// Package data reads a user's CSV file into a table and turns its columns
// into what the lessons take: categories counted into scores, a table of
// candidates and scores, a column of numbers, or 0/1 attributes. It is the
// one CSV path of dpplay: the page's lazily loaded data module, `dpplay
// sample`, `dpplay smalldb` and `dpplay pricing` all call it, so a bad file
// gets the same message everywhere.
//
// Parse accepts a header row or none, `,`, `;` or tab as the delimiter
// (sniffed from the first lines), a UTF-8 byte-order mark, CRLF line ends,
// quoted fields with delimiters, quotes and line breaks inside, and blank
// lines. Every error names the line, and the column where there is one.
package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBytes is the largest file Parse reads: 16 MiB.
const MaxBytes = 16 << 20

// MaxColumns is the most columns a table may have.
const MaxColumns = 256

// Header says whether the first row holds column names.
type Header int

const (
	// HeaderAuto treats the first row as names when it looks like them: no
	// cell is empty or a number, the names differ, and none occurs again
	// in its column.
	HeaderAuto Header = iota
	// HeaderYes always reads the first row as names.
	HeaderYes
	// HeaderNo reads the first row as data and names the columns
	// "column 1", "column 2", ….
	HeaderNo
)

// Error is a problem with a file: Line and Column are 1-based (0 when the
// problem is not at one place), Name is the column's name when known.
type Error struct {
	Line, Column int
	Name         string
	Msg          string
}

// Error formats e as "line 3, column 2 (age): msg".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		b.WriteString("line " + strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteString(", column " + strconv.Itoa(e.Column))
			if e.Name != "" {
				b.WriteString(" (" + e.Name + ")")
			}
		}
		b.WriteString(": ")
	} else if e.Column > 0 {
		b.WriteString("column " + strconv.Itoa(e.Column))
		if e.Name != "" {
			b.WriteString(" (" + e.Name + ")")
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Table is a parsed file, stored by column: Cols[j][i] is row i of column
// j with surrounding spaces removed, and row i starts on line Lines[i].
type Table struct {
	Names      []string
	Cols       [][]string
	Lines      []int
	Delimiter  rune
	HasHeader  bool
	HeaderLine int
}

// Rows is the number of data rows.
func (t *Table) Rows() int { return len(t.Lines) }

// Parse reads a CSV file of at most MaxBytes.
func Parse(b []byte, h Header) (*Table, error) {
	if len(b) > MaxBytes {
		return nil, &Error{Msg: "the file is " + mib(len(b)) + "; the limit is " + mib(MaxBytes)}
	}
	if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) {
		return nil, &Error{Line: 1, Msg: "the file is UTF-16 text; save it as CSV in UTF-8"}
	}
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	if err := checkText(b); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, &Error{Msg: "the file is empty"}
	}
	delim := sniff(b)
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.ReuseRecord = true
	t := &Table{Delimiter: delim}
	var first []string
	firstLine := 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, parseError(err)
		}
		line, _ := r.FieldPos(0)
		if blank(rec) {
			continue
		}
		if first == nil {
			if len(rec) > MaxColumns {
				return nil, &Error{Line: line, Msg: "has " + strconv.Itoa(len(rec)) + " columns; the limit is " + strconv.Itoa(MaxColumns)}
			}
			first = trimmed(rec)
			firstLine = line
			// Room for every line up front: growing the columns row by row
			// copied them over and over (most of the time for 100,000 rows).
			est := bytes.Count(b, []byte{'\n'}) + 1
			t.Cols = make([][]string, len(rec))
			for j := range t.Cols {
				t.Cols[j] = make([]string, 1, est)
			}
			t.Lines = make([]int, 1, est)
			continue
		}
		if len(rec) != len(first) {
			return nil, &Error{Line: line, Msg: "has " + plural(len(rec), "field") + " but line " + strconv.Itoa(firstLine) + " has " + strconv.Itoa(len(first)) + " (is a delimiter missing, or one too many?)"}
		}
		for j, c := range rec {
			t.Cols[j] = append(t.Cols[j], strings.TrimSpace(c))
		}
		t.Lines = append(t.Lines, line)
	}
	if first == nil {
		return nil, &Error{Msg: "the file is empty"}
	}
	// Slot 0 of every column is kept for the first row, until it is known
	// whether that row is data.
	rest := make([][]string, len(t.Cols))
	for j := range t.Cols {
		rest[j] = t.Cols[j][1:]
	}
	t.HasHeader = h == HeaderYes || (h == HeaderAuto && looksLikeHeader(first, rest))
	if t.HasHeader {
		t.HeaderLine = firstLine
		t.Names = names(first)
		t.Cols, t.Lines = rest, t.Lines[1:]
	} else {
		t.Names = names(make([]string, len(first)))
		for j, c := range first {
			t.Cols[j][0] = c
		}
		t.Lines[0] = firstLine
	}
	if t.Rows() == 0 {
		return nil, &Error{Line: firstLine, Msg: "the file has a header row but no data rows"}
	}
	return t, nil
}

func mib(n int) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// checkText refuses bytes that are not UTF-8 text: a zero byte or an
// invalid UTF-8 sequence, named by line and character.
func checkText(b []byte) error {
	line, col := 1, 1
	for i := 0; i < len(b); {
		c := b[i]
		if c == 0 {
			return &Error{Line: line, Column: 0, Msg: "character " + strconv.Itoa(col) + " is a zero byte: this is a binary file, not CSV text"}
		}
		if c < utf8.RuneSelf {
			i++
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return &Error{Line: line, Msg: "character " + strconv.Itoa(col) + " is not UTF-8 text: save the file as CSV in UTF-8 (a binary file or another encoding?)"}
		}
		i += n
		col++
	}
	return nil
}

// sniff picks the delimiter among ',', ';' and tab: the one that splits
// the first ten lines (outside quotes) into the same number of fields most
// often, with more fields winning ties; ',' when none splits anything.
func sniff(b []byte) rune {
	var lines [][3]int
	var cur [3]int
	inQuote, any := false, false
	for i := 0; i < len(b) && len(lines) < 10; i++ {
		switch c := b[i]; {
		case c == '"':
			inQuote = !inQuote
			any = true
		case inQuote:
		case c == '\n':
			if any {
				lines = append(lines, cur)
			}
			cur, any = [3]int{}, false
		case c == ',':
			cur[0]++
			any = true
		case c == ';':
			cur[1]++
			any = true
		case c == '\t':
			cur[2]++
			any = true
		case c != '\r' && c != ' ':
			any = true
		}
	}
	if any && len(lines) < 10 {
		lines = append(lines, cur)
	}
	delims := [3]rune{',', ';', '\t'}
	best, bestScore := ',', [2]int{0, 0}
	for d := range delims {
		if len(lines) == 0 || lines[0][d] == 0 {
			continue
		}
		same := 0
		for _, l := range lines {
			if l[d] == lines[0][d] {
				same++
			}
		}
		score := [2]int{same, lines[0][d]}
		if score[0] > bestScore[0] || (score[0] == bestScore[0] && score[1] > bestScore[1]) {
			best, bestScore = delims[d], score
		}
	}
	return best
}

func parseError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return &Error{Msg: err.Error()}
	}
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		return &Error{Line: pe.Line, Msg: "character " + strconv.Itoa(pe.Column) + " is a quote inside a field that does not start with one; quote the whole field and double the quote inside (\"\")"}
	case errors.Is(pe.Err, csv.ErrQuote):
		return &Error{Line: pe.StartLine, Msg: "a quoted field starts here and is never closed, or a closing quote is followed by more text (line " + strconv.Itoa(pe.Line) + ", character " + strconv.Itoa(pe.Column) + ")"}
	}
	return &Error{Line: pe.Line, Msg: pe.Err.Error()}
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func trimmed(rec []string) []string {
	out := make([]string, len(rec))
	for i, c := range rec {
		out[i] = strings.TrimSpace(c)
	}
	return out
}

// names gives every column a name: empty ones become "column j", and a
// repeated one gets " (2)", " (3)", … so that a column is found by name.
func names(first []string) []string {
	out := make([]string, len(first))
	seen := map[string]bool{}
	for j, n := range first {
		if n == "" {
			n = "column " + strconv.Itoa(j+1)
		}
		base := n
		for k := 2; seen[n]; k++ {
			n = base + " (" + strconv.Itoa(k) + ")"
		}
		seen[n] = true
		out[j] = n
	}
	return out
}

func looksLikeHeader(first []string, cols [][]string) bool {
	seen := map[string]bool{}
	for _, c := range first {
		if c == "" || isNumber(c) || seen[c] {
			return false
		}
		seen[c] = true
	}
	if len(cols) == 0 || len(cols[0]) == 0 {
		return true
	}
	for j, c := range first {
		for _, x := range cols[j] {
			if x == c {
				return false
			}
		}
	}
	return true
}

func isNumber(s string) bool {
	_, ok := number(s, ',')
	return ok
}

// number reads a decimal number; with a delimiter other than ',' a single
// decimal comma ("3,5") is read as a point, as spreadsheets in many
// languages write it.
func number(s string, delim rune) (float64, bool) {
	if delim != ',' && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		s = strings.Replace(s, ",", ".", 1)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, false
	}
	return x, true
}
