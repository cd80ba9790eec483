// Package liberationsansregular provides the Liberation Sans Regular TrueType
// font, the one face dpplay's figures draw with.
package liberationsansregular // import "codeberg.org/go-fonts/liberation/liberationsansregular"

import _ "embed"

// TTF is the data for the Liberation Sans Regular TrueType font.
//
//go:embed LiberationSans-Regular.ttf
var TTF []byte
