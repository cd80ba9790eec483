package site

import (
	"path"
	"strings"
)

// headMark opens each page of the web shell; the build writes the head
// every page shares in its place.
const headMark = "<!--dpplay:head-->"

// pageHead is what every page starts with: the document type, the language,
// the encoding (within the first 1024 bytes, as HTML requires) and the
// viewport. The page's own head follows it: its Content-Security-Policy,
// title, colour scheme and stylesheets.
const pageHead = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">`

// fillHeads writes pageHead in place of headMark in every page of files at
// the top of the site (output path → contents).
func fillHeads(files map[string][]byte) {
	for name, b := range files {
		if path.Dir(name) == "." && path.Ext(name) == ".html" {
			files[name] = []byte(strings.Replace(string(b), headMark, pageHead, 1))
		}
	}
}
