package selection

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// MaxDraws bounds one stream, so a hand-edited URL cannot ask the page for a
// billion draws.
const MaxDraws = 10_000_000

// maxSlots bounds the streams kept in memory; beyond it the oldest is dropped
// and recomputed from its seed if it is asked for again.
const maxSlots = 64

type stream struct {
	key     string
	seed    uint64
	sel     mech.Selector
	r       *mrand.Rand
	counts  []float64
	n       int
	lastUse uint64
}

// Streams is a cache of one page's draw streams, one per widget slot, and of
// the mechanisms they draw from.
type Streams struct {
	streams map[string]*stream
	sels    map[string]mech.Selector
	clock   uint64
}

// New returns an empty Streams.
func New() *Streams {
	return &Streams{streams: map[string]*stream{}, sels: map[string]mech.Selector{}}
}

// selector builds (or reuses) the mechanism for q: report noisy max with
// Laplace noise integrates numerically, so it is worth keeping.
func (c *Streams) selector(q Request) (mech.Selector, string, error) {
	k := q.key()
	if s, ok := c.sels[k]; ok {
		return s, k, nil
	}
	s, err := mech.New(q.Mechanism, q.config())
	if err != nil {
		return nil, "", err
	}
	if len(c.sels) >= maxSlots {
		clear(c.sels)
	}
	c.sels[k] = s
	return s, k, nil
}

// Probabilities returns the exact output distribution of q's mechanism.
func (c *Streams) Probabilities(q Request) ([]float64, error) {
	s, _, err := c.selector(q)
	if err != nil {
		return nil, err
	}
	return s.Probabilities(), nil
}

// Draws returns how often each candidate was chosen in the first n draws
// of the stream rng.Seeded(seed) for q, continuing the slot's previous
// stream when it is the same problem and seed and n has not shrunk.
func (c *Streams) Draws(slot string, q Request, seed uint64, n int) ([]float64, error) {
	if n < 0 || n > MaxDraws {
		return nil, validate.Errorf("draws", "must be between 0 and %d, got %d", MaxDraws, n)
	}
	sel, k, err := c.selector(q)
	if err != nil {
		return nil, err
	}
	c.clock++
	st := c.streams[slot]
	if st == nil || st.key != k || st.seed != seed || st.n > n {
		st = &stream{key: k, seed: seed, sel: sel, r: rng.Seeded(seed), counts: make([]float64, len(q.Scores))}
		c.evict()
		c.streams[slot] = st
	}
	st.lastUse = c.clock
	for ; st.n < n; st.n++ {
		st.counts[st.sel.Sample(st.r)]++
	}
	return append([]float64(nil), st.counts...), nil
}

func (c *Streams) evict() {
	if len(c.streams) < maxSlots {
		return
	}
	oldest, t := "", uint64(math.MaxUint64)
	for k, s := range c.streams {
		if s.lastUse < t {
			oldest, t = k, s.lastUse
		}
	}
	delete(c.streams, oldest)
}
