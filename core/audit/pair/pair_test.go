package pair

import (
	"math"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/core/internal/reference"
	"github.com/dpplay/dpplay/core/mech"
)

func near(a, b, tol float64) bool {
	if math.IsInf(a, 1) || math.IsInf(b, 1) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// Product integrals against quadrature, for every kind of factor.
func TestProductAgainstQuadrature(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		s := 0.5 + 3*r.Float64()
		dn := noise(r.IntN(2))
		fs := []factor{{part: density, noise: dn, at: 4*r.Float64() - 2, scale: 0.5 + 2*r.Float64()}}
		for k := r.IntN(6); k > 0; k-- {
			fs = append(fs, factor{part: part(1 + r.IntN(2)), noise: noise(r.IntN(2)), at: 6*r.Float64() - 3, scale: s})
		}
		eval := func(x float64) float64 {
			v := 1.0
			for _, f := range fs {
				z := x - f.at
				var pdf, cdfv float64
				if f.noise == laplace {
					pdf, cdfv = reference.LaplacePDF(z, f.scale), reference.LaplaceCDF(z, f.scale)
				} else if z >= 0 {
					pdf, cdfv = math.Exp(-z/f.scale)/f.scale, -math.Expm1(-z/f.scale)
				}
				switch f.part {
				case density:
					v *= pdf
				case cdf:
					v *= cdfv
				default:
					v *= 1 - cdfv
				}
			}
			return v
		}
		var kinks []float64
		for _, f := range fs {
			kinks = append(kinks, f.at)
		}
		p, err := newProduct(fs, math.Inf(-1), math.Inf(1))
		if err != nil {
			t.Fatal(err)
		}
		got, relErr := p.logTotal()
		want := quad(t, eval, -150, 150, kinks)
		if want == 0 {
			if !math.IsInf(got, -1) {
				t.Errorf("trial %d: %v, quadrature 0", trial, math.Exp(got))
			}
			continue
		}
		if !near(math.Exp(got), want, 1e-9) || relErr > 1e-9 {
			t.Errorf("trial %d: integral %.15g (rel. err. bound %g), quadrature %.15g", trial, math.Exp(got), relErr, want)
		}
		u := 4*r.Float64() - 2
		part, _, err := p.logUpTo(u)
		if err != nil {
			t.Fatal(err)
		}
		if w := quad(t, eval, -150, u, kinks); w > 1e-12 && !near(math.Exp(part), w, 1e-9) {
			t.Errorf("trial %d: integral up to %v is %.15g, quadrature %.15g", trial, u, math.Exp(part), w)
		}
	}
}

