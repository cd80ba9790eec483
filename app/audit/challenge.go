package audit

import (
	"math"

	"github.com/dpplay/dpplay/app/challenge"
	"github.com/dpplay/dpplay/core/audit"
	"github.com/dpplay/dpplay/core/numeric"
	"github.com/dpplay/dpplay/core/validate"
)

// A Challenge gives a mistake from the gallery and asks for a pair of
// neighbouring data sets and one output whose privacy loss exceeds the
// claimed ε: the student's own counterexample, checked exactly.
type Challenge struct {
	ID, Title, Task, Hint string
	Config                audit.Config
	// X and Y are the pair the page starts from (one that keeps the claim);
	// AnswerX, AnswerY and Answer a pair and output that break the claim.
	X, Y, AnswerX, AnswerY []int
	Answer                 int
}

// Challenges returns the auditor lesson's challenges, in its order.
func Challenges() []Challenge {
	find := func(id string) audit.Config {
		for _, e := range audit.Gallery() {
			if e.ID == id {
				return e.Claim
			}
		}
		return audit.Config{}
	}
	return []Challenge{
		{ID: "gallery-twice", Title: "Twice the count, Δ kept at 1", Config: find("twice"),
			Task: "The exponential mechanism with score 2·count[r] and Δ = 1 claims ε = 1 for change-one neighbours. Give two neighbouring count vectors (one person moves) and a candidate whose probabilities differ by more than a factor e.",
			Hint: "A person who moves to candidate r raises its score by 2 and lowers another's by 2. Move one person into candidate 0 and ask about candidate 0.",
			X:    []int{0, 0, 1}, Y: []int{0, 1, 0}, AnswerX: []int{1, 0, 2}, AnswerY: []int{0, 0, 3}, Answer: 0},
		{ID: "gallery-gap", Title: "The lead over the next option", Config: find("gap"),
			Task: "The score count[r] − count[r+1] with Δ = 1 claims ε = 1 for change-one neighbours. Give two neighbouring count vectors and a candidate whose log-probabilities differ by more than 1.",
			Hint: "Move a person from option r+1 to option r: r's lead grows by 2 while the other leads fall. Try x = (0, 1, 2) and x′ = (0, 0, 3) and look at each candidate.",
			X:    []int{0, 0, 1}, Y: []int{0, 1, 0}, AnswerX: []int{0, 1, 2}, AnswerY: []int{0, 0, 3}, Answer: 1},
	}
}

// FindChallenge returns the challenge with the given id.
func FindChallenge(id string) (Challenge, error) {
	return challenge.Find(Challenges(), func(c Challenge) string { return c.ID }, id)
}

// Try computes the privacy loss of candidate output on the pair (x, x′),
// which must be neighbours under the challenge's notion: the output's
// log-probabilities under x and x′ and |ln P − ln P′|.
func (c Challenge) Try(x, y []int, output int) (challenge.Attempt, error) {
	a, err := audit.New(c.Config)
	if err != nil {
		return challenge.Attempt{}, audit.For(err, audit.Page)
	}
	if err := neighbours(x, y, c.Config); err != nil {
		return challenge.Attempt{}, err
	}
	if output < 0 || output >= c.Config.Candidates {
		return challenge.Attempt{}, validate.Errorf("output", "must be a candidate from 0 to %d, got %d", c.Config.Candidates-1, output)
	}
	lp, err := a.LogProbabilities(x)
	if err != nil {
		return challenge.Attempt{}, err
	}
	lq, err := a.LogProbabilities(y)
	if err != nil {
		return challenge.Attempt{}, err
	}
	p, q := lp[output], lq[output]
	at := challenge.Attempt{LogP: p, LogQ: q, Loss: math.Abs(p - q)}
	if p <= numeric.LogZero || q <= numeric.LogZero {
		at.Loss = math.Inf(1)
	}
	at.Breaks = !audit.Holds(at.Loss, c.Config.Epsilon)
	return at, nil
}

// neighbours checks that x and y are count vectors of the universe and
// neighbours under c's notion.
func neighbours(x, y []int, c audit.Config) error {
	if len(x) != c.Candidates || len(y) != c.Candidates {
		return validate.Errorf("pair", "needs %d counts in each data set", c.Candidates)
	}
	for i := range x {
		for _, v := range []int{x[i], y[i]} {
			if v < 0 || v > c.MaxCount {
				return validate.Errorf(validate.Index("pair", i), "counts must be between 0 and %d, got %d", c.MaxCount, v)
			}
		}
	}
	switch {
	case audit.AreNeighbours(x, y, c.Neighbours):
	case c.Neighbours == audit.ChangeOne:
		return validate.Errorf("pair", "x and x′ are not change-one neighbours: one person must move, so one count falls by 1 and another rises by 1")
	default:
		return validate.Errorf("pair", "x and x′ are not add-remove neighbours: exactly one count must differ, by 1")
	}
	return nil
}
