package deployments

import (
	"math"
	"testing"
)

// FuzzParse: Parse never panics, and whatever it accepts keeps its rules.
func FuzzParse(f *testing.F) {
	f.Add(file)
	f.Add([]byte("id,organisation,product,kind,epsilon,delta,rho,unit,unit_from,source,note\na,B,C,zcdp,1,1e-7,0.015,,,https://x.org,\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := Parse(b)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, d := range ds {
			if seen[d.ID] || d.Label == "" {
				t.Fatalf("accepted %+v", d)
			}
			seen[d.ID] = true
			for _, x := range []float64{d.Epsilon, d.Delta, d.Rho} {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					t.Fatalf("accepted %v in %+v", x, d)
				}
			}
			if d.Kind != ZCDP && d.Epsilon <= 0 || d.Kind == ZCDP && d.Rho <= 0 || d.Delta >= 1 {
				t.Fatalf("accepted %+v", d)
			}
		}
	})
}
