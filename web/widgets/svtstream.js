// Widget: the sparse vector technique on a stream of queries.
//
// The sparse vector technique on a stream of queries (lesson "The sparse
// vector technique"): AboveThreshold, or with c > 1 Lyu, Su and Li's
// Algorithm 1, on the query answers the reader sets. Go (app/audit/sparse,
// in the lazily loaded svt module) computes, for every query, the exact
// probabilities that it is answered ⊤, answered ⊥, or never reached because
// the technique halted; the chart stacks them, one row per query.
import { frame } from '../charts/frame.js';
import { svgEl } from '../base/dom.js';
import { fmt } from '../base/format.js';
import { epsSlider, redrawer, setDefaults, tableRegion, errorLine, controlsBox } from './controls.js';
import { typedBox, typedList } from './typedbox.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.svtstream;

const pct = (p) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 2 : 1)}%`;

/**
 * StreamChart draws one row per query: the answer (bold when it is at or
 * above the threshold) and a bar split into ⊤ (solid), ⊥ (light) and not
 * reached (hatched), each the exact probability. Sizes are in units of the
 * box's font. The numbers are in the table beside it.
 */
class StreamChart {
  constructor(host) { frame(this, host, '', 'stream-chart'); }

  update(data) { this.data = data; this.render(); }

  render() {
    if (!this.data || !this.width) return;
    const { answers, above, below, halted, t } = this.data;
    const W = this.width, fs = this.fs, sm = fs * 0.85;
    const labelW = fs * 5.2, valueW = fs * 3.4, left = labelW, right = W - valueW;
    const rowH = fs * 1.9, barH = fs * 1.15, top = fs * 2.6;
    const H = top + rowH * answers.length + fs * 0.4;
    const x = (p) => left + (right - left) * p;
    const svg = svgEl('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img',
      'aria-label': `For each query, the exact probabilities that it is answered above the threshold, below it, or not reached. Threshold T = ${t}.` });
    const defs = svgEl('defs');
    const pat = svgEl('pattern', { id: 'svt-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    pat.append(svgEl('rect', { width: 6, height: 6, fill: 'var(--surface)' }), svgEl('rect', { width: 2.5, height: 6, fill: 'var(--muted)' }));
    defs.append(pat);
    svg.append(defs);
    const key = [['var(--bar)', '⊤ above'], ['var(--track)', '⊥ below'], ['url(#svt-hatch)', 'not reached']];
    let kx = left;
    for (const [fill, text] of key) {
      svg.append(svgEl('rect', { x: kx, y: fs * 0.35, width: fs * 0.9, height: fs * 0.9, fill, stroke: 'var(--line)' }));
      const label = svgEl('text', { x: kx + fs * 1.2, y: fs * 1.1, 'font-size': sm }, text);
      svg.append(label);
      kx += fs * 1.2 + text.length * sm * 0.55 + fs * 1.1;
    }
    svg.append(svgEl('text', { x: 0, y: top - fs * 0.5, 'font-size': sm, class: 'axis-label' }, 'query: answer'));
    svg.append(svgEl('text', { x: W - 2, y: top - fs * 0.5, 'font-size': sm, 'text-anchor': 'end', class: 'axis-label' }, 'Pr[⊤]'));
    answers.forEach((a, i) => {
      const y = top + rowH * i;
      const label = svgEl('text', { x: 0, y: y + barH * 0.8, 'font-size': sm, 'font-weight': a >= t ? 700 : 400 }, `${i + 1}: ${fmt(a, 4)}`);
      svg.append(label);
      let at = 0;
      for (const [p, fill] of [[above[i], 'var(--bar)'], [below[i], 'var(--track)'], [halted[i], 'url(#svt-hatch)']]) {
        if (p > 0) svg.append(svgEl('rect', { x: x(at), y, width: Math.max(0, x(at + p) - x(at)), height: barH, fill }));
        at += p;
      }
      svg.append(svgEl('rect', { x: left, y, width: right - left, height: barH, fill: 'none', stroke: 'var(--line)' }));
      svg.append(svgEl('text', { x: W - 2, y: y + barH * 0.8, 'font-size': sm, 'text-anchor': 'end' }, pct(above[i])));
    });
    this.svgBox.replaceChildren(svg);
  }
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const refreshNow = () => refresh();
  const eps = epsSlider(ctx, schema, 'ε (epsilon)', refreshNow);
  const c = typedBox({ id: ctx.uid('c'), label: 'Cutoff c (⊤ answers before it halts)', value: v.c, min: schema.c.min, max: schema.c.max, int: true,
    onChange: (x) => { ctx.set('c', x); refresh(); } });
  const t = typedBox({ id: ctx.uid('t'), label: 'Threshold T', value: v.t, min: schema.t.min, max: schema.t.max,
    onChange: (x) => { ctx.set('t', x); refresh(); } });
  const controls = controlsBox();
  controls.append(eps.el, c.el, t.el);
  const more = document.createElement('details');
  more.className = 'widget-more';
  const summary = document.createElement('summary');
  summary.textContent = 'Edit the query answers';
  const answers = typedList({ id: ctx.uid('answers'), label: 'Query answers, in the order they arrive', value: v.answers,
    min: schema.answers.min, max: schema.answers.max, minLen: schema.answers.minLength || 1, maxLen: schema.answers.maxLength,
    hint: 'Up to 12 numbers separated by spaces.', onChange: (xs) => { ctx.set('answers', xs); refresh(); } });
  more.append(summary, answers.el);

  const line = document.createElement('p');
  line.className = 'loss-line';
  line.setAttribute('role', 'status');
  const accuracy = document.createElement('p');
  accuracy.className = 'panel-stat';
  const host = document.createElement('div');
  host.className = 'widget-main';
  const chart = new StreamChart(host);
  const table = tableRegion('Exact probabilities for each query');
  const numbers = document.createElement('details');
  numbers.className = 'data-table';
  const numbersSummary = document.createElement('summary');
  numbersSummary.textContent = 'The numbers';
  numbers.append(numbersSummary, table);
  const error = errorLine();
  body.append(controls, more, error, line, host, accuracy, numbers);

  const refresh = redrawer(ctx, error, async () => {
    const r = await bridge.call('svt', 'stream', { answers: Float64Array.from(v.answers), eps: v.eps, c: v.c, t: v.t });
    error.textContent = '';
    const above = Array.from(r.above), below = Array.from(r.below), halted = Array.from(r.halted);
    chart.update({ answers: v.answers, above, below, halted, t: v.t });
    line.textContent = `Noisy threshold T + Lap(${fmt(r.thresholdScale)}); each answer + Lap(${fmt(r.queryScale)}). Expected ⊤ answers: ${fmt(r.expectedTops)} (at most c = ${v.c}).`;
    accuracy.textContent = `Accuracy with probability 95%: the union bound promises every answer is right to within α = ${fmt(r.alpha)}; on these answers the exact distribution is right to within ${fmt(r.exact)}.`;
    const rows = v.answers.map((a, i) => `<tr><th scope="row">${i + 1}</th><td class="num">${fmt(a, 4)}</td><td class="num">${pct(above[i])}</td><td class="num">${pct(below[i])}</td><td class="num">${pct(halted[i])}</td></tr>`);
    table.innerHTML = `<table class="narrow-cells"><caption>Each query's answer and the exact probabilities of ⊤, ⊥ and not reached (T = ${fmt(v.t, 4)})</caption><thead><tr><th scope="col">Query</th><th scope="col" class="num">Answer</th><th scope="col" class="num">⊤</th><th scope="col" class="num">⊥</th><th scope="col" class="num">Not reached</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    ctx.announce(line.textContent);
  });
  await refresh();
  return {
    reset() {
      setDefaults(ctx, schema);
      eps.set(v.eps); c.set(v.c); t.set(v.t); answers.set(v.answers);
      refresh();
    },
  };
}
