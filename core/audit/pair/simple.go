package pair

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/spaolacci/murmur3"

	"github.com/dpplay/dpplay/core/validate"
)

// LaplaceVector adds Lap(Scale) to every answer, Copies times over
// (independent noise each time), and publishes all the noisy answers: the
// Laplace mechanism (one answer), a noisy histogram, or Copies parallel
// Laplace mechanisms on the same answer. With PrefixSums it publishes the
// running sums of the noisy answers instead, an invertible linear map with
// determinant 1, which changes no density ratio.
//
// ln f(o|x) − ln f(o|y) = Σ (|oᵢ − yᵢ| − |oᵢ − xᵢ|)/b is at most Σ|xᵢ − yᵢ|/b
// by the triangle inequality, with equality at o = x: the loss is
// Copies·Σ|xᵢ − yᵢ|/b in closed form.
type LaplaceVector struct {
	Scale      float64
	Copies     int
	PrefixSums bool
}

// Loss returns the privacy loss on the answers (x, y).
func (m LaplaceVector) Loss(x, y []float64) (Loss, error) {
	if err := validate.Positive("noise scale", m.Scale); err != nil {
		return Loss{}, err
	}
	if m.Copies < 1 || m.Copies > 1000 {
		return Loss{}, validate.Errorf("copies", "must be between 1 and 1000, got %d", m.Copies)
	}
	if err := checkPair(x, y, 1, MaxQueries); err != nil {
		return Loss{}, err
	}
	l1 := 0.0
	for i := range x {
		l1 += math.Abs(x[i] - y[i])
	}
	loss := float64(m.Copies) * l1 / m.Scale
	n := float64(m.Copies * len(x))
	logf := -n * math.Log(2*m.Scale)
	what := "the noisy answers equal to "
	at := func(v []float64) []float64 { return v }
	if m.PrefixSums {
		what = "the running sums equal to those of "
		at = func(v []float64) []float64 {
			s, out := 0.0, make([]float64, len(v))
			for i, a := range v {
				s += a
				out[i] = s
			}
			return out
		}
	}
	return Loss{Up: loss, Down: loss,
		UpAt:   Output{Text: what + "the first input, " + vec(at(x)), LogP: logf, LogQ: logf - loss},
		DownAt: Output{Text: what + "the second input, " + vec(at(y)), LogP: logf - loss, LogQ: logf},
		Method: "closed form: the sum over released values of the L1 change divided by the Laplace scale"}, nil
}

// TruncatedGeometric is Balcer and Vadhan's GeoSample(ε, n) for a count c
// in 0 … n: it draws u uniformly from 1 … d and outputs the smallest z
// with F(z) ≥ u, for the integers
//
//	F(z) = 2^{k(c−z)} (2^k+1)^{n−(c−z)}               for z < c,
//	F(z) = d − 2^{k(z−c+1)} (2^k+1)^{n−1−(z−c)}      for c ≤ z < n,
//	F(n) = d = (2^{k+1}+1)(2^k+1)^{n−1},   k = ⌈ln(2/ε)⌉.
//
// Pr[z] = (F(z) − F(z−1))/d exactly, in integers.
type TruncatedGeometric struct {
	Epsilon float64
	N       int
}

func (m TruncatedGeometric) k() int { return int(math.Ceil(math.Log(2 / m.Epsilon))) }

// Proved returns ln(1 + 2^−k), the ε for which Balcer and Vadhan prove
// GeoSample differentially private on counts that differ by at most 1 (the
// ratio of neighbouring terms of its geometric distribution). It is not
// m.Epsilon: at ε = 0.1, k = 3 and the guarantee is 0.1178.
func (m TruncatedGeometric) Proved() float64 { return math.Log1p(math.Ldexp(1, -m.k())) }

