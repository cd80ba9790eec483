// Line charts in SVG for curves over a parameter.
//
// Line charts in SVG for curves over a parameter (expected score loss or
// revenue against ε, a density over a range, an error against the rounds).
// Like charts/bars.js: an accessible name and description, a
// data-table view of the same numbers, and a redraw at the container's real
// pixel width. Series are told apart by colour, dash pattern and marker
// shape, and each is named in a legend, so colour is never the only cue.
import { frame } from './frame.js';
import { escapeHTML, svgEl } from '../base/dom.js';
import { fmt, niceAxis } from '../base/format.js';

let count = 0;

const DASHES = ['', '7 4', '2 4', '10 3 2 3'];

function marker(kind, cx, cy, r) {
  switch (kind % 4) {
    case 0: return svgEl('circle', { cx, cy, r });
    case 1: return svgEl('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r });
    case 2: return svgEl('path', { d: `M${cx} ${cy - r * 1.2}L${cx + r * 1.1} ${cy + r * 0.8}L${cx - r * 1.1} ${cy + r * 0.8}Z` });
    default: return svgEl('path', { d: `M${cx} ${cy - r * 1.2}L${cx + r * 1.2} ${cy}L${cx} ${cy + r * 1.2}L${cx - r * 1.2} ${cy}Z` });
  }
}

function linearTicks(lo, hi) {
  const { step } = niceAxis((hi - lo) * 0.8);
  const out = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step) out.push(+t.toPrecision(10));
  return out;
}

export class LineChart {
  /**
   * opts.title: accessible name; opts.xLabel, opts.yLabel: axis names;
   * opts.logX: logarithmic x axis; opts.steps: draw step functions; opts.describe(data): the description;
   * opts.yCap: the most the y axis may show (1 for a probability or a share: it ends at 100%).
   */
  constructor(host, opts) {
    this.id = `line-${++count}`;
    this.opts = Object.assign({ xLabel: 'x', yLabel: 'y', logX: false }, opts);
    frame(this, host, this.opts.title, 'line-chart');
  }

  /**
   * data: {x: [values], xMin, xMax (optional axis range), series: [{label, short, values}] (short: legend text on narrow screens), marker: x value to draw a
   * vertical rule at (or null), markerLabel, yMax (optional fixed y range), bars (optional histogram drawn behind the
   * lines: {label, edges: [n+1 bin edges], heights: [n]})}.
   */
  update(data) {
    this.data = data;
    this.render();
    this.renderTable();
  }

  /** sound() is what "Listen" plays (web/charts/listen.js): each series along x, on the range of all of them. */
  sound() {
    const { x: xs, series } = this.data;
    const { xLabel } = this.opts;
    return {
      series: series.map((s) => ({
        name: s.label,
        points: xs.map((x, k) => ({ label: `${xLabel} ${fmt(x)}`, value: s.values[k], say: fmt(s.values[k]) })).filter((p) => Number.isFinite(p.value)),
      })),
    };
  }

