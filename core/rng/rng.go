// Package rng holds the sources of randomness that every mechanism in dpplay
// takes explicitly, and the noise distributions built on them.
//
// Two kinds of source exist. Seeded sources are reproducible: the same seed
// gives the same stream natively and under GOOS=js, which is what lets a
// lesson's URL reproduce a histogram bit for bit. The cryptographic source,
// the default wherever a result is meant to protect someone, is in the
// subpackage osrand, so that modules which never use it do not link it.
package rng

import (
	"encoding/binary"
	mrand "math/rand/v2"
)

// NewSeededSource returns a ChaCha8 stream keyed by seed. The 64-bit seed is
// spread over the 32-byte key with a SplitMix64 sequence so that nearby seeds
// give unrelated streams. SmallDB's stepper draws from one
// directly; the page's other draws, in every lesson, come through Seeded.
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

// Seeded returns a reproducible generator, rand.New(NewSeededSource(seed)):
// the same seed gives the same stream on every platform, so a page's URL,
// which holds the seed, reproduces its draws.
func Seeded(seed uint64) *mrand.Rand { return mrand.New(NewSeededSource(seed)) }

// OpenUnit returns a uniform draw from the open interval (0, 1): one of the
// 2^53 − 1 values k·2^-53 with k ≥ 1. Noise samplers need the open interval
// because they take logarithms of it. The floating-point attack
// (mech.NaiveLaplaceCouldOutput) inverts exactly this grid.
func OpenUnit(r *mrand.Rand) float64 {
	for {
		if k := r.Uint64() >> 11; k != 0 {
			return float64(k) / (1 << 53)
		}
	}
}
