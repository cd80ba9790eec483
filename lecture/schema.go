package lecture

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// The lecture database is defined once, by the files in migrations/: the
// schema's steps in order, NNNN_name.sql numbered from 0001. `dpplay serve`
// applies them to its SQLite file (package sqlitedb) and
// `wrangler d1 migrations apply` to D1 (cloudflare/wrangler.toml points at the
// same folder). A change to the schema is a new file at the end, never an
// edit of a step that databases may already have applied. A statement ends
// with a semicolon at the end of a line, so a trigger keeps the semicolons
// inside its BEGIN … END on one line.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migrations holds the schema's steps, 0001_schema.sql and on, at its root.
var Migrations fs.FS = must(fs.Sub(migrations, "migrations"))

// A Step is one migration: its file name without .sql, and its SQL.
type Step struct{ Name, SQL string }

// Steps are the files of Migrations in order; a database has applied the
// first k of them.
var Steps = must(readSteps(Migrations))

// readSteps reads the .sql files at the root of fsys in name order and
// checks that the k-th (from 1) is named with k in four digits, an
// underscore and a name, so no step is missing or doubled.
func readSteps(fsys fs.FS) ([]Step, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("lecture: no migrations")
	}
	steps := make([]Step, len(names))
	for i, name := range names { // fs.Glob sorts
		prefix := fmt.Sprintf("%04d_", i+1)
		if !strings.HasPrefix(name, prefix) || len(name) == len(prefix)+len(".sql") {
			return nil, fmt.Errorf("lecture: migration %s: step %d must be named %sNAME.sql", name, i+1, prefix)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		steps[i] = Step{strings.TrimSuffix(name, ".sql"), string(b)}
	}
	return steps, nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
