// Package liberationserifregular stands in for the face of that name with Liberation
// Sans Regular, which is all dpplay's figures draw with (see ../README.md).
package liberationserifregular // import "codeberg.org/go-fonts/liberation/liberationserifregular"

import "codeberg.org/go-fonts/liberation/liberationsansregular"

// TTF is Liberation Sans Regular.
var TTF = liberationsansregular.TTF
