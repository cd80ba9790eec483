package synth

import (
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/validate"
)

// Query is a counting query given by its predicate φ on the universe: on a
// data set x with n rows its answer is the fraction f(x) = (1/n)·Σ_rows φ(row).
// Member[p] is φ at point p.
type Query struct {
	Name   string
	Member []bool
}

// QuerySet is a finite class Q of counting queries over {0,1}^k, each
// f(x) = (1/n)·Σ_rows φ(row), so one changed row moves any answer by at most
// 1/n.
type QuerySet struct {
	columns []string
	queries []Query
}

// MaxQueries bounds |Q|; more would make every candidate's score slow
// (SmallDB scores max_q over all of Q per candidate).
const MaxQueries = 1 << 15

// NewQuerySet checks that every query has one membership value per point of
// {0,1}^k, k = len(columns), i.e. 2^k values.
func NewQuerySet(columns []string, queries []Query) (*QuerySet, error) {
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	if len(queries) == 0 {
		return nil, validate.Errorf("queries", "needs at least one query")
	}
	if len(queries) > MaxQueries {
		return nil, validate.Errorf("queries", "has %d queries; at most %d are supported", len(queries), MaxQueries)
	}
	size := 1 << len(columns)
	qs := &QuerySet{columns: append([]string(nil), columns...), queries: make([]Query, len(queries))}
	for i, q := range queries {
		if len(q.Member) != size {
			return nil, validate.Errorf(validate.Index("queries", i), "has %d membership values for %d points", len(q.Member), size)
		}
		qs.queries[i] = Query{Name: q.Name, Member: append([]bool(nil), q.Member...)}
	}
	return qs, nil
}

// Marginals returns all width-way marginal queries: for every set S of width
// columns and every assignment v ∈ {0,1}^width, the fraction of rows with
// x_S = v. There are C(k, width)·2^width of them.
func Marginals(columns []string, width int) (*QuerySet, error) {
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	k := len(columns)
	if width < 1 || width > k {
		return nil, validate.Errorf("width", "must be between 1 and %d (the number of columns), got %d", k, width)
	}
	var queries []Query
	var choose func(start int, set []int)
	choose = func(start int, set []int) {
		if len(set) == width {
			for v := 0; v < 1<<width; v++ {
				q := Query{Member: make([]bool, 1<<k)}
				names := make([]string, width)
				for i, j := range set {
					names[i] = validate.Sprintf("%s=%d", columns[j], bit(v, i, width))
				}
				q.Name = strings.Join(names, " ∧ ")
				for x := range q.Member {
					ok := true
					for i, j := range set {
						ok = ok && bit(x, j, k) == bit(v, i, width)
					}
					q.Member[x] = ok
				}
				queries = append(queries, q)
			}
			return
		}
		for j := start; j < k; j++ {
			choose(j+1, append(set, j))
		}
	}
	choose(0, nil)
	if len(queries) > MaxQueries {
		return nil, validate.Errorf("width", "gives %d queries; at most %d are supported", len(queries), MaxQueries)
	}
	return &QuerySet{columns: append([]string(nil), columns...), queries: queries}, nil
}

// Halfspace is the predicate π₁x₁ + … + π_{k−1}x_{k−1} ≥ x_k of the article's
// release example: the last column is the
// label, the others the features.
type Halfspace struct {
	Pi []int // one weight per feature column
}

// Holds reports whether point x (of {0,1}^k) satisfies the inequality
// π₁x₁ + … + π_{k−1}x_{k−1} ≥ x_k. It is false
// when k does not match the weights (k ≠ len(Pi) + 1, or k outside 2…20),
// since such a point cannot be read against them; a predicate has no error
// to return.
func (h Halfspace) Holds(x, k int) bool {
	if k < 2 || k > MaxAttributes || len(h.Pi) != k-1 {
		return false
	}
	s := 0
	for i, p := range h.Pi {
		s += p * bit(x, i, k)
	}
	return s >= bit(x, k-1, k)
}

