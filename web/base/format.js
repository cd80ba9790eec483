// Numbers written for people: digits, percentages, grouped integers and round axis steps.
//
// Every chart, widget and the live lecture write numbers with these, so a
// value reads the same wherever it is shown.

/** fmt(v, d) writes v with at most d significant digits, '–' when it is not finite. */
export const fmt = (v, d = 3) => (Number.isFinite(v) ? String(+v.toPrecision(d)) : '–');

/** pct(v, digits) writes the share v as a percentage with digits decimals (0.125 → 12.5%), '–' when it is not finite. */
export const pct = (v, digits = 1) => Number.isFinite(v) ? (100 * v).toFixed(digits) + '%' : '–';

/**
 * fmtInt(v) is v rounded to an integer with commas between groups of three
 * digits (12,345). It does not call toLocaleString: Chromium's first call
 * loads its number-format data, about 50 ms on the main thread at page load.
 */
export const fmtInt = (v) => String(Math.round(v)).replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * niceStep(x, mantissas) is the smallest m·10^k at or above x with m one of
 * mantissas (1, 2, 2.5 and 5 unless given; 10 is always allowed): the round
 * step of an axis, a grid or a bin. 1 when x is not positive.
 */
export function niceStep(x, mantissas = [1, 2, 2.5, 5]) {
  if (!(x > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  return [...mantissas, 10].map((m) => +(m * p).toPrecision(12)).find((s) => s >= x * (1 - 1e-12));
}

/**
 * niceAxis(max, cap) is a value axis from 0 for data up to max: {top, step},
 * with step = niceStep(max/4) and top the first multiple of step at or above
 * max. With cap (1 for a probability or a share), top never passes cap: an
 * axis of probabilities ends at 100% however close to 1 the largest one is.
 */
export function niceAxis(max, cap = Infinity) {
  if (!(max > 0)) return { top: Math.min(1, cap), step: niceStep(Math.min(1, cap) / 4) };
  let step = niceStep(max / 4);
  let top = +(Math.ceil(max / step - 1e-9) * step).toPrecision(12);
  if (top > cap) {
    top = cap;
    step = niceStep(cap / 4);
  }
  return { top, step };
}
