package lecture_test

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// BenchmarkSubmit measures acknowledged submissions per second through the
// handler over a real SQLite file (fsync on every commit), many students at
// once.
func BenchmarkSubmit(b *testing.B) {
	_, c := serverB(b)
	s := c.NewSession(b, 0)
	a := c.NewActivity(b, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2}})
	var n atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			r, err := c.Do("PUT", fmt.Sprintf("%s/submissions/s%d", a, i%500), "", map[string]float64{"value": float64(i)})
			if err != nil || r.Status != 200 {
				b.Errorf("submit: %v %+v", err, r)
				return
			}
		}
	})
}

// BenchmarkPoll measures the students' polling GET.
func BenchmarkPoll(b *testing.B) {
	_, c := serverB(b)
	s := c.NewSession(b, 0)
	a := c.NewActivity(b, s, map[string]any{"kind": "pricing", "prices": []float64{1, 2}})
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if r, err := c.Do("GET", a, "", nil); err != nil || r.Status != 200 {
				b.Errorf("poll: %v %+v", err, r)
				return
			}
		}
	})
}
