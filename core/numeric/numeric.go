// Package numeric holds the log-domain arithmetic and quadrature that the
// mechanisms use to compute exact output probabilities without overflow.
package numeric

import (
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// LogZero stands for log 0 in results that must stay finite: no public
// function in core returns −Inf, so an impossible outcome reports this value
// in exact log-probabilities.
const LogZero = -math.MaxFloat64

// LogSumExp returns ln Σ exp(xᵢ) without overflow, by factoring out the
// largest term: m + ln Σ exp(xᵢ − m). Entries equal to LogZero (or −Inf)
// contribute nothing. The input must be non-empty and contain no NaN or +Inf.
func LogSumExp(xs []float64) (float64, error) {
	if len(xs) == 0 {
		return 0, validate.Errorf("values", "needs at least one value")
	}
	m := math.Inf(-1)
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 1) {
			return 0, validate.Errorf("values", "entry %d is %v", i, x)
		}
		m = math.Max(m, x)
	}
	if m <= LogZero {
		return LogZero, nil
	}
	sum := 0.0
	for _, x := range xs {
		sum += math.Exp(x - m)
	}
	return m + math.Log(sum), nil
}

// Normalize turns log-weights into log-probabilities and probabilities:
// logp = w − LogSumExp(w), p = exp(logp). Log-weights at or below LogZero
// give log-probability LogZero and probability 0.
func Normalize(logw []float64) (logp, p []float64, err error) {
	z, err := LogSumExp(logw)
	if err != nil {
		return nil, nil, err
	}
	if z <= LogZero {
		return nil, nil, validate.Errorf("weights", "are all zero, so there is nothing to choose")
	}
	logp = make([]float64, len(logw))
	p = make([]float64, len(logw))
	for i, w := range logw {
		if w <= LogZero {
			logp[i] = LogZero
			continue
		}
		logp[i] = clampLog(w - z)
		p[i] = math.Exp(logp[i])
	}
	return logp, p, nil
}

// clampLog maps −Inf (an underflow of a finite difference) to LogZero.
func clampLog(x float64) float64 {
	if x < LogZero {
		return LogZero
	}
	return x
}

// Log returns ln x, with LogZero for x = 0 so that no −Inf escapes.
func Log(x float64) float64 { return clampLog(math.Log(x)) }
