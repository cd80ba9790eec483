// Command genschema writes the D1 migrations from lecture.Migrations, so the
// SQLite and D1 databases come from one source. Run by `go generate ./lecture/`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dpplay/dpplay/lecture"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genschema <migrations dir>")
		os.Exit(2)
	}
	for _, m := range lecture.Migrations {
		name := filepath.Join(os.Args[1], m.Name+".sql")
		if err := os.WriteFile(name, []byte(lecture.MigrationHeader+m.SQL), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genschema:", err)
			os.Exit(1)
		}
	}
}
