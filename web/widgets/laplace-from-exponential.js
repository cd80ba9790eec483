// Widget: the Laplace mechanism recovered from the exponential mechanism.
//
// The Laplace mechanism recovered from the exponential mechanism.
// Score u(x, r) = −2·|q(x) − r| on a range, continuous or on a grid; the
// chart overlays a histogram of seeded draws, the exponential mechanism's
// density and the Laplace mechanism's density, and the readout puts the ε
// the general theorem certifies next to the exact loss on neighbours.
import { fmtInt } from '../base/format.js';
import { LineChart } from '../charts/line.js';
import { logSlider, radios, button, fmt, errorLine, redrawer, epsSlider, settings, keyInput, keySelect, reseed } from './controls.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas['laplace-from-exponential'];

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const q = keyInput(ctx, schema, 'q', 'True answer q(x)', () => refresh());
  const dq = keyInput(ctx, schema, 'dq', 'Sensitivity Δq', () => refresh());
  const eps = epsSlider(ctx, schema, 'ε (epsilon)', () => refresh());
  const range = radios({
    name: ctx.uid('range'), key: 'range', legend: 'Output range', value: v.range,
    options: [['wide', 'Wide: the whole line in effect (at least [−1000, 1000])'], ['bounded', 'Bounded: [0, 100]']],
    onChange: (x) => { ctx.set('range', x); refresh(); },
  });
  const mode = radios({
    name: ctx.uid('mode'), key: 'mode', legend: 'Outputs', value: v.mode,
    options: [['line', 'Every real number in the range'], ['grid', 'A grid of spacing h']],
    onChange: (x) => { ctx.set('mode', x); h.el.style.display = x === 'grid' ? '' : 'none'; refresh(); },
  });
  const h = logSlider({
    id: ctx.uid('h'), key: 'h', label: 'Grid spacing h', min: schema.h.min, max: schema.h.max, value: v.h,
    spec: { ...schema.h, label: 'Grid spacing h' },
    describe: (x) => `h = ${x}`,
    onInput: (x) => { ctx.set('h', x); refresh(); },
  });
  h.el.style.display = v.mode === 'grid' ? '' : 'none';
  const run = radios({
    name: ctx.uid('run'), key: 'run', legend: 'ε in the weights', value: v.run,
    options: [['general', 'ε, as the general theorem asks'], ['tight', '2ε, the tight analysis']],
    onChange: (x) => { ctx.set('run', x); refresh(); },
  });
  const draws = keySelect(ctx, schema, 'draws', 'Draws', (d) => fmtInt(+d), () => refresh());
  const seed = keyInput(ctx, schema, 'seed', 'Seed', () => refresh());
  const { els } = settings(ctx, [eps, q, dq, run], [range, mode, h, draws, seed]);
  const actions = document.createElement('div');
  actions.className = 'actions';
  const newSeed = reseed(ctx, seed, () => refresh());
  actions.append(button('New draws', newSeed, { kbd: 'Space', primary: true }));

  const readout = document.createElement('div');
  readout.className = 'loss-line laplace-readout widget-main';
  const error = errorLine();
  const chartHost = document.createElement('div');
  chartHost.className = 'widget-main';
  const chart = new LineChart(chartHost, {
    title: `${ctx.title}: histogram of draws, exponential-mechanism density and Laplace density`,
    xLabel: 'output r', yLabel: 'density',
    describe: (d) => `Exponential mechanism and Laplace densities over r from ${fmt(d.x[0])} to ${fmt(d.x[d.x.length - 1])}; the histogram shows ${fmtInt(+v.draws)} draws.`,
  });
  body.append(...els, actions, error, chartHost, readout);

  const refresh = redrawer(ctx, error, async () => {
    const r = await bridge.call('core', 'laplaceEM', {
      value: v.q, sensitivity: v.dq, epsilon: v.eps, range: v.range, spacing: v.mode === 'grid' ? v.h : 0,
      tight: v.run === 'tight', seed: v.seed, draws: +v.draws,
    });
    error.textContent = '';
    const x = Array.from(r.x);
    chart.update({
      x, xMin: x[0], xMax: x[x.length - 1],
      series: [
        { label: `Exponential mechanism at ε = ${fmt(r.run)}`, short: `Exp. mech., ε = ${fmt(r.run)}`, values: Array.from(r.em) },
        { label: `Laplace mechanism, b = ${fmt(r.scale)}`, short: `Laplace, b = ${fmt(r.scale)}`, values: Array.from(r.laplace) },
      ],
      bars: +v.draws > 0 ? { label: `${fmtInt(+v.draws)} draws (exponential mechanism)`, edges: Array.from(r.edges), heights: Array.from(r.density) } : null,
      marker: v.q, markerLabel: `q(x) = ${fmt(v.q)}`,
    });
    const over = r.overEpsilon;
    const end = (x) => (x < 0 ? '−' : '') + fmtInt(Math.abs(x));
    readout.innerHTML = `<p>Outputs in [${end(r.lo)}, ${end(r.hi)}]. Noise of the exponential mechanism on the line: scale 2Δq/ε<sub>run</sub> = <strong>${fmt(r.emScale)}</strong>; the Laplace mechanism's: Δq/ε = <strong>${fmt(r.scale)}</strong>.</p>`
      + `<p>The general theorem certifies ε<sub>run</sub> = <strong>${fmt(r.certified)}</strong>, under either neighbour notion when Δq is at least the query’s sensitivity, the most one person moves q(x). The exact privacy loss against the neighbours q(x) ± Δq: <strong class="${over ? 'breach' : ''}">${fmt(r.loss, 4)}</strong>${over ? ` — more than the ε = ${fmt(v.eps)} the Laplace mechanism would give` : ''}.</p>`;
    ctx.announce(`Certified ${fmt(r.certified)}, real loss ${fmt(r.loss, 3)}.`);
  });
  await refresh();
  return { draw: newSeed };
}
