// Package stats holds the goodness-of-fit tests that compare a sampler's
// draws with its exact distribution, in tests and in lessons that show
// "empirical vs exact".
package stats

import (
	"math"
	"sort"

	"github.com/dpplay/dpplay/core/validate"
)

// Result is the outcome of a goodness-of-fit test, ChiSquare or KS: the tests
// behind every lesson's sampler reject a draw stream whose PValue is tiny.
type Result struct {
	Statistic float64
	DF        int     // degrees of freedom (chi-square only)
	PValue    float64 // probability of a statistic at least this large under the null hypothesis
}

// minExpected is the smallest expected count a chi-square cell may have;
// smaller cells are pooled so that the chi-square approximation holds.
const minExpected = 5

// ChiSquare tests observed counts against exact probabilities with Pearson's
// statistic Σ (Oᵢ − Eᵢ)²/Eᵢ, Eᵢ = N·pᵢ. Cells whose expected count is under
// 5 are pooled into one. A draw of an outcome with probability 0 gives
// p-value 0: it should never happen.
func ChiSquare(counts []int, probs []float64) (Result, error) {
	if len(counts) != len(probs) || len(counts) == 0 {
		return Result{}, validate.Errorf("counts", "has %d entries for %d probabilities", len(counts), len(probs))
	}
	if err := validate.Measure("probabilities", probs, len(probs)); err != nil {
		return Result{}, err
	}
	n, total := 0, 0.0
	for i, c := range counts {
		if c < 0 {
			return Result{}, validate.Errorf(validate.Index("counts", i), "must be ≥ 0, got %d", c)
		}
		n += c
		total += probs[i]
	}
	if n == 0 {
		return Result{}, validate.Errorf("counts", "holds no draws")
	}
	var stat float64
	cells := 0
	pooledObs, pooledExp := 0.0, 0.0
	for i, c := range counts {
		e := float64(n) * probs[i] / total
		switch {
		case e == 0 && c > 0:
			return Result{Statistic: math.MaxFloat64, PValue: 0}, nil
		case e < minExpected:
			pooledObs += float64(c)
			pooledExp += e
		default:
			d := float64(c) - e
			stat += d * d / e
			cells++
		}
	}
	if pooledExp > 0 {
		d := pooledObs - pooledExp
		stat += d * d / pooledExp
		cells++
	}
	df := cells - 1
	if df < 1 {
		return Result{Statistic: stat, DF: 0, PValue: 1}, nil
	}
	return Result{Statistic: stat, DF: df, PValue: ChiSquareSurvival(stat, float64(df))}, nil
}

// ChiSquareSurvival returns P[X ≥ x] for X chi-square with df degrees of
// freedom: the regularised upper incomplete gamma function Q(df/2, x/2).
// It is ChiSquare's p-value, so every lesson's sampler test rests on it.
func ChiSquareSurvival(x, df float64) float64 {
	if x <= 0 {
		return 1
	}
	return upperGammaQ(df/2, x/2)
}

// upperGammaQ is Q(a, x) by its series for x < a+1 and by Lentz's continued
// fraction otherwise (the standard split, each converging fast on its side).
func upperGammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	logPrefix := a*math.Log(x) - x - lg
	if x < a+1 {
		sum, term := 1/a, 1/a
		for k := 1; k < 1000; k++ {
			term *= x / (a + float64(k))
			sum += term
			if term < sum*1e-16 {
				break
			}
		}
		return math.Max(0, 1-math.Exp(logPrefix)*sum)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Exp(logPrefix) * h
}

// KS is the one-sample Kolmogorov–Smirnov test of samples against a
// continuous CDF. The p-value uses Kolmogorov's limiting distribution with
// Stephens' finite-sample correction λ = (√n + 0.12 + 0.11/√n)·D.
func KS(samples []float64, cdf func(float64) float64) (Result, error) {
	if len(samples) == 0 {
		return Result{}, validate.Errorf("samples", "holds no draws")
	}
	xs := append([]float64(nil), samples...)
	for i, x := range xs {
		if math.IsNaN(x) {
			return Result{}, validate.Errorf(validate.Index("samples", i), "is NaN")
		}
	}
	sort.Float64s(xs)
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	sn := math.Sqrt(n)
	return Result{Statistic: d, PValue: KolmogorovSurvival((sn + 0.12 + 0.11/sn) * d)}, nil
}

// KolmogorovSurvival returns P[K > λ] = 2 Σ_{k≥1} (−1)^(k−1) exp(−2k²λ²),
// the limiting distribution of √n·D that gives KS its p-value.
func KolmogorovSurvival(lambda float64) float64 {
	if lambda < 0.2 {
		return 1
	}
	sum := 0.0
	for k := 1; k <= 100; k++ {
		term := math.Exp(-2 * float64(k*k) * lambda * lambda)
		if k%2 == 1 {
			sum += term
		} else {
			sum -= term
		}
		if term < 1e-300 {
			break
		}
	}
	return math.Min(1, math.Max(0, 2*sum))
}

// LogRatio estimates ln(pa/pb) from counts ca of na draws and cb of nb draws,
// with a normal-approximation confidence interval from the delta method:
// Var ≈ (1 − p̂a)/(na·p̂a) + (1 − p̂b)/(nb·p̂b). z is the interval's
// half-width in standard errors (1.96 for 95%). A zero count has no finite
// estimate and is an error.
func LogRatio(ca, na, cb, nb int, z float64) (estimate, lo, hi float64, err error) {
	if na <= 0 || nb <= 0 || ca < 0 || cb < 0 || ca > na || cb > nb {
		return 0, 0, 0, validate.Errorf("counts", "need 0 ≤ count ≤ draws and draws > 0, got %d/%d and %d/%d", ca, na, cb, nb)
	}
	if ca == 0 || cb == 0 {
		return 0, 0, 0, validate.Errorf("counts", "an outcome never drawn has no finite log-ratio estimate")
	}
	if err := validate.Positive("z", z); err != nil {
		return 0, 0, 0, err
	}
	pa, pb := float64(ca)/float64(na), float64(cb)/float64(nb)
	estimate = math.Log(pa / pb)
	se := math.Sqrt((1-pa)/(float64(na)*pa) + (1-pb)/(float64(nb)*pb))
	return estimate, estimate - z*se, estimate + z*se, nil
}