// The sparse vector variants the lesson and the benchmarks use, on small
// and benchmark-sized pairs.
func svtCases() []struct {
	name string
	m    SVT
	x, y []float64
} {
	v := func(k, c int, eps, t float64) SVT { l, _ := Lyu(k, eps, c, t); return l.SVT }
	x10 := []float64{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	y10 := []float64{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}
	return []struct {
		name string
		m    SVT
		x, y []float64
	}{
		{"Alg. 1, c = 1", v(1, 1, 0.1, 0.5), x10, y10},
		{"Alg. 1, c = 2, ε = 1", v(1, 2, 1, 2), []float64{1, 3, 2, 0, 4}, []float64{2, 2, 3, 1, 3}},
		{"Alg. 2, c = 2 (threshold redrawn)", v(2, 2, 1, 2), []float64{1, 3, 2, 0, 4}, []float64{2, 2, 3, 1, 3}},
		{"Alg. 4, c = 1", v(4, 1, 0.1, 1), []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []float64{2, 2, 2, 2, 2, 0, 0, 0, 0, 0}},
		{"Alg. 5 (no query noise)", v(5, 1, 1, 1), []float64{1, 2, 0}, []float64{1, 1, 1}},
		{"Alg. 6 (no cutoff)", v(6, 1, 1, 1), []float64{1, 1, 0, 0}, []float64{0, 0, 1, 1}},
	}
}

// Every pattern's probability against quadrature, and the loss with it.
func TestSVTPatternsAgainstQuadrature(t *testing.T) {
	for _, c := range svtCases() {
		patterns, logp, relErr, err := c.m.Distribution(c.x)
		if err != nil {
			t.Fatal(c.name, err)
		}
		total := 0.0
		for i, p := range patterns {
			want := bruteSVTPattern(t, c.m, c.x, p)
			got := math.Exp(logp[i])
			total += got
			if !near(got, want, 1e-9) {
				t.Errorf("%s: Pr[%s] = %.15g, quadrature %.15g", c.name, p, got, want)
			}
		}
		if math.Abs(total-1) > 1e-9 || relErr > 1e-9 {
			t.Errorf("%s: probabilities sum to %.15g (rel. err. bound %g)", c.name, total, relErr)
		}
		l, err := c.m.Loss(c.x, c.y)
		if err != nil {
			t.Fatal(c.name, err)
		}
		if u, d := bruteSVTLoss(t, c.m, c.x, c.y); !near(l.Value(), math.Max(u, d), 1e-8) {
			want := math.Max(u, d)
			t.Errorf("%s: loss %.12g, quadrature %.12g", c.name, l.Value(), want)
		}
	}
}

// sampleSVT runs the technique once, as its description says, with noise
// from r: it returns the pattern and the released values.
func sampleSVT(m SVT, x []float64, r *mrand.Rand) string {
	lap := func(b float64) float64 {
		if b == 0 {
			return 0
		}
		u := r.Float64() - 0.5
		return -b * math.Copysign(1, u) * math.Log1p(-2*math.Abs(u))
	}
	rho := lap(m.ThresholdScale)
	var b strings.Builder
	tops := 0
	for _, xi := range x {
		if m.Cutoff > 0 && tops == m.Cutoff {
			break
		}
		if xi+lap(m.QueryScale) >= m.Threshold+rho {
			b.WriteByte('T')
			tops++
			if m.Resample {
				rho = lap(m.ThresholdScale)
			}
		} else {
			b.WriteByte('F')
		}
	}
	return b.String()
}

// Sampled patterns against the exact distribution: a chi-square test whose
// threshold a correct distribution exceeds with probability below 1e-6.
func TestSVTSamplesAgainstExact(t *testing.T) {
	r := mrand.New(mrand.NewPCG(7, 8))
	for _, c := range svtCases()[:5] {
		patterns, logp, _, err := c.m.Distribution(c.x)
		if err != nil {
			t.Fatal(err)
		}
		const n = 60000
		counts := map[string]int{}
		for i := 0; i < n; i++ {
			counts[sampleSVT(c.m, c.x, r)]++
		}
		// Pool patterns with expected counts below 5.
		chi, df, restE, restO := 0.0, -1, 0.0, 0
		for i, p := range patterns {
			e := n * math.Exp(logp[i])
			if e < 5 {
				restE += e
				restO += counts[p]
				continue
			}
			d := float64(counts[p]) - e
			chi += d * d / e
			df++
			delete(counts, p)
		}
		if restE > 0 {
			d := float64(restO) - restE
			chi += d * d / math.Max(restE, 1)
			df++
		}
		// A chi-square with df degrees of freedom exceeds df + 10·√(2df) + 25
		// with probability far below 1e-6 for these df.
		if limit := float64(df) + 10*math.Sqrt(2*float64(df)) + 25; chi > limit {
			t.Errorf("%s: chi-square %.1f with %d degrees of freedom (limit %.1f)", c.name, chi, df, limit)
		}
	}
}

// A broken sampler (the threshold noise left out) must fail the same test:
// the test can fail.
func TestSVTSamplesCatchABrokenSampler(t *testing.T) {
	c := svtCases()[1]
	broken := c.m
	broken.ThresholdScale = 1e-9
	patterns, logp, _, err := c.m.Distribution(c.x)
	if err != nil {
		t.Fatal(err)
	}
	r := mrand.New(mrand.NewPCG(9, 10))
	const n = 60000
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		counts[sampleSVT(broken, c.x, r)]++
	}
	chi := 0.0
	for i, p := range patterns {
		e := n * math.Exp(logp[i])
		if e >= 5 {
			d := float64(counts[p]) - e
			chi += d * d / e
		}
	}
	if chi < 1000 {
		t.Errorf("the broken sampler passes: chi-square %.1f", chi)
	}
}

