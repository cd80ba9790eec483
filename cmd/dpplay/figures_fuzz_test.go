package main

import (
	"testing"

	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/figures"
)

// Any text given as -state (a page link, or anything else) is read without
// a panic, and whatever values it carries, coerced with the page's rule,
// are a state every widget's figures accept: a link never makes the command
// fail where the page would clamp.
func FuzzParseFigureState(f *testing.F) {
	for _, s := range []string{
		"#/exponential-mechanism?meet.eps=50&meet.seed=7",
		"exponential-mechanism/#meet.eps=50&meet.seed=7",
		"https://x.github.io/dpplay/what-epsilon-promises/#band.ax=0,1&band.eps=-3",
		"/a/b/index.html#?=&",
		"#lesson=3&eps=2&scale=broken&fig=logratio&width=20",
		"#/what-epsilon-promises?band.ax=0,0,9,1,0&band.ay=1,x&band.eps=-3",
		"#lesson=8&sdb.m=1e309&sdb.k=2.5&mw.log=%zz",
		"#/private-pricing?pricing.values=1,2,3,,4&pricing.buyer=-0",
		"#seed=4294967296&step=NaN&batch=Infinity&data=%00",
		"",
		"#&&==&",
		"exponential-mechanism/#meet.hide=eps,controls&meet.lock=seed,,seed&meet.eps=3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, hash string) {
		st, err := parseFigureState(hash)
		if err != nil {
			return
		}
		for _, w := range figures.Widgets() {
			raw := map[string]string{}
			for k, v := range st.shared {
				raw[k] = v
			}
			for _, byID := range st.byID {
				for k, v := range byID {
					raw[k] = v
				}
			}
			params, _ := widget.Coerce(w, "", raw)
			if err := figures.Validate(w, params); err != nil {
				t.Errorf("%s: %q coerced to %v, which is refused: %v", w, hash, params, err)
			}
		}
	})
}
