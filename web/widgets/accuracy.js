// Widget: the exponential mechanism's accuracy theorem against the candidates' count.
//
// The accuracy theorem for the exponential mechanism. |R|
// candidates with scores spread evenly from 10 down to 0 (Δ = 1, a single
// best candidate); the page draws the exact and the empirical distribution
// of the achieved score against the theorem's threshold
// OPT − (2Δ/ε)(ln(|R|/|R_OPT|) + t). Draws are real seeded runs of the
// mechanism; the threshold, the exact tail and the CDFs come from core/mech.
import { LineChart } from '../charts/line.js';
import { fmtInt } from '../base/format.js';
import { fmt, tableRegion, batchControls, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.accuracy;

/** spreadScores gives n candidates with scores 10, …, 0 evenly spaced. */
export function spreadScores(n) {
  return Array.from({ length: n }, (_, i) => 10 * (1 - i / (n - 1)));
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { batch, seed, ctl, actions, status } = batchControls(ctx, schema, () => refresh());
  const { els } = keyControls(ctx, schema, () => refresh(), [
    ['eps', 'ε (epsilon)'], ['n', 'Candidates |R|'], ['t', 't (the bound is exp(−t))']], [batch, seed]);
  const error = errorLine();
  const readout = tableRegion('The accuracy bound and the probabilities it bounds');
  const host = document.createElement('div');
  host.className = 'widget-main';
  const chart = new LineChart(host, {
    title: 'Distribution of the achieved score: share of outputs with score at most x',
    xLabel: 'score x', yLabel: 'Pr[u(output) ≤ x]', steps: true, yCap: 1,
    describe: (d) => d.note,
  });
  body.append(...els, actions, error, readout, host);

  const refresh = redrawer(ctx, error, async () => {
    const scores = Float64Array.from(spreadScores(v.n));
    const draws = v.step * Number(v.batch);
    let counts = null;
    if (draws > 0) {
      ({ counts } = await bridge.call('core', 'draws', {
        mechanism: 'exponential', scores, epsilon: v.eps, sensitivity: 1, slot: `${ctx.id}:em`, seed: v.seed, n: draws,
      }));
    }
    const r = await bridge.call('core', 'accuracyReport', { scores, epsilon: v.eps, sensitivity: 1, t: v.t, counts });
    error.textContent = '';
    const levels = Array.from(r.levels);
    const series = [{ label: 'Exact (core)', short: 'Exact', values: Array.from(r.exactCDF) }];
    if (r.drawCDF) series.push({ label: `Share of ${fmtInt(draws)} draws`, short: 'Draws', values: Array.from(r.drawCDF) });
    const gap = r.opt - r.threshold;
    chart.update({
      x: levels, series, yMax: 1, xMin: Math.min(levels[0], r.threshold), xMax: r.opt,
      marker: r.threshold, markerLabel: `threshold ${fmt(r.threshold)}`,
      note: `The threshold is ${fmt(r.threshold)}, ${fmt(gap)} below the best score ${fmt(r.opt)}. The exact probability of scoring at or below it is ${fmt(r.exact)}, against the bound ${fmt(r.bound)}.`,
    });
    readout.innerHTML = `<table><caption>Accuracy theorem at ε = ${v.eps}, |R| = ${v.n}, t = ${v.t} (Δ = 1)</caption>
      <tbody>
      <tr><th scope="row">Best score OPT and |R<sub>OPT</sub>|</th><td class="num">${fmt(r.opt)} (${r.optimal} candidate${r.optimal === 1 ? '' : 's'})</td></tr>
      <tr><th scope="row">Threshold OPT − (2Δ/ε)(ln(|R|/|R<sub>OPT</sub>|) + t)</th><td class="num">${fmt(r.threshold, 4)}</td></tr>
      <tr><th scope="row">Exact Pr[u ≤ threshold]</th><td class="num">${fmt(r.exact, 4)}</td></tr>
      <tr><th scope="row">Bound e<sup>−t</sup></th><td class="num">${fmt(r.bound, 4)}</td></tr>
      <tr><th scope="row">Share of draws with u ≤ threshold</th><td class="num">${draws > 0 ? fmt(r.empirical, 4) : 'no draws yet'}</td></tr>
      </tbody></table>`;
    status.textContent = `${fmtInt(v.step)} batch${v.step === 1 ? '' : 'es'} · ${fmtInt(draws)} draws · seed ${v.seed}`;
    ctx.announce(`Threshold ${fmt(r.threshold)}; exact tail ${fmt(r.exact)}; bound ${fmt(r.bound)}.`);
  });
  await refresh();
  return ctl;
}
