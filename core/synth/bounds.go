package synth

import (
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// The accuracy bounds of the notes for SmallDB. All logarithms are natural:
// the size
// m = ln|Q|/α² comes from a Chernoff bound, and ln|R| ≤ m·ln|X| from
// counting the candidates, both in base e.
//
// Why |Q| ≥ 3. The sampling lemma behind every bound here draws m rows from
// the data; Hoeffding's inequality gives P[abs(f(sample) − f(x)) > α] ≤
// 2·e^(−2mα²) for one query, and the union bound over Q gives
// 2|Q|·e^(−2mα²) = 2|Q|·|Q|^(−2) = 2/|Q| at m = ln|Q|/α². Some sample is within
// α on every query only if that is below 1, that is for |Q| ≥ 3. With
// |Q| = 2 it equals 1 and the argument proves nothing (with |Q| = 1, ln|Q| = 0
// and α would be 0), so the functions refuse fewer than three queries.

// MinBoundQueries is the smallest |Q| for which the sampling lemma, and so
// Proposition 4.4 and Theorem 4.5, hold as stated: 2|Q|·e^(−2mα²) = 2/|Q| < 1
// at m = ln|Q|/α² (see above).
const MinBoundQueries = 3

func checkQueries(numQueries int) error {
	if numQueries < MinBoundQueries {
		return validate.Errorf("|Q|", "must be at least %d for the sampling lemma: its union bound 2|Q|·e^(−2mα²) at m = ln|Q|/α² is 2/|Q|, which is not below 1 for %d queries", MinBoundQueries, numQueries)
	}
	return nil
}

func checkBoundInputs(universeSize, numQueries, n int, epsilon, beta float64) error {
	if universeSize < 2 {
		return validate.Errorf("|X|", "must be at least 2, got %d", universeSize)
	}
	if err := checkQueries(numQueries); err != nil {
		return err
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
// It needs |Q| ≥ 3 (MinBoundQueries).
func SizeForAlpha(numQueries int, alpha float64) (int, error) {
	if err := checkQueries(numQueries); err != nil {
		return 0, err
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
// sampling lemma promises for a database of m rows. It needs
// |Q| ≥ 3 (MinBoundQueries).
func AlphaForSize(numQueries, m int) (float64, error) {
	if err := checkQueries(numQueries); err != nil {
		return 0, err
	}
	if m < 1 {
		return 0, validate.Errorf("m", "must be at least 1, got %d", m)
	}
	return math.Sqrt(math.Log(float64(numQueries)) / float64(m)), nil
}

// Prop44Bound is Proposition 4.4 of the notes: with probability
// at least 1 − β the database output by SmallDB(x, Q, ε, α) has
//
//	max_q abs(f(x) − f(y)) ≤ α + 2·(ln|X|·ln|Q|/α² + ln(1/β)) / (ε·‖x‖₁).
//
// The first term is the sampling lemma's best candidate, the second the
// exponential mechanism's loss over |R| ≤ |X|^m candidates. It holds for a
// run with any number of rows m once α = √(ln|Q|/m) (AlphaForSize), so a
// run's measured error can be set beside the bound at the run's own m. It
// needs |Q| ≥ 3 (MinBoundQueries).
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

// Thm45Bound is Theorem 4.5 (4.2) of the notes: with
// probability at least 1 − β,
//
//	max_q abs(f(x) − f(y)) ≤ α = ((16·ln|X|·ln|Q| + 4·ln(1/β)) / (ε·‖x‖₁))^(1/3)
//
// for the output y of SmallDB(x, Q, ε, α/2), that is SmallDB with its own
// number of rows m = ln|Q|/(α/2)² = 4·ln|Q|/α² (Thm45Size). It is
// Proposition 4.4 at that m: the sampling term is α/2, and the mechanism's
// term 2·(4·ln|X|·ln|Q|/α² + ln(1/β))/(ε·‖x‖₁) is at most α/2 when α ≤ 1
// (above 1 the bound says nothing anyway: no error exceeds 1). It is a
// statement about that run only: a run with another m is covered by
// Prop44Bound at its own m, and may well err by more than this α (three
// attributes, 1-way marginals, n = 120, ε = 50: α = 0.229, while m = 1 has
// error 0.433 with probability 1). It needs |Q| ≥ 3 (MinBoundQueries).
func Thm45Bound(universeSize, numQueries, n int, epsilon, beta float64) (float64, error) {
	if err := checkBoundInputs(universeSize, numQueries, n, epsilon, beta); err != nil {
		return 0, err
	}
	lx, lq := math.Log(float64(universeSize)), math.Log(float64(numQueries))
	return math.Cbrt((16*lx*lq + 4*math.Log(1/beta)) / (epsilon * float64(n))), nil
}

// MaxThm45Size bounds what Thm45Size reports, m = ⌈4·ln|Q|/α²⌉; a
// larger m is an error rather than an overflowing int.
const MaxThm45Size = 1 << 30

// Thm45Size returns the number of rows Theorem 4.5 runs SmallDB with for its
// bound α: SmallDB(x, Q, ε, α/2) samples databases of
// ln|Q|/(α/2)² = 4·ln|Q|/α² rows, here rounded up to ⌈4·ln|Q|/α²⌉ (the
// notes treat m as a real number). Rounding up keeps the sampling term
// √(ln|Q|/m) ≤ α/2 but adds up to ln|X| to m·ln|X|, so at this whole m the
// guarantee that holds exactly, Prop44Bound with AlphaForSize(|Q|, m), can
// exceed α by at most 2·ln|X|/(ε·n) (for α ≤ 1). No MaxSize cap applies: the size is
// what the theorem needs, whether or not it can be enumerated. It needs
// |Q| ≥ 3 (MinBoundQueries).
func Thm45Size(numQueries int, alpha float64) (int, error) {
	if err := checkQueries(numQueries); err != nil {
		return 0, err
	}
	if err := validate.Positive("α", alpha); err != nil {
		return 0, err
	}
	m := math.Ceil(4 * math.Log(float64(numQueries)) / (alpha * alpha))
	if m > MaxThm45Size {
		return 0, validate.Errorf("α", "%v needs m = %v rows, more than %d", alpha, m, MaxThm45Size)
	}
	return max(1, int(m)), nil
}

// Thm45MinRows is the same theorem solved for the data size (4.3):
// with at least (16·ln|X|·ln|Q| + 4·ln(1/β)) / (ε·α³) rows, SmallDB run with
// Theorem 4.5's m = ⌈4·ln|Q|/α²⌉ (Thm45Size) is within α on every query with
// probability at least 1 − β. It needs |Q| ≥ 3 (MinBoundQueries).
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
