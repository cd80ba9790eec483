// The ±ε band chart: each outcome's exact log-ratio on two neighbouring data sets.
//
// The ±ε band chart: for each outcome, the exact log-ratio of
// its probabilities on two neighbouring data sets (a diamond) and the
// estimate from draws with its interval (a dot with whiskers), against a
// shaded band from −ε to ε. A point outside the band is a breach of ε-DP and
// is drawn in the alarm colour with a label, so colour is never the only cue.
// Like the other charts: an accessible name and description, a data table.
import { frame } from './frame.js';
import { escapeHTML, svgEl } from '../base/dom.js';
import { fmt } from '../base/format.js';

let count = 0;

export class BandChart {
  /** opts.title: accessible name; opts.yLabel: the y axis's name; opts.estimateLabel: the legend's name for the estimates. */
  constructor(host, opts) {
    this.id = `band-${++count}`;
    this.opts = opts;
    frame(this, host, opts.title, 'band-chart');
  }

  /**
   * data: {categories, epsilon, exact: [log-ratio], estimate, low, high, drawn: [0|1]}.
   */
  update(data) {
    this.data = data;
    this.render();
    this.renderTable();
  }

  describe() {
    const d = this.data;
    const out = d.exact.map((v, i) => `${d.categories[i]} ${fmt(v)}`).join(', ');
    const breached = d.exact.filter((v) => Math.abs(v) > d.epsilon * (1 + 1e-9)).length;
    return `Exact log-ratios: ${out}. Band ±${fmt(d.epsilon)}. ${breached ? `${breached} outcome${breached === 1 ? '' : 's'} outside the band.` : 'Every outcome inside the band.'}`;
  }

  /** sound() is what "Listen" plays (web/charts/listen.js): the exact log-ratios, 0 in the middle of the range. */
  sound() {
    const d = this.data;
    const span = Math.max(d.epsilon, ...d.exact.filter(Number.isFinite).map(Math.abs));
    return {
      series: [{ name: 'Exact log-ratio', points: d.categories.map((c, i) => ({ label: c, value: d.exact[i], say: fmt(d.exact[i]) })) }],
      range: [-span, span],
    };
  }

