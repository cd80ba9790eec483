// Widget: pricing a digital good with the exponential mechanism on revenue.
//
// Pricing a digital good with the exponential mechanism on
// revenue (McSherry–Talwar). Buyers' values are edited as a list; the page
// shows the revenue curve, the exact price distribution with seeded draws,
// and expected revenue against ε beside the accuracy theorem's guarantee.
// The numbers come from the lazily loaded market module.
import { fmtInt, niceStep } from '../base/format.js';
import { LineChart } from '../charts/line.js';
import { button, fmt, errorLine, redrawer, smallMultiples, keyInput, keySelect, reseed, readBox } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas, priceGrid } from '../gen/widgets.js';
import { dataPanel } from './datapanel.js';

export const schema = schemas.pricing;

export const GRID = priceGrid;

/**
 * gridFor(values) is the price grid for own data: 500 prices up to the
 * smallest of 1, 2, 2.5 or 5 times a power of ten at or above the largest value.
 */
export function gridFor(values) {
  const maxPrice = niceStep(values.reduce((a, x) => Math.max(a, x), 0.01));
  return { maxPrice, step: maxPrice / 500 };
}
export const money = (x) => (Number.isFinite(x) ? `${x < 0 ? '−' : ''}$${Math.abs(x).toFixed(2)}` : '–');

/**
 * valuesInput is a text box for a list of dollar values, shared with the
 * truthfulness widget: entries separated by commas, or by semicolons when
 * there is one (then a comma is a decimal point, "1; 3,5"), each read with
 * the one rule for typed numbers (an optional "$" first), kept in [0, 5] to
 * the cent; what was read, clamped or refused is said under the box.
 */
