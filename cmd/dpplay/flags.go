package main

import (
	mrand "math/rand/v2"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/rng/osrand"
)

// parseNumberList reads a comma-separated list of numbers.
func parseNumberList(flagName, s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	out := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, usagef("%s: entry %d, %q, is not a number", flagName, i+1, p)
		}
		out[i] = v
	}
	return out, nil
}

// seededOrCrypto returns a seeded generator for a given -seed, or the
// cryptographic source when the flag is empty.
func seededOrCrypto(seed string) (*mrand.Rand, *uint64, error) {
	if seed == "" {
		return osrand.New(), nil, nil
	}
	s, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return nil, nil, usagef("-seed must be a whole number from 0 to 2^64−1, got %q", seed)
	}
	return rng.Seeded(s), &s, nil
}
