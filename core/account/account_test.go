package account

import (
	"errors"
	"math"
	"testing"
)

func TestSequentialComposition(t *testing.T) {
	a, err := New(1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if err := a.Spend("tenth", 0.1, 1e-6); err != nil {
			t.Fatalf("charge %d: %v", i, err)
		}
	}
	eps, delta := a.Spent()
	if math.Abs(eps-1) > 1e-12 || math.Abs(delta-1e-5) > 1e-18 {
		t.Errorf("spent (%v, %v), want (1, 1e-5)", eps, delta)
	}
	if err := a.Spend("one more", 0.01, 0); !errors.Is(err, ErrBudget) {
		t.Errorf("over-budget charge: got %v, want ErrBudget", err)
	}
	if len(a.Ledger()) != 10 {
		t.Errorf("ledger has %d charges, want 10 (a refused charge is not recorded)", len(a.Ledger()))
	}
	if e, d := a.Remaining(); e != 0 || d != 0 {
		t.Errorf("remaining (%v, %v), want (0, 0)", e, d)
	}
}

func TestNoisyMaxVersusSeparateReleases(t *testing.T) {
	// Choosing among 7 candidates: report noisy max is one ε-charge; seven
	// Laplace releases of the scores are seven, and overrun a budget of 3ε.
	const eps = 0.5
	rnm, _ := New(3*eps, 0)
	if err := rnm.Spend("report noisy max", eps, 0); err != nil {
		t.Fatal(err)
	}
	separate, _ := New(3*eps, 0)
	var err error
	released := 0
	for ; released < 7; released++ {
		if err = separate.Spend("Laplace score", eps, 0); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrBudget) || released != 3 {
		t.Errorf("separate releases: %d fit before %v; want 3 then ErrBudget", released, err)
	}
}

func TestValidation(t *testing.T) {
	for _, b := range [][2]float64{{0, 0}, {-1, 0}, {math.NaN(), 0}, {1, 1}, {1, -0.1}, {math.Inf(1), 0}} {
		if _, err := New(b[0], b[1]); err == nil {
			t.Errorf("New(%v, %v): no error", b[0], b[1])
		}
	}
	a, _ := New(1, 0)
	for _, c := range [][2]float64{{0, 0}, {math.NaN(), 0}, {0.1, -1}, {0.1, 2}} {
		if err := a.Spend("bad", c[0], c[1]); err == nil || errors.Is(err, ErrBudget) {
			t.Errorf("Spend(%v, %v): got %v, want a validation error", c[0], c[1], err)
		}
	}
	if err := a.Spend("needs δ", 0.1, 1e-9); !errors.Is(err, ErrBudget) {
		t.Errorf("δ > 0 against a pure-ε budget: got %v, want ErrBudget", err)
	}
}

// TestSpendAllIsAllOrNothing: a batch is recorded whole or not at all, and it
// is accepted exactly when the same charges made one by one with Spend would
// all be accepted, including at the edge of the budget where rounding
// decides.
func TestSpendAllIsAllOrNothing(t *testing.T) {
	for _, parts := range []int{1, 3, 7, 100} {
		for ulps := -4; ulps <= 4; ulps++ {
			eps := 1 + 1e-9
			for i := 0; i < ulps; i++ {
				eps = math.Nextafter(eps, 2)
			}
			for i := 0; i > ulps; i-- {
				eps = math.Nextafter(eps, 0)
			}
			batch := make([]Charge, parts)
			for i := range batch {
				batch[i] = Charge{Label: "part", Epsilon: eps / float64(parts)}
			}
			one, _ := New(1, 0)
			okOne := true
			for _, c := range batch {
				if one.Spend(c.Label, c.Epsilon, c.Delta) != nil {
					okOne = false
					break
				}
			}
			all, _ := New(1, 0)
			check := all.CanSpendAll(batch)
			err := all.SpendAll(batch)
			if (check == nil) != (err == nil) {
				t.Fatalf("parts %d, ε = %v: CanSpendAll says %v, SpendAll %v", parts, eps, check, err)
			}
			if (err == nil) != okOne {
				t.Fatalf("parts %d, ε = %v: SpendAll %v, one by one ok = %v", parts, eps, err, okOne)
			}
			if err != nil && (!errors.Is(err, ErrBudget) || len(all.Ledger()) != 0) {
				t.Fatalf("parts %d, ε = %v: refused with %v and %d charges recorded", parts, eps, err, len(all.Ledger()))
			}
			if err == nil {
				a, _ := all.Spent()
				b, _ := one.Spent()
				if a != b || len(all.Ledger()) != parts {
					t.Fatalf("parts %d: SpendAll spent %v in %d charges, Spend %v", parts, a, len(all.Ledger()), b)
				}
			}
		}
	}
	a, _ := New(1, 0)
	for _, bad := range [][]Charge{nil, {{Epsilon: 0}}, {{Epsilon: 0.1}, {Epsilon: math.NaN()}}, {{Epsilon: 0.1, Delta: -1}}} {
		if err := a.SpendAll(bad); err == nil || errors.Is(err, ErrBudget) || len(a.Ledger()) != 0 {
			t.Errorf("SpendAll(%v): %v, %d charges", bad, err, len(a.Ledger()))
		}
	}
	var nilAcct *Accountant
	if err := nilAcct.SpendAll([]Charge{{Epsilon: 1}}); err == nil {
		t.Error("a nil accountant accepted a batch")
	}
}
