package main

import (
	"os"
	"strings"

	"github.com/dpplay/dpplay/app/data"
)

// maxCategories is how many distinct values `dpplay sample -data` counts.
const maxCategories = 10000

// readTable reads a CSV file with app/data, the parser the page uses, so a
// bad file gets the same message here: "FILE: line 3, column 2 (age): …".
func readTable(path string, h data.Header) (*data.Table, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if st.Size() > data.MaxBytes {
		return nil, usagef("%s: the file is larger than the limit of %d MB", path, data.MaxBytes>>20)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	t, err := data.Parse(b, h)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return t, nil
}

// tableColumn finds column name (required) in t, or says what is there.
func tableColumn(path string, t *data.Table, flagName, name string) (int, error) {
	if name == "" {
		return 0, usagef("%s is required with -data; the columns of %s are %s", flagName, path, strings.Join(t.Names, ", "))
	}
	j, err := t.Column(name)
	if err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	return j, nil
}
