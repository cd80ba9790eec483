package synth

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/internal/calltest"
	"github.com/dpplay/dpplay/core/rng"
)

// TestNilAndZeroValues calls every exported function and method of the
// package with nil pointers, zero values and nil arguments: none may panic,
// every one that returns an error must return one, and the accessors with no
// error to return give zero values, never NaN or Inf.
func TestNilAndZeroValues(t *testing.T) {
	d := medical(t, "sex", "smoker", "lung_cancer", "over_50")
	qs, err := Marginals(d.Columns(), 2)
	if err != nil {
		t.Fatal(err)
	}
	var nilData *Data
	var nilQS *QuerySet
	var nilStepper *SmallDBStepper
	var nilSampler *SmallDBSampler
	var nilMWEM *MWEMStepper
	var nilCtx context.Context
	r := rng.Seeded(1)
	ctx := context.Background()

	// Calls that must return an error.
	errs := []struct {
		name string
		call func() error
	}{
		{"ReadCSV(nil)", func() error { _, err := ReadCSV(nil); return err }},
		{"NewData(nil, nil)", func() error { _, err := NewData(nil, nil); return err }},
		{"FromRows(nil, nil)", func() error { _, err := FromRows(nil, nil); return err }},
		{"nil Data.Point", func() error { _, err := nilData.Point(0); return err }},
		{"zero Data.Point", func() error { _, err := (&Data{}).Point(0); return err }},
		{"nil Data.Project", func() error { _, err := nilData.Project([]string{"sex"}); return err }},
		{"zero Data.Project", func() error { _, err := (&Data{}).Project([]string{"sex"}); return err }},
		{"NewQuerySet(nil, nil)", func() error { _, err := NewQuerySet(nil, nil); return err }},
		{"Marginals(nil, 1)", func() error { _, err := Marginals(nil, 1); return err }},
		{"Halfspaces(nil)", func() error { _, err := Halfspaces(nil); return err }},
		{"ParseQueries(nil, \"\")", func() error { _, err := ParseQueries(nil, ""); return err }},
		{"HalfspaceGrid(0)", func() error { _, err := HalfspaceGrid(0); return err }},
		{"QuerySet.Answers(nil)", func() error { _, err := qs.Answers(nil); return err }},
		{"QuerySet.Answers(zero Data)", func() error { _, err := qs.Answers(&Data{}); return err }},
		{"nil QuerySet.Answers", func() error { _, err := nilQS.Answers(d); return err }},
		{"zero QuerySet.Answers", func() error { _, err := (&QuerySet{}).Answers(d); return err }},
		{"zero QuerySet.Answers(zero Data)", func() error { _, err := (&QuerySet{}).Answers(&Data{}); return err }},
		{"nil QuerySet.AnswersOn", func() error { _, err := nilQS.AnswersOn(nil); return err }},
		{"QuerySet.AnswersOn(nil)", func() error { _, err := qs.AnswersOn(nil); return err }},
		{"nil QuerySet.Query", func() error { _, err := nilQS.Query(0); return err }},
		{"zero QuerySet.Query", func() error { _, err := (&QuerySet{}).Query(0); return err }},
		{"QuerySet.MaxError(nil, d)", func() error { _, err := qs.MaxError(nil, d); return err }},
		{"QuerySet.MaxError(d, nil)", func() error { _, err := qs.MaxError(d, nil); return err }},
		{"nil QuerySet.MaxError", func() error { _, err := nilQS.MaxError(d, d); return err }},
		{"LearnHalfspace(nil, nil)", func() error { _, err := LearnHalfspace(nil, nil); return err }},
		{"LearnHalfspace(nil, zero Data)", func() error { _, err := LearnHalfspace(nil, &Data{}); return err }},
		{"SmallDB(nil ctx)", func() error {
			_, err := SmallDB(nilCtx, SmallDBConfig{Data: d, Queries: qs, Size: 2, Epsilon: 1}, r, nil)
			return err
		}},
		{"SmallDB(zero config)", func() error { _, err := SmallDB(ctx, SmallDBConfig{}, r, nil); return err }},
		{"SmallDB(zero Data)", func() error {
			_, err := SmallDB(ctx, SmallDBConfig{Data: &Data{}, Queries: qs, Size: 2, Epsilon: 1}, r, nil)
			return err
		}},
		{"SmallDB(zero QuerySet)", func() error {
			_, err := SmallDB(ctx, SmallDBConfig{Data: d, Queries: &QuerySet{}, Size: 2, Epsilon: 1}, r, nil)
			return err
		}},
		{"SmallDB(nil rng)", func() error {
			_, err := SmallDB(ctx, SmallDBConfig{Data: d, Queries: qs, Size: 2, Epsilon: 1}, nil, nil)
			return err
		}},
		{"NewSmallDBStepper(zero config)", func() error { _, err := NewSmallDBStepper(SmallDBConfig{}, r); return err }},
		{"NewSmallDBSampler(zero config)", func() error { _, err := NewSmallDBSampler(SmallDBConfig{}); return err }},
		{"nil SmallDBStepper.Step", func() error { return nilStepper.Step(1) }},
		{"zero SmallDBStepper.Step", func() error { return (&SmallDBStepper{}).Step(1) }},
		{"nil SmallDBStepper.Run", func() error { _, err := nilStepper.Run(ctx, nil); return err }},
		{"zero SmallDBStepper.Run", func() error { _, err := (&SmallDBStepper{}).Run(ctx, nil); return err }},
		{"nil SmallDBStepper.Result", func() error { _, err := nilStepper.Result(); return err }},
		{"zero SmallDBStepper.Result", func() error { _, err := (&SmallDBStepper{}).Result(); return err }},
		{"nil SmallDBStepper.LevelsAt", func() error { _, err := nilStepper.LevelsAt(1); return err }},
		{"zero SmallDBStepper.Reweight", func() error { return (&SmallDBStepper{}).Reweight(1) }},
		{"nil SmallDBStepper.Reweight", func() error { return nilStepper.Reweight(1) }},
		{"nil SmallDBStepper.CandidateLogProbability", func() error { _, err := nilStepper.CandidateLogProbability(nil); return err }},
		{"zero SmallDBStepper.CandidateLogProbability", func() error {
			_, err := (&SmallDBStepper{}).CandidateLogProbability([]int{0})
			return err
		}},
		{"nil SmallDBSampler.Sample", func() error { _, err := nilSampler.Sample(ctx, r); return err }},
		{"zero SmallDBSampler.Sample", func() error { _, err := (&SmallDBSampler{}).Sample(ctx, r); return err }},
		{"SmallDBSampler.Sample(nil ctx, nil rng)", func() error {
			sm, err := NewSmallDBSampler(SmallDBConfig{Data: d, Queries: qs, Size: 2, Epsilon: 1})
			if err != nil {
				return nil
			}
			if _, err := sm.Sample(nilCtx, r); err == nil {
				return nil
			}
			_, err = sm.Sample(ctx, nil)
			return err
		}},
		{"SmallDBStepper.Run(nil ctx)", func() error {
			s, err := NewSmallDBStepper(SmallDBConfig{Data: d, Queries: qs, Size: 2, Epsilon: 1}, r)
			if err != nil {
				return nil
			}
			_, err = s.Run(nilCtx, nil)
			return err
		}},
		{"MWEM(nil ctx)", func() error {
			_, err := MWEM(nilCtx, MWEMConfig{Data: d, Queries: qs, Rounds: 2, Epsilon: 1}, r)
			return err
		}},
		{"MWEM(zero config)", func() error { _, err := MWEM(ctx, MWEMConfig{}, r); return err }},
		{"MWEM(zero Data)", func() error {
			_, err := MWEM(ctx, MWEMConfig{Data: &Data{}, Queries: qs, Rounds: 2, Epsilon: 1}, r)
			return err
		}},
		{"NewMWEMStepper(nil rng)", func() error {
			_, err := NewMWEMStepper(MWEMConfig{Data: d, Queries: qs, Rounds: 2, Epsilon: 1}, nil)
			return err
		}},
		{"nil MWEMStepper.Step", func() error { _, err := nilMWEM.Step(); return err }},
		{"zero MWEMStepper.Step", func() error { _, err := (&MWEMStepper{}).Step(); return err }},
		{"nil MWEMStepper.Result", func() error { _, err := nilMWEM.Result(); return err }},
		{"zero MWEMStepper.Result", func() error { _, err := (&MWEMStepper{}).Result(); return err }},
		{"TailProbability(nil)", func() error { _, err := TailProbability(nil, 0.1); return err }},
		{"CandidateCount(0, 0)", func() error { _, err := CandidateCount(0, 0); return err }},
		{"LogCandidateCount(0, 0)", func() error { _, err := LogCandidateCount(0, 0); return err }},
		{"SizeForAlpha(0, 0)", func() error { _, err := SizeForAlpha(0, 0); return err }},
		{"AlphaForSize(0, 0)", func() error { _, err := AlphaForSize(0, 0); return err }},
		{"Prop44Bound(zeros)", func() error { _, err := Prop44Bound(0, 0, 0, 0, 0, 0); return err }},
		{"Thm45Bound(zeros)", func() error { _, err := Thm45Bound(0, 0, 0, 0, 0); return err }},
		{"Thm45Size(zeros)", func() error { _, err := Thm45Size(0, 0); return err }},
		{"Thm45MinRows(zeros)", func() error { _, err := Thm45MinRows(0, 0, 0, 0, 0); return err }},
	}
	for _, c := range errs {
		calltest.Fails(t, c.name, c.call)
	}

	// Accessors with no error to return: zero values, no panic.
	zeroes := []struct {
		name string
		call func() any
	}{
		{"nil Data.Columns", func() any { return nilData.Columns() }},
		{"nil Data.K", func() any { return nilData.K() }},
		{"nil Data.UniverseSize", func() any { return nilData.UniverseSize() }},
		{"nil Data.N", func() any { return nilData.N() }},
		{"nil Data.Counts", func() any { return nilData.Counts() }},
		{"nil Data.Fractions", func() any { return nilData.Fractions() }},
		{"zero Data.Fractions", func() any { return (&Data{}).Fractions() }},
		{"nil Data.Rows", func() any { return nilData.Rows() }},
		{"zero Data.Rows", func() any { return (&Data{}).Rows() }},
		{"nil QuerySet.Len", func() any { return nilQS.Len() }},
		{"nil QuerySet.Columns", func() any { return nilQS.Columns() }},
		{"nil QuerySet.Names", func() any { return nilQS.Names() }},
		{"zero Halfspace.Holds", func() any { return Halfspace{}.Holds(3, 4) }},
		{"Halfspace.Holds(k = 0)", func() any { return Halfspace{Pi: []int{1, 1}}.Holds(3, 0) }},
		{"Halfspace.Holds(long Pi)", func() any { return Halfspace{Pi: []int{1, 1, 1, 1, 1}}.Holds(3, 2) }},
		{"nil SmallDBStepper.Stage", func() any { return int(nilStepper.Stage()) }},
		{"nil SmallDBStepper.Done", func() any { return nilStepper.Done() }},
		{"zero SmallDBStepper.Done", func() any { return (&SmallDBStepper{}).Done() }},
		{"nil SmallDBStepper.Candidates", func() any { return nilStepper.Candidates() }},
		{"zero SmallDBStepper.Scored", func() any { return (&SmallDBStepper{}).Scored() }},
		{"nil SmallDBStepper.Epsilon", func() any { return nilStepper.Epsilon() }},
		{"nil SmallDBStepper.Snapshot", func() any { return nilStepper.Snapshot().Stage }},
		{"zero SmallDBStepper.Snapshot", func() any { return (&SmallDBStepper{}).Snapshot().N }},
		{"nil MWEMStepper.Done", func() any { return nilMWEM.Done() }},
		{"zero MWEMStepper.Done", func() any { return (&MWEMStepper{}).Done() }},
		{"nil MWEMStepper.Distribution", func() any { return nilMWEM.Distribution() }},
		{"zero MWEMStepper.Distribution", func() any { return (&MWEMStepper{}).Distribution() }},
		{"Stage(99).String", func() any { return Stage(99).String() }},
	}
	for _, c := range zeroes {
		calltest.NoPanic(t, c.name, func() {
			switch v := c.call().(type) {
			case float64:
				if v != 0 || math.IsNaN(v) {
					t.Errorf("%s = %v, want 0", c.name, v)
				}
			case int, uint64, Stage:
				if fmt.Sprint(v) != "0" && fmt.Sprint(v) != "data" {
					t.Errorf("%s = %v, want 0", c.name, v)
				}
			case bool:
				if v {
					t.Errorf("%s = true, want false", c.name)
				}
			case []float64:
				if len(v) != 0 {
					t.Errorf("%s = %v, want empty", c.name, v)
				}
			case []int, []string, [][]int:
				if fmt.Sprint(v) != "[]" {
					t.Errorf("%s = %v, want empty", c.name, v)
				}
			}
		})
	}
}