  render() {
    const d = this.data;
    if (!d || !this.width) return;
    const W = this.width;
    const fs = this.fs;
    const small = fs * 0.85;
    const narrowW = W < 560;
    const left = fs * 3.4, right = W - fs * 0.8, top = fs * (narrowW ? 3.8 : 2.4);
    const plotH = Math.round(Math.min(Math.max(W * 0.38, 220), 320));
    const H = top + plotH + fs * 2.2;
    const values = [d.epsilon, ...d.exact.map(Math.abs)];
    d.drawn.forEach((ok, i) => { if (ok) values.push(Math.abs(d.low[i]), Math.abs(d.high[i])); });
    const span = Math.max(...values.filter(Number.isFinite)) * 1.15;
    const py = (v) => top + plotH * (0.5 - Math.min(Math.max(v / (2 * span), -0.5), 0.5));
    const n = d.categories.length;
    const slot = (right - left) / n;
    const cx = (i) => left + slot * (i + 0.5);

    const svg = svgEl('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${this.id}-t ${this.id}-d` });
    svg.append(svgEl('title', { id: `${this.id}-t` }, this.opts.title));
    svg.append(svgEl('desc', { id: `${this.id}-d` }, this.describe()));

    const g = svgEl('g', { class: 'grid', 'aria-hidden': 'true' });
    g.append(svgEl('rect', { x: left, y: py(d.epsilon), width: right - left, height: py(-d.epsilon) - py(d.epsilon), class: 'band' }));
    for (const v of [-d.epsilon, 0, d.epsilon]) {
      g.append(svgEl('line', { x1: left, x2: right, y1: py(v), y2: py(v), class: v ? 'band-edge' : '' }));
      g.append(svgEl('text', { x: left - fs * 0.4, y: py(v) + small * 0.35, 'text-anchor': 'end', 'font-size': small }, v ? `${v > 0 ? '+' : '−'}ε` : '0'));
    }
    const bandY = (narrowW ? fs * 2.2 : fs * 0.8) + small * 0.35;
    g.append(svgEl('text', { x: narrowW ? left : right, y: bandY, 'text-anchor': narrowW ? 'start' : 'end', 'font-size': small, class: 'axis-label' }, `shaded band: ±ε, ε = ${fmt(d.epsilon)}`));
    const yl = svgEl('text', { x: fs * 0.9, y: top + plotH / 2, 'text-anchor': 'middle', 'font-size': small, class: 'axis-label', transform: `rotate(-90 ${fs * 0.9} ${top + plotH / 2})` }, this.opts.yLabel);
    g.append(yl);
    const narrow = slot < fs * 5;
    d.categories.forEach((c, i) => {
      g.append(svgEl('text', { x: cx(i), y: top + plotH + fs * 1.3, 'text-anchor': 'middle', 'font-size': small, class: 'cat' }, narrow ? c.slice(0, 3) : c));
    });
    svg.append(g);

    const r = fs * 0.36;
    const lg = svgEl('g', { class: 'legend', 'aria-hidden': 'true' });
    const ly = fs * 0.8;
    lg.append(svgEl('path', { d: `M${left} ${ly}l${r * 1.2} ${-r * 1.2}l${r * 1.2} ${r * 1.2}l${-r * 1.2} ${r * 1.2}Z`, class: 'exact' }));
    lg.append(svgEl('text', { x: left + r * 3.4, y: ly + small * 0.35, class: 'legend-text', 'font-size': small }, 'Exact'));
    const ex = left + fs * 5.5;
    lg.append(svgEl('line', { x1: ex, x2: ex, y1: ly - r * 1.6, y2: ly + r * 1.6, class: 'estimate' }));
    lg.append(svgEl('circle', { cx: ex, cy: ly, r: r * 0.8, class: 'estimate' }));
    lg.append(svgEl('text', { x: ex + r * 2, y: ly + small * 0.35, class: 'legend-text', 'font-size': small }, narrowW ? 'Estimate, interval' : (this.opts.estimateLabel || 'Estimate from draws, with interval')));
    svg.append(lg);

    const pts = svgEl('g', { 'aria-hidden': 'true' });
    d.categories.forEach((c, i) => {
      const X = cx(i);
      if (d.drawn[i]) {
        const out = d.low[i] > d.epsilon || d.high[i] < -d.epsilon;
        const cls = out ? 'estimate out' : 'estimate';
        pts.append(svgEl('line', { x1: X + r * 1.6, x2: X + r * 1.6, y1: py(d.low[i]), y2: py(d.high[i]), class: cls }));
        for (const v of [d.low[i], d.high[i]]) pts.append(svgEl('line', { x1: X + r * 0.9, x2: X + r * 2.3, y1: py(v), y2: py(v), class: cls }));
        pts.append(svgEl('circle', { cx: X + r * 1.6, cy: py(d.estimate[i]), r: r * 0.8, class: cls }));
      }
      const out = Math.abs(d.exact[i]) > d.epsilon * (1 + 1e-9);
      const Y = py(d.exact[i]);
      pts.append(svgEl('path', { d: `M${X - r * 1.6} ${Y - r * 1.2}l${r * 1.2} ${r * 1.2}l${-r * 1.2} ${r * 1.2}l${-r * 1.2} ${-r * 1.2}Z`, class: out ? 'exact out' : 'exact' }));
      if (out) pts.append(svgEl('text', { x: X - r * 1.6, y: d.exact[i] > 0 ? Y - r * 1.8 : Y + r * 1.8 + small * 0.7, 'text-anchor': 'middle', 'font-size': small, class: 'breach-label' }, 'breach'));
    });
    svg.append(pts);
    this.svgBox.replaceChildren(svg);
  }

  renderTable() {
    const d = this.data;
    const table = this.details.querySelector('table');
    table.querySelector('caption').textContent = this.opts.title;
    table.querySelector('thead').innerHTML = '<tr><th scope="col">Outcome</th><th scope="col" class="num">Exact log-ratio</th><th scope="col" class="num">Estimate from draws</th><th scope="col" class="num">Interval</th><th scope="col">Inside ±ε?</th></tr>';
    table.querySelector('tbody').innerHTML = d.categories.map((c, i) => {
      const inside = Math.abs(d.exact[i]) <= d.epsilon * (1 + 1e-9);
      return `<tr><th scope="row">${escapeHTML(c)}</th><td class="num">${fmt(d.exact[i], 4)}</td>`
        + (d.drawn[i] ? `<td class="num">${fmt(d.estimate[i], 4)}</td><td class="num">[${fmt(d.low[i])}, ${fmt(d.high[i])}]</td>` : '<td class="num">not drawn yet</td><td class="num">–</td>')
        + `<td>${inside ? 'yes' : 'no: breach'}</td></tr>`;
    }).join('');
  }
}
