// Command genschema writes the D1 migration from lecture.Schema, so the
// SQLite and D1 databases come from one source. Run by `go generate ./lecture/`.
package main

import (
	"fmt"
	"os"

	"github.com/dpplay/dpplay/lecture"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genschema <output.sql>")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], []byte(lecture.MigrationHeader+lecture.Schema), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
}
