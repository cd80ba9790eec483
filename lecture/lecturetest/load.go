package lecturetest

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// LoadResult summarises a load run.
type LoadResult struct {
	Students int
	Acked    int           // submissions answered 200
	Failed   int           // submissions not acknowledged
	Requests int           // all requests sent
	Elapsed  time.Duration // wall time of the run
	Put, Get []time.Duration
}

// Quantile returns the q-quantile of ds (nearest rank).
func Quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func (r LoadResult) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
	return fmt.Sprintf("%d students, %d submissions acknowledged, %d failed, %d requests in %.2fs (%.0f req/s); "+
		"PUT p50 %s p99 %s; GET p50 %s p99 %s",
		r.Students, r.Acked, r.Failed, r.Requests, r.Elapsed.Seconds(), float64(r.Requests)/r.Elapsed.Seconds(),
		ms(Quantile(r.Put, 0.5)), ms(Quantile(r.Put, 0.99)), ms(Quantile(r.Get, 0.5)), ms(Quantile(r.Get, 0.99)))
}

// Load plays a class: students goroutines start together, or at offsets
// spread evenly over spread; each does rounds of (poll the activity, submit
// an answer). Student i in round k submits as id(i, k) the value
// value(i, k), on the pricing or histogram activity at path. ack is called
// after each acknowledged submission; stop, if not nil, ends the run early
// when closed.
func Load(c *Client, path string, students, rounds int, spread time.Duration, id func(i, k int) string,
	value func(i, k int) float64, ack func(i, k int), stop <-chan struct{}) LoadResult {
	var (
		mu       sync.Mutex
		res      = LoadResult{Students: students}
		requests atomic.Int64
		wg       sync.WaitGroup
		start    = make(chan struct{})
	)
	record := func(put bool, d time.Duration) {
		mu.Lock()
		if put {
			res.Put = append(res.Put, d)
		} else {
			res.Get = append(res.Get, d)
		}
		mu.Unlock()
	}
	for i := range students {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if spread > 0 {
				time.Sleep(spread * time.Duration(i) / time.Duration(students))
			}
			for k := range rounds {
				select {
				case <-stop:
					return
				default:
				}
				t0 := time.Now()
				requests.Add(1)
				if r, err := c.Do("GET", path, "", nil); err == nil && r.Status == 200 {
					record(false, time.Since(t0))
				}
				t0 = time.Now()
				requests.Add(1)
				r, err := c.Do("PUT", path+"/submissions/"+id(i, k), "", map[string]float64{"value": value(i, k)})
				if err != nil || r.Status != 200 {
					mu.Lock()
					res.Failed++
					mu.Unlock()
					continue
				}
				record(true, time.Since(t0))
				mu.Lock()
				res.Acked++
				mu.Unlock()
				if ack != nil {
					ack(i, k)
				}
			}
		}()
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	res.Elapsed = time.Since(t0)
	res.Requests = int(requests.Load())
	return res
}
