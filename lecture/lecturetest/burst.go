package lecturetest

import "sync"

// Burst calls f(0), …, f(n-1) each in its own goroutine, all released at the
// same moment so that their requests race, and returns the status each call
// returned, in order of i.
func Burst(n int, f func(i int) int) []int {
	statuses := make([]int, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			statuses[i] = f(i)
		}()
	}
	close(start)
	wg.Wait()
	return statuses
}

// Tally counts how many times each status occurs.
func Tally(statuses []int) map[int]int {
	n := map[int]int{}
	for _, st := range statuses {
		n[st]++
	}
	return n
}
