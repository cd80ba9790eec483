package synth

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocCommentsNameTheLesson keeps the project rule that every exported
// identifier's doc comment names the lesson it serves (and so says where its
// formula is taught): a new function without one fails here.
func TestDocCommentsNameTheLesson(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fs := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name, doc string) {
			if !strings.Contains(strings.ToLower(doc), "lesson") {
				t.Errorf("%s: the doc comment of %s names no lesson", f, name)
			}
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() {
					check(d.Name.Name, d.Doc.Text())
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
	}
}
