package mech

import (
	"math"
	"testing"

	"github.com/dpplay/dpplay/core/rng"
)

func TestAccuracyBoundHolds(t *testing.T) {
	r := rng.Seeded(41)
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(30)
		scores := make([]float64, n)
		for i := range scores {
			scores[i] = float64(r.IntN(20)) // integer scores give ties at the optimum
		}
		eps, sen := 0.05+4*r.Float64(), 0.5+r.Float64()
		m, err := NewExponential(Config{Scores: scores, Epsilon: eps, Sensitivity: sen})
		if err != nil {
			t.Fatal(err)
		}
		opt, count, _ := OptimalCount(scores)
		for _, tt := range []float64{0, 0.5, 1, 2, 5} {
			threshold, err := AccuracyThreshold(opt, eps, sen, n, count, tt)
			if err != nil {
				t.Fatal(err)
			}
			tail, _ := TailProbability(m.Probabilities(), scores, threshold)
			if tail > math.Exp(-tt)*(1+1e-12) {
				t.Errorf("%v ε=%v t=%v: Pr[u ≤ %v] = %v > e^−t", scores, eps, tt, threshold, tail)
			}
		}
	}
}

func TestAccuracyBoundIsNotVacuous(t *testing.T) {
	// Two candidates 1 apart at ε = 2, Δ = 1: the loser has probability
	// 1/(1 + e) ≈ 0.269, and the threshold with t chosen so that it sits
	// just above the loser's score bounds that probability by e^−t ≈ 0.5.
	scores := []float64{1, 0}
	m, _ := NewExponential(Config{Scores: scores, Epsilon: 2, Sensitivity: 1})
	tt := 1 - math.Log(2) - 1e-9
	threshold, _ := AccuracyThreshold(1, 2, 1, 2, 1, tt)
	if threshold < 0 {
		t.Fatalf("threshold %v is below the loser's score", threshold)
	}
	tail, _ := TailProbability(m.Probabilities(), scores, threshold)
	if math.Abs(tail-1/(1+math.E)) > 1e-12 || tail > math.Exp(-tt) {
		t.Errorf("tail %v, bound %v", tail, math.Exp(-tt))
	}
}

func TestMeasureTailBound(t *testing.T) {
	r := rng.Seeded(43)
	for trial := 0; trial < 100; trial++ {
		n := 2 + r.IntN(40)
		scores, mu := make([]float64, n), make([]float64, n)
		for i := range scores {
			scores[i] = 10 * r.Float64()
			mu[i] = r.Float64()
		}
		for _, tt := range []float64{0.1, 1, 3} {
			bound, exact, err := MeasureTailBound(scores, mu, 0.5+r.Float64(), tt)
			if err != nil {
				t.Fatal(err)
			}
			if exact > bound*(1+1e-12) {
				t.Errorf("trial %d t=%v: Pr[S̄_2t] = %v > bound %v", trial, tt, exact, bound)
			}
		}
	}
	// Lots of near-optimal mass gives a small bound; a needle gives none.
	crowd := []float64{10, 9.9, 9.9, 9.9, 9.9, 9.9, 9.9, 0}
	needle := []float64{10, 0, 0, 0, 0, 0, 0, 0}
	bCrowd, _, _ := MeasureTailBound(crowd, nil, 1, 2)
	bNeedle, _, _ := MeasureTailBound(needle, nil, 1, 2)
	if !(bCrowd < bNeedle) {
		t.Errorf("crowd bound %v not below needle bound %v", bCrowd, bNeedle)
	}
}

func TestEmpiricalScores(t *testing.T) {
	got, err := EmpiricalScores([]float64{3, 1, 3, 2}, []int{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	want := []ScoreMass{{1, 0.2, 0.2}, {2, 0.4, 0.6000000000000001}, {3, 0.4, 1}}
	for i := range want {
		if math.Abs(got[i].Score-want[i].Score) > 0 || math.Abs(got[i].Fraction-want[i].Fraction) > 1e-15 || math.Abs(got[i].Cumulative-want[i].Cumulative) > 1e-15 {
			t.Errorf("step %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := EmpiricalScores([]float64{1}, []int{0}); err == nil {
		t.Error("no draws accepted")
	}
}

func TestExpectedLoss(t *testing.T) {
	scores := []float64{1, 0}
	m, _ := NewExponential(Config{Scores: scores, Epsilon: 2, Sensitivity: 1})
	got, err := ExpectedLoss(m, scores)
	if want := 1 / (1 + math.E); err != nil || math.Abs(got-want) > 1e-15 {
		t.Errorf("loss %v, %v; want %v", got, err, want)
	}
	// Permute-and-flip never loses more than the exponential mechanism and
	// at best half as much (McKenna and Sheldon 2020): the ratio of losses
	// stays in [½, 1].
	for _, eps := range []float64{0.01, 0.1, 1, 4} {
		c := Config{Scores: []float64{0, -1, -1, -1, -1, -1}, Epsilon: eps, Sensitivity: 1}
		em, _ := NewExponential(c)
		pf := mustNew(t, NamePermuteAndFlip, c)
		le, _ := ExpectedLoss(em, c.Scores)
		lp, _ := ExpectedLoss(pf, c.Scores)
		if ratio := lp / le; ratio > 1+1e-12 || ratio < 0.5-1e-12 {
			t.Errorf("ε = %v: PF/EM loss ratio %v outside [½, 1]", eps, ratio)
		}
	}
}
