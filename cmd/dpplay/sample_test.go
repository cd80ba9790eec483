package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func TestSampleCommand(t *testing.T) {
	for _, mechanism := range []string{"exponential", "report-noisy-max-laplace", "report-noisy-max-gumbel", "permute-and-flip"} {
		args := []string{"sample", "-mechanism", mechanism, "-scores", "3,2.5,2,1", "-draws", "500", "-seed", "9"}
		var res sampleResult
		first := runJSON(t, args, &res)
		total, sum := 0, 0.0
		for i, c := range res.Counts {
			total += c
			sum += res.Probabilities[i]
		}
		if total != 500 || math.Abs(sum-1) > 1e-12 || len(res.Counts) != 4 {
			t.Errorf("%s: %d draws, probabilities sum to %v", mechanism, total, sum)
		}
		// The same seed gives the same counts.
		if again := runJSON(t, args, &sampleResult{}); again != first {
			t.Errorf("%s: same seed, different output", mechanism)
		}
	}
}

// The unknown-mechanism message must name every mechanism a student can
// type, in the form the -mechanism flag takes them.
func TestSampleUnknownMechanismListsTheChoices(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"sample", "-scores", "1,2", "-mechanism", "magic"}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	const want = `dpplay sample: mechanism: unknown mechanism "magic"; choose one of ` +
		"exponential, report-noisy-max-laplace, report-noisy-max-gumbel, permute-and-flip\n"
	if got := errOut.String(); got != want {
		t.Errorf("message\n%q\nwant\n%q", got, want)
	}
}

// On raw Adult counts permute-and-flip's losers are far below double range
// as probabilities, but their logarithms are ordinary numbers and the JSON
// must carry them: −2147.19… for the runner-up (gap 4293 in units of
// 2Δ/ε = 2, so ln p = −2146.5 − ln 2), not the "impossible" −1.797e308.
func TestSamplePermuteAndFlipRawAdultLogProbabilities(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"sample", "-mechanism", "permute-and-flip", "-scores", "14976,10683,4443,1025,993,418,23",
		"-epsilon", "1", "-sensitivity", "1", "-draws", "100", "-seed", "1"}
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var res sampleResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	want := -2146.5 - math.Ln2
	if got := res.LogProbabilities[1]; math.Abs(got-want) > 1e-9 {
		t.Errorf("runner-up ln p = %v, want %v", got, want)
	}
	for i, lp := range res.LogProbabilities[1:] {
		if lp < -1e4 {
			t.Errorf("ln p[%d] = %v reported as impossible", i+1, lp)
		}
	}
}