// Releasing the compared answer (Alg. 3), by a grid over the released value.
func TestSVTReleasedAnswerAgainstGrid(t *testing.T) {
	for _, c := range []struct {
		eps  float64
		x, y []float64
	}{
		{0.1, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []float64{2, 2, 2, 2, 2, 0, 0, 0, 0, 0}},
		{1, []float64{0, 1, 2}, []float64{1, 0, 3}},
		{1, []float64{3, 0}, []float64{2, 1}},
	} {
		v, _ := Lyu(3, c.eps, 1, 1)
		l, err := v.SVT.Loss(c.x, c.y)
		if err != nil {
			t.Fatal(err)
		}
		u, d := bruteNoisyLoss(t, v.SVT, c.x, c.y)
		want := math.Max(u, d)
		// The grid's value is a lower bound; the search's may exceed it by
		// what the grid misses between its points.
		if l.Value() < want-1e-9 || l.Value() > want+2e-3 || l.Err > 1e-8 {
			t.Errorf("ε = %v, x = %v: loss %.12g (err %g), grid %.12g", c.eps, c.x, l.Value(), l.Err, want)
		}
		w := l.Worst()
		if !w.Limit && !near(math.Abs(w.LogP-w.LogQ), l.Value(), 1e-9) {
			t.Errorf("ε = %v: worst output %q has log-ratio %v, not the loss %v", c.eps, w.Text, w.LogP-w.LogQ, l.Value())
		}
	}
}

// The numerical SVT: the released answers' Laplace part adds Σ|xᵢ − yᵢ|/b
// over the ⊤ queries to the best pattern.
func TestNumericalSVTAgainstQuadrature(t *testing.T) {
	m := SVT{Threshold: 1, ThresholdScale: 3, QueryScale: 12, Cutoff: 2, Release: ReleaseFresh, ReleaseScale: 6}
	x, y := []float64{2, 0, 3, 1}, []float64{1, 1, 2, 2}
	l, err := m.Loss(x, y)
	if err != nil {
		t.Fatal(err)
	}
	up, down := bruteFreshLoss(t, m, x, y)
	if want := math.Max(up, down); !near(l.Value(), want, 1e-9) {
		t.Errorf("loss %.12g, quadrature %.12g", l.Value(), want)
	}
}

// Mutations that break a mechanism change its loss: a query noise scale
// halved, a cutoff removed, a threshold no longer redrawn.
func TestMutationsChangeTheLoss(t *testing.T) {
	x, y := []float64{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}
	base, _ := Lyu(1, 0.5, 2, 1)
	loss := func(m Mechanism) float64 {
		t.Helper()
		l, err := m.Loss(x, y)
		if err != nil {
			t.Fatal(err)
		}
		return l.Value()
	}
	l0 := loss(base.SVT)
	if l0 > 0.5*(1+1e-9) {
		t.Fatalf("Alg. 1 loses %v > ε = 0.5", l0)
	}
	half := base.SVT
	half.QueryScale /= 2
	noCut := base.SVT
	noCut.Cutoff = 0
	// Dwork and Roth's Sparse with its threshold no longer redrawn: the
	// threshold keeps the scale c/ε₁ meant for c fresh draws.
	dr, _ := Lyu(2, 0.5, 2, 1)
	stale := dr.SVT
	stale.Resample = false
	if a, b := loss(dr.SVT), loss(stale); near(a, b, 1e-6) {
		t.Errorf("threshold not redrawn: loss %v, unchanged from %v", b, a)
	}
	for name, m := range map[string]SVT{"query noise halved": half, "cutoff removed": noCut} {
		if l := loss(m); !(l > l0+1e-6) {
			t.Errorf("%s: loss %v, unchanged from %v", name, l, l0)
		}
	}
	lap := LaplaceVector{Scale: 10, Copies: 1}
	halfLap := LaplaceVector{Scale: 5, Copies: 1}
	if a, b := loss(lap), loss(halfLap); !near(b, 2*a, 1e-12) {
		t.Errorf("Laplace: scale halved gives %v, not twice %v", b, a)
	}
	rnm := NoisyMax{Noise: Laplace, Scale: 2}
	halfRNM := NoisyMax{Noise: Laplace, Scale: 1}
	if a, b := loss(rnm), loss(halfRNM); !(b > a+1e-6) {
		t.Errorf("report noisy max: scale halved gives %v, from %v", b, a)
	}
}