  render() {
    if (!this.data || !this.width) return;
    const { x: xs, series } = this.data;
    const W = this.width;
    const fs = this.fs;
    const small = fs * 0.85;
    const narrow = W < 560;
    const bars = this.data.bars;
    const keys = bars ? [...series, { label: bars.label, bars: true }] : series;
    const legendRows = narrow ? keys.length : Math.ceil(keys.length / 2);
    const legendH = legendRows * fs * 1.5 + fs * 0.4;
    const left = fs * 3.6, right = W - fs * 1.2;
    const top = legendH + fs * 0.8;
    // Presenting, the cap is 22.5rem rather than 360 px, so that fitToScreen's
    // smaller root font size shortens the plot as well as its text.
    const presented = this.svgBox.closest('.is-presented');
    const cap = presented ? 22.5 * this.fs : 360;
    const plotH = Math.round(Math.min(Math.max(W * 0.45, 220), cap));
    const H = top + plotH + fs * 3.2;
    const lx = (v) => (this.opts.logX ? Math.log10(v) : v);
    const lo = this.data.xMin ?? xs[0], hi = this.data.xMax ?? xs[xs.length - 1];
    const x0 = lx(lo), x1 = lx(hi);
    const px = (v) => left + ((lx(v) - x0) / (x1 - x0 || 1)) * (right - left);
    const all = series.flatMap((s) => s.values).concat(bars ? bars.heights : []).filter(Number.isFinite);
    const dataMax = Math.max(...all, 0);
    const { top: ymax, step } = this.data.yMax ? { top: this.data.yMax, step: this.data.yMax / 4 } : niceAxis(dataMax * 1.02, this.opts.yCap);
    const py = (v) => top + plotH * (1 - Math.min(Math.max(v / ymax, 0), 1));

    const svg = svgEl('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${this.id}-t ${this.id}-d`, 'data-axis-top': ymax, 'data-data-max': dataMax, ...(this.opts.yCap ? { 'data-axis-cap': this.opts.yCap } : {}) });
    svg.append(svgEl('title', { id: `${this.id}-t` }, this.opts.title));
    svg.append(svgEl('desc', { id: `${this.id}-d` }, this.opts.describe ? this.opts.describe(this.data) : ''));

    const lg = svgEl('g', { class: 'legend', 'aria-hidden': 'true' });
    keys.forEach((s, i) => {
      const col = narrow ? 0 : i % 2, row = narrow ? i : Math.floor(i / 2);
      const gx = (narrow ? fs * 0.4 : left) + col * (right - left) / 2, gy = fs * 0.3 + row * fs * 1.5 + fs * 0.6;
      if (s.bars) {
        lg.append(svgEl('rect', { x: gx, y: gy - fs * 0.45, width: fs * 2.2, height: fs * 0.9, class: 'hist-bar' }));
        lg.append(svgEl('text', { x: gx + fs * 2.7, y: gy + small * 0.35, class: 'legend-text', 'font-size': small }, s.label));
        return;
      }
      lg.append(svgEl('line', { x1: gx, x2: gx + fs * 2.2, y1: gy, y2: gy, class: `series s${i}`, 'stroke-dasharray': DASHES[i % 4] }));
      const m = marker(i, gx + fs * 1.1, gy, fs * 0.3);
      m.setAttribute('class', `series-mark s${i}`);
      lg.append(m);
      lg.append(svgEl('text', { x: gx + fs * 2.7, y: gy + small * 0.35, class: 'legend-text', 'font-size': small }, narrow && s.short ? s.short : s.label));
    });
    svg.append(lg);

    const grid = svgEl('g', { class: 'grid', 'aria-hidden': 'true' });
    for (let k = 0, t = 0; t <= ymax * (1 + 1e-9); t = +(++k * step).toPrecision(12)) {
      grid.append(svgEl('line', { x1: left, x2: right, y1: py(t), y2: py(t) }));
      grid.append(svgEl('text', { x: left - fs * 0.4, y: py(t) + small * 0.35, 'text-anchor': 'end', 'font-size': small }, fmt(t)));
    }
    const xt = this.opts.logX
      ? [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100].filter((t) => t >= lo * 0.999 && t <= hi * 1.001)
      : linearTicks(lo, hi);
    const minGap = fs * 2.2;
    let lastX = -Infinity;
    for (const t of xt) {
      const X = px(t);
      grid.append(svgEl('line', { x1: X, x2: X, y1: top, y2: top + plotH }));
      if (X - lastX >= minGap) {
        grid.append(svgEl('text', { x: X, y: top + plotH + fs * 1.2, 'text-anchor': 'middle', 'font-size': small }, fmt(t)));
        lastX = X;
      }
    }
    grid.append(svgEl('text', { x: (left + right) / 2, y: top + plotH + fs * 2.6, 'text-anchor': 'middle', 'font-size': small, class: 'axis-label' }, this.opts.xLabel));
    const yl = svgEl('text', { x: fs * 0.9, y: top + plotH / 2, 'text-anchor': 'middle', 'font-size': small, class: 'axis-label', transform: `rotate(-90 ${fs * 0.9} ${top + plotH / 2})` }, this.opts.yLabel);
    grid.append(yl);
    svg.append(grid);

    if (bars) {
      // One path of a rectangle per bar: the same picture as one <rect>
      // each, in one element rather than hundreds (a price grid has 500).
      const base = (top + plotH).toFixed(2);
      let d = '';
      bars.heights.forEach((h, k) => {
        const a = Math.max(bars.edges[k], lo), b = Math.min(bars.edges[k + 1], hi);
        if (!(b > a) || !(h > 0)) return;
        const x = px(a), w = Math.max(px(b) - x - 0.5, 0.5);
        d += `M${x.toFixed(2)} ${base}V${py(h).toFixed(2)}h${w.toFixed(2)}V${base}Z`;
      });
      const hist = svgEl('g', { 'aria-hidden': 'true' });
      if (d) hist.append(svgEl('path', { d, class: 'hist-bar' }));
      svg.append(hist);
    }
    const lines = svgEl('g', { 'aria-hidden': 'true' });
    const every = Math.max(1, Math.round(xs.length / 8));
    series.forEach((s, i) => {
      const d = this.opts.steps
        // A step function (a CDF): flat until the next x, then a jump.
        ? xs.map((v, k) => (k ? `H${px(v).toFixed(1)}V${py(s.values[k]).toFixed(1)}` : `M${px(v).toFixed(1)} ${py(s.values[k]).toFixed(1)}`)).join('') + `H${px(hi).toFixed(1)}`
        : xs.map((v, k) => `${k ? 'L' : 'M'}${px(v).toFixed(1)} ${py(s.values[k]).toFixed(1)}`).join('');
      lines.append(svgEl('path', { d, class: `series s${i}`, 'stroke-dasharray': DASHES[i % 4] }));
      xs.forEach((v, k) => {
        if ((k + Math.floor(i * every / series.length)) % every) return;
        const m = marker(i, px(v), py(s.values[k]), fs * 0.28);
        m.setAttribute('class', `series-mark s${i}`);
        lines.append(m);
      });
    });
    if (Number.isFinite(this.data.marker)) {
      const X = px(this.data.marker);
      lines.append(svgEl('line', { x1: X, x2: X, y1: top, y2: top + plotH, class: 'now-rule' }));
      if (this.data.markerLabel) {
        const anchor = X > (left + right) / 2 ? 'end' : 'start';
        lines.append(svgEl('text', { x: X + (anchor === 'end' ? -fs * 0.3 : fs * 0.3), y: top + fs * 0.9, 'text-anchor': anchor, 'font-size': small, class: 'val' }, this.data.markerLabel));
      }
    }
    svg.append(lines);
    this.svgBox.replaceChildren(svg);
  }

  renderTable() {
    const { x: xs, series } = this.data;
    const table = this.details.querySelector('table');
    table.querySelector('caption').textContent = this.opts.title;
    table.querySelector('thead').innerHTML = `<tr><th scope="col">${escapeHTML(this.opts.xLabel)}</th>${series.map((s) => `<th scope="col" class="num">${escapeHTML(s.label)}</th>`).join('')}</tr>`;
    table.querySelector('tbody').innerHTML = xs.map((v, k) =>
      `<tr><th scope="row">${fmt(v)}</th>${series.map((s) => `<td class="num">${fmt(s.values[k], 4)}</td>`).join('')}</tr>`).join('');
    const wrap = this.details.querySelector('.table-wrap');
    wrap.querySelector('table.bars-table')?.remove();
    const bars = this.data.bars;
    if (!bars) return;
    const bt = document.createElement('table');
    bt.className = 'bars-table';
    bt.innerHTML = `<caption>${escapeHTML(bars.label)}</caption><thead><tr><th scope="col">Bin</th><th scope="col" class="num">${escapeHTML(bars.label)}</th></tr></thead><tbody>${
      bars.heights.map((h, k) => `<tr><th scope="row">${fmt(bars.edges[k])} to ${fmt(bars.edges[k + 1])}</th><td class="num">${fmt(h, 4)}</td></tr>`).join('')}</tbody>`;
    wrap.append(bt);
  }
}
