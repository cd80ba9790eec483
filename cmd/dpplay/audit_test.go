package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

func TestAuditCommand(t *testing.T) {
	args := []string{"audit", "-mechanism", "exponential", "-score", "count[r] - count[(r+1)%3]", "-sensitivity", "1",
		"-epsilon", "1", "-candidates", "3", "-max-count", "3", "-neighbours", "change-one"}
	var out, errOut bytes.Buffer
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var raw map[string]any
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	for _, key := range []string{"claimed_epsilon", "worst_loss", "holds", "worst", "pairs_checked"} {
		if _, ok := raw[key]; !ok {
			t.Errorf("no %q in %s", key, out.String())
		}
	}
	var res auditResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	// 4^3 data sets; change-one pairs: for each data set and i < j with
	// count[i] ≥ 1 and count[j] ≤ 2: 3 pairs of options × 3 × 3 × 4 = 108.
	if res.Holds || res.WorstLoss == nil || *res.WorstLoss <= 1 || res.PairsChecked != 108 || res.DataSets != 64 {
		t.Errorf("result %+v", res)
	}
	w := res.Worst
	if len(w.Data) != 3 || len(w.Neighbour) != 3 || w.PData == nil || w.PNeighbour == nil ||
		math.Abs(math.Abs(math.Log(*w.PData/(*w.PNeighbour)))-*res.WorstLoss) > 1e-9 {
		t.Errorf("worst %+v", w)
	}
	// Δ = 2 fixes it.
	out.Reset()
	args[6] = "2"
	run(args, &out, &errOut)
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || !res.Holds {
		t.Errorf("Δ = 2: %s", out.String())
	}
}

// An unbounded loss is valid JSON: worst_loss null, unbounded true.
func TestAuditCommandUnbounded(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"audit", "-mechanism", "gaussian", "-score", "count[r]", "-neighbours", "add-remove"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var raw map[string]any
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if raw["worst_loss"] != nil || raw["unbounded"] != true || raw["holds"] != false {
		t.Errorf("got %s", out.String())
	}
}
