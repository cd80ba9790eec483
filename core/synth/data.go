// Package synth releases synthetic data with differential privacy: the small
// database mechanism of Blum, Ligett and Roth (SmallDB), which draws a
// whole multiset of rows with the exponential mechanism, and MWEM (Hardt,
// Ligett and McSherry 2012), which builds a distribution round by round.
//
// The universe is X = {0,1}^k: every row is k bits. A data set is a histogram
// over X. Counting queries are normalised to fractions, f(x) = (1/n)·Σ φ(row),
// so one changed row moves any answer by at most 1/n. Throughout, n (the number
// of rows) is treated as public and neighbouring data sets differ in one row's
// value, which is the setting in which the sensitivity 1/n holds exactly.
package synth

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// MaxAttributes bounds k. A histogram over {0,1}^k has |X| = 2^k cells; 20
// bits (about a million cells) is far beyond what SmallDB can enumerate
// anyway.
const MaxAttributes = 20

// Data is a histogram x over the universe X = {0,1}^k, with n = ‖x‖₁ rows
// (Medical returns one). Point index p stands for the row whose
// bits, read left to right in column order, spell p in binary: the first
// column is the most significant bit.
type Data struct {
	columns []string
	counts  []int
	n       int
}

// NewData returns the histogram with the given column names and one count per
// point of {0,1}^k, k = len(columns), so len(counts) = 2^k and n = Σ counts.
func NewData(columns []string, counts []int) (*Data, error) {
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	if len(counts) != 1<<len(columns) {
		return nil, validate.Errorf("counts", "has %d cells but {0,1}^%d has %d points", len(counts), len(columns), 1<<len(columns))
	}
	n := 0
	for i, c := range counts {
		if c < 0 {
			return nil, validate.Errorf(validate.Index("counts", i), "must be ≥ 0, got %d", c)
		}
		if n > int(^uint32(0)) {
			return nil, validate.Errorf("counts", "add up to more than %d rows", ^uint32(0))
		}
		n += c
	}
	if n == 0 {
		return nil, validate.Errorf("counts", "hold no rows")
	}
	return &Data{columns: append([]string(nil), columns...), counts: append([]int(nil), counts...), n: n}, nil
}

// FromRows builds the histogram of rows, each a list of k bits (0 or 1):
// x(p) = #{rows equal to point p}.
func FromRows(columns []string, rows [][]int) (*Data, error) {
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	k := len(columns)
	counts := make([]int, 1<<k)
	for i, row := range rows {
		if len(row) != k {
			return nil, validate.Errorf(validate.Index("rows", i), "has %d values for %d columns", len(row), k)
		}
		x := 0
		for j, b := range row {
			if b != 0 && b != 1 {
				return nil, validate.Errorf(validate.Index(validate.Index("rows", i), j), "must be 0 or 1, got %d", b)
			}
			x = x<<1 | b
		}
		counts[x]++
	}
	return NewData(columns, counts)
}

// ReadCSV reads a table of 0/1 columns with a header row of column names
// into its histogram over {0,1}^k.
// Blank lines are skipped; surrounding spaces in a cell are ignored.
func ReadCSV(r io.Reader) (*Data, error) {
	if r == nil {
		return nil, validate.Errorf("csv", "reader is nil")
	}
	cr := csv.NewReader(r)
	cr.TrimLeadingSpace = true
	cr.FieldsPerRecord = 0
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, validate.Errorf("csv", "is empty; it needs a header row of column names")
	}
	if err != nil {
		return nil, validate.Errorf("csv", "%v", err)
	}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	if err := checkColumns(header); err != nil {
		return nil, err
	}
	var rows [][]int
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, validate.Errorf("csv", "%v", err)
		}
		row := make([]int, len(rec))
		for j, cell := range rec {
			switch strings.TrimSpace(cell) {
			case "0":
			case "1":
				row[j] = 1
			default:
				return nil, validate.Errorf(validate.Sprintf("csv row %d, column %q", line, header[j]), "must be 0 or 1, got %q", cell)
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, validate.Errorf("csv", "has a header but no rows")
	}
	return FromRows(header, rows)
}

