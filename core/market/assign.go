package market

import (
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// MaxAssignWork bounds n²·m for the exact assignment in OptimalWelfare
// (n buyers, m = copies + n columns): about a second natively. TeaMarket
// with 40 copies of each good (300 buyers, 3 × 40 copies) needs
// 300²·420 = 3.8·10⁷.
const MaxAssignWork = 200_000_000

// OptimalWelfare returns the largest welfare Σᵢ vᵢ(xᵢ) of any feasible
// allocation (each buyer at most one good, good j to at most sⱼ buyers) and
// one allocation attaining it (None for buyers left out): the non-private
// benchmark for Allocate. It solves the assignment problem exactly with the
// Hungarian algorithm (Kuhn–Munkres with potentials), buyers as rows and as
// columns min(sⱼ, n) copies of each good plus n "no good" columns of value 0.
func OptimalWelfare(values [][]float64, supply []int) (float64, []int, error) {
	n, k, err := checkMarket(values, supply)
	if err != nil {
		return 0, nil, err
	}
	m := n
	for _, s := range supply {
		m += min(s, n)
	}
	if float64(n)*float64(n)*float64(m) > MaxAssignWork {
		return 0, nil, validate.Errorf("values", "the exact optimum is only computed for small markets, not %d buyers × %d goods", n, k)
	}
	colGood := make([]int, 0, m)
	for j, s := range supply {
		for c := 0; c < min(s, n); c++ {
			colGood = append(colGood, j)
		}
	}
	for i := 0; i < n; i++ {
		colGood = append(colGood, None)
	}
	cost := func(i, c int) float64 {
		if g := colGood[c]; g != None {
			return -values[i][g]
		}
		return 0
	}
	// 1-based arrays as in the textbook formulation: row 0 and column 0 are
	// the virtual start of each augmenting path.
	u := make([]float64, n+1)
	v := make([]float64, m+1)
	match := make([]int, m+1) // match[c] = row assigned to column c
	way := make([]int, m+1)
	minv := make([]float64, m+1)
	used := make([]bool, m+1)
	for i := 1; i <= n; i++ {
		match[0] = i
		c0 := 0
		for c := range minv {
			minv[c], used[c] = math.Inf(1), false
		}
		for {
			used[c0] = true
			i0, delta, c1 := match[c0], math.Inf(1), 0
			for c := 1; c <= m; c++ {
				if used[c] {
					continue
				}
				if cur := cost(i0-1, c-1) - u[i0] - v[c]; cur < minv[c] {
					minv[c], way[c] = cur, c0
				}
				if minv[c] < delta {
					delta, c1 = minv[c], c
				}
			}
			for c := 0; c <= m; c++ {
				if used[c] {
					u[match[c]] += delta
					v[c] -= delta
				} else {
					minv[c] -= delta
				}
			}
			c0 = c1
			if match[c0] == 0 {
				break
			}
		}
		for c0 != 0 {
			c1 := way[c0]
			match[c0] = match[c1]
			c0 = c1
		}
	}
	alloc := make([]int, n)
	welfare := 0.0
	for c := 1; c <= m; c++ {
		if i := match[c]; i > 0 {
			alloc[i-1] = colGood[c-1]
			if g := colGood[c-1]; g != None {
				welfare += values[i-1][g]
			}
		}
	}
	return welfare, alloc, nil
}
