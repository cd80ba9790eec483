package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
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

// -benchmark prints one object per mechanism of DP-Sniper's evaluation,
// with exactly the keys; unbounded losses are null.
func TestAuditBenchmark(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"audit", "-benchmark", "dpsniper"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out.String())
	}
	if len(rows) != 20 {
		t.Fatalf("%d rows, want the 20 mechanisms of DP-Sniper's evaluation", len(rows))
	}
	keys := []string{"mechanism", "claimed_epsilon", "pair", "exact_loss", "unbounded", "dpsniper_estimate", "dpsniper_lower_bound", "method"}
	keysInOrder(t, out.String(), keys)
	unbounded := map[string]bool{}
	for _, r := range rows {
		if len(r) != len(keys) {
			t.Errorf("%v: %d keys, want %v", r["mechanism"], len(r), keys)
		}
		for _, k := range keys {
			if _, ok := r[k]; !ok {
				t.Errorf("%v: no %q", r["mechanism"], k)
			}
		}
		if r["unbounded"] == true {
			unbounded[r["mechanism"].(string)] = true
			if r["exact_loss"] != nil {
				t.Errorf("%v: unbounded with exact_loss %v", r["mechanism"], r["exact_loss"])
			}
		} else if l, ok := r["exact_loss"].(float64); !ok || l < r["dpsniper_lower_bound"].(float64) {
			t.Errorf("%v: exact_loss %v below the lower bound %v", r["mechanism"], r["exact_loss"], r["dpsniper_lower_bound"])
		}
	}
	if len(unbounded) != 2 || !unbounded["ReportNoisyMax4"] || !unbounded["SparseVectorTechnique5"] {
		t.Errorf("unbounded: %v", unbounded)
	}
	if rows[8]["mechanism"] != "SparseVectorTechnique1" || math.Abs(rows[8]["exact_loss"].(float64)-0.0878011) > 1e-6 {
		t.Errorf("row 8: %v", rows[8])
	}
	out.Reset()
	if code := run([]string{"audit", "-benchmark", "statdp"}, &out, &errOut); code != 0 {
		t.Fatalf("statdp: exit %d: %s", code, errOut.String())
	}
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 38 {
		t.Fatalf("statdp: %d rows, %v", len(rows), err)
	}
	keysInOrder(t, out.String(), []string{"mechanism", "claimed_epsilon", "pair", "exact_loss", "unbounded",
		"statdp_estimate", "statdp_lower_bound", "statdp_run", "method"})
	for _, r := range rows {
		if r["mechanism"] == "SparseVectorTechnique5" && (r["statdp_estimate"] != nil || r["unbounded"] != true) {
			t.Errorf("StatDP's infinite estimate: %v", r)
		}
	}
	if code := run([]string{"audit", "-benchmark", "nope"}, &out, &errOut); code == 0 {
		t.Error("an unknown benchmark is accepted")
	}
}

// keysInOrder checks that the keys of the first object of a -benchmark
// array (its second line) come in the order keys names them.
func keysInOrder(t *testing.T, out string, keys []string) {
	t.Helper()
	lines := strings.SplitN(out, "\n", 3)
	if len(lines) < 2 {
		t.Fatalf("no rows: %q", out)
	}
	at := -1
	for _, k := range keys {
		i := strings.Index(lines[1], `"`+k+`":`)
		if i <= at {
			t.Errorf("%q is not after the keys before it in %v: %s", k, keys, lines[1])
		}
		at = i
	}
}
