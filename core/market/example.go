package market

import (
	"bytes"
	_ "embed"
)

//go:embed testdata/market300.csv
var tea300 []byte

// TeaMarket returns an example market: 300 buyers and three goods (tea,
// coffee, cocoa) with values in [0, 1], a shared taste for tea plus
// individual noise (testdata/market300.csv; docs/market.md runs it with
// 40 copies of each good).
func TeaMarket() (*Valuations, error) { return ParseValuations(bytes.NewReader(tea300)) }
