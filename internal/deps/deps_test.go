// Package deps tests the project's imports: the layer rule of
// docs/architecture.md (TestLayers), and what each build below must keep out
// of its import graph.
package deps

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBuildsLinkNoForbiddenPackage(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	for _, tc := range []struct {
		pkg    string   // built as `go list -deps` names it, from this folder
		env    []string // GOOS and GOARCH of the build
		forbid func(dep string) bool
		why    string
	}{
		{
			// The first-load module must stay inside the 1 MB gzip budget. fmt
			// (with reflect's printing) and crypto/rand (with math/big and the
			// FIPS module) together cost it about 200 KB, and nothing it does
			// needs them: messages are built by core/validate, and the crypto
			// source lives in core/rng/osrand.
			pkg: "../../wasm/core", env: []string{"GOOS=js", "GOARCH=wasm"},
			forbid: func(dep string) bool { return dep == "fmt" || dep == "crypto/rand" || dep == "math/big" },
			why:    "the first-load module must fit the 1 MB budget",
		},
		{
			// The site builder needs the widgets' figure names, not the
			// figures: it must not link package figures, and with it
			// gonum/plot and its fonts.
			pkg: "../site",
			forbid: func(dep string) bool {
				return dep == "github.com/dpplay/dpplay/figures" || strings.HasPrefix(dep, "gonum.org/v1/plot")
			},
			why: "the site builder needs no plotting",
		},
	} {
		for _, dep := range strings.Fields(goList(t, tc.env, "-deps", tc.pkg)) {
			if tc.forbid(dep) {
				t.Errorf("%s links %s; %s", tc.pkg, dep, tc.why)
			}
		}
	}
}

// goList runs `go list args…` from this folder with env added to the
// environment and returns its output.
func goList(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return string(out)
}

const module = "github.com/dpplay/dpplay/"

// A layer is the rule for the packages under one folder of the module:
// what they may import besides the standard library. Prefixes name folders
// of the module ("core/" is core and everything below it; "figures" alone
// is the package figures and the packages below it) or module paths of
// outside libraries. docs/architecture.md draws the same rule.
type layer struct {
	dir   string   // module folder the rule covers; the longest match wins
	may   []string // what its packages may import besides the standard library
	tests []string // what their tests may import as well
	why   string
}

// layers is the layer rule. core/ is the mathematics, app/ turns a widget's
// parameters into what the page shows, wasm/ is entry points and glue over
// app/. Beside app/ sit lecture/ (the live-lecture API) and machine/ (the
// sampling machine), which call core/ directly as app/ does; figures/ draws
// app/'s models and calls core/ for exact probabilities its tests check
// against. cmd/ wires everything but wasm/.
var layers = []layer{
	{dir: "core", may: []string{"core", "github.com/spaolacci/murmur3"}, tests: []string{"github.com/expr-lang/expr"},
		why: "core/ is plain mathematics: the standard library, core/ and the hash RAPPOR's filter uses in core/audit/pair (core/audit's tests compare its expressions with expr-lang's)"},
	{dir: "app/", may: []string{"app/", "core/"}, tests: []string{"internal/nodeprobe"},
		why: "app/ calls core/ and nothing above it"},
	{dir: "machine", may: []string{"core/"}, why: "the sampling machine's simulation sits beside app/ and calls core/"},
	{dir: "lecture", may: []string{"lecture", "core/", "modernc.org/sqlite"},
		why: "the lecture API sits beside app/: core/ for its noise, SQLite for dpplay serve's database"},
	{dir: "figures", may: []string{"figures", "app/", "core/", "gonum.org/v1/plot", "golang.org/x/image/", "codeberg.org/go-pdf/fpdf"},
		tests: []string{"figures"},
		why:   "figures draw app/'s models with gonum/plot, its fonts' outlines (x/image) and its PDF library's defaults (fpdf); never the lecture, the site or the wasm glue"},
	{dir: "internal/site", may: []string{"app/widget", "github.com/yuin/goldmark", "go.yaml.in/yaml/v3", "github.com/evanw/esbuild/pkg/api"},
		tests: []string{"internal/nodeprobe"},
		why:   "the site builder needs the widgets' schemas (app/widget) and esbuild to bundle the page's modules, not their figures, the lecture or core/"},
	{dir: "internal/deps", tests: []string{"github.com/evanw/esbuild/pkg/api"}, why: "this test (esbuild parses the page's modules for TestWebLayers)"},
	{dir: "internal/nodeprobe", why: "test support: runs the page's JavaScript in Node"},
	{dir: "internal/serve", may: []string{"lecture", "github.com/andybalholm/brotli"},
		why: "dpplay serve: the static site and the lecture API over SQLite"},
	{dir: "wasm/jsio", may: []string{"syscall/js"}, why: "the JS glue every module shares"},
	{dir: "wasm/figjs", may: []string{"wasm/jsio", "figures", "syscall/js"}, why: "the figure modules' glue over package figures"},
	{dir: "wasm/auditfigures", may: []string{"wasm/figjs", "figures/auditfig"}, why: "a figure module: glue and the charts it registers"},
	{dir: "wasm/figures", may: []string{"wasm/figjs"}, why: "a figure module: glue and the charts it registers"},
	{dir: "wasm/machine", may: []string{"machine", "github.com/hajimehoshi/ebiten/v2", "syscall/js"},
		why: "the sampling machine's canvas draws package machine"},
	{dir: "wasm/", may: []string{"app/", "wasm/jsio", "syscall/js"},
		why: "a wasm module converts arguments and calls app/, nothing else"},
	{dir: "cmd/cloudflare", may: []string{"lecture", "syscall/js"}, why: "the Cloudflare worker runs the lecture API"},
	{dir: "cmd/", may: []string{"app/", "core/", "figures", "internal/", "lecture"},
		tests: []string{"lecture/"},
		why:   "the command wires every layer but wasm/"},
	{dir: "e2e/", tests: []string{"lecture/lecturetest", "lecture/sqlitedb"}, why: "end-to-end tests drive built programs"},
	{dir: "lessons", tests: []string{"app/", "core/", "lecture"},
		why: "the quote tests compute each number a lesson quotes from the code its widget calls"},
}

