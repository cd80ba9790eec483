package data

import (
	"sort"
	"strconv"
	"strings"
)

// Kind is what a column holds, for the page to suggest a column.
type Kind string

const (
	KindBinary   Kind = "binary"   // every cell reads as a bit (Bit)
	KindNumber   Kind = "number"   // every cell is a finite number
	KindCategory Kind = "category" // anything else
)

// Column returns the index of the column called name (or, failing that,
// of "column N" written as the number N).
func (t *Table) Column(name string) (int, error) {
	for j, n := range t.Names {
		if n == name {
			return j, nil
		}
	}
	if j, err := strconv.Atoi(name); err == nil && j >= 1 && j <= len(t.Names) {
		return j - 1, nil
	}
	return 0, &Error{Msg: "no column is called “" + name + "”; the columns are " + strings.Join(t.Names, ", ")}
}

func (t *Table) check(j int) error {
	if j < 0 || j >= len(t.Cols) {
		return &Error{Msg: "column " + strconv.Itoa(j+1) + " does not exist; the file has " + plural(len(t.Cols), "column")}
	}
	return nil
}

func (t *Table) cellError(i, j int, msg string) *Error {
	return &Error{Line: t.Lines[i], Column: j + 1, Name: t.Names[j], Msg: msg}
}

// Kind classifies column j: binary if every cell is a bit, else number if
// every cell is a number, else category.
func (t *Table) Kind(j int) Kind {
	if t.check(j) != nil {
		return KindCategory
	}
	binary, numeric := true, true
	for _, c := range t.Cols[j] {
		if binary {
			if _, ok := Bit(c); !ok {
				binary = false
			}
		}
		if _, ok := number(c, t.Delimiter); !ok {
			numeric = false
			break
		}
	}
	switch {
	case binary:
		return KindBinary
	case numeric:
		return KindNumber
	}
	return KindCategory
}

// Numbers reads column j as finite numbers; an empty or non-numeric cell
// is an error at its line and column.
func (t *Table) Numbers(j int) ([]float64, error) {
	if err := t.check(j); err != nil {
		return nil, err
	}
	out := make([]float64, len(t.Cols[j]))
	for i, c := range t.Cols[j] {
		x, ok := number(c, t.Delimiter)
		if !ok {
			if c == "" {
				return nil, t.cellError(i, j, "is empty; a number is needed")
			}
			return nil, t.cellError(i, j, quote(c)+" is not a number")
		}
		out[i] = x
	}
	return out, nil
}

// NumbersIn reads column j as numbers in [lo, hi]; the first cell outside
// is an error at its line and column.
func (t *Table) NumbersIn(j int, lo, hi float64) ([]float64, error) {
	xs, err := t.Numbers(j)
	if err != nil {
		return nil, err
	}
	for i, x := range xs {
		if x < lo || x > hi {
			return nil, t.cellError(i, j, quote(t.Cols[j][i])+" is outside "+strconv.FormatFloat(lo, 'g', -1, 64)+" … "+strconv.FormatFloat(hi, 'g', -1, 64))
		}
	}
	return xs, nil
}

// Blank is the candidate name an empty cell is counted under.
const Blank = "(blank)"

// Categories counts column j: the distinct values, most frequent first
// (ties in order of first appearance), and how many rows hold each. More
// than max distinct values is an error at the row that brings the first
// one too many.
func (t *Table) Categories(j, max int) (names []string, counts []float64, err error) {
	if err := t.check(j); err != nil {
		return nil, nil, err
	}
	index := map[string]int{}
	for i, c := range t.Cols[j] {
		if c == "" {
			c = Blank
		}
		k, ok := index[c]
		if !ok {
			if len(names) == max {
				return nil, nil, t.cellError(i, j, quote(c)+" is category "+strconv.Itoa(max+1)+"; this lesson takes at most "+strconv.Itoa(max)+" (is this a column of categories?)")
			}
			k = len(names)
			index[c] = k
			names = append(names, c)
			counts = append(counts, 0)
		}
		counts[k]++
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	n2, c2 := make([]string, len(names)), make([]float64, len(names))
	for i, k := range order {
		n2[i], c2[i] = names[k], counts[k]
	}
	return n2, c2, nil
}

// Scores reads a table of candidates and scores: names from column nameCol
// (each once, not empty) and numbers from column scoreCol, at most max rows.
func (t *Table) Scores(nameCol, scoreCol, max int) (names []string, scores []float64, err error) {
	if err := t.check(nameCol); err != nil {
		return nil, nil, err
	}
	if scores, err = t.Numbers(scoreCol); err != nil {
		return nil, nil, err
	}
	if len(scores) > max {
		return nil, nil, t.cellError(max, nameCol, "is candidate "+strconv.Itoa(max+1)+"; this lesson takes at most "+strconv.Itoa(max))
	}
	first := map[string]int{}
	for i, c := range t.Cols[nameCol] {
		if c == "" {
			return nil, nil, t.cellError(i, nameCol, "is empty; every candidate needs a name")
		}
		if l, ok := first[c]; ok {
			return nil, nil, t.cellError(i, nameCol, quote(c)+" is already a candidate on line "+strconv.Itoa(t.Lines[l])+"; each candidate takes one row")
		}
		first[c] = i
		names = append(names, c)
	}
	return names, scores, nil
}

// Bit reads a yes/no cell: 1, yes, y, true, t or 0, no, n, false, f, in
// any case.
func Bit(s string) (int, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "yes", "y", "true", "t":
		return 1, true
	case "0", "no", "n", "false", "f":
		return 0, true
	}
	return 0, false
}

// Bits reads the columns cols as yes/no attributes: rows[i][c] is row i's
// bit in cols[c]. A cell that is not a bit is an error at its place.
func (t *Table) Bits(cols []int) ([][]int, error) {
	for _, j := range cols {
		if err := t.check(j); err != nil {
			return nil, err
		}
	}
	rows := make([][]int, t.Rows())
	flat := make([]int, t.Rows()*len(cols))
	for i := range rows {
		rows[i] = flat[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
		for c, j := range cols {
			b, ok := Bit(t.Cols[j][i])
			if !ok {
				return nil, t.cellError(i, j, quote(t.Cols[j][i])+" is not 0/1, yes/no or true/false")
			}
			rows[i][c] = b
		}
	}
	return rows, nil
}

// quote shows a cell in a message, shortened to 40 characters.
func quote(s string) string {
	if s == "" {
		return "an empty cell"
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return "“" + s + "”"
}

// Histogram counts the rows of the yes/no columns cols over {0,1}^k,
// k = len(cols): counts[x] is the number of rows whose bits, read with the
// first column as the most significant, spell x (core/synth's order).
func (t *Table) Histogram(cols []int) ([]float64, error) {
	if len(cols) == 0 || len(cols) > 20 {
		return nil, &Error{Msg: "choose between 1 and 20 columns, not " + strconv.Itoa(len(cols))}
	}
	rows, err := t.Bits(cols)
	if err != nil {
		return nil, err
	}
	counts := make([]float64, 1<<len(cols))
	for _, r := range rows {
		x := 0
		for _, b := range r {
			x = x<<1 | b
		}
		counts[x]++
	}
	return counts, nil
}
