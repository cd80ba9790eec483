package lecturetest

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// LoadResult summarises a load run.
type LoadResult struct {
	Students int
	Acked    int            // submissions answered 200
	Failed   int            // submissions not acknowledged after every repeat
	Retried  int            // submissions sent again after a transient failure
	PollFail int            // polls not answered 200
	Errors   map[string]int // failed requests by status or transport error
	Requests int            // all requests sent
	Elapsed  time.Duration  // wall time of the run
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
		"%d polls failed; %d answers sent again; PUT p50 %s p99 %s; GET p50 %s p99 %s",
		r.Students, r.Acked, r.Failed, r.Requests, r.Elapsed.Seconds(), float64(r.Requests)/r.Elapsed.Seconds(),
		r.PollFail, r.Retried, ms(Quantile(r.Put, 0.5)), ms(Quantile(r.Put, 0.99)), ms(Quantile(r.Get, 0.5)), ms(Quantile(r.Get, 0.99))) +
		errorsString(r.Errors)
}

// errorsString lists the failed requests by kind, most frequent first.
func errorsString(errs map[string]int) string {
	if len(errs) == 0 {
		return ""
	}
	kinds := slices.Collect(maps.Keys(errs))
	slices.SortFunc(kinds, func(a, b string) int { return errs[b] - errs[a] })
	s := "; failures:"
	for _, k := range kinds {
		s += fmt.Sprintf(" %d× %q", errs[k], k)
	}
	return s
}

// RetryDelays are the waits before each repeat of an answer whose request
// failed transiently: the lecture page's policy (web/lecture/lecture.js, RETRY_MS).
var RetryDelays = []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 4 * time.Second}

// Transient reports whether a request's outcome is worth repeating: no reply
// at all (a dropped connection, a timeout), or 502, 503 or 504, which a proxy
// or a restarting server sends. Any other status is the API's answer.
func Transient(r *Response, err error) bool {
	if err != nil || r == nil {
		return true
	}
	return r.Status == 502 || r.Status == 503 || r.Status == 504
}

// Load plays a class: students goroutines start together, or at offsets
// spread evenly over spread; each does rounds of (poll the activity, submit
// an answer). inFlight, if positive, caps the requests outstanding at once.
// A phone sends an answer again, as the lecture page does, when the reply is
// transient (Transient), or 429 after its Retry-After: the PUT is
// idempotent, so a repeat is harmless.
// Student i in round k submits as id(i, k) the value value(i, k), on the
// pricing or histogram activity at path. ack is called
// after each acknowledged submission; stop, if not nil, ends the run early
// when closed.
func Load(c *Client, path string, students, rounds int, spread time.Duration, inFlight int, id func(i, k int) string,
	value func(i, k int) float64, ack func(i, k int), stop <-chan struct{}) LoadResult {
	var (
		mu       sync.Mutex
		res      = LoadResult{Students: students, Errors: map[string]int{}}
		requests atomic.Int64
		wg       sync.WaitGroup
		start    = make(chan struct{})
		slots    chan struct{}
	)
	if inFlight > 0 {
		slots = make(chan struct{}, inFlight)
	}
	// do sends one request, holding one of the inFlight slots while it is
	// outstanding, and returns its latency (not counting the wait for a slot).
	do := func(method, p string, body any) (*Response, time.Duration, error) {
		if slots != nil {
			slots <- struct{}{}
			defer func() { <-slots }()
		}
		requests.Add(1)
		t0 := time.Now()
		var r *Response
		var err error
		if method == "PUT" {
			r, err = c.Answer(p, body)
		} else {
			r, err = c.Do(method, p, "", body)
		}
		d := time.Since(t0)
		if err != nil || r.Status != 200 {
			why := method + " "
			var ue *url.Error
			switch {
			case r != nil:
				why += strconv.Itoa(r.Status) + " " + strings.TrimSpace(r.Raw[:min(len(r.Raw), 60)])
			case errors.As(err, &ue):
				why += ue.Err.Error()
			default:
				why += err.Error()
			}
			mu.Lock()
			res.Errors[why]++
			mu.Unlock()
		}
		return r, d, err
	}
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
				if r, d, err := do("GET", path, nil); err == nil && r.Status == 200 {
					record(false, d)
				} else {
					mu.Lock()
					res.PollFail++
					mu.Unlock()
				}
				var (
					r   *Response
					d   time.Duration
					err error
				)
				for try, waited := 0, 0; ; {
					r, d, err = do("PUT", path+"/submissions/"+id(i, k), map[string]float64{"value": value(i, k)})
					wait := time.Duration(0)
					switch {
					case err == nil && r.Status == http.StatusTooManyRequests && waited < 20:
						// As the page does: send again after Retry-After.
						n, _ := strconv.Atoi(r.Header.Get("Retry-After"))
						wait, waited = time.Duration(max(1, n))*time.Second, waited+1
					case try < len(RetryDelays) && Transient(r, err):
						wait, try = RetryDelays[try], try+1
					}
					if wait == 0 {
						break
					}
					mu.Lock()
					res.Retried++
					mu.Unlock()
					time.Sleep(wait)
				}
				if err != nil || r.Status != 200 {
					mu.Lock()
					res.Failed++
					mu.Unlock()
					continue
				}
				record(true, d)
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
