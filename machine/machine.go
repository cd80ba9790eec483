// Package machine is the simulation behind the sampling machine: balls are
// draws of a selection mechanism that drop into their
// candidates' bins, so a student watches the histogram converge on the exact
// probabilities. It holds the queue of draws, the balls' positions and the
// counts; it has no graphics, so it is tested natively. wasm/machine draws
// it with ebiten.
//
// Every ball's bin is drawn when the ball is released, from the lane's own
// stream rng.Seeded(seed), one Sample per ball: once the first n balls have
// landed, the counts are exactly those of the page's histogram (app/selection)
// and of `dpplay figures` for the same seed and n draws.
package machine

import (
	"math"
	mrand "math/rand/v2"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/validate"
)

// Limits that keep a hand-edited message from stalling the page.
const (
	MaxSpeed      = 5000 // balls per second per lane
	MaxCandidates = 64
	MaxFallTime   = 10 // seconds
	maxStep       = 0.25
)

// Config describes a machine: one or two mechanisms run side by side on the
// same scores with the same Δ and seed, each at its factor times ε.
type Config struct {
	Mechanisms []string // one or two of mech.Names(), e.g. exponential and report-noisy-max-laplace
	// Factors[i] scales ε for lane i (1 when Factors is shorter): 0.5 runs
	// report noisy max with Laplace noise at scale 2Δ/ε, ε-private under
	// change-one-answer neighbours, where scale Δ/ε is only 2ε-private.
	Factors     []float64
	Scores      []float64
	Epsilon     float64 // ε of the ε/(2Δ) form
	Sensitivity float64 // Δ
	Seed        uint64
	Speed       float64 // balls released per second in each lane
	FallTime    float64 // seconds from release to landing; 0 lands at once (reduced motion)
}

// DefaultConfig is the machine a page opens with: the exponential
// mechanism beside report noisy max with Laplace noise on five scores.
func DefaultConfig() Config {
	return Config{
		Mechanisms: []string{mech.NameExponential, mech.NameReportNoisyMaxLaplace},
		Scores:     []float64{21, 27, 25, 12, 18},
		Epsilon:    1, Sensitivity: 1, Seed: 1, Speed: 60, FallTime: 1,
	}
}

// Ball is one draw in flight.
type Ball struct {
	Lane, Bin int
	Age       float64 // seconds since release
	seq       uint64
}

// Lane is one mechanism's column of bins.
type Lane struct {
	Mechanism string
	Probs     []float64 // exact output probabilities
	Counts    []int     // balls landed in each bin
	Landed    int
	Released  int
	sel       mech.Selector
	r         *mrand.Rand
}

// Machine is the running simulation.
type Machine struct {
	cfg    Config
	Lanes  []*Lane
	balls  []Ball
	paused bool
	owed   float64 // fractional balls due in each lane
	seq    uint64
}

// New validates cfg and builds the machine, empty and running.
func New(cfg Config) (*Machine, error) {
	if n := len(cfg.Mechanisms); n < 1 || n > 2 {
		return nil, validate.Errorf("mechanisms", "needs one or two mechanisms, got %d", n)
	}
	if len(cfg.Scores) > MaxCandidates {
		return nil, validate.Errorf("scores", "has %d candidates; the machine shows at most %d", len(cfg.Scores), MaxCandidates)
	}
	if err := checkSpeed(cfg.Speed); err != nil {
		return nil, err
	}
	if !(cfg.FallTime >= 0 && cfg.FallTime <= MaxFallTime) {
		return nil, validate.Errorf("fall time", "must be in [0, %d] seconds, got %v", MaxFallTime, cfg.FallTime)
	}
	m := &Machine{cfg: cfg}
	m.cfg.Scores = append([]float64(nil), cfg.Scores...)
	m.cfg.Mechanisms = append([]string(nil), cfg.Mechanisms...)
	m.cfg.Factors = append([]float64(nil), cfg.Factors...)
	if len(cfg.Factors) > len(cfg.Mechanisms) {
		return nil, validate.Errorf("factors", "has %d entries for %d mechanisms", len(cfg.Factors), len(cfg.Mechanisms))
	}
	for i, name := range cfg.Mechanisms {
		f := 1.0
		if i < len(cfg.Factors) {
			f = cfg.Factors[i]
		}
		if !(f > 0 && f <= 1) {
			return nil, validate.Errorf("factors", "must be in (0, 1], got %v", f)
		}
		sel, err := mech.New(name, mech.Config{Scores: m.cfg.Scores, Epsilon: f * cfg.Epsilon, Sensitivity: cfg.Sensitivity})
		if err != nil {
			return nil, err
		}
		m.Lanes = append(m.Lanes, &Lane{Mechanism: name, Probs: sel.Probabilities(), sel: sel})
	}
	m.Reset()
	return m, nil
}

