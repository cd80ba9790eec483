package number

import "math"

// MaxDecimals is the most decimals an exercise may ask for.
const MaxDecimals = 5

// Gives reports whether x, a number a person typed, gives the answer target
// at the precision an exercise asks for; web/base/number.js (givesAnswer) is the
// same rule for the page. With decimals from 1 to MaxDecimals, x must round
// to target's rounding at that many decimals, both rounded half up as
// ⌊v·10^decimals + 1/2⌋, so that 0.1666 and 0.167 give 1/6 at three decimals
// while 0.166 and 0.168 do not; with decimals 0 (a whole number or an exact
// value) x must be target. Either way target itself, typed in full or in an
// exact form such as 1/6, gives it: "equal" allows a relative 10⁻⁹, the
// error of typing a value to ten significant figures.
func Gives(x, target float64, decimals int) bool {
	if math.Abs(x-target) <= 1e-9*math.Max(1, math.Abs(target)) {
		return true
	}
	if decimals < 1 || decimals > MaxDecimals {
		return false
	}
	s := math.Pow(10, float64(decimals))
	return math.Floor(x*s+0.5) == math.Floor(target*s+0.5)
}
