package synth_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/dpplay/dpplay/core/rng"
	"github.com/dpplay/dpplay/core/synth"
)

// SmallDB on a six-row table with two attributes: all 1-way marginals,
// synthetic databases of three rows. The best level can be checked by hand:
// one smoker or two and exactly one lung cancer, four multisets, each with
// weight exp(−ε·n·(1/6)/2) = e^(−1).
func ExampleSmallDB() {
	d, err := synth.ReadCSV(strings.NewReader("smoker,lung_cancer\n1,1\n1,0\n0,0\n0,0\n0,0\n1,1\n"))
	if err != nil {
		panic(err)
	}
	qs, err := synth.Marginals(d.Columns(), 1)
	if err != nil {
		panic(err)
	}
	res, err := synth.SmallDB(context.Background(), synth.SmallDBConfig{Data: d, Queries: qs, Size: 3, Epsilon: 2}, rng.Seeded(1), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("candidates:", res.Candidates)
	for _, l := range res.Levels {
		fmt.Printf("max error %.3f: %2d candidates, probability %.3f\n", l.MaxError, l.Candidates, l.Probability)
	}
	// Output:
	// candidates: 20
	// max error 0.167:  4 candidates, probability 0.554
	// max error 0.333:  6 candidates, probability 0.306
	// max error 0.500:  6 candidates, probability 0.112
	// max error 0.667:  4 candidates, probability 0.028
}
