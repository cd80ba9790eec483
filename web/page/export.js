// "Export figure": a widget's state drawn as SVG, PNG or PDF by the figures module.
//
// "Export figure": renders the current lesson state as SVG, PNG or PDF with
// the same Go code as `dpplay figures` (package figures, gonum/plot). That
// module is large (gonum/plot with one font face), so it is never part of
// the first load: it is fetched, with a progress bar, the first time someone
// exports, and kept for later exports. The auditor's charts link expr-lang
// as well and are a module of their own (wasm/auditfigures), which only the
// auditor's widget loads.
// It runs in the page's worker like every other module, so drawing a figure
// never blocks the page.
//
//   import { exportFigure, attachExport, pageSpec } from './export.js';
//   attachExport(figureElement);                        // adds the button and progress bar
//   await exportFigure('#lesson=1&widget=exponential-mechanism&id=meet&eps=1&seed=7', 'png', onProgress);
//
// Requests are URL hashes (figures.ParseRequest, docs/figures.md); pageSpec
// turns the page's own fragment (#id.key=value…) into one for a widget.

import { engineClient } from '../engine/client.js';
import { save } from '../base/download.js';
import { figureRow } from './figrow.js';

export const FORMATS = ['svg', 'png', 'pdf'];

function siteIndex() {
  const el = document.getElementById('site-index');
  return el ? JSON.parse(el.textContent) : { lessons: [], wasm: {} };
}

/** The module that draws a widget's figures: wasm/figures but for these. */
const MODULES = { audit: 'auditfigures', svtstream: 'auditfigures', svtaudit: 'auditfigures' };

