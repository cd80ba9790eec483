// Package deps tests what the project's builds link: each build below must
// keep some packages out of its import graph.
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
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", tc.pkg)
		cmd.Env = append(os.Environ(), tc.env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", tc.pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if tc.forbid(dep) {
				t.Errorf("%s links %s; %s", tc.pkg, dep, tc.why)
			}
		}
	}
}
