package challenge

import "testing"

func TestFind(t *testing.T) {
	type c struct{ id, title string }
	all := []c{{"a", "first"}, {"b", "second"}}
	id := func(x c) string { return x.id }
	if got, err := Find(all, id, "b"); err != nil || got.title != "second" {
		t.Errorf("Find b: %v, %v", got, err)
	}
	if got, err := Find(all, id, "nope"); err == nil || got != (c{}) {
		t.Errorf("Find nope: %v, %v; want the zero challenge and an error", got, err)
	}
}
