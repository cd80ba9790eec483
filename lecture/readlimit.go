package lecture

import (
	"encoding/json"
	"sync"
	"time"
)

// buckets is a token bucket per client key: each holds up to burst tokens
// and gains rate a second. It lives in memory: under `dpplay serve` one
// process sees every request, and on Workers each isolate's long-lived
// instance keeps its own (a best effort there; Cloudflare's own rate
// limiting rules are the stronger tool). Keys unseen for a minute are
// dropped, and at most maxKeys are kept, so a flood of addresses cannot
// grow it without bound.
type buckets struct {
	rate, burst float64
	now         func() time.Time

	mu     sync.Mutex
	keys   map[string]*bucket
	pruned time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

const maxKeys = 100_000

func newBuckets(rate, burst float64, now func() time.Time) *buckets {
	return &buckets{rate: rate, burst: burst, now: now, keys: map[string]*bucket{}}
}

// take removes one token from key's bucket if it holds one, and reports
// whether it did.
func (b *buckets) take(key string) bool { return b.spend(key, 1, true) }

// charge removes cost tokens from key's bucket, taking it below zero if it
// must: a large reply is paid for by the reads after it.
func (b *buckets) charge(key string, cost float64) { b.spend(key, cost, false) }

func (b *buckets) spend(key string, cost float64, ifAny bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if now.Sub(b.pruned) > time.Minute || len(b.keys) >= maxKeys {
		for k, x := range b.keys {
			if now.Sub(x.at) > time.Minute || len(b.keys) >= maxKeys {
				delete(b.keys, k)
			}
		}
		b.pruned = now
	}
	x := b.keys[key]
	if x == nil {
		x = &bucket{tokens: b.burst, at: now}
		b.keys[key] = x
	}
	x.tokens = min(b.burst, x.tokens+now.Sub(x.at).Seconds()*b.rate)
	x.at = now
	if ifAny && x.tokens < 1 {
		return false
	}
	x.tokens -= cost
	return true
}

// Memory is what a handler keeps between requests (Options.Memory).
type Memory struct {
	once     sync.Once
	reads    *buckets
	writes   *buckets
	students *buckets
	class    chan struct{} // a slot per class answer writing (ClassWriters)
	secret   []byte        // the key of client tags (Options.ClientSecret)
	replies  replies
}

// NewMemory returns an empty Memory. The first handler built with it sets
// its read and write limits.
func NewMemory() *Memory { return &Memory{} }

// rawJSON is a reply already encoded, newline included.
type rawJSON []byte

// replies keeps the encoded replies of recent polls, each for the session
// version it was made at: a session's version goes up with every change a
// poll shows, so a reply kept for the current version is the reply, and a
// flood of polls of a large session costs one encoding per change. At most
// maxReplies are kept; past that, any one is dropped.
type replies struct {
	mu sync.Mutex
	m  map[string]keptReply
}

type keptReply struct {
	version int64
	body    rawJSON
}

const maxReplies = 256

// get returns the reply kept for key at version, or nil.
func (c *replies) get(key string, version int64) rawJSON {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[key]; ok && r.version == version {
		return r.body
	}
	return nil
}

// encode returns v encoded, and keeps it for key at version.
func (c *replies) encode(key string, version int64, v any) (rawJSON, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]keptReply{}
	}
	if _, ok := c.m[key]; !ok && len(c.m) >= maxReplies {
		for k := range c.m {
			delete(c.m, k)
			break
		}
	}
	c.m[key] = keptReply{version, b}
	return b, nil
}
