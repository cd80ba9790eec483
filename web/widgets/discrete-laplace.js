// Widget: the exact discrete Laplace mechanism.
//
// The exact discrete Laplace mechanism (mech.NewDiscreteLaplace,
// Canonne–Kamath–Steinke 2020), the fix for the floating-point attack: it
// adds integer noise drawn with integer arithmetic only; the page shows its
// exact PMF against a histogram of seeded draws.
import { BarChart } from '../charts/bars.js';
import { fmtInt } from '../base/format.js';
import { fmt, batchControls, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas['discrete-laplace'];

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { batch, seed, ctl, actions, status } = batchControls(ctx, schema, () => refresh());
  const { els } = keyControls(ctx, schema, () => refresh(), [['eps', 'ε (epsilon)'], ['value', 'True count']], [batch, seed]);
  const error = errorLine();
  const stat = document.createElement('p');
  stat.className = 'fp-stat';
  const host = document.createElement('div');
  host.className = 'widget-main';
  const chart = new BarChart(host, { title: 'Discrete Laplace mechanism: share of draws and exact probability of each integer output', categoryLabel: 'Output' });
  body.append(...els, actions, error, stat, host);

  const refresh = redrawer(ctx, error, async () => {
    const n = v.step * Number(v.batch);
    // Show about ±3σ around the answer, at most ±12 integers.
    const half = Math.min(12, Math.max(4, Math.ceil(3 / v.eps)));
    const lo = v.value - half, hi = v.value + half;
    const r = await bridge.call('core', 'floatDiscreteLaplace', { value: v.value, sensitivity: 1, epsilon: v.eps, draws: n, seed: v.seed, lo, hi });
    error.textContent = '';
    const pmf = Array.from(r.pmf), counts = Array.from(r.counts);
    const inRange = pmf.reduce((s, p) => s + p, 0);
    chart.update({
      categories: pmf.map((_, i) => String(lo + i)), marks: pmf, counts, total: n,
      bars: n > 0 ? counts.map((c) => c / n) : null,
    });
    stat.textContent = `Scale σ = Δ/ε with Δ = 1, rounded up to a multiple of 1/4096: achieved ε = ${fmt(r.epsilon, 6)} for a count, which one person moves by at most 1 under either neighbour notion. ` +
      `Pr[output = true count] = ${fmt(pmf[half], 4)}. Outputs outside ${lo}…${hi}: exact ${fmt(1 - inRange, 3)}, drawn ${fmtInt(r.outside)}.`;
    status.textContent = `${fmtInt(v.step)} batch${v.step === 1 ? '' : 'es'} · ${fmtInt(n)} draws · seed ${v.seed}`;
    ctx.announce(`${fmtInt(n)} draws of the discrete Laplace mechanism at ε = ${v.eps}.`);
  });
  await refresh();
  return ctl;
}
