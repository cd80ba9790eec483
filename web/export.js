// "Export figure": renders the current lesson state as SVG, PNG or PDF with
// the same Go code as `dpplay figures` (package figures, gonum/plot). That
// module is large — about 13 MB, 4.8 MB gzipped, because gonum/plot links
// its fonts — so it is never part of the first load: it is fetched, with a
// progress bar, the first time someone exports, and kept for later exports.
//
//   import { exportFigure, attachExport, pageSpec } from './export.js';
//   attachExport(figureElement);                        // adds the button and progress bar
//   await exportFigure('#lesson=1&eps=1&seed=7&draws=10000', 'png', onProgress);
//
// Specs are URL hashes with the keys of docs/figures.md; pageSpec turns the
// page's own hash (#/slug?widget.key=value…) into one.

const base = new URL('.', import.meta.url);
const WASM_URL = new URL('wasm/figures.wasm', base).href;
const WASM_EXEC_URL = new URL('wasm_exec.js', base).href;
/** The module's approximate size, for progress when the server sends no Content-Length. */
export const FIGURES_BYTES = 13_100_000;
export const FORMATS = ['svg', 'png', 'pdf'];

let loading = null;

function loadScript(src) {
  if (globalThis.Go) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(s);
  });
}

/** loadFigures(onProgress) fetches and starts the figures module once; later calls reuse it. */
export function loadFigures(onProgress = () => {}) {
  if (!loading) {
    loading = (async () => {
      await loadScript(WASM_EXEC_URL);
      const res = await fetch(WASM_URL);
      if (!res.ok) throw new Error(`${WASM_URL}: HTTP ${res.status}`);
      const total = Number(res.headers.get('Content-Length')) || FIGURES_BYTES;
      const reader = res.body.getReader();
      const parts = [];
      let loaded = 0;
      onProgress({ phase: 'download', loaded, total });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        loaded += value.length;
        onProgress({ phase: 'download', loaded, total });
      }
      const bytes = new Uint8Array(loaded);
      let at = 0;
      for (const p of parts) { bytes.set(p, at); at += p.length; }
      onProgress({ phase: 'start', loaded, total });
      const ready = new Promise((resolve) => { globalThis.dpplayFiguresReady = resolve; });
      const go = new globalThis.Go();
      const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
      go.run(instance);
      await ready;
      onProgress({ phase: 'ready', loaded, total });
      return globalThis.dpplayFigures;
    })();
    loading.catch(() => { loading = null; }); // a failed download may be retried
  }
  return loading;
}

/**
 * pageSpec(hash, widgetId) turns the page's hash into a figure spec: the
 * lesson's number from the site index, and the widget's own keys (so two
 * widgets' settings never mix).
 */
export function pageSpec(hash = location.hash, widgetId = '') {
  const h = String(hash).replace(/^#/, '');
  const [path, query = ''] = h.split('?');
  const slug = path.replace(/^\/+|\/+$/g, '');
  let lesson = 0;
  const indexEl = document.getElementById('site-index');
  if (indexEl) {
    const index = JSON.parse(indexEl.textContent);
    const l = index.lessons.find((x) => x.slug === slug) || index.lessons[0];
    lesson = l ? l.order : 0;
  }
  const q = new URLSearchParams(query);
  const out = new URLSearchParams();
  out.set('lesson', String(lesson));
  for (const [k, v] of q) {
    const dot = k.lastIndexOf('.');
    if (widgetId && dot >= 0 && k.slice(0, dot) !== widgetId) continue;
    out.set(dot >= 0 ? k.slice(dot + 1) : k, v);
  }
  return '#' + out.toString();
}

function save(bytes, name, mime) {
  const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * exportFigure(spec, format, onProgress) renders spec (a hash string) as
 * svg, png or pdf and downloads it. Resolves to {name, bytes}.
 */
export async function exportFigure(spec, format = 'svg', onProgress = () => {}) {
  if (!FORMATS.includes(format)) throw new Error(`format must be one of ${FORMATS.join(', ')}`);
  const api = await loadFigures(onProgress);
  onProgress({ phase: 'render' });
  const out = api.render(String(spec), format);
  if (out.error) throw new Error(out.error);
  save(out.bytes, out.name, out.mime);
  onProgress({ phase: 'done', name: out.name, bytes: out.bytes.length });
  return { name: out.name, bytes: out.bytes.length };
}

let uid = 0;
/**
 * attachExport(fig, getSpec) adds an "Export figure" control to a widget's
 * figure element: a format choice, the button, a progress bar and a status
 * line. getSpec() returns the spec; by default the page's hash for this
 * widget (fig.dataset.id).
 */
export function attachExport(fig, getSpec = () => pageSpec(location.hash, fig.dataset.id || '')) {
  const id = `export-${++uid}`;
  const box = document.createElement('div');
  box.className = 'export-figure';
  box.innerHTML = `<label for="${id}-format">Figure format</label>
<select id="${id}-format"><option value="svg">SVG (vector)</option><option value="png">PNG (200 dpi)</option><option value="pdf">PDF (300 dpi)</option></select>
<button type="button" class="export-button">Export figure</button>
<progress max="100" value="0" hidden aria-label="Loading the figure engine"></progress>
<span class="export-status" role="status" aria-live="polite"></span>`;
  const [select, button, bar, status] = ['select', 'button', 'progress', '.export-status'].map((s) => box.querySelector(s));
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const res = await exportFigure(getSpec(), select.value, (p) => {
        if (p.phase === 'download') {
          bar.hidden = false;
          bar.value = Math.min(100, Math.round((100 * p.loaded) / p.total));
          status.textContent = `Loading the figure engine (${(p.total / 1e6).toFixed(1)} MB, only the first time)… ${bar.value}%`;
        } else if (p.phase === 'start' || p.phase === 'render') {
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
      button.disabled = false;
    }
  });
  fig.append(box);
  return box;
}
