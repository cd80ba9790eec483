package market

import (
	"math/bits"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/rng"
)

// Node is one released count of Allocate's demand counter: the sum of the
// demand over rounds Start..End (1-based, inclusive), a dyadic block of
// length 2^Level for the tree or a single round, with Laplace noise of scale
// b on every coordinate (Noisy = Exact + Lap(b)).
type Node struct {
	Level, Start, End int
	Exact, Noisy      []float64
}

// treeCounter is the binary mechanism for continual counting (Dwork, Naor,
// Pitassi and Rothblum 2010; Chan, Shi and Song 2011) over k-dimensional
// streams. The prefix sum at round t adds one released node per set bit of t,
// so it carries at most L = bits.Len(T) noise terms, and each round's input
// enters exactly one node per level, so L Laplace mechanisms cover the whole
// stream.
type treeCounter struct {
	k     int
	noise rng.Laplace
	exact [][]float64 // partial sum held at each level
	noisy [][]float64 // its released, noisy value
	nodes []Node
}

func newTreeCounter(k, levels int, noise rng.Laplace) *treeCounter {
	c := &treeCounter{k: k, noise: noise, exact: make([][]float64, levels), noisy: make([][]float64, levels)}
	for l := range c.exact {
		c.exact[l] = make([]float64, k)
		c.noisy[l] = make([]float64, k)
	}
	return c
}

// add feeds round t's input x (t = 1, 2, …) and returns the noisy prefix sum
// of rounds 1..t.
func (c *treeCounter) add(t int, x []float64, r *mrand.Rand) []float64 {
	// Round t closes the node of level i = trailing zeros of t, which absorbs
	// all lower levels (they cover the rounds just before t).
	i := bits.TrailingZeros(uint(t))
	node := Node{Level: i, Start: t - (1 << i) + 1, End: t, Exact: make([]float64, c.k), Noisy: make([]float64, c.k)}
	for j := 0; j < c.k; j++ {
		s := x[j]
		for l := 0; l < i; l++ {
			s += c.exact[l][j]
			c.exact[l][j], c.noisy[l][j] = 0, 0
		}
		c.exact[i][j] = s
		c.noisy[i][j] = s + c.noise.Sample(r)
		node.Exact[j], node.Noisy[j] = s, c.noisy[i][j]
	}
	c.nodes = append(c.nodes, node)
	est := make([]float64, c.k)
	for l := 0; l < len(c.noisy); l++ {
		if t&(1<<l) != 0 {
			for j := range est {
				est[j] += c.noisy[l][j]
			}
		}
	}
	return est
}
