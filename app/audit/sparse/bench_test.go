package sparse

import (
	"fmt"
	"testing"
)

// The variants widget's opening pair (ten queries, ε = 1, c = 1, T = 1),
// audited for each of Lyu et al.'s variants: native speed, beside the
// Chromium figures of scripts/audit-bench.mjs (make bench).
func BenchmarkAuditTenQueries(b *testing.B) {
	x := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	y := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 0}
	for k := 1; k <= 6; k++ {
		b.Run(fmt.Sprintf("algorithm%d", k), func(b *testing.B) {
			for b.Loop() {
				if _, err := NewAudit(k, 1, 1, 1, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
