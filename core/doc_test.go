// Package core_test holds the tests that concern every package under core/
// at once. The directory has no other Go files: core/ itself is not a
// package anyone imports, only the root of the tree that this test reads.
package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// skipInWasmShort skips a check of the source tree in WebAssembly under
// -short (make test-wasm): the files read are the same whatever the target,
// and the native runs (make check, make test) check them.
func skipInWasmShort(t *testing.T) {
	if runtime.GOOS == "js" && testing.Short() {
		t.Skip("a check of the source tree: the native runs make it")
	}
}

// exported walks the Go files (not tests) below root, as the go tool sees
// them, and calls f for every exported identifier with its package's
// directory, name and doc comment. It returns how many files it read.
func exported(t *testing.T, root string, f func(dir, name, doc string)) int {
	t.Helper()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// The go tool ignores these directories; internal/ holds test support.
			if name := d.Name(); path != root && (name == "testdata" || name == "internal" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
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
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() {
					f(dir, funcName(d), d.Doc.Text())
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						if sp.Name.IsExported() {
							f(dir, sp.Name.Name, d.Doc.Text()+sp.Doc.Text())
						}
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							if !n.IsExported() {
								continue
							}
							doc := d.Doc.Text() + sp.Doc.Text() + sp.Comment.Text()
							if d.Lparen.IsValid() && doc != "" {
								doc = n.Name + " " + doc // a grouped constant is documented by its group or its line
							}
							f(dir, n.Name, doc)
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
	return files
}

// TestDocCommentsStartWithTheName keeps the Go convention for every exported
// identifier in core/ and app/: a doc comment that is a sentence about it,
// starting with its name ("Survival returns …", "A Source is …").
//
// It is one test for both trees rather than a copy per package: it lives in
// core/ and walks the source files, so a package added later is checked
// without being listed anywhere. Under GOOS=js GOARCH=wasm go_js_wasm_exec
// runs the binary in Node from the same directory, and the os package
// reaches the files through Node's fs, so no build tag is needed; with
// -short it skips there (skipInWasmShort).
func TestDocCommentsStartWithTheName(t *testing.T) {
	skipInWasmShort(t)
	for _, root := range []string{".", "../app"} {
		files := exported(t, root, func(dir, name, doc string) {
			short := name[strings.LastIndex(name, ".")+1:]
			doc = strings.TrimSpace(doc)
			for _, article := range []string{"", "A ", "An ", "The "} {
				if strings.HasPrefix(doc, article+short+" ") || strings.HasPrefix(doc, article+short+"'s ") || strings.HasPrefix(doc, article+short+",") {
					return
				}
			}
			t.Errorf("%s: %s has no doc comment starting with its name: %.60q", dir, name, doc)
		})
		// A walk that found nothing would pass without checking anything.
		if files == 0 {
			t.Fatalf("found no Go files under %s", root)
		}
	}
}

// reLessonNumber matches "lesson" or "lessons" followed by a number, even
// across a line break. Lessons are renumbered as the course grows, so a
// comment says what the code does; docs/lessons.md maps lessons to code.
var reLessonNumber = regexp.MustCompile(`(?i)\blessons?\s+[0-9]`)

// reTestNamesLesson matches a Go test, benchmark, fuzz target or example
// whose name carries a lesson's number (TestLesson8Levels).
var reTestNamesLesson = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)\w*Lessons?[0-9]`)

// TestNoLessonNumbers checks every comment and test name in the Go files
// below core/ and the other trees under the module root that hold Go code
// (tests included), and every line of the page's JavaScript, CSS and HTML
// and of the JavaScript tests and scripts (their comments, test titles and
// text alike): none names a lesson by its number.
func TestNoLessonNumbers(t *testing.T) {
	skipInWasmShort(t)
	for _, root := range []string{".", "../app", "../figures", "../wasm", "../lecture", "../machine", "../internal", "../cmd", "../lessons", "../e2e"} {
		fset := token.NewFileSet()
		files := 0
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			af, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return err
			}
			files++
			for _, g := range af.Comments {
				if m := reLessonNumber.FindString(g.Text()); m != "" {
					t.Errorf("%s: a comment names a lesson by number (%q); say what the code does, and map lessons to code in docs/lessons.md", fset.Position(g.Pos()), m)
				}
			}
			if strings.HasSuffix(path, "_test.go") {
				for _, d := range af.Decls {
					if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && reTestNamesLesson.MatchString(fn.Name.Name) {
						t.Errorf("%s: %s names a lesson by number; name the behaviour it tests", fset.Position(fn.Pos()), fn.Name.Name)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if files == 0 {
			t.Fatalf("found no Go files under %s", root)
		}
	}
	exts := map[string]bool{".js": true, ".mjs": true, ".css": true, ".html": true}
	for _, root := range []string{"../web", "../e2e", "../scripts"} {
		files := 0
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if n := d.Name(); n == "node_modules" || n == "testdata" || strings.HasPrefix(n, ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !exts[filepath.Ext(path)] {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			for _, at := range reLessonNumber.FindAllIndex(src, -1) {
				line := 1 + strings.Count(string(src[:at[0]]), "\n")
				t.Errorf("%s:%d: names a lesson by number (%q); say what the code does or tests", path, line, src[at[0]:at[1]])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if files == 0 {
			t.Fatalf("found no JavaScript, CSS or HTML files under %s", root)
		}
	}
}

var (
	reLessonRow = regexp.MustCompile(`^\| ([a-z0-9-]+) \|([^|]*)\|([^|]*)\|([^|]*)\|$`)
	reAPIName   = regexp.MustCompile("`([a-z]+)\\.([A-Z][A-Za-z0-9]*)")
	reSlug      = regexp.MustCompile(`(?m)^slug: *([a-z0-9-]+)`)
)

// TestLessonMapNamesRealAPI checks docs/lessons.md, the map from lessons to
// the code they run: every lesson has a row, and every package.Name it
// writes exists (in app/ in the application column, in core/ in the core
// column).
func TestLessonMapNamesRealAPI(t *testing.T) {
	skipInWasmShort(t)
	api := map[string]bool{} // "app/selection.Bridge", "core/mech.New"
	for root, tree := range map[string]string{".": "core", "../app": "app"} {
		exported(t, root, func(dir, name, _ string) {
			pkg := filepath.Base(dir)
			if !strings.Contains(name, ".") {
				api[tree+"/"+pkg+"."+name] = true
			}
		})
	}
	doc, err := os.ReadFile("../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		m := reLessonRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rows[m[1]] = true
		for col, tree := range map[int]string{3: "app", 4: "core"} {
			for _, n := range reAPIName.FindAllStringSubmatch(m[col], -1) {
				if !api[tree+"/"+n[1]+"."+n[2]] {
					t.Errorf("docs/lessons.md, %s: %s/%s.%s does not exist", m[1], tree, n[1], n[2])
				}
			}
		}
	}
	lessons, err := filepath.Glob("../lessons/*.md")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range lessons {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "\nkind: page\n") {
			continue // a page that is not a lesson (about) runs no code
		}
		if m := reSlug.FindSubmatch(src); m != nil {
			found++
			if !rows[string(m[1])] {
				t.Errorf("docs/lessons.md has no row for %s (%s)", m[1], filepath.Base(f))
			}
		}
	}
	if found == 0 || len(rows) == 0 {
		t.Fatalf("read %d lessons and %d rows of docs/lessons.md", found, len(rows))
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