// LogProbabilities returns ln Pr[z] for z = 0 … N on the count c.
func (m TruncatedGeometric) LogProbabilities(c int) ([]float64, error) {
	if err := validate.Positive("ε (epsilon)", m.Epsilon); err != nil {
		return nil, err
	}
	if m.Epsilon > 2 {
		return nil, validate.Errorf("ε (epsilon)", "must be at most 2, got %v", m.Epsilon)
	}
	if m.N < 1 || m.N > 200 {
		return nil, validate.Errorf("n", "must be between 1 and 200, got %d", m.N)
	}
	if c < 0 || c > m.N {
		return nil, validate.Errorf("count", "must be between 0 and %d, got %d", m.N, c)
	}
	k := uint(m.k())
	two := func(e int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(e)*k) }
	base := new(big.Int).Add(two(1), big.NewInt(1)) // 2^k + 1
	pow := func(e int) *big.Int { return new(big.Int).Exp(base, big.NewInt(int64(e)), nil) }
	d := new(big.Int).Mul(new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), k+1), big.NewInt(1)), pow(m.N-1))
	f := make([]*big.Int, m.N+1)
	for z := 0; z < m.N; z++ {
		if z < c {
			f[z] = new(big.Int).Mul(two(c-z), pow(m.N-(c-z)))
		} else {
			f[z] = new(big.Int).Sub(d, new(big.Int).Mul(two(z-c+1), pow(m.N-1-(z-c))))
		}
	}
	f[m.N] = d
	out := make([]float64, m.N+1)
	prev := big.NewInt(0)
	for z := range f {
		out[z] = logRatio(new(big.Int).Sub(f[z], prev), d)
		prev = f[z]
	}
	return out, nil
}

// logRatio returns ln(a/b) for positive integers (−Inf for a = 0).
func logRatio(a, b *big.Int) float64 {
	if a.Sign() <= 0 {
		return math.Inf(-1)
	}
	la, lb := a.BitLen(), b.BitLen()
	fa, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(a), -la).Float64()
	fb, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(b), -lb).Float64()
	return math.Log(fa) - math.Log(fb) + float64(la-lb)*math.Ln2
}

// Loss returns the privacy loss on the counts (x[0], y[0]).
func (m TruncatedGeometric) Loss(x, y []float64) (Loss, error) {
	if err := checkPair(x, y, 1, 1); err != nil {
		return Loss{}, err
	}
	cx, cy := int(x[0]), int(y[0])
	if float64(cx) != x[0] || float64(cy) != y[0] {
		return Loss{}, validate.Errorf("pair", "the counts must be whole numbers, got %v and %v", x[0], y[0])
	}
	lp, err := m.LogProbabilities(cx)
	if err != nil {
		return Loss{}, err
	}
	lq, err := m.LogProbabilities(cy)
	if err != nil {
		return Loss{}, err
	}
	return discreteLoss(lp, lq, 1e-15, func(z int) string { return "output " + strconv.Itoa(z) },
		"every output's probability as an exact ratio of integers"), nil
}

// RAPPOR is Erlingsson, Pihur and Korolova's randomized response of a
// Bloom filter: the value is written as Python writes it (str: "1" for an
// integer, "1.0" for a float) and hashed with MurmurHash3 (x86, 32 bits,
// seeds 0 … Hashes−1, taken modulo Filter as Python does) into a filter of
// Filter bits; the permanent randomized response sets each bit to 1 with
// probability F/2, to 0 with probability F/2, and keeps it otherwise; the
// instantaneous one (skipped when OneTime) then reports 1 with probability
// Q for a 1 and P for a 0. Bits are independent, so the loss is the sum
// over bits of each bit's larger log-ratio.
type RAPPOR struct {
	Hashes, Filter int
	F, P, Q        float64
	OneTime        bool
	FloatInput     bool
}

// Bits returns the filter bits the value v sets.
func (m RAPPOR) Bits(v float64) []bool {
	key := strconv.FormatFloat(v, 'f', -1, 64)
	if m.FloatInput && !strings.ContainsAny(key, ".eE") {
		key += ".0" // Python's str of a whole float
	}
	bits := make([]bool, m.Filter)
	for i := 0; i < m.Hashes; i++ {
		h := int64(int32(murmur3.Sum32WithSeed([]byte(key), uint32(i))))
		j := h % int64(m.Filter)
		if j < 0 {
			j += int64(m.Filter)
		}
		bits[j] = true
	}
	return bits
}