func checkColumns(columns []string) error {
	if len(columns) == 0 {
		return validate.Errorf("columns", "needs at least one column")
	}
	if len(columns) > MaxAttributes {
		return validate.Errorf("columns", "has %d columns; at most %d are supported", len(columns), MaxAttributes)
	}
	seen := map[string]bool{}
	for i, c := range columns {
		if c == "" {
			return validate.Errorf(validate.Index("columns", i), "has an empty name")
		}
		if seen[c] {
			return validate.Errorf(validate.Index("columns", i), "repeats the name %q", c)
		}
		seen[c] = true
	}
	return nil
}

// check reports whether d is a data set made by NewData, FromRows, ReadCSV
// or Project: a nil *Data or a zero Data{} has no rows, and every method
// that returns an error refuses it instead of answering for an empty table.
func (d *Data) check() error {
	if d == nil {
		return validate.Errorf("data", "is missing (nil)")
	}
	if d.n < 1 || len(d.columns) == 0 || len(d.counts) != 1<<len(d.columns) {
		return validate.Errorf("data", "is empty; build it with NewData, FromRows or ReadCSV")
	}
	return nil
}

// The accessors below return zero values (nil, 0) for a nil or zero Data
// rather than panic; they have no error to report it with, and check()
// guards every computation that needs rows.

// Columns returns the k column names (nil for a nil Data).
func (d *Data) Columns() []string {
	if d == nil {
		return nil
	}
	return append([]string(nil), d.columns...)
}

// K returns the number of binary attributes, k, with |X| = 2^k (0 for a nil
// Data).
func (d *Data) K() int {
	if d == nil {
		return 0
	}
	return len(d.columns)
}

// UniverseSize returns |X| = 2^k, the number of points of {0,1}^k (0 for a
// nil or zero Data).
func (d *Data) UniverseSize() int {
	if d == nil {
		return 0
	}
	return len(d.counts)
}

// N returns the number of rows, n = ‖x‖₁, which sets the sensitivity 1/n of
// every normalised query (0 for a nil or zero Data).
func (d *Data) N() int {
	if d == nil {
		return 0
	}
	return d.n
}

// Counts returns the histogram x(p), one count per point of {0,1}^k (nil for
// a nil Data).
func (d *Data) Counts() []int {
	if d == nil {
		return nil
	}
	return append([]int(nil), d.counts...)
}

// Fractions returns the histogram divided by n, x(p)/‖x‖₁ for every point p
// (nil for a nil or zero Data, which has no rows to divide by).
func (d *Data) Fractions() []float64 {
	if d.check() != nil {
		return nil
	}
	f := make([]float64, len(d.counts))
	for i, c := range d.counts {
		f[i] = float64(c) / float64(d.n)
	}
	return f
}

// Point returns the k bits of point x in column order: bit j is
// ⌊x / 2^(k−1−j)⌋ mod 2.
func (d *Data) Point(x int) ([]int, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if x < 0 || x >= len(d.counts) {
		return nil, validate.Errorf("point", "must be in [0, %d), got %d", len(d.counts), x)
	}
	return bitsOf(x, len(d.columns)), nil
}

func bitsOf(x, k int) []int {
	b := make([]int, k)
	for j := 0; j < k; j++ {
		b[j] = x >> (k - 1 - j) & 1
	}
	return b
}

// bit returns attribute j of point x (column j, most significant first).
func bit(x, j, k int) int { return x >> (k - 1 - j) & 1 }

// Rows expands the histogram into n rows of k bits in point order (nil for a
// nil or zero Data).
func (d *Data) Rows() [][]int {
	if d.check() != nil {
		return nil
	}
	rows := make([][]int, 0, d.n)
	for x, c := range d.counts {
		for i := 0; i < c; i++ {
			rows = append(rows, bitsOf(x, len(d.columns)))
		}
	}
	return rows
}

// Project keeps only the named columns, in the order given, and sums the
// histogram over the others: fewer attributes shrink the universe 2^k, and
// with it SmallDB's enumeration.
func (d *Data) Project(columns []string) (*Data, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	idx := make([]int, len(columns))
	for i, c := range columns {
		idx[i] = -1
		for j, dc := range d.columns {
			if dc == c {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			return nil, validate.Errorf("columns", "%q is not a column of the data (have %s)", c, strings.Join(d.columns, ", "))
		}
	}
	k, k2 := len(d.columns), len(columns)
	counts := make([]int, 1<<k2)
	for x, c := range d.counts {
		y := 0
		for _, j := range idx {
			y = y<<1 | bit(x, j, k)
		}
		counts[y] += c
	}
	return NewData(columns, counts)
}
