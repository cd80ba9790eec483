// Package challenge holds what the auditor lessons' "break it" challenges
// share: the lookup by id and the exact verdict on a student's attempt.
// It imports only core/validate, so each lesson's WebAssembly module links
// only the mechanisms of its own challenges.
package challenge

import "github.com/dpplay/dpplay/core/validate"

// Find returns the challenge of all whose id (as id reads it) is want, or an
// error on the field "challenge" when there is none.
func Find[C any](all []C, id func(C) string, want string) (C, error) {
	for _, c := range all {
		if id(c) == want {
			return c, nil
		}
	}
	var none C
	return none, validate.Errorf("challenge", "unknown challenge %q", want)
}

// An Attempt is the exact verdict on a student's pair and output.
type Attempt struct {
	// LogP and LogQ are ln Pr[output | x] and ln Pr[output | x′] (−Inf when
	// impossible); Loss is |LogP − LogQ| (+Inf when one is impossible).
	LogP, LogQ, Loss float64
	// Breaks reports whether Loss exceeds the claimed ε.
	Breaks bool
}
