// Widget: the exact auditor on the sparse vector variants.
//
// The exact auditor on Lyu, Su and Li's sparse vector variants (lesson "The
// sparse vector technique"): pick a variant and two neighbouring answer
// vectors (every answer moves by at most 1); Go (app/audit/sparse in the
// svt module) computes every output's exact probability under both and the
// largest privacy loss, with the output that reaches it.
import { fmt } from '../base/format.js';
import { escapeHTML } from '../base/dom.js';
import { epsSlider, select, redrawer, setDefaults, tableRegion, errorLine, controlsBox } from './controls.js';
import { typedBox, typedList } from './typedbox.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.svtaudit;

const lossText = (l) => (Number.isFinite(l) ? fmt(l, 4) : '∞');
const prob = (p) => (p === 0 ? '0' : p < 1e-4 ? p.toExponential(2) : fmt(p, 4));

/**
 * verdicts are the verdict's sentences, written out in full: the pair's
 * neighbour notion is the one every query of sensitivity 1 gives, under
 * change-one-answer and add-or-remove neighbours alike. proofs are what Lyu
 * et al. prove when it is not the claim.
 */
const verdicts = {
  true: (n) => `Holds on this pair of neighbours (each answer moved by at most 1, as one person moves every query of sensitivity 1): the privacy loss is ${n.loss}, within the claimed ε = ${n.claim}.`,
  false: (n) => `Fails on this pair of neighbours (each answer moved by at most 1, as one person moves every query of sensitivity 1): the privacy loss is ${n.loss}, above the claimed ε = ${n.claim}.`,
};
const proofs = {
  other: (n) => `Lyu et al. prove ε = ${n.proven} for this variant.`,
  none: () => 'Lyu et al. prove no ε that holds for every stream.',
};

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const info = await bridge.call('svt', 'variants', { eps: v.eps, c: v.c });
  const sources = Array.from(info.sources);
  const variant = select({
    id: ctx.uid('alg'), key: 'alg', label: 'Variant', value: v.alg, wide: true,
    options: schema.alg.values.map((k) => [k, `Algorithm ${k} (${sources[+k - 1]})`]),
    onChange: (k) => { ctx.set('alg', k); refresh(); },
  });
  const eps = epsSlider(ctx, schema, 'ε (epsilon) claimed', () => refresh());
  const list = (key, label) => typedList({ id: ctx.uid(key), label, value: v[key], min: schema[key].min, max: schema[key].max,
    minLen: 1, maxLen: schema[key].maxLength, hint: 'Up to 10 numbers separated by spaces; neighbours differ by at most 1 in each.',
    onChange: (xs) => { ctx.set(key, xs); refresh(); } });
  const x = list('x', 'Answers on x');
  const y = list('y', 'Answers on the neighbour x′');
  const controls = controlsBox();
  controls.append(variant.el, eps.el, x.el, y.el);
  const more = document.createElement('details');
  more.className = 'widget-more';
  const summary = document.createElement('summary');
  summary.textContent = 'Cutoff and threshold';
  const c = typedBox({ id: ctx.uid('c'), label: 'Cutoff c', value: v.c, min: schema.c.min, max: schema.c.max, int: true,
    onChange: (n) => { ctx.set('c', n); refresh(); } });
  const t = typedBox({ id: ctx.uid('t'), label: 'Threshold T', value: v.t, min: schema.t.min, max: schema.t.max,
    onChange: (n) => { ctx.set('t', n); refresh(); } });
  const moreBox = controlsBox();
  moreBox.append(c.el, t.el);
  more.append(summary, moreBox);

  const verdict = document.createElement('p');
  verdict.className = 'loss-line';
  verdict.setAttribute('role', 'status');
  const worst = document.createElement('p');
  worst.className = 'panel-stat';
  const table = tableRegion('Outputs with the largest privacy loss');
  table.classList.add('widget-main');
  const error = errorLine();
  body.append(controls, more, error, verdict, worst, table);

  const refresh = redrawer(ctx, error, async () => {
    const r = await bridge.call('svt', 'audit', { algorithm: +v.alg, eps: v.eps, c: v.c, t: v.t, x: Float64Array.from(v.x), y: Float64Array.from(v.y) });
    error.textContent = '';
    const loss = r.unbounded ? Infinity : r.loss;
    const n = { loss: lossText(loss), claim: fmt(r.claim), proven: fmt(r.proven, 4) };
    verdict.textContent = [verdicts[r.holds](n), Number.isFinite(r.proven) && r.proven !== r.claim ? proofs.other(n) : r.proven === Infinity ? proofs.none(n) : '']
      .filter(Boolean).join(' ');
    verdict.dataset.holds = String(r.holds);
    const what = /released/.test(r.worst) ? 'density' : 'probability';
    const at = r.worstLimit ? '' : `, ${what} ${prob(Math.exp(r.worstLogP))} under x and ${prob(Math.exp(r.worstLogQ))} under x′`;
    worst.textContent = `Worst output: ${r.worst}${at}.` + (r.err > 1e-12 ? ` Exact to within ${fmt(r.err, 2)}.` : '');
    const rows = Array.from(r.rows).map((o, i) => `<tr><th scope="row">${escapeHTML(o)}</th><td class="num">${prob(r.rowP[i])}</td><td class="num">${prob(r.rowQ[i])}</td><td class="num">${Number.isFinite(r.rowLogRatio[i]) ? fmt(r.rowLogRatio[i], 4) : (r.rowLogRatio[i] > 0 ? '+∞' : '−∞')}</td></tr>`);
    table.innerHTML = `<table class="narrow-cells"><caption>The ⊤/⊥ patterns whose probabilities differ most between x and x′</caption><thead><tr><th scope="col">Output</th><th scope="col" class="num">P(o | x)</th><th scope="col" class="num">P(o | x′)</th><th scope="col" class="num">ln ratio</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    ctx.announce(verdict.textContent);
  });
  await refresh();
  return {
    reset() {
      setDefaults(ctx, schema);
      variant.set(v.alg); eps.set(v.eps); x.set(v.x); y.set(v.y); c.set(v.c); t.set(v.t);
      refresh();
    },
  };
}
