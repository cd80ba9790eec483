// Package core_test holds the tests that concern every package under core/
// at once. The directory has no other Go files: core/ itself is not a
// package anyone imports, only the root of the tree that this test reads.
package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// namesALesson matches "lesson 3", "Lesson 10's", "lessons 1 and 2",
// "lessons 1–6" or "every lesson": a bare "lessons" ("for lessons, tests and
// scripts") says nothing about which lesson to read.
var namesALesson = regexp.MustCompile(`(?i)\blessons?\s+\d|\bevery lesson`)

// TestDocCommentsNameTheLesson keeps the project rule that every exported
// identifier in core/ has a doc comment naming the lesson(s) it serves (and
// so where its formula is taught): a new function without one fails here.
//
// It is one test for the whole tree rather than a copy per package: it lives
// in core/ and walks the source files below it, so a package added under
// core/ is checked without being listed anywhere. `go test ./...` and
// `go test ./core/...` both run it, since go test starts a test binary in
// its package's directory. That holds under GOOS=js GOARCH=wasm too:
// go_js_wasm_exec runs the binary in Node from the same directory, and the
// os package reaches the files through Node's fs, so no build tag is needed.
func TestDocCommentsNameTheLesson(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// The go tool ignores these directories, and so does the rule;
			// internal/ holds test support, which no lesson uses.
			if name := d.Name(); path != "." && (name == "testdata" || name == "internal" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		af, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files++
		check := func(name, doc string) {
			if !namesALesson.MatchString(doc) {
				t.Errorf("%s: the doc comment of %s names no lesson", filepath.ToSlash(path), name)
			}
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() {
					check(funcName(d), d.Doc.Text())
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						if sp.Name.IsExported() {
							check(sp.Name.Name, d.Doc.Text()+sp.Doc.Text())
						}
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							if n.IsExported() {
								check(n.Name, d.Doc.Text()+sp.Doc.Text()+sp.Comment.Text())
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A walk that found nothing would pass without checking anything.
	if files == 0 {
		t.Fatal("found no Go files under core/")
	}
}

// funcName returns F for a function and T.F for a method, so that the
// several Sample methods in one file can be told apart.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	typ := d.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if g, ok := typ.(*ast.IndexExpr); ok { // a generic receiver, T[P]
		typ = g.X
	}
	if g, ok := typ.(*ast.IndexListExpr); ok {
		typ = g.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}