// OneProbabilities returns Pr[reported bit = 1] for a filter bit of 1 and
// of 0.
func (m RAPPOR) OneProbabilities() (one, zero float64) {
	one, zero = 1-m.F/2, m.F/2
	if !m.OneTime {
		one, zero = one*m.Q+(1-one)*m.P, zero*m.Q+(1-zero)*m.P
	}
	return one, zero
}

// Loss returns the privacy loss on the values (x[0], y[0]).
func (m RAPPOR) Loss(x, y []float64) (Loss, error) {
	if err := checkPair(x, y, 1, 1); err != nil {
		return Loss{}, err
	}
	if m.Hashes < 1 || m.Hashes > 64 || m.Filter < 1 || m.Filter > 4096 {
		return Loss{}, validate.Errorf("filter", "needs 1 to 64 hashes and 1 to 4096 bits, got %d and %d", m.Hashes, m.Filter)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"f", m.F}, {"p", m.P}, {"q", m.Q}} {
		if !(p.v >= 0 && p.v <= 1) {
			return Loss{}, validate.Errorf(p.name, "must be a probability, got %v", p.v)
		}
	}
	bx, by := m.Bits(x[0]), m.Bits(y[0])
	one, zero := m.OneProbabilities()
	pr := func(bit bool) float64 {
		if bit {
			return one
		}
		return zero
	}
	l := Loss{Method: "closed form: independent bits, each contributing its larger log-ratio"}
	up, down := make([]byte, m.Filter), make([]byte, m.Filter)
	var lpu, lqu, lpd, lqd float64
	for i := range bx {
		a, b := pr(bx[i]), pr(by[i])
		r1, r0 := math.Log(a)-math.Log(b), math.Log1p(-a)-math.Log1p(-b)
		if r1 >= r0 {
			l.Up += r1
			up[i], lpu, lqu = '1', lpu+math.Log(a), lqu+math.Log(b)
		} else {
			l.Up += r0
			up[i], lpu, lqu = '0', lpu+math.Log1p(-a), lqu+math.Log1p(-b)
		}
		if -r1 >= -r0 {
			l.Down -= r1
			down[i], lpd, lqd = '1', lpd+math.Log(a), lqd+math.Log(b)
		} else {
			l.Down -= r0
			down[i], lpd, lqd = '0', lpd+math.Log1p(-a), lqd+math.Log1p(-b)
		}
	}
	l.UpAt = Output{Text: "report " + string(up), LogP: lpu, LogQ: lqu}
	l.DownAt = Output{Text: "report " + string(down), LogP: lpd, LogQ: lqd}
	return l, nil
}

// Parallel runs its parts on the same input with independent randomness
// and publishes all their outputs: ℓ is the sum of the parts' ℓ over
// independent outputs, so its supremum is the sum of theirs.
type Parallel struct {
	Parts []Mechanism
}

// Loss returns the privacy loss on the answers (x, y).
func (m Parallel) Loss(x, y []float64) (Loss, error) {
	if len(m.Parts) == 0 {
		return Loss{}, validate.Errorf("parts", "needs at least one mechanism")
	}
	var out Loss
	var up, down, methods []string
	for i, p := range m.Parts {
		l, err := p.Loss(x, y)
		if err != nil {
			return Loss{}, err
		}
		out.Up += l.Up
		out.Down += l.Down
		out.Err += l.Err
		up, down = append(up, l.UpAt.Text), append(down, l.DownAt.Text)
		if i == 0 || l.Method != methods[len(methods)-1] {
			methods = append(methods, l.Method)
		}
		out.UpAt.LogP += l.UpAt.LogP
		out.UpAt.LogQ += l.UpAt.LogQ
		out.DownAt.LogP += l.DownAt.LogP
		out.DownAt.LogQ += l.DownAt.LogQ
		out.UpAt.Limit = out.UpAt.Limit || l.UpAt.Limit
		out.DownAt.Limit = out.DownAt.Limit || l.DownAt.Limit
	}
	out.UpAt.Text, out.DownAt.Text = strings.Join(up, "; "), strings.Join(down, "; ")
	out.Method = "the sum of the parts' suprema (independent outputs): " + strings.Join(methods, "; ")
	return out, nil
}