/** figuresModule(spec) names the module that draws a request's widget. */
export function figuresModule(spec) {
  const widget = new URLSearchParams(String(spec).replace(/^#/, '')).get('widget');
  return Object.hasOwn(MODULES, widget) ? MODULES[widget] : 'figures';
}

/**
 * loadFigures(onProgress, name) has the page's worker load a figures module
 * once (later calls reuse it), reporting {phase: 'download', loaded, total}
 * as it arrives and {phase: 'ready'} when it runs.
 */
export async function loadFigures(onProgress = () => {}, name = 'figures') {
  const bridge = engineClient(siteIndex());
  const listen = (msg) => {
    if (msg.name === name && msg.type === 'progress' && msg.total) onProgress({ phase: 'download', loaded: msg.loaded, total: msg.total });
  };
  bridge.onStatus(listen);
  try {
    await bridge.load(name);
  } finally {
    bridge.offStatus(listen);
  }
  onProgress({ phase: 'ready' });
}

/**
 * pageSpec(hash, fig, figure) turns the page's fragment into a figure request
 * for one widget: its lesson's number from the site index, the widget module and
 * id from its <figure> element, its heading (the figure's title, as in
 * `dpplay figures`), the figure's name, and only that widget's own keys (so
 * two widgets' settings never mix).
 */
export function pageSpec(hash, fig, figure = '') {
  const query = String(hash).replace(/^#/, '');
  const slug = fig.closest('article.lesson')?.dataset.slug;
  const out = new URLSearchParams();
  const { lessons } = siteIndex();
  const l = lessons.find((x) => x.slug === slug) || lessons[0];
  if (l) out.set('lesson', String(l.order));
  out.set('widget', fig.dataset.widget);
  out.set('id', fig.dataset.id);
  const heading = fig.querySelector('.widget-title')?.textContent.trim();
  if (heading) out.set('title', heading);
  if (figure) out.set('fig', figure);
  const prefix = fig.dataset.id + '.';
  for (const [k, v] of new URLSearchParams(query)) {
    if (k.startsWith(prefix)) out.set(k.slice(prefix.length), v);
  }
  return '#' + out.toString();
}

/**
 * exportFigure(spec, format, onProgress) renders spec (a hash string) as
 * svg, png or pdf and downloads it. Resolves to {name, bytes}.
 */
export async function exportFigure(spec, format = 'svg', onProgress = () => {}) {
  if (!FORMATS.includes(format)) throw new Error(`format must be one of ${FORMATS.join(', ')}`);
  const name = figuresModule(spec);
  await loadFigures(onProgress, name);
  onProgress({ phase: 'render' });
  const out = await engineClient(siteIndex()).call(name, 'render', { hash: String(spec), format });
  save(out.bytes, out.name, out.mime);
  onProgress({ phase: 'done', name: out.name, bytes: out.bytes.length });
  return { name: out.name, bytes: out.bytes.length };
}

let uid = 0;
/** Readable names for figure names that are not self-explanatory. */
const FIGURE_LABELS = { histogram: 'Histogram', logratio: 'Log-ratio band', distributions: 'Both distributions', density: 'Densities', cdf: 'Distribution of the score', loss: 'Loss against ε', pmf: 'Probabilities', levels: 'Error levels', rounds: 'Error per round', revenue: 'Revenue per price', distribution: 'Price distribution', curve: 'Revenue against ε', gain: 'Gain from lying', prices: 'Prices per round', draw: 'Synthetic against true' };

/**
 * attachExport(fig) adds an "Export figure" control to a widget's <figure>
 * element's action row (figrow.js) when the site build listed figures for
 * it (data-figures): a choice of figure (when there are several) and
 * format, the button, a progress bar and a status line.
 */
export function attachExport(fig) {
  const names = (fig.dataset.figures || '').split(',').filter(Boolean);
  if (!names.length) return null;
  const id = `export-${++uid}`;
  const box = figureRow(fig);
  const which = names.length > 1
    ? `<span class="fig-field"><label for="${id}-figure">Figure</label><select id="${id}-figure">${names.map((n) => `<option value="${n}">${FIGURE_LABELS[n] || n}</option>`).join('')}</select></span>`
    : '';
  box.insertAdjacentHTML('afterbegin', `${which}<span class="fig-field"><label for="${id}-format">Figure format</label>
<select id="${id}-format"><option value="svg">SVG (vector)</option><option value="png">PNG (200 dpi)</option><option value="pdf">PDF (300 dpi)</option></select></span>
<button type="button" class="export-button">Export figure</button>
<progress id="${id}-bar" max="100" value="0" hidden aria-label="Loading the figure engine"></progress>
<span id="${id}-status" class="export-status" role="status" aria-live="polite"></span>`);
  const [select, button, bar, status, figureSelect] = [`#${id}-format`, '.export-button', `#${id}-bar`, `#${id}-status`, `#${id}-figure`].map((s) => box.querySelector(s));
  // While it works the button says so (aria-disabled) and ignores presses;
  // it keeps focus, which a disabled button would drop.
  button.addEventListener('click', async () => {
    if (button.getAttribute('aria-disabled') === 'true') return;
    button.setAttribute('aria-disabled', 'true');
    try {
      const spec = pageSpec(location.hash, fig, figureSelect ? figureSelect.value : names[0]);
      const res = await exportFigure(spec, select.value, (p) => {
        if (p.phase === 'download') {
          bar.hidden = false;
          bar.value = Math.min(100, Math.round((100 * p.loaded) / p.total));
          status.textContent = `Loading the figure engine (${(p.total / 1e6).toFixed(1)} MB, only the first time)… ${bar.value}%`;
        } else if (p.phase === 'ready' || p.phase === 'render') {
          status.textContent = 'Drawing the figure…';
        }
      });
      bar.hidden = true;
      status.textContent = `Saved ${res.name} (${Math.round(res.bytes / 1024)} KB).`;
      fig.dataset.exported = res.name;
    } catch (err) {
      bar.hidden = true;
      status.textContent = `The figure could not be exported: ${err.message}`;
    } finally {
      button.removeAttribute('aria-disabled');
    }
  });
  return box;
}
