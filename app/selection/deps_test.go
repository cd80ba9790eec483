package selection

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The first-load module must stay inside the 1 MB gzip budget. fmt (with
// reflect's printing) and crypto/rand (with math/big and the FIPS module)
// together cost it about 200 KB, and nothing it does needs them: messages
// are built by core/validate, and the crypto source lives in core/rng/osrand.
// This test fails as soon as either creeps back into its import graph.
func TestFirstLoadModuleLinksNeitherFmtNorCryptoRand(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(gocmd, "list", "-deps", "../../wasm/core")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "fmt", "crypto/rand", "math/big":
			t.Errorf("wasm/core links %s; see this test's comment", pkg)
		}
	}
}
