package audit

import (
	"errors"

	"github.com/dpplay/dpplay/core/validate"
)

// A Reader is who reads an audit's input errors: the command line, whose
// messages name its flags, or the auditor widget, whose messages name its
// controls by their visible labels. Every message is written out in full
// for each reader, so that neither wording is joined from pieces.
type Reader int

const (
	CommandLine Reader = iota // `dpplay audit`: "lower -max-count or -candidates"
	Page                      // the auditor widget: "lower “Largest count m” or “Candidates k”"
)

// A setting is one input of an audit as each reader names it: the command
// line by its flag (cmd/dpplay/audit.go), the page by its control's label
// (web/widgets/audit.js).
type setting struct{ flag, control string }

var (
	mechanismSetting   = setting{"mechanism", "Mechanism"}
	neighboursSetting  = setting{"neighbours", "Neighbours"}
	epsilonSetting     = setting{"ε (epsilon)", "ε (epsilon) claimed"}
	candidatesSetting  = setting{"candidates", "Candidates k"}
	maxCountSetting    = setting{"max-count", "Largest count m"}
	universeSetting    = setting{"universe", "Universe"}
	measureSetting     = setting{"measure μ", "Base measure μ"}
	scoreSetting       = setting{"score", "Score u(x, r)"}
	sensitivitySetting = setting{"sensitivity", "Claimed sensitivity Δ"}
	deltaSetting       = setting{"Δ (sensitivity)", "Claimed sensitivity Δ"}
)

// An InputError is a refused audit in the words of each reader. Error and
// Unwrap give the command line's, so errors.As finds a *validate.Error in
// it; In gives either.
type InputError struct {
	commandLine, page *validate.Error
}

// Error returns the command line's message.
func (e *InputError) Error() string { return e.commandLine.Error() }

// Unwrap returns the command line's message as a *validate.Error.
func (e *InputError) Unwrap() error { return e.commandLine }

// In returns the message r reads.
func (e *InputError) In(r Reader) *validate.Error {
	if r == Page {
		return e.page
	}
	return e.commandLine
}

// For returns err as r reads it: the *validate.Error of r's wording when
// err is (or wraps) an *InputError, and err itself otherwise.
func For(err error, r Reader) error {
	var in *InputError
	if errors.As(err, &in) {
		return in.In(r)
	}
	return err
}

// refuse returns an *InputError about s whose reason is the same for both
// readers: one that names no setting.
func refuse(s setting, format string, args ...any) error {
	return refuseEach(s, format, format, args...)
}

// refuseEach returns an *InputError about s with a reason written for each
// reader, both formats taking the same args.
func refuseEach(s setting, commandLine, page string, args ...any) error {
	cl := validate.Errorf(s.flag, commandLine, args...).(*validate.Error)
	pg := validate.Errorf(s.control, page, args...).(*validate.Error)
	return &InputError{commandLine: cl, page: pg}
}

// about returns err, a check's *validate.Error, as an *InputError about s
// with the same reason; nil stays nil, and any other error is returned as
// it is.
func about(s setting, err error) error {
	var v *validate.Error
	if !errors.As(err, &v) {
		return err
	}
	return &InputError{commandLine: &validate.Error{Param: s.flag, Reason: v.Reason}, page: &validate.Error{Param: s.control, Reason: v.Reason}}
}
