package lecture

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/mech"
	"github.com/dpplay/dpplay/core/rng"
)

// Every value must be counted in the bin whose published edges enclose it,
// including values on an edge, where rounding in the division could
// otherwise pick the neighbour.
func TestBinMatchesEdges(t *testing.T) {
	r := rng.Seeded(3)
	for range 2000 {
		lo := math.Round((r.Float64()*20-10)*100) / 100
		hi := lo + math.Round(r.Float64()*1000+1)/100
		bins := 1 + r.IntN(MaxBins)
		s := &Spec{Kind: KindHistogram, Min: &lo, Max: &hi, Bins: bins}
		for range 20 {
			var v float64
			if r.IntN(2) == 0 {
				v = s.edge(r.IntN(bins + 1)) // exactly on an edge
			} else {
				v = lo + (hi-lo)*r.Float64()
			}
			b := s.bin(v)
			ok := s.edge(b) <= v && (v < s.edge(b+1) || (b == bins-1 && v == hi))
			if !ok {
				t.Fatalf("[%v, %v] in %d bins: %v counted in bin %d = [%v, %v)", lo, hi, bins, v, b, s.edge(b), s.edge(b+1))
			}
		}
	}
}

// A deliberately naive binning (the division alone) must fail the same
// check somewhere, or the test above could not fail.
func TestBinCheckHasPower(t *testing.T) {
	failed := false
	for bins := 1; bins <= MaxBins && !failed; bins++ {
		for _, lo := range []float64{-3.3, 0.1, 0.7, 1.1} {
			hi := lo + 0.6
			s := &Spec{Kind: KindHistogram, Min: &lo, Max: &hi, Bins: bins}
			for i := 0; i <= bins; i++ {
				v := s.edge(i)
				b := min(max(int(float64(bins)*(v-lo)/(hi-lo)), 0), bins-1)
				if !(s.edge(b) <= v && (v < s.edge(b+1) || (b == bins-1 && v == hi))) {
					failed = true
				}
			}
		}
	}
	if !failed {
		t.Error("the naive division never misplaces an edge value: the check has no power here")
	}
}

// TestNoiseWithin90 checks the closed form behind Noise.Within90 and SD
// against the sampler's own exact pmf, summed.
func TestNoiseWithin90(t *testing.T) {
	spec := &Spec{Kind: KindHistogram, Min: new(float64), Max: ptr(10.0), Bins: 5}
	for _, eps := range []float64{0.05, 0.3, 0.5, 1, 2.5, 10} {
		n, err := NoiseOf(spec, eps)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mech.NewDiscreteLaplace(0, HistogramSensitivity, eps)
		if err != nil {
			t.Fatal(err)
		}
		within := func(k int64) float64 {
			p := 0.0
			for y := -k; y <= k; y++ {
				p += math.Exp(m.LogPMF(y))
			}
			return p
		}
		k := *n.Within90
		if within(k) < 0.9 || (k > 0 && within(k-1) >= 0.9) {
			t.Errorf("ε = %v: within_90 = %d, but Pr[|Y| ≤ k] = %v and Pr[|Y| ≤ k−1] = %v", eps, k, within(k), within(k-1))
		}
		v := 0.0
		for y := -40 * int64(n.Scale+1); y <= 40*int64(n.Scale+1); y++ {
			v += float64(y*y) * math.Exp(m.LogPMF(y))
		}
		if math.Abs(n.SD-math.Sqrt(v)) > 1e-9*n.SD {
			t.Errorf("ε = %v: sd = %v, the pmf gives %v", eps, n.SD, math.Sqrt(v))
		}
	}
}

func ptr(x float64) *float64 { return &x }