func (l layer) allows(imp string, test bool) bool {
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") && imp != "syscall/js" {
		return true // the standard library (syscall/js is listed where allowed)
	}
	rel, inModule := strings.CutPrefix(imp, module)
	allowed := l.may
	if test {
		allowed = append(append([]string(nil), l.may...), l.tests...)
	}
	for _, p := range allowed {
		if inModule && covers(p, rel) || !inModule && covers(p, imp) {
			return true
		}
	}
	return false
}

// covers reports whether prefix p names path: "core/" every path below core,
// "figures" the package figures and every path below it.
func covers(p, path string) bool {
	if strings.HasSuffix(p, "/") {
		return strings.HasPrefix(path, p)
	}
	return path == p || strings.HasPrefix(path, p+"/")
}

func layerOf(rel string) (layer, bool) {
	var best layer
	found := false
	for _, l := range layers {
		if covers(l.dir, rel) && (!found || len(l.dir) > len(best.dir)) {
			best, found = l, true
		}
	}
	return best, found
}

// TestLayers checks the layer rule on every package of the module as the
// go command lists it natively and, for the packages that build only for
// the browser (wasm/, cmd/cloudflare), with GOOS=js GOARCH=wasm: a
// package outside every layer is an error too, so a new folder must be
// placed in the rule.
func TestLayers(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	seen := 0
	for _, run := range []struct {
		env  []string
		pkgs []string
	}{
		{nil, []string{"../../..."}},
		{[]string{"GOOS=js", "GOARCH=wasm"}, []string{"../../wasm/...", "../../cmd/cloudflare"}},
	} {
		out := goList(t, run.env, append([]string{"-e", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}"}, run.pkgs...)...)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			f := strings.Split(line, "|")
			rel := strings.TrimPrefix(f[0], module)
			seen++
			l, ok := layerOf(rel)
			if !ok {
				t.Errorf("%s is in no layer: add its folder to the rule in internal/deps and docs/architecture.md", rel)
				continue
			}
			for i, imps := range f[1:] {
				for _, imp := range strings.Fields(imps) {
					if imp == f[0] || imp == f[0]+"_test" {
						continue // an external test imports its own package
					}
					if !l.allows(imp, i == 1) {
						what := " imports"
						if i == 1 {
							what = "'s tests import"
						}
						t.Errorf("%s%s %s: %s", rel, what, strings.TrimPrefix(imp, module), l.why)
					}
				}
			}
		}
	}
	// A listing that found nothing would pass without checking anything.
	if seen < 30 {
		t.Fatalf("checked only %d packages", seen)
	}
}
