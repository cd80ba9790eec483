package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

const medicalCSV = "../../core/synth/testdata/medical.csv"

func TestSmallDBCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"smalldb", "-data", medicalCSV, "-columns", "sex,smoker,lung_cancer,over_50",
		"-queries", "marginals:2", "-size", "5", "-epsilon", "2", "-seed", "9"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		Candidates  uint64    `json:"candidates"`
		Synthetic   [][]int   `json:"synthetic"`
		MaxError    float64   `json:"max_error"`
		Seed        *uint64   `json:"seed"`
		TrueAnswers []float64 `json:"true_answers"`
		ErrorLevels []struct {
			MaxError    float64 `json:"max_error"`
			Candidates  uint64  `json:"candidates"`
			Probability float64 `json:"probability"`
		} `json:"error_levels"`
		Bounds *struct {
			Prop44 float64 `json:"prop_4_4"`
			Thm45  struct {
				Bound float64 `json:"bound"`
				Size  int     `json:"size"`
				Same  bool    `json:"same_size_as_this_run"`
			} `json:"thm_4_5"`
		} `json:"bounds"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out.String())
	}
	// C(16+5−1, 5) = 15504 multisets of 5 rows over 16 points.
	if got.Candidates != 15504 || len(got.Synthetic) != 5 || len(got.TrueAnswers) != 24 {
		t.Errorf("candidates %d, %d synthetic rows, %d answers", got.Candidates, len(got.Synthetic), len(got.TrueAnswers))
	}
	var total uint64
	sum, found := 0.0, false
	for _, l := range got.ErrorLevels {
		total += l.Candidates
		sum += l.Probability
		found = found || l.MaxError == got.MaxError
	}
	if total != got.Candidates || math.Abs(sum-1) > 1e-12 || !found {
		t.Errorf("levels hold %d candidates, probability %v, drawn level listed: %v", total, sum, found)
	}
	if got.Seed == nil || *got.Seed != 9 || got.Bounds == nil {
		t.Fatalf("seed %v, bounds %v", got.Seed, got.Bounds)
	}
	// Theorem 4.5 comes with the m it is about: ⌈4·ln 24/α²⌉ rows, not this
	// run's 5.
	if b := got.Bounds.Thm45; b.Size != int(math.Ceil(4*math.Log(24)/(b.Bound*b.Bound))) || b.Size == 5 || b.Same {
		t.Errorf("thm_4_5 %+v", b)
	}
	// Same seed, same output.
	var again bytes.Buffer
	run([]string{"smalldb", "-data", medicalCSV, "-columns", "sex,smoker,lung_cancer,over_50",
		"-queries", "marginals:2", "-size", "5", "-epsilon", "2", "-seed", "9"}, &again, &errOut)
	if again.String() != out.String() {
		t.Error("the same seed gave different output")
	}
}

func TestMWEMCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"mwem", "-data", medicalCSV, "-queries", "halfspaces", "-rounds", "6", "-epsilon", "0.9", "-seed", "1"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got struct {
		EpsilonSpent float64 `json:"epsilon_spent"`
		Rounds       []any   `json:"rounds"`
		Ledger       []any   `json:"ledger"`
		Synthetic    []struct {
			Row    []int   `json:"row"`
			Weight float64 `json:"weight"`
		} `json:"synthetic"`
		Halfspace *struct {
			RealAgreement float64 `json:"real_agreement"`
		} `json:"halfspace"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	w := 0.0
	for _, s := range got.Synthetic {
		w += s.Weight
	}
	if math.Abs(got.EpsilonSpent-0.9) > 1e-12 || len(got.Rounds) != 6 || len(got.Ledger) != 12 || len(got.Synthetic) != 32 || math.Abs(w-1) > 1e-9 || got.Halfspace == nil {
		t.Errorf("spent %v, %d rounds, %d charges, %d points of weight %v, halfspace %v", got.EpsilonSpent, len(got.Rounds), len(got.Ledger), len(got.Synthetic), w, got.Halfspace)
	}
}
