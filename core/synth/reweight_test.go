package synth

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
	mrand "math/rand/v2"
)

func TestMedicalMatchesTheFile(t *testing.T) {
	f, err := os.Open("testdata/medical.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Medical()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Columns(), got.Counts()) != fmt.Sprint(want.Columns(), want.Counts()) || got.N() != 120 {
		t.Errorf("Medical() = %v %v (n = %d), file %v %v", got.Columns(), got.Counts(), got.N(), want.Columns(), want.Counts())
	}
}

func TestOwnTableRefusesWhatIsNotZeroOrOne(t *testing.T) {
	for _, s := range []string{"a,b\n1,0\n0, 1\n", "a,b\n1,0\n0,2\n", "a,b\n1\n", "a,a\n1,0\n"} {
		if _, err := readOwnTable(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
	if d, err := readOwnTable("a,b\n1,0\n1,1\n"); err != nil || d.N() != 2 {
		t.Errorf("a two-row table: %v", err)
	}
}

// TestReweightMatchesAFreshRun scores once at ε = 1, then reweights to other
// values of ε with the source rewound to where scoring left it, and compares
// every draw and level distribution with a fresh run at that ε.
func TestReweightMatchesAFreshRun(t *testing.T) {
	d := medical(t, "sex", "smoker", "lung_cancer", "over_50")
	qs, err := Marginals(d.Columns(), 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2, 3} {
		cfg := SmallDBConfig{Data: d, Queries: qs, Size: 5, Epsilon: 1}
		src := rng.NewSeededSource(seed)
		s, err := NewSmallDBStepper(cfg, mrand.New(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reweight(2); err == nil {
			t.Error("Reweight before scoring was accepted")
		}
		for s.Stage() < StageLevels {
			if err := s.Step(5000); err != nil {
				t.Fatal(err)
			}
		}
		saved, err := src.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for _, eps := range []float64{1, 0.3, 4, 25} {
			if err := s.Reweight(eps); err != nil {
				t.Fatal(err)
			}
			if err := src.UnmarshalBinary(saved); err != nil {
				t.Fatal(err)
			}
			for !s.Done() {
				if err := s.Step(1); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.Result()
			if err != nil {
				t.Fatal(err)
			}
			cfg.Epsilon = eps
			want, err := SmallDB(context.Background(), cfg, rng.Seeded(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Synthetic, got.Level, got.Levels) != fmt.Sprint(want.Synthetic, want.Level, want.Levels) {
				t.Errorf("seed %d, ε = %v: reweighted run drew %v (level %d), fresh run %v (level %d)", seed, eps, got.Synthetic, got.Level, want.Synthetic, want.Level)
			}
			if s.Epsilon() != eps {
				t.Errorf("Epsilon() = %v after Reweight(%v)", s.Epsilon(), eps)
			}
		}
		if err := s.Reweight(0); err == nil {
			t.Error("Reweight(0) was accepted")
		}
	}
}