// name renders the inequality with column names, e.g. "smoker − sex ≥ cancer".
func (h Halfspace) name(columns []string) string {
	var b strings.Builder
	for i, p := range h.Pi {
		if p == 0 {
			continue
		}
		switch {
		case b.Len() == 0 && p < 0:
			b.WriteString("−")
		case b.Len() > 0 && p < 0:
			b.WriteString(" − ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if p != 1 && p != -1 {
			b.WriteString(strconv.Itoa(abs(p)))
		}
		b.WriteString(columns[i])
	}
	if b.Len() == 0 {
		b.WriteString("0")
	}
	return b.String() + " ≥ " + columns[len(columns)-1]
}

// HalfspaceGrid lists every weight vector π ∈ {−1, 0, 1}^{k−1}, 3^(k−1) of
// them, the finite family of halfspaces the playground uses for the
// article's example.
func HalfspaceGrid(k int) ([]Halfspace, error) {
	if k < 2 || k > 13 {
		return nil, validate.Errorf("k", "halfspaces need between 2 and 13 columns (one label, the rest features), got %d", k)
	}
	var out []Halfspace
	pi := make([]int, k-1)
	for i := range pi {
		pi[i] = -1
	}
	// An odometer over {−1, 0, 1}^{k−1}, first digit fastest.
	for {
		out = append(out, Halfspace{Pi: append([]int(nil), pi...)})
		i := 0
		for ; i < len(pi) && pi[i] == 1; i++ {
			pi[i] = -1
		}
		if i == len(pi) {
			break
		}
		pi[i]++
	}
	return out, nil
}

// Halfspaces returns the counting queries "fraction of rows with
// Σ πᵢxᵢ ≥ x_k" for π ∈ {−1, 0, 1}^{k−1}, the article's halfspace class with
// the last column as the label. Queries with the same predicate as an earlier
// one are dropped, since a repeated query changes no answer but would inflate
// |Q| in the accuracy bounds.
func Halfspaces(columns []string) (*QuerySet, error) {
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	k := len(columns)
	grid, err := HalfspaceGrid(k)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var queries []Query
	for _, h := range grid {
		q := Query{Name: h.name(columns), Member: make([]bool, 1<<k)}
		key := make([]byte, 1<<k)
		for x := range q.Member {
			q.Member[x] = h.Holds(x, k)
			if q.Member[x] {
				key[x] = 1
			}
		}
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		queries = append(queries, q)
	}
	return &QuerySet{columns: append([]string(nil), columns...), queries: queries}, nil
}

// ParseQueries reads an explicit list of conjunctions separated by ';', each a
// list of column=bit literals joined by '&', e.g. "smoker=1&lung_cancer=1;
// sex=0": φ(row) = Π over the literals of 1[row_col = bit]. An empty
// conjunction is not allowed.
func ParseQueries(columns []string, spec string) (*QuerySet, error) {
	if err := checkColumns(columns); err != nil {
		return nil, err
	}
	k := len(columns)
	var queries []Query
	for qi, part := range strings.Split(spec, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, validate.Errorf(validate.Index("queries", qi), "is empty")
		}
		q := Query{Member: make([]bool, 1<<k)}
		for x := range q.Member {
			q.Member[x] = true
		}
		var names []string
		for _, lit := range strings.Split(part, "&") {
			lit = strings.TrimSpace(lit)
			name, val, ok := strings.Cut(lit, "=")
			name, val = strings.TrimSpace(name), strings.TrimSpace(val)
			j := indexOf(columns, name)
			if !ok || j < 0 || (val != "0" && val != "1") {
				return nil, validate.Errorf(validate.Index("queries", qi), "literal %q must look like column=0 or column=1 with a column from %s", lit, strings.Join(columns, ", "))
			}
			v := int(val[0] - '0')
			for x := range q.Member {
				q.Member[x] = q.Member[x] && bit(x, j, k) == v
			}
			names = append(names, name+"="+val)
		}
		q.Name = strings.Join(names, " ∧ ")
		queries = append(queries, q)
	}
	return NewQuerySet(columns, queries)
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// check reports whether qs is a query set made by NewQuerySet, Marginals,
// Halfspaces or ParseQueries: a nil *QuerySet or a zero QuerySet{} has no
// queries, and the methods that return an error refuse it.
func (qs *QuerySet) check() error {
	if qs == nil {
		return validate.Errorf("queries", "are missing (nil)")
	}
	if len(qs.queries) == 0 || len(qs.columns) == 0 {
		return validate.Errorf("queries", "are empty; build them with NewQuerySet, Marginals, Halfspaces or ParseQueries")
	}
	return nil
}

// Len returns |Q|, the number of queries (0 for a nil or zero QuerySet).
func (qs *QuerySet) Len() int {
	if qs == nil {
		return 0
	}
	return len(qs.queries)
}

// Columns returns the k column names the queries are written over (nil for
// a nil QuerySet).
func (qs *QuerySet) Columns() []string {
	if qs == nil {
		return nil
	}
	return append([]string(nil), qs.columns...)
}

// Names returns the queries' names in order, e.g. "smoker=1 ∧ lung_cancer=1"
// (nil for a nil QuerySet).
func (qs *QuerySet) Names() []string {
	if qs == nil {
		return nil
	}
	out := make([]string, len(qs.queries))
	for i, q := range qs.queries {
		out[i] = q.Name
	}
	return out
}

// Query returns query i of Q, with its predicate φ as Member.
func (qs *QuerySet) Query(i int) (Query, error) {
	if err := qs.check(); err != nil {
		return Query{}, err
	}
	if i < 0 || i >= len(qs.queries) {
		return Query{}, validate.Errorf("query", "must be in [0, %d), got %d", len(qs.queries), i)
	}
	q := qs.queries[i]
	return Query{Name: q.Name, Member: append([]bool(nil), q.Member...)}, nil
}

// compatible checks that qs and d are both usable and that qs is written
// over the same columns as d.
func (qs *QuerySet) compatible(d *Data) error {
	if err := qs.check(); err != nil {
		return err
	}
	if err := d.check(); err != nil {
		return err
	}
	if len(qs.columns) != len(d.columns) {
		return validate.Errorf("queries", "are over %d columns but the data has %d", len(qs.columns), len(d.columns))
	}
	for i := range qs.columns {
		if qs.columns[i] != d.columns[i] {
			return validate.Errorf("queries", "column %d is %q but the data's is %q", i, qs.columns[i], d.columns[i])
		}
	}
	return nil
}

// Answers returns f(x) = (1/n)·Σ_rows φ(row) for every query: the fraction
// of the data's rows that satisfy it. A nil or empty data set or
// query set is an error.
func (qs *QuerySet) Answers(d *Data) ([]float64, error) {
	if err := qs.compatible(d); err != nil {
		return nil, err
	}
	return qs.answersOf(d.Fractions()), nil
}

// AnswersOn returns Σ_p w[p]·φ(p) for every query, for a weight vector w over
// the universe (a probability distribution gives fractions): MWEM's q(A).
func (qs *QuerySet) AnswersOn(w []float64) ([]float64, error) {
	if err := qs.check(); err != nil {
		return nil, err
	}
	if len(w) != 1<<len(qs.columns) {
		return nil, validate.Errorf("weights", "has %d entries for %d points", len(w), 1<<len(qs.columns))
	}
	for i, x := range w {
		if err := validate.Finite(validate.Index("weights", i), x); err != nil {
			return nil, err
		}
	}
	return qs.answersOf(w), nil
}

func (qs *QuerySet) answersOf(w []float64) []float64 {
	out := make([]float64, len(qs.queries))
	for i, q := range qs.queries {
		out[i] = q.answer(w)
	}
	return out
}

// answer returns Σ_p w[p]·φ(p).
func (q Query) answer(w []float64) float64 {
	s := 0.0
	for x, in := range q.Member {
		if in {
			s += w[x]
		}
	}
	return s
}

// counts returns a_q = Σ_rows φ_q(row), the unnormalised answers on d.
func (qs *QuerySet) counts(d *Data) []int {
	out := make([]int, len(qs.queries))
	for i, q := range qs.queries {
		for x, in := range q.Member {
			if in {
				out[i] += d.counts[x]
			}
		}
	}
	return out
}

// MaxError returns max_q abs(f(x) − f(y)) between two data sets over the same
// columns: the negated SmallDB utility −u(x, y). A nil or empty
// data set is an error.
func (qs *QuerySet) MaxError(x, y *Data) (float64, error) {
	ax, err := qs.Answers(x)
	if err != nil {
		return 0, err
	}
	ay, err := qs.Answers(y)
	if err != nil {
		return 0, err
	}
	return maxAbsDiff(ax, ay), nil
}

func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		if d := a[i] - b[i]; d > m {
			m = d
		} else if -d > m {
			m = -d
		}
	}
	return m
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
