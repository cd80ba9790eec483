package lecture

import (
	"math"
	"testing"

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
