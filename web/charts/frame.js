// The frame every chart is drawn in: its SVG box, its actions and its redraws.
//
// frame gives a chart its SVG box, its row of actions (a data-table view,
// "Listen") and a redraw at the container's real pixel width; the charts
// draw in it with base/dom.js's svgEl.
import { escapeHTML } from '../base/dom.js';

/**
 * frame(chart, host, title, ...classes) fills host with chart.svgBox and a
 * row of its actions: "Listen" when the chart has sound(), and unless title
 * is empty chart.details (a collapsed data table named after title; a chart
 * whose numbers are in a table beside it has none); and it calls
 * chart.render() whenever the box's pixel width (chart.width) or its font
 * size (chart.fs, in px; presentation mode changes the root's) changes.
 * Both are read in a ResizeObserver callback, after layout and before any
 * chart draws, so that drawing never forces a style or layout pass.
 */
export function frame(chart, host, title, ...classes) {
  host.classList.add('chart', ...classes);
  chart.svgBox = document.createElement('div');
  chart.svgBox.className = 'chart-svg';
  host.append(chart.svgBox);
  // Under the chart, its actions: "Listen" (web/charts/listen.js, for a chart
  // that says what to play with sound()) and the data table.
  const actions = document.createElement('div');
  actions.className = 'chart-actions';
  if (typeof chart.sound === 'function') {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'listen-button';
    b.setAttribute('aria-pressed', 'false');
    b.setAttribute('aria-label', title ? `Listen: ${title}` : 'Listen to the chart');
    b.innerHTML = '<svg class="icon" aria-hidden="true" viewBox="0 0 24 24"><path d="M4 9v6h4l5 4V5L8 9zM16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/></svg> Listen';
    b.addEventListener('click', () => import('./listen.js').then((m) => m.listen(chart, b)));
    actions.append(b);
  }
  if (title) {
    chart.details = document.createElement('details');
    chart.details.className = 'data-table';
    chart.details.innerHTML = `<summary>Data table</summary><div class="table-wrap" tabindex="0" role="region" aria-label="Data table: ${escapeHTML(title)}"><table><caption></caption><thead></thead><tbody></tbody></table></div>`;
    actions.append(chart.details);
  }
  if (actions.children.length) host.append(actions);
  chart.width = 0;
  chart.fs = 16;
  chart.data = null;
  charts.set(chart.svgBox, chart);
  observer().observe(chart.svgBox);
}

// One ResizeObserver for every chart's box and for a 1rem-wide probe, whose
// resizing says the root font size changed.
const charts = new Map();
let ro = null;
let probe = null;

function observer() {
  if (ro) return ro;
  ro = new ResizeObserver((entries) => {
    const all = entries.some((e) => e.target === probe);
    const seen = all ? [...charts.values()] : entries.map((e) => charts.get(e.target)).filter(Boolean);
    // Every read first, then every drawing.
    const redraw = [];
    for (const c of seen) {
      const w = Math.round(c.svgBox.clientWidth);
      if (!(w > 0)) {
        if (!c.svgBox.isConnected) { ro.unobserve(c.svgBox); charts.delete(c.svgBox); }
        continue;
      }
      const fs = parseFloat(getComputedStyle(c.svgBox).fontSize) || 16;
      if (w !== c.width || fs !== c.fs) { c.width = w; c.fs = fs; redraw.push(c); }
    }
    for (const c of redraw) c.render();
  });
  probe = document.createElement('div');
  probe.setAttribute('aria-hidden', 'true');
  probe.style.cssText = 'position:absolute;top:0;left:0;width:1rem;height:0;visibility:hidden;pointer-events:none';
  document.body.append(probe);
  ro.observe(probe);
  return ro;
}
