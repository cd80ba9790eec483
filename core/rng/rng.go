// Package rng holds the sources of randomness that every mechanism in dpplay
// takes explicitly, and the noise distributions built on them.
//
// Two kinds of source exist. Seeded sources are reproducible: the same seed
// gives the same stream natively and under GOOS=js, which is what lets a
// lesson's URL reproduce a histogram bit for bit. Crypto sources read the
// operating system's generator (crypto.getRandomValues in a browser) and are
// the default wherever a result is meant to protect someone.
package rng

import (
	"crypto/rand"
	"encoding/binary"
	mrand "math/rand/v2"
)

// NewSeededSource returns a ChaCha8 stream keyed by seed. The 64-bit seed is
// spread over the 32-byte key with a SplitMix64 sequence so that nearby seeds
// give unrelated streams.
func NewSeededSource(seed uint64) *mrand.ChaCha8 {
	var key [32]byte
	x := seed
	for i := 0; i < 4; i++ {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		binary.LittleEndian.PutUint64(key[8*i:], z^(z>>31))
	}
	return mrand.NewChaCha8(key)
}

// Seeded returns a reproducible generator for lessons, tests and scripts.
func Seeded(seed uint64) *mrand.Rand { return mrand.New(NewSeededSource(seed)) }

// cryptoSource adapts crypto/rand to math/rand/v2's Source. It buffers 64
// words per read because each read is a system call (or a JS call in wasm).
type cryptoSource struct {
	buf [512]byte
	pos int
}

func (s *cryptoSource) Uint64() uint64 {
	if s.pos == 0 || s.pos >= len(s.buf) {
		// crypto/rand.Read never returns an error on supported platforms
		// (Go 1.24+ crashes the program instead of returning a weak value).
		rand.Read(s.buf[:])
		s.pos = 0
	}
	v := binary.LittleEndian.Uint64(s.buf[s.pos:])
	s.pos += 8
	return v
}

// Crypto returns a generator backed by the operating system's cryptographic
// source. It is not safe for concurrent use; make one per goroutine.
func Crypto() *mrand.Rand { return mrand.New(&cryptoSource{}) }

// OpenUnit returns a uniform draw from the open interval (0, 1): one of the
// 2^53 − 1 values k·2^-53 with k ≥ 1. Noise samplers need the open interval
// because they take logarithms of it.
func OpenUnit(r *mrand.Rand) float64 {
	for {
		if k := r.Uint64() >> 11; k != 0 {
			return float64(k) / (1 << 53)
		}
	}
}