// Report noisy max's index against core/mech: Laplace by numerical
// quadrature there, exponential noise as permute-and-flip, a different
// formula altogether.
func TestNoisyMaxIndexAgainstMech(t *testing.T) {
	for _, u := range [][]float64{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}, {2, 0, 0, 0, 0}, {3, -1, 0.5, 2}} {
		for _, nz := range []Noise{Laplace, Exponential} {
			m := NoisyMax{Noise: nz, Scale: 20}
			got, relErr, err := m.LogProbabilities(u)
			if err != nil {
				t.Fatal(err)
			}
			var want []float64
			cfg := mech.Config{Scores: u, Epsilon: 0.1, Sensitivity: 1}
			if nz == Laplace {
				cfg.Sensitivity = 2 // scale Δ/ε = 20
				r, err := mech.NewReportNoisyMax(cfg, mech.LaplaceNoise)
				if err != nil {
					t.Fatal(err)
				}
				want = r.LogProbabilities()
			} else {
				want = reference.PermuteAndFlip(u, 0.1, 1) // exponential noise of scale 2Δ/ε = 20
				for i := range want {
					want[i] = math.Log(want[i])
				}
			}
			for i := range got {
				if !near(got[i], want[i], 1e-9) || relErr > 1e-10 {
					t.Errorf("%v noise, u = %v: ln Pr[%d] = %.15g, reference %.15g", nz, u, i, got[i], want[i])
				}
			}
		}
	}
}

// The released maximum with Laplace noise, against a grid.
func TestNoisyMaxValueAgainstGrid(t *testing.T) {
	for _, p := range [][2][]float64{
		{{0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}},
		{{1, 1, 1, 1, 1}, {2, 0, 0, 0, 0}},
		{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}},
	} {
		m := NoisyMax{Noise: Laplace, Scale: 20, Value: true}
		l, err := m.Loss(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		want := bruteMaxValueLoss(p[0], p[1], 20)
		if l.Value() < want-1e-9 || l.Value() > want+1e-6 || l.Err > 1e-8 {
			t.Errorf("%v: loss %.12g (err %g), grid %.12g", p, l.Value(), l.Err, want)
		}
	}
}

// With exponential noise the released maximum is never below the largest
// answer: with noise of scale 1 (scale 20 makes the event rare, not
// impossible) sampled maxima under (1,…,1) fall in [1, 2), which (2,…,2)
// never produces.
func TestNoisyMaxValueExponentialSupport(t *testing.T) {
	x, y := []float64{1, 1, 1, 1, 1}, []float64{2, 2, 2, 2, 2}
	l, err := NoisyMax{Noise: Exponential, Scale: 20, Value: true}.Loss(x, y)
	if err != nil || !l.Unbounded() {
		t.Fatalf("loss %v, %v: want unbounded", l.Value(), err)
	}
	r := mrand.New(mrand.NewPCG(3, 4))
	below := func(v []float64) int {
		k := 0
		for i := 0; i < 20000; i++ {
			best := math.Inf(-1)
			for _, a := range v {
				best = math.Max(best, a+r.ExpFloat64())
			}
			if best < 2 {
				k++
			}
		}
		return k
	}
	if bx, by := below(x), below(y); bx == 0 || by != 0 {
		t.Errorf("maxima below 2: %d under x (want some), %d under y (want none)", bx, by)
	}
}