export function valuesInput(ctx, onChange) {
  const wrap = document.createElement('div');
  wrap.className = 'control control-wide';
  wrap.dataset.key = 'values';
  const id = ctx.uid('values');
  const spec = ctx.schema.values;
  wrap.innerHTML = `<label for="${id}">Buyers’ values in dollars, comma-separated (0 to 5)</label><input id="${id}" type="text" inputmode="decimal" spellcheck="false" autocomplete="off" aria-describedby="${id}-note"><span class="hint box-note" id="${id}-note" role="status"></span>`;
  const input = wrap.querySelector('input');
  const note = wrap.querySelector('.box-note');
  const show = (vs) => { input.value = vs.map((x) => String(+x.toFixed(2))).join(', '); };
  show(ctx.values.values);
  input.addEventListener('change', () => {
    const parts = input.value.split(input.value.includes(';') ? ';' : ',').map((t) => t.trim().replace(/^\$/, '')).filter(Boolean);
    const fail = (text) => { input.setAttribute('aria-invalid', 'true'); note.textContent = text; };
    if (!parts.length || parts.length > spec.maxLength) return fail(`Type 1 to ${spec.maxLength} values separated by commas.`);
    const xs = [];
    const notes = [];
    for (const [i, t] of parts.entries()) {
      const r = readBox(t, { type: 'number', min: spec.min, max: spec.max }, `value ${i + 1}`);
      if (!r.ok) return fail(`Value ${i + 1}, “${t.slice(0, 20)}”: ${r.message}`);
      if (r.note) notes.push(r.note);
      xs.push(Math.round(r.value * 100) / 100);
    }
    input.removeAttribute('aria-invalid');
    note.textContent = notes.join(' ');
    show(xs);
    onChange(xs);
  });
  return { el: wrap, key: 'values', set: show };
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const values = valuesInput(ctx, (xs) => { ctx.set('values', xs); refresh(); });
  const seed = keyInput(ctx, schema, 'seed', 'Seed', () => refresh());
  const draws = keySelect(ctx, schema, 'draws', 'Draws', (d) => fmtInt(+d), () => refresh());
  const { els } = keyControls(ctx, schema, () => refresh(), [['eps', 'ε (epsilon)'], values], [draws, seed]);
  const newSeed = reseed(ctx, seed, () => refresh());
  const addBuyer = () => {
    if (v.values.length >= 40) return;
    ctx.set('values', [...v.values, 1]); values.set(v.values); refresh();
  };
  const actions = document.createElement('div');
  actions.className = 'actions';
  const add = button('Add a $1 buyer', addBuyer);
  actions.append(button('New draws', newSeed, { kbd: 'Space', primary: true }), add);

  const readout = document.createElement('div');
  readout.className = 'loss-line laplace-readout';
  const error = errorLine();
  const { grid, cell } = smallMultiples(ctx);
  const revChart = new LineChart(cell('Revenue at each fixed price'), { title: 'Revenue p × (buyers with value ≥ p) at each price', xLabel: 'price ($)', yLabel: 'revenue ($)', steps: true });
  const distChart = new LineChart(cell('The private price: exact distribution and draws'), { title: 'Probability of each price under the exponential mechanism, with the share of draws', xLabel: 'price ($)', yLabel: 'probability', yCap: 1 });
  const curveHost = document.createElement('div');
  const curveChart = new LineChart(curveHost, { title: `${ctx.title}: expected revenue against ε, the optimum and the theorem's guarantee`, xLabel: 'ε (log scale)', yLabel: 'revenue ($)', logX: true });
  // Own data (a column of numbers) replaces the buyers' values; the grid follows its range.
  let own = null;
  const ownData = dataPanel(ctx, {
    mode: 'numbers', min: 0,
    onData: (d) => { own = d && { values: d.values, grid: gridFor(d.values) }; values.el.style.display = add.style.display = d ? 'none' : ''; return refresh(); },
  });
  grid.classList.add('widget-main');
  body.append(...els, ownData.el, actions, readout, error, grid, curveHost);

  const refresh = redrawer(ctx, error, async () => {
    const g = own ? own.grid : GRID;
    const r = await bridge.call('market', 'pricing', {
      values: Float64Array.from(own ? own.values : v.values), ...g, epsilon: v.eps, seed: v.seed, draws: +v.draws,
    });
    error.textContent = '';
    const prices = Array.from(r.prices), n = +v.draws;
    revChart.update({ x: prices, series: [{ label: 'Revenue', values: Array.from(r.revenue) }], marker: r.optimalPrice, markerLabel: `best ${money(r.optimalPrice)}` });
    distChart.update({
      x: prices, series: [{ label: 'Exact probability', values: Array.from(r.probabilities) }],
      bars: n > 0 ? { label: 'Share of draws', edges: [...prices.map((p) => p - g.step / 2), prices[prices.length - 1] + g.step / 2], heights: Array.from(r.counts, (c) => c / n) } : null,
    });
    curveChart.update({
      x: Array.from(r.epsilons),
      series: [
        { label: 'Best fixed price (OPT)', short: 'OPT', values: Array.from(r.epsilons, () => r.optimalRevenue) },
        { label: 'Private price: expected revenue', short: 'E[revenue]', values: Array.from(r.revenueCurve) },
        { label: 'Guarantee OPT − 2Δ(ln|R| + 1)/ε (0: says nothing)', short: 'Guarantee', values: Array.from(r.guaranteeCurve, (g) => Math.max(0, g)) },
      ],
      marker: v.eps, markerLabel: `ε = ${v.eps}`,
    });
    const next = prices.find((p) => p > r.optimalPrice + 1e-9);
    const revNext = next === undefined ? null : r.revenue[prices.indexOf(next)];
    readout.innerHTML = `<p>Best fixed price <strong>${money(r.optimalPrice)}</strong> earns <strong>${money(r.optimalRevenue)}</strong>${revNext !== null ? `; one cent more, ${money(next)}, earns ${money(revNext)}` : ''}.</p>`
      + `<p>The price is ε-differentially private for change-one-answer neighbours (one buyer’s value changes): that buyer moves the revenue at each price by at most the price, so Δ is the highest price, ${money(r.sensitivity)}.</p>`
      + `<p>Private price at ε = ${v.eps} (Δ = ${money(r.sensitivity)}, |R| = ${prices.length} prices): expected revenue <strong>${money(r.expectedRevenue)}</strong>. With probability at least ${1 - r.beta} the revenue is above ${money(r.threshold)}${r.threshold <= 0 ? ', which says nothing here' : ''} (exactly: below it with probability ${fmt(r.probabilityBelow, 3)}).</p>`;
    ctx.announce(`Expected revenue ${money(r.expectedRevenue)} against the best ${money(r.optimalRevenue)}.`);
  });
  await ownData.restore();
  await refresh();
  return { draw: newSeed };
}
