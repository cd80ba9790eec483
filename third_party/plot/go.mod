module gonum.org/v1/plot

go 1.22.0

require (
	codeberg.org/go-fonts/latin-modern v0.4.0
	codeberg.org/go-fonts/liberation v0.4.1
	codeberg.org/go-latex/latex v0.0.1
	codeberg.org/go-pdf/fpdf v0.10.0
	gioui.org v0.2.0
	gioui.org/x v0.2.0
	git.sr.ht/~sbinet/gg v0.6.0
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b
	github.com/andybalholm/stroke v0.0.0-20221221101821-bd29b49d73f0
	golang.org/x/exp v0.0.0-20241009180824-f66d83c29e7c
	golang.org/x/image v0.24.0
	gonum.org/v1/gonum v0.15.1
	rsc.io/pdf v0.1.1
)

require (
	gioui.org/cpu v0.0.0-20220412190645-f1e9e8c3b1f7 // indirect
	gioui.org/shader v1.0.6 // indirect
	github.com/campoy/embedmd v1.0.0 // indirect
	github.com/go-text/typesetting v0.0.0-20230803102845-24e03d8b5372 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/exp/shiny v0.0.0-20241009180824-f66d83c29e7c // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/text v0.22.0 // indirect
)
