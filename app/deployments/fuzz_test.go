package deployments

import (
	"math"
	"testing"
)

// FuzzParse: Parse never panics, and whatever it accepts keeps its rules.
func FuzzParse(f *testing.F) {
	f.Add(file)
	f.Add([]byte("id,organisation,product,kind,epsilon,delta,rho,rho_from,unit,unit_from,source,registry_epsilon,registry_delta,note\n" +
		"a,B,C,zcdp,1,1e-7,0.015,stated,,,https://x.org,1,10^-5,n\n" +
		"b,B,C,zcdp,6.92,1e-5,0.81,inferred,user,primary,https://x.org,6.92,10^-5,\n"))
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
			for _, x := range []float64{d.Epsilon, d.Delta, d.Rho, d.RegistryEpsilon, d.RegistryDelta} {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					t.Fatalf("accepted %v in %+v", x, d)
				}
			}
			if d.Kind != ZCDP && d.Epsilon <= 0 || d.Kind == ZCDP && d.Rho <= 0 || d.Delta >= 1 || d.RegistryEpsilon <= 0 || d.RegistryDelta >= 1 {
				t.Fatalf("accepted %+v", d)
			}
			if d.Kind == ZCDP != (d.RhoFrom == Stated || d.RhoFrom == Inferred) || d.Corrected() && d.Note == "" {
				t.Fatalf("accepted %+v", d)
			}
		}
	})
}
