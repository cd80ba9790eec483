package figures

import (
	"fmt"
	"image/color"
	"strings"
)

// Palette is the Okabe–Ito palette (Okabe and Ito 2008), chosen because its
// eight colours stay distinct under the common forms of colour-vision
// deficiency. The order is the order series take them; web/palette.css
// holds the same colours as --c-1 … --c-8 so a chart on the page and the
// exported figure agree (PaletteCSS writes that file).
var Palette = [8]struct {
	Name string
	RGB  color.RGBA
}{
	{"blue", color.RGBA{0x00, 0x72, 0xB2, 0xff}},
	{"orange", color.RGBA{0xE6, 0x9F, 0x00, 0xff}},
	{"bluish green", color.RGBA{0x00, 0x9E, 0x73, 0xff}},
	{"vermillion", color.RGBA{0xD5, 0x5E, 0x00, 0xff}},
	{"reddish purple", color.RGBA{0xCC, 0x79, 0xA7, 0xff}},
	{"sky blue", color.RGBA{0x56, 0xB4, 0xE9, 0xff}},
	{"yellow", color.RGBA{0xF0, 0xE4, 0x42, 0xff}},
	{"black", color.RGBA{0x00, 0x00, 0x00, 0xff}},
}

// The page's bar charts (web/charts/bars.js) do not use the palette: they draw
// the share of draws in the site's bar colour on a light track, and the
// exact value in its mark colour, --bar, --track and --mark of the light
// theme in web/styles.css (a test keeps them in step). A series takes them
// with Colour: BarColour or MarkColour.
var (
	SiteBar   = color.RGBA{0x3d, 0x7c, 0xc9, 0xff}
	SiteTrack = color.RGBA{0xed, 0xf1, 0xf6, 0xff}
	SiteMark  = color.RGBA{0xb5, 0x50, 0x0b, 0xff}
)

// SiteHist is the page's line charts' histogram (web/charts/line.js):
// SiteBar at 35% opacity over white (.line-chart .hist-bar).
var SiteHist = color.RGBA{0xbb, 0xd1, 0xec, 0xff}

// Series colours beyond the palette's eight.
const (
	BarColour  = 8  // SiteBar
	MarkColour = 9  // SiteMark
	HistColour = 10 // SiteHist
)

// Colour returns palette entry i (0-based), wrapping around, or the site's
// bar, mark or histogram colour for BarColour, MarkColour and HistColour.
func Colour(i int) color.RGBA {
	switch i {
	case BarColour:
		return SiteBar
	case MarkColour:
		return SiteMark
	case HistColour:
		return SiteHist
	}
	return Palette[((i%8)+8)%8].RGB
}

// Hex returns palette entry i as #RRGGBB.
func Hex(i int) string {
	c := Colour(i)
	return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
}

// PaletteCSS returns the palette as CSS custom properties --c-1 … --c-8,
// the content of web/palette.css (a test keeps the two in step).
func PaletteCSS() string {
	var b strings.Builder
	b.WriteString("/* Okabe–Ito colour-blind-safe palette, shared by the page's charts and the\n")
	b.WriteString("   exported figures. Generated from figures/palette.go (figures.PaletteCSS);\n")
	b.WriteString("   a test checks that the two agree. */\n:root {\n")
	for i, p := range Palette {
		fmt.Fprintf(&b, "  --c-%d: %s; /* %s */\n", i+1, Hex(i), p.Name)
	}
	b.WriteString("}\n")
	return b.String()
}
