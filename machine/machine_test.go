package machine

import (
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/stats"
)

const pFalse = 1e-6

var meeting = []float64{21, 27, 25, 12, 18}

func newMachine(t *testing.T, cfg Config) *Machine {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func twoLanes() Config {
	return Config{
		Mechanisms: []string{mech.NameExponential, mech.NameReportNoisyMaxLaplace},
		Scores:     meeting, Epsilon: 0.5, Sensitivity: 1, Seed: 9, Speed: 2000, FallTime: 0.8,
	}
}

// run advances the machine in 60 Hz frames until every lane has landed n balls.
func run(m *Machine, n int) {
	for m.Lanes[0].Released < n {
		m.Advance(1.0 / 60)
	}
	m.SetPaused(true)
	for m.InFlight() > 0 {
		m.Advance(1.0 / 60)
	}
}

// The balls' landing counts pass chi-square against each lane's exact
// probabilities and fail against the other lane's: the two mechanisms
// really differ, so the test can tell them apart.
func TestLandingCountsMatchExactProbabilities(t *testing.T) {
	m := newMachine(t, twoLanes())
	m.SetSpeed(MaxSpeed)
	run(m, 60000)
	for i, l := range m.Lanes {
		if l.Landed != l.Released {
			t.Fatalf("lane %d: %d landed of %d released", i, l.Landed, l.Released)
		}
		r, err := stats.ChiSquare(l.Counts, l.Probs)
		if err != nil || r.PValue < pFalse {
			t.Errorf("%s: landing counts vs exact p = %g (%v)", l.Mechanism, r.PValue, err)
		}
		other := m.Lanes[1-i].Probs
		if r, _ := stats.ChiSquare(l.Counts, other); r.PValue >= pFalse {
			t.Errorf("%s: counts passed against the other mechanism too (p = %g)", l.Mechanism, r.PValue)
		}
	}
}

// After n balls the counts are the first n draws of rng.Seeded(seed), one
// Sample each: the page's and the figures' histogram for the same seed.
func TestCountsAreTheSeededStream(t *testing.T) {
	cfg := twoLanes()
	m := newMachine(t, cfg)
	run(m, 500)
	n := m.Lanes[0].Released
	for _, l := range m.Lanes {
		sel, _ := mech.New(l.Mechanism, mech.Config{Scores: meeting, Epsilon: cfg.Epsilon, Sensitivity: 1})
		r := rng.Seeded(cfg.Seed)
		want := make([]int, len(meeting))
		for k := 0; k < n; k++ {
			want[sel.Sample(r)]++
		}
		for i := range want {
			if want[i] != l.Counts[i] {
				t.Fatalf("%s: counts %v, seeded stream %v", l.Mechanism, l.Counts, want)
			}
		}
	}
	// Reset restarts the same stream.
	before := append([]int(nil), m.Lanes[0].Counts...)
	m.Reset()
	m.SetPaused(false)
	run(m, n)
	for i := range before {
		if m.Lanes[0].Counts[i] != before[i] {
			t.Fatalf("after reset %v, before %v", m.Lanes[0].Counts, before)
		}
	}
}

// A lane's factor scales its ε: report noisy max with Laplace noise at
// factor ½ lands as the mechanism at ε/2 (scale 2Δ/ε) and fails against ε.
func TestFactorScalesALanesEpsilon(t *testing.T) {
	cfg := twoLanes()
	cfg.Factors = []float64{1, 0.5}
	m := newMachine(t, cfg)
	m.SetSpeed(MaxSpeed)
	run(m, 60000)
	half, _ := mech.New(mech.NameReportNoisyMaxLaplace, mech.Config{Scores: meeting, Epsilon: cfg.Epsilon / 2, Sensitivity: 1})
	full, _ := mech.New(mech.NameReportNoisyMaxLaplace, mech.Config{Scores: meeting, Epsilon: cfg.Epsilon, Sensitivity: 1})
	l := m.Lanes[1]
	for i, p := range half.Probabilities() {
		if l.Probs[i] != p {
			t.Fatalf("lane probabilities %v, want the mechanism's at ε/2 %v", l.Probs, half.Probabilities())
		}
	}
	if r, err := stats.ChiSquare(l.Counts, half.Probabilities()); err != nil || r.PValue < pFalse {
		t.Errorf("counts vs ε/2: p = %g (%v)", r.PValue, err)
	}
	if r, _ := stats.ChiSquare(l.Counts, full.Probabilities()); r.PValue >= pFalse {
		t.Errorf("counts passed against ε too (p = %g)", r.PValue)
	}
	if got := m.Config().Factors; len(got) != 2 || got[1] != 0.5 {
		t.Errorf("config factors %v", got)
	}
}

func TestControls(t *testing.T) {
	m := newMachine(t, twoLanes())
	m.SetSpeed(120)
	m.Advance(0.25)
	m.Advance(0.25)
	if got := m.Lanes[0].Released; got != 60 {
		t.Errorf("120 balls/s for 0.5 s released %d, want 60", got)
	}
	if m.InFlight() != 120 {
		t.Errorf("in flight %d, want 120 (two lanes, none landed yet)", m.InFlight())
	}
	// Positions start near the middle and end inside their bin.
	for _, b := range m.Balls() {
		x, y := m.Position(b)
		if y < 0 || y > 1 || x < 0 || x > float64(len(meeting)) {
			t.Fatalf("ball at (%v, %v) outside the lane", x, y)
		}
	}
	m.SetPaused(true)
	for i := 0; i < 8; i++ {
		m.Advance(0.25)
	}
	released := m.Lanes[0].Released
	if m.InFlight() != 0 || m.Lanes[0].Landed != released {
		t.Errorf("paused: %d still in flight, %d landed of %d", m.InFlight(), m.Lanes[0].Landed, released)
	}
	m.Advance(1)
	if m.Lanes[0].Released != released {
		t.Errorf("paused machine released balls")
	}
	m.Step()
	if m.Lanes[0].Released != released+1 || m.Lanes[1].Released != released+1 || m.InFlight() != 2 {
		t.Errorf("step released %d/%d, in flight %d", m.Lanes[0].Released-released, m.Lanes[1].Released-released, m.InFlight())
	}
	b := m.Balls()[0]
	b.Age = m.Config().FallTime
	if x, y := m.Position(b); y != 1 || x < float64(b.Bin) || x > float64(b.Bin+1) {
		t.Errorf("a landing ball is at (%v, %v), not in bin %d", x, y, b.Bin)
	}
	// A hidden tab's long gap releases at most a quarter second's worth.
	m.SetPaused(false)
	before := m.Lanes[0].Released
	m.Advance(60)
	if got := m.Lanes[0].Released - before; got > 30 {
		t.Errorf("a 60 s gap released %d balls at 120/s", got)
	}
	// Reduced motion: balls land the moment they are drawn.
	if err := m.SetFallTime(0); err != nil {
		t.Fatal(err)
	}
	m.Advance(0.1)
	if m.InFlight() != 0 || m.Lanes[0].Landed != m.Lanes[0].Released {
		t.Errorf("fall time 0: %d in flight", m.InFlight())
	}
	m.Reset()
	if m.Lanes[0].Released != 0 || m.Lanes[0].Landed != 0 || m.InFlight() != 0 {
		t.Error("reset left balls behind")
	}
}

// 2,000 balls in flight: the load the browser budget is measured at.
func TestTwoThousandInFlight(t *testing.T) {
	cfg := twoLanes()
	cfg.Speed = 1250
	m := newMachine(t, cfg)
	for i := 0; i < 60; i++ {
		m.Advance(1.0 / 60)
	}
	if n := m.InFlight(); n < 1900 || n > 2100 {
		t.Errorf("%d balls in flight, want about 2000", n)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	good := twoLanes()
	for name, mod := range map[string]func(*Config){
		"no mechanism":     func(c *Config) { c.Mechanisms = nil },
		"three mechanisms": func(c *Config) { c.Mechanisms = []string{"exponential", "exponential", "exponential"} },
		"unknown":          func(c *Config) { c.Mechanisms = []string{"nope"} },
		"eps 0":            func(c *Config) { c.Epsilon = 0 },
		"no scores":        func(c *Config) { c.Scores = nil },
		"too fast":         func(c *Config) { c.Speed = MaxSpeed + 1 },
		"negative fall":    func(c *Config) { c.FallTime = -1 },
		"too many":         func(c *Config) { c.Scores = make([]float64, MaxCandidates+1) },
		"factor 0":         func(c *Config) { c.Factors = []float64{1, 0} },
		"factor 2":         func(c *Config) { c.Factors = []float64{2} },
		"three factors":    func(c *Config) { c.Factors = []float64{1, 1, 1} },
	} {
		c := good
		mod(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func BenchmarkAdvance2000(b *testing.B) {
	cfg := twoLanes()
	cfg.Speed = 1250
	m, _ := New(cfg)
	for i := 0; i < 60; i++ {
		m.Advance(1.0 / 60)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Advance(1.0 / 60)
	}
}
