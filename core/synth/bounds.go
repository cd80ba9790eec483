package synth

import (
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// The accuracy bounds of the notes for SmallDB. All logarithms are natural:
// the size m = ln|Q|/α² comes from a Chernoff bound, and ln|R| ≤ m·ln|X| from
// counting the candidates, both in base e.

func checkBoundInputs(universeSize, numQueries, n int, epsilon, beta float64) error {
	if universeSize < 2 {
		return validate.Errorf("|X|", "must be at least 2, got %d", universeSize)
	}
	if numQueries < 2 {
		return validate.Errorf("|Q|", "must be at least 2 (ln|Q| is 0 for one query), got %d", numQueries)
	}
	if n < 1 {
		return validate.Errorf("n", "must be at least 1, got %d", n)
	}
	if err := validate.Positive("ε", epsilon); err != nil {
		return err
	}
	if !(beta > 0 && beta < 1) {
		return validate.Errorf("β", "must be strictly between 0 and 1, got %v", beta)
	}
	return nil
}

// SizeForAlpha returns m = ⌈ln|Q|/α²⌉, the size of database that the
// sampling lemma guarantees can answer every query in Q within α.
func SizeForAlpha(numQueries int, alpha float64) (int, error) {
	if numQueries < 2 {
		return 0, validate.Errorf("|Q|", "must be at least 2, got %d", numQueries)
	}
	if err := validate.Positive("α", alpha); err != nil {
		return 0, err
	}
	m := math.Ceil(math.Log(float64(numQueries)) / (alpha * alpha))
	if m > MaxSize {
		return 0, validate.Errorf("α", "%v needs m = %v rows, more than %d", alpha, m, MaxSize)
	}
	return max(1, int(m)), nil
}

// AlphaForSize inverts SizeForAlpha: α = √(ln|Q|/m), the accuracy the
// sampling lemma promises for a database of m rows.
func AlphaForSize(numQueries, m int) (float64, error) {
	if numQueries < 2 {
		return 0, validate.Errorf("|Q|", "must be at least 2, got %d", numQueries)
	}
	if m < 1 {
		return 0, validate.Errorf("m", "must be at least 1, got %d", m)
	}
	return math.Sqrt(math.Log(float64(numQueries)) / float64(m)), nil
}

// Prop44Bound is Proposition 4.4 of the notes: with probability at least
// 1 − β the database output by SmallDB(x, Q, ε, α) has
//
//	max_q abs(f(x) − f(y)) ≤ α + 2·(ln|X|·ln|Q|/α² + ln(1/β)) / (ε·‖x‖₁).
//
// The first term is the sampling lemma's best candidate, the second the
// exponential mechanism's loss over |R| ≤ |X|^m candidates. Lesson 8 draws it
// next to the measured error.
func Prop44Bound(universeSize, numQueries, n int, epsilon, alpha, beta float64) (float64, error) {
	if err := checkBoundInputs(universeSize, numQueries, n, epsilon, beta); err != nil {
		return 0, err
	}
	if err := validate.Positive("α", alpha); err != nil {
		return 0, err
	}
	lx, lq := math.Log(float64(universeSize)), math.Log(float64(numQueries))
	b := alpha + 2*(lx*lq/(alpha*alpha)+math.Log(1/beta))/(epsilon*float64(n))
	if math.IsInf(b, 0) {
		return 0, validate.Errorf("α", "is too small: the bound overflows")
	}
	return b, nil
}

// Thm45Bound is Theorem 4.5 (4.2) of the notes: running SmallDB with α/2 for
// the best α gives, with probability at least 1 − β,
//
//	max_q abs(f(x) − f(y)) ≤ ((16·ln|X|·ln|Q| + 4·ln(1/β)) / (ε·‖x‖₁))^(1/3).
func Thm45Bound(universeSize, numQueries, n int, epsilon, beta float64) (float64, error) {
	if err := checkBoundInputs(universeSize, numQueries, n, epsilon, beta); err != nil {
		return 0, err
	}
	lx, lq := math.Log(float64(universeSize)), math.Log(float64(numQueries))
	return math.Cbrt((16*lx*lq + 4*math.Log(1/beta)) / (epsilon * float64(n))), nil
}

// Thm45MinRows is the same theorem solved for the data size (4.3): with at
// least (16·ln|X|·ln|Q| + 4·ln(1/β)) / (ε·α³) rows, SmallDB is within α on
// every query with probability at least 1 − β.
func Thm45MinRows(universeSize, numQueries int, epsilon, alpha, beta float64) (float64, error) {
	if err := checkBoundInputs(universeSize, numQueries, 1, epsilon, beta); err != nil {
		return 0, err
	}
	if err := validate.Positive("α", alpha); err != nil {
		return 0, err
	}
	lx, lq := math.Log(float64(universeSize)), math.Log(float64(numQueries))
	rows := (16*lx*lq + 4*math.Log(1/beta)) / (epsilon * alpha * alpha * alpha)
	if math.IsInf(rows, 0) {
		return 0, validate.Errorf("α", "is too small: the bound overflows")
	}
	return rows, nil
}
