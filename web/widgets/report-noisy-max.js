// Widget: report noisy max with three noise distributions beside the exponential mechanism.
//
// Report noisy max with three noise distributions side by side
// with the exponential mechanism. Each panel shows core's exact output
// probabilities and a histogram of seeded runs of the mechanism itself (the
// noisy scores are really drawn; nothing is sampled from the exact table).
import { BarChart } from '../charts/bars.js';
import { fmtInt } from '../base/format.js';
import { fmt, panel, batchControls, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas, datasets, selections } from '../gen/widgets.js';
import { dataPanel } from './datapanel.js';

export const schema = schemas['report-noisy-max'];

/** panels are the four mechanisms, each run at ε, with what that ε guarantees (app/widget Selections). */
export const panels = ['exponential', 'report-noisy-max-laplace', 'report-noisy-max-gumbel', 'permute-and-flip']
  .map((m) => selections.find((s) => s.mechanism === m && s.factor === 1));

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { batch, seed, ctl, actions, status } = batchControls(ctx, schema, () => refresh());
  const { els, data } = keyControls(ctx, schema, () => refresh(), [
    ['eps', 'ε (epsilon), the same number in all four panels'], ['data', 'Candidates and scores', { text: (n) => datasets[n].label, wide: true }]],
  [batch, seed]);

  const error = errorLine();

  const grid = document.createElement('div');
  grid.className = 'small-multiples widget-main';
  const charts = panels.map((pnl) => {
    const { el, host } = panel(ctx, `${pnl.title}<span class="panel-detail">${pnl.noise}</span>`);
    const promise = document.createElement('p');
    promise.className = 'panel-guarantee';
    promise.textContent = `At this ε: ${pnl.guarantee}.`;
    el.querySelector('h4').after(promise);
    const stat = document.createElement('p');
    stat.className = 'panel-stat';
    el.insertBefore(stat, host);
    grid.append(el);
    return { pnl, chart: new BarChart(host, { title: `${pnl.title} (${pnl.noise}): share of draws and exact probability`, compact: true }), stat };
  });
  // Own data replaces the data set's candidates and scores (Δ = 1: one person moves one count).
  let own = null;
  const ownData = dataPanel(ctx, {
    mode: 'selection', max: 64,
    onData: (d) => { own = d && { candidates: d.candidates, scores: d.scores, delta: 1 }; data.el.style.display = d ? 'none' : ''; return refresh(); },
  });
  body.append(...els, ownData.el, actions, error, grid);

  const refresh = redrawer(ctx, error, async () => {
    const d = own || datasets[v.data];
    const n = v.step * Number(v.batch);
    const results = await Promise.all(charts.map(async ({ pnl }) => {
      const req = { mechanism: pnl.mechanism, scores: Float64Array.from(d.scores), epsilon: v.eps, sensitivity: d.delta };
      const [{ p }, { counts }] = await Promise.all([
        bridge.call('core', 'probabilities', req),
        bridge.call('core', 'draws', { ...req, slot: `${ctx.id}:${pnl.mechanism}`, seed: v.seed, n }),
      ]);
      return { p: Array.from(p), counts: Array.from(counts) };
    }));
    error.textContent = '';
    const ref = results[0].p;
    results.forEach((r, k) => {
      const tv = 0.5 * r.p.reduce((s, x, i) => s + Math.abs(x - ref[i]), 0);
      charts[k].stat.textContent = k === 0 ? 'The reference: exact probabilities of the exponential mechanism.'
        : `Total variation distance from the exponential mechanism: ${fmt(tv, 2)}`;
      charts[k].chart.update({
        categories: d.candidates, marks: r.p, counts: r.counts, total: n,
        bars: n > 0 ? r.counts.map((c) => c / n) : null,
      });
    });
    status.textContent = `${fmtInt(v.step)} batch${v.step === 1 ? '' : 'es'} · ${fmtInt(n)} draws each · seed ${v.seed}`;
    ctx.announce(`${fmtInt(n)} draws of each mechanism at ε = ${v.eps}.`);
  });
  await ownData.restore();
  if (!own) await refresh();
  return ctl;
}
