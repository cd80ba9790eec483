// Horizontal bar charts in SVG with an accessible name and a data-table view.
//
// Horizontal bar charts in SVG, each with an accessible name, a short
// description of what it shows, and a data-table view of the same numbers.
// Bars are the share of draws; the diamond and line mark the exact
// probability computed by the Go core. The chart redraws at the real pixel
// width of its container, so text stays legible from a phone to a projector.

import { frame } from './frame.js';
import { escapeHTML, svgEl } from '../base/dom.js';
import { fmtInt, niceAxis, pct } from '../base/format.js';

let chartCount = 0;

export class BarChart {
  /**
   * host: element to fill. opts.title names the chart (its accessible name);
   * opts.barLabel and opts.markLabel name the two series in the legend and table;
   * opts.categoryLabel names the categories (the table's first column and the
   * chart's row labels) and opts.axisLabel the value axis.
   */
  constructor(host, opts) {
    this.id = `chart-${++chartCount}`;
    this.opts = Object.assign({ barLabel: 'Share of draws', markLabel: 'Exact probability', categoryLabel: 'Candidate', compact: false }, opts);
    if (!this.opts.axisLabel) this.opts.axisLabel = `${this.opts.barLabel} or ${this.opts.markLabel.toLowerCase()}`;
    this.host = host;
    frame(this, host, this.opts.title);
  }

  /**
   * data: {categories: [label], bars: [share] | null, marks: [prob], columns:
   * [{label, values, format}] extra table columns placed before the two series,
   * counts: [n] | null, total: draws, note: text for the description}.
   */
  update(data) {
    this.data = data;
    this.render();
    this.renderTable();
  }

  describe() {
    const { categories, bars, marks, total } = this.data;
    let top = 0;
    marks.forEach((p, i) => { if (p > marks[top]) top = i; });
    let s = `${this.opts.markLabel} is highest for ${categories[top]} at ${pct(marks[top])}.`;
    if (bars && total > 0) {
      let topB = 0;
      bars.forEach((p, i) => { if (p > bars[topB]) topB = i; });
      s += ` In ${fmtInt(total)} draws, ${categories[topB]} was chosen most often, ${pct(bars[topB])} of the time.`;
    } else {
      s += ' No draws yet.';
    }
    return s;
  }

  /** sound() is what "Listen" plays (web/charts/listen.js): the exact probabilities, then the shares drawn, on the axis's range. */
  sound() {
    const { categories, bars, marks, total } = this.data;
    const series = (name, values) => ({ name, points: categories.map((c, i) => ({ label: c, value: values[i], say: pct(values[i]) })) });
    const out = [series(this.opts.markLabel, marks)];
    if (bars && total > 0) out.push(series(this.opts.barLabel, bars));
    return { series: out, range: [0, niceAxis(Math.max(...marks.concat(bars || []).filter(Number.isFinite)) * 1.04, 1).top] };
  }