// The Laplace vector mechanisms against a grid of the per-coordinate
// log-ratios.
func TestLaplaceVectorAgainstGrid(t *testing.T) {
	for _, c := range []struct {
		x, y   []float64
		b      float64
		copies int
	}{
		{[]float64{1}, []float64{2}, 10, 1},
		{[]float64{0, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1}, 0.1, 1},
		{[]float64{1}, []float64{0}, 200, 20},
		{[]float64{1, 2, 0}, []float64{0, 3, 1}, 2, 3},
	} {
		l, err := LaplaceVector{Scale: c.b, Copies: c.copies}.Loss(c.x, c.y)
		if err != nil {
			t.Fatal(err)
		}
		if u, d := bruteLaplaceVectorLoss(c.x, c.y, c.b, c.copies); !near(l.Value(), math.Max(u, d), 1e-9) {
			want := math.Max(u, d)
			t.Errorf("%v %v: loss %v, grid %v", c.x, c.y, l.Value(), want)
		}
	}
}

// Prefix sums: the density of the running sums s is ∏ f(sᵢ − sᵢ₋₁ − xᵢ);
// its log-ratio at random points never exceeds the loss, and reaches it
// at the running sums of x.
func TestPrefixSumsDensity(t *testing.T) {
	x, y := []float64{1, 1, 1, 1}, []float64{0, 0, 0, 0}
	const b = 10
	l, err := LaplaceVector{Scale: b, Copies: 1, PrefixSums: true}.Loss(x, y)
	if err != nil {
		t.Fatal(err)
	}
	logDens := func(s, v []float64) float64 {
		d, prev := 0.0, 0.0
		for i := range s {
			d += math.Log(reference.LaplacePDF(s[i]-prev-v[i], b))
			prev = s[i]
		}
		return d
	}
	r := mrand.New(mrand.NewPCG(5, 6))
	for k := 0; k < 10000; k++ {
		s := make([]float64, len(x))
		for i := range s {
			s[i] = 30*r.Float64() - 10
		}
		if d := math.Abs(logDens(s, x) - logDens(s, y)); d > l.Value()+1e-12 {
			t.Fatalf("at %v the log-ratio is %v > loss %v", s, d, l.Value())
		}
	}
	at := []float64{1, 2, 3, 4}
	if d := logDens(at, x) - logDens(at, y); !near(d, l.Value(), 1e-12) {
		t.Errorf("at the running sums of x the log-ratio is %v, not the loss %v", d, l.Value())
	}
}

// GeoSample's distribution is the two-sided geometric with ratio
// α = 2ᵏ/(2ᵏ+1) clamped to [0, n]: Pr[z] ∝ α^|z−c| inside, with the tails'
// masses α^c/(1+α) at 0 and α^(n−c)/(1+α) at n.
func TestTruncatedGeometricIsClampedGeometric(t *testing.T) {
	for _, eps := range []float64{0.1, 0.5, 1.3} {
		m := TruncatedGeometric{Epsilon: eps, N: 5}
		k := math.Ceil(math.Log(2 / eps))
		alpha := math.Pow(2, k) / (math.Pow(2, k) + 1)
		for c := 0; c <= 5; c++ {
			got, err := m.LogProbabilities(c)
			if err != nil {
				t.Fatal(err)
			}
			for z := 0; z <= 5; z++ {
				want := (1 - alpha) / (1 + alpha) * math.Pow(alpha, math.Abs(float64(z-c)))
				if z == 0 {
					want = math.Pow(alpha, float64(c)) / (1 + alpha)
				}
				if z == 5 {
					want = math.Pow(alpha, float64(5-c)) / (1 + alpha)
				}
				if z == 0 && c == 0 || z == 5 && c == 5 {
					want = 1 / (1 + alpha)
				}
				if !near(math.Exp(got[z]), want, 1e-12) {
					t.Errorf("ε = %v, c = %d: Pr[%d] = %v, clamped geometric %v", eps, c, z, math.Exp(got[z]), want)
				}
			}
		}
	}
}

