// Package osrand is the cryptographic source of randomness: a
// math/rand/v2 generator that reads the operating system's generator
// (crypto/rand natively, crypto.getRandomValues in a browser or worker).
// It is the default wherever a release is meant to protect someone: the
// command line without -seed and the lecture server.
//
// It lives apart from package rng so that a program that only ever draws
// from seeded sources, like the page's first-load WebAssembly module, does
// not link crypto/rand: that would cost about 57 KB of the 1 MB gzip budget.
package osrand

import (
	"crypto/rand"
	"encoding/binary"
	mrand "math/rand/v2"
)

// source adapts crypto/rand to math/rand/v2's Source. It buffers 64 words
// per read because each read is a system call (or a JS call in wasm).
type source struct {
	buf [512]byte
	pos int
}

// Uint64 returns the next 64 bits from the operating system's generator,
// reading 512 bytes when the buffer is used up.
func (s *source) Uint64() uint64 {
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

// New returns a generator backed by the operating system's cryptographic
// source, for releases that must not be reproducible (the live lecture, the
// command line without -seed). It is not safe for concurrent
// use; make one per goroutine.
func New() *mrand.Rand { return mrand.New(&source{}) }
