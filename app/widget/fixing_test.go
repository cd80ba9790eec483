package widget

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// No widget's schema uses a name a link gives to its presentation: hide and
// lock beside the schema keys, and caption, table and theme on the embed
// page (web/embed/embedlink.js).
func TestFixingNamesFree(t *testing.T) {
	taken := append(slices.Clone(Fixing), "caption", "table", "theme")
	for _, w := range WithSchema() {
		for _, p := range Schema(w) {
			if slices.Contains(taken, p.Key) {
				t.Errorf("%s: schema key %q is a presentation setting's name", w, p.Key)
			}
		}
	}
}

func TestKeys(t *testing.T) {
	for _, c := range []struct {
		raw   string
		keys  []string
		notes []string
	}{
		{"eps,seed", []string{"eps", "seed"}, nil},
		{" seed ,eps,,seed,", []string{"seed", "eps"}, nil},
		{"", nil, nil},
		{"controls", nil, []string{`meet.hide: "controls" is not a setting of this widget, so it was ignored.`}},
		{"eps,a,b,a,c,d", []string{"eps"}, []string{`meet.hide: "a", "b", "c" and 1 more are not settings of this widget, so they were ignored.`}},
		{"EPS", nil, []string{`meet.hide: "EPS" is not a setting of this widget, so it was ignored.`}},
	} {
		keys, notes := Keys("exponential-mechanism", "meet.hide", c.raw)
		if !reflect.DeepEqual(keys, c.keys) || !reflect.DeepEqual(notes, c.notes) {
			t.Errorf("Keys(%q) = %q %q, want %q %q", c.raw, keys, notes, c.keys, c.notes)
		}
	}
	// The 65th name is not read.
	keys, _ := Keys("exponential-mechanism", "x", strings.Repeat("x,", 64)+"eps")
	if len(keys) != 0 {
		t.Errorf("the 65th name was read: %q", keys)
	}
}

// Coerce keeps what a hide or lock setting names and says what it left out.
func TestCoerceFixing(t *testing.T) {
	got, notes := Coerce("exponential-mechanism", "meet.", map[string]string{"hide": "controls", "lock": "eps, seed,eps", "eps": "2"})
	want := map[string]string{"lock": "eps,seed", "eps": "2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Coerce = %v, want %v", got, want)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], `meet.hide: "controls" is not`) {
		t.Errorf("notes %q", notes)
	}
}

// Any text as a hide or lock list is read without a panic into distinct
// keys of the schema, in the order written, with at most one note, and
// reading the list written from them gives them back without a note.
func FuzzKeys(f *testing.F) {
	for _, s := range []string{"eps,seed", "", ",,,", "controls", "eps,eps", " eps\t,\nseed ", "é,\x00,eps", strings.Repeat("a,", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, w := range WithSchema() {
			keys, notes := Keys(w, "w.hide", raw)
			if len(notes) > 1 {
				t.Fatalf("%s %q: %d notes", w, raw, len(notes))
			}
			for i, k := range keys {
				if !slices.ContainsFunc(Schema(w), func(p Param) bool { return p.Key == k }) || slices.Contains(keys[:i], k) {
					t.Fatalf("%s %q: key %q", w, raw, k)
				}
			}
			again, notes := Keys(w, "w.hide", strings.Join(keys, ","))
			if !slices.Equal(again, keys) || notes != nil {
				t.Fatalf("%s %q: read back %q %q", w, raw, again, notes)
			}
		}
	})
}
