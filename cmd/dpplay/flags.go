package main

import (
	"flag"
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

// seedFlag defines -seed on fs. The function it returns, called after
// parsing, gives a generator seeded with -seed and the seed, or without
// -seed the cryptographic source and nil.
func seedFlag(fs *flag.FlagSet) func() (*mrand.Rand, *uint64, error) {
	seed := fs.String("seed", "", "seed for a reproducible run; omitted, the cryptographic source is used")
	return func() (*mrand.Rand, *uint64, error) {
		if *seed == "" {
			return osrand.New(), nil, nil
		}
		s, err := strconv.ParseUint(*seed, 10, 64)
		if err != nil {
			return nil, nil, usagef("-seed must be a whole number from 0 to 2^64−1, got %q", *seed)
		}
		return rng.Seeded(s), &s, nil
	}
}
