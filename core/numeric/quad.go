package numeric

import (
	"errors"
	"math"
	"strconv"

	"github.com/dpplay/dpplay/core/validate"
)

// Gauss–Kronrod 7/15 rule on [−1, 1] (the QUADPACK qk15 constants).
var (
	gkNodes = [8]float64{
		0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
		0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
		0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
		0.207784955007898467600689403773245, 0,
	}
	kronrodWeights = [8]float64{
		0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
		0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
		0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
		0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
	}
	// Weights of the embedded 7-point Gauss rule, at gkNodes 1, 3, 5 and 7.
	gaussWeights = [4]float64{
		0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
		0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
	}
)

// gk15 applies the rule on [a, b] and returns the Kronrod estimate and the
// difference from the Gauss estimate as its error.
func gk15(f func(float64) float64, a, b float64) (value, errEst float64) {
	// Halving first keeps the centre and half-width finite on a range as
	// wide as [−MaxFloat64, MaxFloat64]; for other ranges the results are
	// bit for bit those of (a+b)/2 and (b−a)/2.
	c, h := a/2+b/2, b/2-a/2
	fc := f(c)
	kronrod := fc * kronrodWeights[7]
	gauss := fc * gaussWeights[3]
	for i := 0; i < 7; i++ {
		dx := h * gkNodes[i]
		pair := f(c-dx) + f(c+dx)
		kronrod += kronrodWeights[i] * pair
		if i%2 == 1 {
			gauss += gaussWeights[i/2] * pair
		}
	}
	return kronrod * h, math.Abs((kronrod - gauss) * h)
}

// ErrNotConverged is matched (with errors.Is) by the error Integrate
// returns when it could not reach the requested tolerance, so that a caller
// can withhold an inexact result rather than show it.
var ErrNotConverged = errors.New("numerical integral did not reach the requested accuracy")

// NotConvergedError reports an integral whose error estimate stayed above
// the tolerance: the integrand is too rough for maxIntervals pieces, or it
// returned NaN or ±Inf. The exact report-noisy-max probabilities are such
// integrals and must not be shown when this happens. Value
// is the best estimate (0 if not finite) and ErrEstimate at most the
// largest double, so a caller with a looser need may still use it, having
// decided to.
type NotConvergedError struct {
	Value, ErrEstimate, Tolerance float64
}

// Error gives the error estimate and the tolerance it missed.
func (e *NotConvergedError) Error() string {
	return ErrNotConverged.Error() + ": error estimate " + strconv.FormatFloat(e.ErrEstimate, 'g', 3, 64) +
		" above the tolerance " + strconv.FormatFloat(e.Tolerance, 'g', 3, 64)
}

// Unwrap lets errors.Is(err, ErrNotConverged) match, so that a failed
// integral can be told from bad input.
func (e *NotConvergedError) Unwrap() error { return ErrNotConverged }

// Integrate returns ∫ₐᵇ f(x) dx for a smooth f by globally adaptive
// Gauss–Kronrod quadrature (as QUADPACK's qag): it keeps splitting the
// subinterval with the largest error estimate until the total estimate is
// below absTol or maxIntervals is reached. The mechanisms call it on
// integrands they have scaled so that their peak is 1, which makes an
// absolute tolerance a relative one. The exact report-noisy-max
// probabilities with Laplace and exponential noise, Pr[i] = ∫ fᵢ ∏ Fⱼ, are
// such integrals.
//
// If the final error estimate is above absTol, or the integrand produced
// NaN or ±Inf, it returns a *NotConvergedError rather than a number that
// only looks exact.
func Integrate(f func(float64) float64, a, b, absTol float64) (float64, error) {
	if err := validate.Finite("a", a); err != nil {
		return 0, err
	}
	if err := validate.Finite("b", b); err != nil {
		return 0, err
	}
	if err := validate.Positive("tolerance", absTol); err != nil {
		return 0, err
	}
	if a == b {
		return 0, nil
	}
	v, e := gk15(f, a, b)
	parts := []piece{{a, b, v, e}}
	totalErr := e
	for totalErr > absTol && len(parts) < maxIntervals {
		worst := 0
		for i, p := range parts {
			if p.err > parts[worst].err {
				worst = i
			}
		}
		p := parts[worst]
		m := p.a + (p.b/2 - p.a/2)
		if m <= p.a || m >= p.b {
			break // the interval cannot be split further in float64
		}
		lv, le := gk15(f, p.a, m)
		rv, re := gk15(f, m, p.b)
		parts[worst] = piece{p.a, m, lv, le}
		parts = append(parts, piece{m, p.b, rv, re})
		totalErr += le + re - p.err
	}
	// Re-add at the end: the running sums accumulate rounding.
	total := 0.0
	totalErr = 0
	for _, p := range parts {
		total += p.value
		totalErr += p.err
	}
	// Written as !(≤) so that a NaN estimate counts as not converged.
	if !(totalErr <= absTol) || math.IsInf(total, 0) || math.IsNaN(total) {
		if math.IsInf(total, 0) || math.IsNaN(total) {
			total = 0
		}
		if !(totalErr <= math.MaxFloat64) {
			totalErr = math.MaxFloat64 // no NaN or Inf leaves core, even in an error
		}
		return total, &NotConvergedError{Value: total, ErrEstimate: totalErr, Tolerance: absTol}
	}
	return total, nil
}

// maxIntervals bounds the work of one integral; the mechanisms' integrands
// reach 1e-14 with a few dozen.
const maxIntervals = 500

type piece struct{ a, b, value, err float64 }