  render() {
    if (!this.data || !this.width) return;
    const { categories, bars, marks } = this.data;
    const W = this.width;
    const stacked = W < 560 || this.opts.compact;
    const fs = this.fs;
    const small = fs * 0.875;
    const longest = Math.max(...categories.map((c) => c.length));
    const labelW = stacked ? 0 : Math.min(Math.max(longest * small * 0.62, 4 * fs), W * 0.35);
    const valueW = stacked ? 0 : 6.2 * fs;
    const barH = Math.round(fs * 1.15);
    const rowH = stacked ? Math.round(barH + fs * 1.9) : Math.round(barH + fs * 0.9);
    const left = labelW + (stacked ? 4 : 12);
    // A narrow chart (a panel on a 320 px screen) gives the legend's second
    // entry a line of its own, and names its value axis in one word. Text
    // widths are estimated (0.5 to 0.58 em a character), not measured, which
    // would force a layout; the legend may reach half an em past the box.
    const textW = (t, k) => t.length * small * k;
    const mx0 = left + fs * 1.25 + textW(this.opts.barLabel, 0.58) + fs * 1.2;
    const shift = mx0 + fs * 1.25 + textW(this.opts.markLabel, 0.5) > W + fs * 0.5 ? Math.round(fs * 1.3) : 0;
    const top = Math.round(fs * 4.6) + shift;
    const right = W - valueW - 8;
    const plotW = Math.max(40, right - left);
    const all = marks.concat(bars || []);
    // Every value is a probability or a share: the axis ends at 100%.
    const dataMax = Math.max(...all.filter(Number.isFinite));
    const { top: max, step } = niceAxis(dataMax * 1.04, 1);
    const x = (v) => left + plotW * Math.min(Math.max(v / max, 0), 1);
    const H = top + rowH * categories.length + Math.round(fs * 0.5);

    const svg = svgEl('svg', {
      width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img',
      'aria-labelledby': `${this.id}-t ${this.id}-d`, 'data-axis-top': max, 'data-data-max': dataMax, 'data-axis-cap': 1,
    });
    svg.append(svgEl('title', { id: `${this.id}-t` }, this.opts.title));
    svg.append(svgEl('desc', { id: `${this.id}-d` }, this.describe()));

    // Legend.
    const lg = svgEl('g', { class: 'legend', 'aria-hidden': 'true' });
    lg.append(svgEl('rect', { x: left, y: fs * 0.35, width: fs * 0.9, height: fs * 0.9, class: 'bar', rx: 2 }));
    lg.append(svgEl('text', { x: left + fs * 1.25, y: fs * 1.1, class: 'legend-text', 'font-size': small }, this.opts.barLabel));
    const mx = shift ? left : mx0;
    lg.append(svgEl('path', { d: diamond(mx + fs * 0.45, fs * 0.8 + shift, fs * 0.45), class: 'mark' }));
    lg.append(svgEl('text', { x: mx + fs * 1.25, y: fs * 1.1 + shift, class: 'legend-text', 'font-size': small }, this.opts.markLabel));
    svg.append(lg);

    // Axis titles: the categories, the value axis and, beside the bars, the
    // column of numbers, which is the exact probability until the first draw
    // and the share of draws after it.
    const drawn = bars && this.data.total > 0;
    const titleY = fs * 2.45 + shift;
    const axes = svgEl('g', { class: 'axis-titles', 'aria-hidden': 'true' });
    const axisTitle = left + textW(`${this.opts.axisLabel} (%)`, 0.5) > W + 4 ? 'Percent' : `${this.opts.axisLabel} (%)`;
    axes.append(svgEl('text', { x: stacked ? left : left + plotW / 2, y: titleY, 'text-anchor': stacked ? 'start' : 'middle', class: 'axis-label', 'font-size': small }, axisTitle));
    if (!stacked) {
      axes.append(svgEl('text', { x: labelW, y: titleY, 'text-anchor': 'end', class: 'axis-label', 'font-size': small }, this.opts.categoryLabel));
      axes.append(svgEl('text', { x: W - 4, y: titleY, 'text-anchor': 'end', class: 'axis-label col-label', 'font-size': small }, drawn ? this.opts.barLabel : 'Exact'));
    }
    svg.append(axes);

    // Grid.
    const grid = svgEl('g', { class: 'grid', 'aria-hidden': 'true' });
    for (let k = 0, t = 0; t <= max + 1e-9; t = +(++k * step).toPrecision(12)) {
      grid.append(svgEl('line', { x1: x(t), x2: x(t), y1: top - fs * 0.3, y2: H - fs * 0.3 }));
      if (!stacked || t === 0 || Math.abs(t - max) < 1e-9 || plotW > 300) {
        grid.append(svgEl('text', { x: x(t), y: top - fs * 0.6, 'text-anchor': 'middle', 'font-size': small * 0.9 }, `${+(t * 100).toPrecision(4)}%`));
      }
    }
    svg.append(grid);

    const rows = svgEl('g', { 'aria-hidden': 'true' });
    categories.forEach((name, i) => {
      const y0 = top + i * rowH;
      const by = stacked ? y0 + fs * 1.35 : y0 + (rowH - barH) / 2;
      if (stacked) {
        const label = svgEl('text', { x: left, y: y0 + fs * 1.05, class: 'cat', 'font-size': small });
        label.textContent = name;
        const v = svgEl('tspan', { class: 'val', dx: fs * 0.6 });
        const long = `${pct(bars?.[i])} drawn · exact ${pct(marks[i])}`;
        const fits = (name.length + long.length) * small * 0.56 + fs * 0.6 < plotW;
        v.textContent = drawn ? (fits ? long : `${pct(bars[i])} · exact ${pct(marks[i])}`) : `exact ${pct(marks[i])}`;
        label.append(v);
        rows.append(label);
      } else {
        rows.append(svgEl('text', { x: labelW, y: by + barH * 0.78, 'text-anchor': 'end', class: 'cat', 'font-size': small }, name));
        const t = svgEl('text', { x: W - 4, y: by + barH * 0.78, 'text-anchor': 'end', class: 'val', 'font-size': small });
        t.textContent = drawn ? pct(bars[i]) : pct(marks[i]);
        rows.append(t);
      }
      rows.append(svgEl('rect', { x: left, y: by, width: plotW, height: barH, class: 'track', rx: 3 }));
      if (bars) {
        rows.append(svgEl('rect', { x: left, y: by, width: Math.max(0, x(bars[i]) - left), height: barH, class: 'bar', rx: 3 }));
      }
      const mxp = x(marks[i]);
      rows.append(svgEl('line', { x1: mxp, x2: mxp, y1: by - 3, y2: by + barH + 3, class: 'mark-line' }));
      rows.append(svgEl('path', { d: diamond(mxp, by + barH / 2, barH * 0.36), class: 'mark' }));
    });
    svg.append(rows);
    this.svgBox.replaceChildren(svg);
  }

  renderTable() {
    const { categories, bars, marks, counts, columns = [], total } = this.data;
    const table = this.details.querySelector('table');
    table.querySelector('caption').textContent = `${this.opts.title}: ${total > 0 ? fmtInt(total) + ' draws' : 'no draws yet'}`;
    const short = this.opts.compact;
    const heads = [this.opts.categoryLabel, ...columns.map((c) => c.label), short ? 'Exact' : this.opts.markLabel];
    if (counts) heads.push(short ? 'Count' : 'Times chosen');
    if (bars) heads.push(short ? 'Share' : this.opts.barLabel);
    table.querySelector('thead').innerHTML = '<tr>' + heads.map((h, i) => `<th scope="col"${i ? ' class="num"' : ''}>${escapeHTML(h)}</th>`).join('') + '</tr>';
    const body = categories.map((name, i) => {
      const cells = [`<th scope="row">${escapeHTML(name)}</th>`];
      for (const c of columns) cells.push(`<td class="num">${escapeHTML(c.format ? c.format(c.values[i]) : String(c.values[i]))}</td>`);
      cells.push(`<td class="num">${pct(marks[i], 2)}</td>`);
      if (counts) cells.push(`<td class="num">${fmtInt(counts[i])}</td>`);
      if (bars) cells.push(`<td class="num">${total > 0 ? pct(bars[i], 2) : '–'}</td>`);
      return `<tr>${cells.join('')}</tr>`;
    });
    table.querySelector('tbody').innerHTML = body.join('');
  }
}

function diamond(cx, cy, r) {
  return `M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z`;
}