func checkSpeed(v float64) error {
	if !(v >= 0 && v <= MaxSpeed) {
		return validate.Errorf("speed", "must be in [0, %d] balls per second, got %v", MaxSpeed, v)
	}
	return nil
}

// Config returns the machine's configuration (with its current speed).
func (m *Machine) Config() Config { return m.cfg }

// Reset empties the bins and restarts every lane's stream from the seed.
func (m *Machine) Reset() {
	for _, l := range m.Lanes {
		l.Counts = make([]int, len(m.cfg.Scores))
		l.Landed, l.Released = 0, 0
		l.r = rng.Seeded(m.cfg.Seed)
	}
	m.balls = m.balls[:0]
	m.owed = 0
	m.seq = 0
}

// SetSpeed changes how many balls each lane releases per second.
func (m *Machine) SetSpeed(v float64) error {
	if err := checkSpeed(v); err != nil {
		return err
	}
	m.cfg.Speed = v
	return nil
}

// SetFallTime changes how long a ball falls; 0 shows counts without motion.
func (m *Machine) SetFallTime(v float64) error {
	if !(v >= 0 && v <= MaxFallTime) {
		return validate.Errorf("fall time", "must be in [0, %d] seconds, got %v", MaxFallTime, v)
	}
	m.cfg.FallTime = v
	if v == 0 {
		m.landAll()
	}
	return nil
}

// SetPaused stops or resumes the release of new balls; balls already in
// flight still land, so the counts settle while paused.
func (m *Machine) SetPaused(p bool) { m.paused = p }

// Paused reports whether the machine is paused.
func (m *Machine) Paused() bool { return m.paused }

// Step releases exactly one ball in every lane, paused or not.
func (m *Machine) Step() {
	for i := range m.Lanes {
		m.release(i)
	}
}

// Advance moves time on by dt seconds: it releases the balls due at the
// current speed and moves and lands those in flight. A long gap (a hidden
// tab) counts as at most a quarter of a second, so nothing floods.
func (m *Machine) Advance(dt float64) {
	if !(dt > 0) {
		return
	}
	dt = math.Min(dt, maxStep)
	keep := m.balls[:0]
	for _, b := range m.balls {
		b.Age += dt
		if b.Age >= m.cfg.FallTime {
			m.land(b)
		} else {
			keep = append(keep, b)
		}
	}
	m.balls = keep
	if m.paused {
		return
	}
	m.owed += m.cfg.Speed * dt
	n := int(m.owed)
	m.owed -= float64(n)
	for k := 0; k < n; k++ {
		for i := range m.Lanes {
			m.release(i)
		}
	}
}

// release draws the lane's next candidate and drops its ball.
func (m *Machine) release(lane int) {
	l := m.Lanes[lane]
	b := Ball{Lane: lane, Bin: l.sel.Sample(l.r), seq: m.seq}
	m.seq++
	l.Released++
	if m.cfg.FallTime == 0 {
		m.land(b)
		return
	}
	m.balls = append(m.balls, b)
}

func (m *Machine) land(b Ball) {
	l := m.Lanes[b.Lane]
	l.Counts[b.Bin]++
	l.Landed++
}

func (m *Machine) landAll() {
	for _, b := range m.balls {
		m.land(b)
	}
	m.balls = m.balls[:0]
}

// Balls returns the balls in flight; the slice is reused by the next Advance.
func (m *Machine) Balls() []Ball { return m.balls }

// InFlight returns how many balls are falling.
func (m *Machine) InFlight() int { return len(m.balls) }

// Position returns where ball b is, in lane coordinates: x in [0, bins],
// bin i spanning [i, i+1), and y from 0 (the release point, above the
// middle of the lane) to 1 (the top of the bins). It falls from rest under
// constant gravity, y = (age/T)², and drifts to a spot inside its bin that
// depends only on its sequence number, so two runs look the same.
func (m *Machine) Position(b Ball) (x, y float64) {
	bins := float64(len(m.cfg.Scores))
	h := splitmix(b.seq)
	jitterStart := (float64(h&0xffff)/0xffff - 0.5) * 0.6
	spot := 0.15 + 0.7*float64((h>>16)&0xffff)/0xffff
	t := 1.0
	if m.cfg.FallTime > 0 {
		t = math.Min(b.Age/m.cfg.FallTime, 1)
	}
	x0 := bins/2 + jitterStart
	x1 := float64(b.Bin) + spot
	s := t * t * (3 - 2*t) // smoothstep: leaves the funnel slowly, settles gently
	return x0 + (x1-x0)*s, t * t
}

// splitmix is SplitMix64's finaliser: a fixed, well-mixed hash of a ball's
// sequence number for its looks, kept apart from the draw stream.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
