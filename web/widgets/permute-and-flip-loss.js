// Widget: expected score loss against ε for four selection mechanisms.
//
// Expected score loss OPT − E[u(output)] against ε for four ways
// of selecting the best candidate. Every number is exact: core computes each
// mechanism's output probabilities (numerical integration for Laplace noise)
// and mech.ExpectedLoss turns them into a loss. Nothing here is sampled.
import { LineChart } from '../charts/line.js';
import { fmt, tableRegion, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas, lossSets, lossCurves as curves, lossGrid as grid } from '../gen/widgets.js';
import { dataPanel } from './datapanel.js';

export const schema = schemas['permute-and-flip-loss'];

/** lossesAt computes the four exact losses for one data set and a list of ε. */
async function lossesAt(bridge, d, eps) {
  return Promise.all(curves.map(async (c) => {
    const { loss } = await bridge.call('core', 'accuracyLossCurve', {
      scores: Float64Array.from(d.scores), sensitivity: d.delta, mechanisms: c.mechanism,
      epsilons: Float64Array.from(eps.map((e) => e * c.factor)),
    });
    return Array.from(loss);
  }));
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { els, data, eps } = keyControls(ctx, schema, () => refresh(), [
    ['eps', 'ε (epsilon) to read off'], ['data', 'Candidates and scores', { text: (n) => lossSets[n].label, wide: true }]]);
  const error = errorLine();
  const host = document.createElement('div');
  host.className = 'widget-main';
  const readout = tableRegion('Expected loss at the chosen ε');
  const chart = new LineChart(host, {
    title: 'Expected score loss against ε for four selection mechanisms',
    xLabel: 'ε (log scale)', yLabel: 'expected loss', logX: true,
    describe: (dd) => dd.note,
  });
  // Own data replaces the candidate set (Δ = 1: one person moves one count).
  let own = null;
  const ownData = dataPanel(ctx, {
    mode: 'selection', max: 64,
    onData: (dd) => {
      own = dd && { candidates: dd.candidates, scores: dd.scores, delta: 1, unit: 'counts', key: `own:${dd.scores.join(',')}` };
      data.el.style.display = dd ? 'none' : '';
      return refresh();
    },
  });
  body.append(...els, ownData.el, error, readout, host);

  let cache = { key: '', loss: null };
  const refresh = redrawer(ctx, error, async () => {
    const d = own || lossSets[v.data];
    const key = own ? own.key : v.data;
    if (cache.key !== key) cache = { key, loss: await lossesAt(bridge, d, grid) };
    const now = (await lossesAt(bridge, d, [v.eps])).map((a) => a[0]);
    error.textContent = '';
    const ratio = now[1] > 1e-12 ? now[0] / now[1] : NaN;
    chart.update({
      x: grid,
      series: curves.map((c, i) => ({ label: c.label, short: c.short, values: cache.loss[i] })),
      marker: v.eps, markerLabel: `ε = ${v.eps}`,
      note: `Loss in ${d.unit} falls as ε grows for all four. At ε = ${v.eps}: exponential mechanism ${fmt(now[0])}, permute-and-flip ${fmt(now[1])}, Laplace Δ/ε ${fmt(now[2])}, Laplace 2Δ/ε ${fmt(now[3])}.`,
    });
    readout.innerHTML = `<table><caption>Exact expected loss at ε = ${v.eps} (${d.unit})</caption>
      <thead><tr><th scope="col">Mechanism</th><th scope="col">Guarantee</th><th scope="col" class="num">Expected loss</th></tr></thead>
      <tbody>${curves.map((c, i) => `<tr><th scope="row">${c.label}</th><td>${c.guarantee}</td><td class="num">${fmt(now[i], 4)}</td></tr>`).join('')}</tbody></table>
      <p class="panel-stat">Exponential mechanism ÷ permute-and-flip: <strong>${fmt(ratio, 3)}×</strong> (never below 1: permute-and-flip never loses more).</p>`;
    ctx.announce(`At ε = ${v.eps}, permute-and-flip loses ${fmt(now[1])} and the exponential mechanism ${fmt(now[0])}.`);
  });
  await ownData.restore();
  if (!own) await refresh();
  return {
    step(dir) { const x = +Math.min(Math.max(v.eps * Math.pow(10, dir * 0.05), schema.eps.min), schema.eps.max).toPrecision(3); ctx.set('eps', x); eps.set(x); refresh(); },
  };
}
