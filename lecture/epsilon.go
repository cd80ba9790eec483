package lecture

import (
	"math"
	"strconv"
)

// EpsilonUnit is the quantum of the ε ledger: budgets and releases are
// whole numbers of millionths, kept as integers, so that the check that a
// release fits the budget is exact. Summing floating-point ε let releases
// of 5e-324, 1e-17 and 1e-9 pass a spent budget of 3 (issue 28): each
// vanished in the rounding of the sum or in its tolerance.
const EpsilonUnit = 1e-6

// unitsPer is 1/EpsilonUnit.
const unitsPer = 1_000_000

// Units reads ε as a whole number of EpsilonUnits: x must be positive and
// within 10⁻¹² of a multiple of the unit (0.1 + 0.2 is 300,000 units; 1e-9
// and 0.0000015 are refused), so that what is charged is what was asked.
func Units(x float64) (int64, bool) {
	if !(x > 0) || x > math.MaxInt32 {
		return 0, false
	}
	u := math.Round(x * unitsPer)
	if u < 1 || math.Abs(x*unitsPer-u) > 1e-6 {
		return 0, false
	}
	return int64(u), true
}

// Epsilon is the ε of u units, the double nearest to u·10⁻⁶.
func Epsilon(u int64) float64 {
	// Parsing the decimal gives the nearest double; u/1e6 in floating
	// point can land one ulp away.
	f, _ := strconv.ParseFloat(strconv.FormatInt(u, 10)+"e-6", 64)
	return f
}
