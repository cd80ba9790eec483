// What every chart shares: SVG elements, number and text formatting, and the
// frame of a chart (its SVG box, its data-table view and a redraw at the
// container's real pixel width).

const SVG = 'http://www.w3.org/2000/svg';

/** el(name, attrs, text) creates an SVG element. */
export function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** fmt(v, d) writes v with at most d significant digits, '–' when it is not finite. */
export const fmt = (v, d = 3) => (Number.isFinite(v) ? String(+v.toPrecision(d)) : '–');

/** escapeHTML(s) makes s safe inside HTML text and attribute values. */
export function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/**
 * frame(chart, host, title, ...classes) fills host with chart.svgBox and
 * chart.details (a collapsed data table named after title), and calls
 * chart.render() whenever the box's pixel width changes (chart.width).
 */
export function frame(chart, host, title, ...classes) {
  host.classList.add('chart', ...classes);
  chart.svgBox = document.createElement('div');
  chart.svgBox.className = 'chart-svg';
  chart.details = document.createElement('details');
  chart.details.className = 'data-table';
  chart.details.innerHTML = `<summary>Data table</summary><div class="table-wrap" tabindex="0" role="region" aria-label="Data table: ${escapeHTML(title)}"><table><caption></caption><thead></thead><tbody></tbody></table></div>`;
  host.append(chart.svgBox, chart.details);
  chart.width = 0;
  chart.data = null;
  chart.ro = new ResizeObserver(() => {
    const w = Math.round(chart.svgBox.clientWidth);
    if (w > 0 && w !== chart.width) { chart.width = w; chart.render(); }
  });
  chart.ro.observe(chart.svgBox);
}
