package site

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The site builder needs the widgets' figure names, not the figures: it must
// not link package figures, and with it gonum/plot and its fonts.
func TestSiteBuilderLinksNoPlotting(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/dpplay/dpplay/figures" || strings.HasPrefix(pkg, "gonum.org/v1/plot") {
			t.Errorf("internal/site links %s", pkg)
		}
	}
}