// MurmurHash3 (x86, 32 bits) against the published test vectors, and the
// Bloom filters of the benchmark's values against a second implementation
// of the hash written from its specification in Python (values recorded).
func TestRAPPORFilters(t *testing.T) {
	r := RAPPOR{Hashes: 4, Filter: 20}
	set := func(v float64, float bool) []int {
		r.FloatInput = float
		var on []int
		for i, b := range r.Bits(v) {
			if b {
				on = append(on, i)
			}
		}
		return on
	}
	for _, c := range []struct {
		v     float64
		float bool
		want  []int
	}{
		{0, false, []int{0, 11, 18}},
		{1, false, []int{3, 10, 13}},
		{2, false, []int{7, 10, 11, 19}},
		{1, true, []int{6, 14, 18}},
		{0, true, []int{7, 9, 13, 19}},
		{2, true, []int{0, 2, 16, 17}},
	} {
		if got := set(c.v, c.float); !equalInts(got, c.want) {
			t.Errorf("value %v (float %v): bits %v, want %v", c.v, c.float, got, c.want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// RAPPOR's loss against the distribution of a reported bit enumerated from
// the two randomized responses, and against sampled reports.
func TestRAPPORAgainstEnumeration(t *testing.T) {
	for _, m := range []RAPPOR{
		{Hashes: 4, Filter: 20, F: 0.75, P: 0.45, Q: 0.55},
		{Hashes: 4, Filter: 20, F: 0.95, OneTime: true},
	} {
		// Pr[report 1 | filter bit]: permanent response (1: f/2, 0: f/2,
		// keep: 1−f), then the instantaneous one.
		one := func(bit bool) float64 {
			p := 0.0
			for _, c := range []struct {
				w float64
				b bool
			}{{m.F / 2, true}, {m.F / 2, false}, {1 - m.F, bit}} {
				if m.OneTime {
					if c.b {
						p += c.w
					}
				} else if c.b {
					p += c.w * m.Q
				} else {
					p += c.w * m.P
				}
			}
			return p
		}
		x, y := []float64{1}, []float64{0}
		bx, by := m.Bits(1), m.Bits(0)
		want := 0.0
		for i := range bx {
			a, b := one(bx[i]), one(by[i])
			want += math.Max(math.Abs(math.Log(a/b)), math.Abs(math.Log((1-a)/(1-b))))
		}
		l, err := m.Loss(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if !near(l.Value(), want, 1e-12) {
			t.Errorf("%+v: loss %v, enumeration %v", m, l.Value(), want)
		}
		// Sampled reports: each bit's frequency within 6 standard errors.
		r := mrand.New(mrand.NewPCG(11, 12))
		const n = 20000
		for i, bit := range bx {
			k := 0
			for s := 0; s < n; s++ {
				b := bit
				switch u := r.Float64(); {
				case u < m.F/2:
					b = true
				case u < m.F:
					b = false
				}
				if !m.OneTime {
					if b {
						b = r.Float64() < m.Q
					} else {
						b = r.Float64() < m.P
					}
				}
				if b {
					k++
				}
			}
			p := one(bit)
			if d := math.Abs(float64(k)/n - p); d > 6*math.Sqrt(p*(1-p)/n) {
				t.Errorf("bit %d: sampled frequency %v, exact %v", i, float64(k)/n, p)
			}
		}
	}
}

// Parallel composition adds the parts' suprema.
func TestParallelAddsParts(t *testing.T) {
	a, _ := Lyu(4, 0.5, 1, 1)
	b := LaplaceVector{Scale: 4, Copies: 1}
	x, y := []float64{1, 0, 2}, []float64{0, 1, 2}
	la, _ := a.SVT.Loss(x, y)
	lb, _ := b.Loss(x, y)
	l, err := Parallel{Parts: []Mechanism{a.SVT, b}}.Loss(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if !near(l.Up, la.Up+lb.Up, 1e-12) || !near(l.Down, la.Down+lb.Down, 1e-12) {
		t.Errorf("parallel (%v, %v), parts (%v, %v) and (%v, %v)", l.Up, l.Down, la.Up, la.Down, lb.Up, lb.Down)
	}
}

// Bad input is an error, never a panic or NaN.
func TestValidation(t *testing.T) {
	good, _ := Lyu(1, 1, 1, 1)
	for name, f := range map[string]func() error{
		"lengths": func() error { _, err := good.SVT.Loss([]float64{1}, []float64{1, 2}); return err },
		"NaN":     func() error { _, err := good.SVT.Loss([]float64{math.NaN()}, []float64{1}); return err },
		"huge":    func() error { _, err := good.SVT.Loss([]float64{1e9}, []float64{1}); return err },
		"patterns": func() error {
			_, err := (SVT{ThresholdScale: 1, QueryScale: 1}).Loss(make([]float64, 30), make([]float64, 30))
			return err
		},
		"scale":   func() error { _, err := (SVT{ThresholdScale: 0}).Loss([]float64{1}, []float64{1}); return err },
		"variant": func() error { _, err := Lyu(7, 1, 1, 1); return err },
		"geometric": func() error {
			_, err := (TruncatedGeometric{Epsilon: 0.1, N: 5}).Loss([]float64{7}, []float64{1})
			return err
		},
		"noise": func() error { _, err := (NoisyMax{Scale: -1}).Loss([]float64{1}, []float64{1}); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// The supremum search's integrals stay finite on far-apart answers.
	l, err := SVT{Threshold: 0, ThresholdScale: 1, QueryScale: 1, Cutoff: 1, Release: ReleaseNoisy}.Loss([]float64{-500, 500}, []float64{-499, 499})
	if err != nil || math.IsNaN(l.Value()) {
		t.Errorf("far answers: %v, %v", l.Value(), err)
	}
}

// mutate returns a benchmark mechanism with its noise cut (halved, or its
// ε raised), the bug that makes a mechanism unsound; a mechanism whose loss
// is already unbounded gets its missing noise back instead, and its loss
// must become finite. name says what changed.
func mutate(t *testing.T, m Mechanism) (Mechanism, string) {
	t.Helper()
	switch m := m.(type) {
	case LaplaceVector:
		m.Scale /= 2
		return m, "noise scale halved"
	case TruncatedGeometric:
		// α = 2ᵏ/(2ᵏ+1) with k = ⌈ln(2/ε)⌉: ε × 2 can leave k as it is.
		m.Epsilon *= 4
		return m, "ε four times larger"
	case NoisyMax:
		if m.Noise == Exponential && m.Value {
			m.Value = false
			return m, "the index released instead of the value"
		}
		m.Scale /= 2
		return m, "noise scale halved"
	case SVT:
		if m.QueryScale == 0 {
			m.QueryScale = m.ThresholdScale
			return m, "query noise added"
		}
		m.QueryScale /= 2
		return m, "query noise halved"
	case RAPPOR:
		m.F /= 2
		return m, "permanent noise f halved"
	case Parallel:
		parts := make([]Mechanism, len(m.Parts))
		name := ""
		for i, p := range m.Parts {
			parts[i], name = mutate(t, p)
		}
		return Parallel{Parts: parts}, name + " in every part"
	}
	t.Fatalf("no mutation for %T", m)
	return nil, ""
}

// Every mechanism of DP-Sniper's evaluation, on its pair: cutting its
// noise changes the exact loss (upwards, where the loss is finite), and
// restoring the noise an unbounded one lacks makes it finite.
func TestEveryBenchmarkMutationChangesTheLoss(t *testing.T) {
	cases, err := Benchmark(RunDPSniperLogistic)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		x, y := c.Pair[0], c.Pair[1]
		l0, err := c.M.Loss(x, y)
		if err != nil {
			t.Fatal(err)
		}
		mut, what := mutate(t, c.M)
		l1, err := mut.Loss(x, y)
		if err != nil {
			t.Fatalf("%s, %s: %v", c.Mechanism, what, err)
		}
		a, b := l0.Value(), l1.Value()
		if math.IsInf(a, 1) {
			if math.IsInf(b, 1) {
				t.Errorf("%s, %s: the loss stays unbounded", c.Mechanism, what)
			}
			continue
		}
		if !(b > a+1e-6) {
			t.Errorf("%s, %s: loss %v, from %v", c.Mechanism, what, b, a)
		}
	}
}
