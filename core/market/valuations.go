package market

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// Valuations is a parsed valuation file: one row per buyer, one column per
// good, Values[i][j] = vᵢⱼ.
type Valuations struct {
	Goods  []string    // column names (good 1, good 2, … without a header)
	Values [][]float64 // Values[i][j] = buyer i's value for good j
}

// maxValuationBytes caps what ParseValuations reads: a lesson pastes a few
// kilobytes, a script a few megabytes.
const maxValuationBytes = 64 << 20

// ParseValuations reads the valuation format: comma-separated values, one
// line per buyer and one column per
// good. Blank lines and lines starting with '#' are skipped. If the first
// remaining line has a field that is not a number, it is a header naming the
// goods. Every value must be a finite number ≥ 0 and every row must have as
// many fields as the first.
func ParseValuations(r io.Reader) (*Valuations, error) {
	if r == nil {
		return nil, validate.Errorf("valuations", "reader is nil")
	}
	sc := bufio.NewScanner(io.LimitReader(r, maxValuationBytes))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	v := &Valuations{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ",")
		for f := range fields {
			fields[f] = strings.TrimSpace(fields[f])
		}
		if v.Goods == nil && len(v.Values) == 0 && !allNumbers(fields) {
			v.Goods = fields
			continue
		}
		want := len(fields)
		if v.Goods != nil {
			want = len(v.Goods)
		} else if len(v.Values) > 0 {
			want = len(v.Values[0])
		}
		if len(fields) != want {
			return nil, validate.Errorf(fmt.Sprintf("line %d", line), "has %d values, expected %d (one per good)", len(fields), want)
		}
		row := make([]float64, len(fields))
		for j, f := range fields {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, validate.Errorf(fmt.Sprintf("line %d, column %d", line, j+1), "%q is not a number", f)
			}
			row[j] = x
		}
		if err := checkRow(fmt.Sprintf("line %d", line), row, len(row)); err != nil {
			return nil, err
		}
		v.Values = append(v.Values, row)
		if len(v.Values) > MaxBuyers {
			return nil, validate.Errorf("valuations", "have more than %d buyers", MaxBuyers)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, validate.Errorf("valuations", "cannot be read: %v", err)
	}
	if len(v.Values) == 0 {
		return nil, validate.Errorf("valuations", "hold no buyers (one line of values per buyer)")
	}
	if v.Goods == nil {
		for j := range v.Values[0] {
			v.Goods = append(v.Goods, fmt.Sprintf("good %d", j+1))
		}
	}
	return v, nil
}

func allNumbers(fields []string) bool {
	for _, f := range fields {
		if _, err := strconv.ParseFloat(f, 64); err != nil {
			return false
		}
	}
	return true
}
