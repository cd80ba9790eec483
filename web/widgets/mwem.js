// Widget: MWEM on the medical table, one round at a time.
//
// MWEM (Hardt, Ligett and McSherry 2012) on the same medical table
// and the same ε as SmallDB, one round at a time. Each round spends ε/(2T)
// choosing the worst-answered query with the exponential mechanism and
// ε/(2T) measuring it with Laplace noise, then reweights the estimate
// multiplicatively. The run is replayed from its seed up to round t on every
// change (a round takes microseconds), so the URL reproduces it. Beside it,
// SmallDB's exact expected error at the same ε, from the same module.
import { escapeHTML } from '../base/dom.js';
import { LineChart } from '../charts/line.js';
import { linearSlider, select, button, redrawer, fmt, tableRegion, errorLine, epsSlider, smallMultiples, settings, keyInput } from './controls.js';
import { shapeSelects, niceQuery } from './smalldb.js';
import { dataPanel } from './datapanel.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.mwem;

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge, fig } = ctx;
  const [kSel, qSel] = shapeSelects(ctx, () => refresh());
  const epsSl = epsSlider(ctx, schema, 'ε (epsilon), the whole budget', () => refresh());
  const tSl = linearSlider({
    id: ctx.uid('rounds'), key: 'rounds', label: 'T, the number of rounds', min: 1, max: 40, value: v.rounds, digits: 3, step: 1,
    describe: (x) => `T = ${Math.round(x)}`,
    onInput: (x) => { const r = Math.round(x); if (r !== v.rounds) { ctx.set('rounds', r); ctx.set('t', Math.min(v.t, r)); refresh(); } },
  });
  const replays = select({
    id: ctx.uid('replays'), key: 'replays', label: 'Replays (free)', value: v.replays,
    options: [['0', 'none'], ['10', '10 a round']], onChange: (x) => { ctx.set('replays', x); refresh(); },
  });
  const mSel = select({
    id: ctx.uid('m'), key: 'm', label: 'SmallDB’s m, for the comparison', value: String(v.m),
    options: Array.from({ length: 8 }, (_, i) => [String(i + 1), `m = ${i + 1}`]), onChange: (x) => { ctx.set('m', +x); refresh(); },
  });
  const seed = keyInput(ctx, schema, 'seed', 'Seed', () => refresh());
  const { els } = settings(ctx, [epsSl, tSl, kSel, qSel], [replays, mSel, seed]);
  const setT = (t) => { ctx.set('t', Math.max(0, Math.min(t, v.rounds))); refresh(); };
  const ctl = {
    step(d) { setT(v.t + d); },
    draw() { setT(v.rounds); },
    reset() { setT(0); },
  };
  const actions = document.createElement('div');
  actions.className = 'actions widget-main';
  const nextBtn = button('Next round', () => ctl.step(1), { kbd: '→', primary: true });
  const allBtn = button('All rounds', () => ctl.draw(), { kbd: 'Space' });
  const backBtn = button('Back a round', () => ctl.step(-1), { kbd: '←' });
  actions.append(nextBtn, allBtn, backBtn, button('Start over', () => ctl.reset(), { kbd: 'r' }));

  const error = errorLine();
  const meterId = ctx.uid('budget');
  const budget = document.createElement('div');
  budget.className = 'budget-meter widget-main';
  budget.innerHTML = `<label for="${meterId}">Privacy budget spent</label><meter id="${meterId}" min="0" max="1" value="0"></meter><p class="budget-numbers"></p>`;
  const readout = document.createElement('div');
  readout.className = 'loss-line widget-main';
  const { grid, cell } = smallMultiples(ctx);
  const chartHost = cell('Max-error: MWEM round by round, SmallDB exactly');
  const chart = new LineChart(chartHost, {
    title: 'MWEM: max-error of the running average after each round, against SmallDB’s exact error at the same ε',
    xLabel: 'round', yLabel: 'max-error over the queries', describe: (d) => d.note,
  });
  const tableHost = cell('Every query: true answer and MWEM’s');
  const table = tableRegion('Every query with its true answer and MWEM’s answer', 'synth-scroll');
  tableHost.append(table);
  // Own data: up to five yes/no columns replace the medical table.
  let own = null;
  const ownData = dataPanel(ctx, {
    mode: 'bits', max: 5,
    onData: (d) => { own = d; kSel.el.style.display = d ? 'none' : ''; return refresh(); },
  });
  grid.classList.add('widget-main');
  body.append(...els, ownData.el, actions, error, budget, readout, grid);

  const refresh = redrawer(ctx, error, async () => {
    const req = { k: +v.k, queries: v.q, rounds: v.rounds, upto: Math.min(v.t, v.rounds), replays: +v.replays, epsilon: v.eps, seed: v.seed, m: v.m };
    if (own) Object.assign(req, { columns: own.columns, counts: Float64Array.from(own.counts) });
    const r = await bridge.call('synth', 'mwem', req);
    error.textContent = '';
    const t = r.query.length, T = v.rounds;
    nextBtn.disabled = allBtn.disabled = t >= T;
    backBtn.disabled = t <= 0;
    const meter = budget.querySelector('meter');
    meter.max = r.budget; meter.value = r.spent;
    budget.querySelector('.budget-numbers').innerHTML = `ε spent <strong>${fmt(r.spent)}</strong> of ${fmt(r.budget)}: ${r.charges} charges of ε/(2T) = ${fmt(r.budget / (2 * T))}, one to choose and one to measure in each of ${t} round${t === 1 ? '' : 's'}. Each charge is ε/(2T)-differentially private for change-one-answer neighbours (one patient’s record changes), and the T rounds together are ε-private by sequential composition.`;
    const names = r.queryNames;
    if (t === 0) {
      readout.innerHTML = `<p>No rounds yet. MWEM starts from the uniform distribution over all possible rows, whose max-error is <strong>${fmt(r.initialError)}</strong>. Each round will add Laplace noise of scale 2T/(εn) = <strong>${fmt(r.noiseScale)}</strong> to one answer.</p>`;
    } else {
      const i = t - 1, q = r.query[i];
      readout.innerHTML = `<p>Round ${t} of ${T}: the exponential mechanism picked <strong>${escapeHTML(niceQuery(names[q]))}</strong> (probability ${fmt(r.chosen[i])}). The estimate said ${r.estimate[i].toFixed(3)}; the truth is ${r.trueAnswers[q].toFixed(3)}; the noisy measurement, with Laplace noise of scale ${fmt(r.noiseScale)}, is <strong>${r.measurement[i].toFixed(3)}</strong>; after the update the estimate says ${r.updated[i].toFixed(3)}.</p>`
        + `<p>Max-error of the average so far: <strong>${fmt(r.roundError[i])}</strong>.${r.smalldbCandidates > 0 ? ` SmallDB with m = ${v.m} at the same ε: expected <strong>${fmt(r.smalldbExpected)}</strong>, exceeded with probability at most 5% above ${fmt(r.smalldbQuantile)}.` : ''}</p>`;
    }
    const xs = Array.from({ length: t + 1 }, (_, i) => i);
    const mw = [r.initialError, ...Array.from(r.roundError)];
    const series = [{ label: 'MWEM: max-error of the average so far', short: 'MWEM', values: mw }];
    if (r.smalldbCandidates > 0) {
      series.push({ label: `SmallDB (m = ${v.m}), exact expected max-error`, short: 'SmallDB expected', values: xs.map(() => r.smalldbExpected) });
      series.push({ label: `SmallDB (m = ${v.m}), exceeded with probability at most 5%`, short: 'SmallDB 95%', values: xs.map(() => r.smalldbQuantile) });
    }
    chart.update({
      x: xs, xMin: 0, xMax: T, series, marker: null,
      yMax: Math.min(1, Math.ceil(Math.max(...mw, r.smalldbQuantile || 0) * 10 + 0.5) / 10),
      note: `After ${t} of ${T} rounds MWEM's max-error is ${fmt(mw[t])}${r.smalldbCandidates > 0 ? `; SmallDB's expected max-error at the same ε is ${fmt(r.smalldbExpected)}` : ''}.`,
    });
    const measured = new Map();
    Array.from(r.query).forEach((q, i) => { if (!measured.has(q)) measured.set(q, []); measured.get(q).push(i + 1); });
    table.innerHTML = `<table><caption>True answers and MWEM's after ${t} rounds</caption><thead><tr><th scope="col">Query</th><th scope="col" class="num">true</th><th scope="col" class="num">MWEM</th><th scope="col" class="num">measured in round</th></tr></thead><tbody>${
      names.map((n, i) => `<tr${measured.has(i) ? ' class="synth-picked"' : ''}><th scope="row">${escapeHTML(niceQuery(n))}</th><td class="num">${r.trueAnswers[i].toFixed(3)}</td><td class="num">${r.answers[i].toFixed(3)}</td><td class="num">${measured.has(i) ? measured.get(i).join(', ') : ''}</td></tr>`).join('')}</tbody></table>`;
    fig.dataset.round = String(t);
    ctx.announce(t ? `Round ${t}: max-error ${fmt(r.roundError[t - 1])}.` : 'No rounds yet.');
  });
  await ownData.restore();
  if (!own) await refresh();
  return ctl;
}
