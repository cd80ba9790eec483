package lecture

// HoldClassWrites takes n of m's ClassWriters slots, as n answers being
// written would, and returns the function that gives them back.
func (m *Memory) HoldClassWrites(n int) (release func()) {
	for range n {
		m.class <- struct{}{}
	}
	return func() {
		for range n {
			<-m.class
		}
	}
}
