package market

import "testing"

func TestTeaMarket(t *testing.T) {
	v, err := TeaMarket()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Values) != 300 || len(v.Goods) != 3 || v.Goods[0] != "tea" {
		t.Fatalf("got %d buyers and goods %v", len(v.Values), v.Goods)
	}
	for i, row := range v.Values {
		for j, x := range row {
			if x < 0 || x > 1 {
				t.Fatalf("buyer %d good %d: value %v outside [0, 1]", i, j, x)
			}
		}
	}
}
