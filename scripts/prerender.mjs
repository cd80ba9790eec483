#!/usr/bin/env node
// The site build's pre-render (`dpplay site -prerender scripts/prerender.mjs`):
// it mounts every widget of every lesson under Node, with the page's own
// modules (web/page/mount.js, web/widgets/*.js, web/charts/bars.js …) on a linkedom
// document, and the engine's own WebAssembly modules (core.wasm, and synth,
// market or audit when a widget calls them) run by Go's wasm_exec.js, exactly
// as web/worker.js runs them. For each widget it writes into the lesson's
// HTML what the mount drew (controls, charts as SVG, data tables) and the
// recording of its engine calls (web/page/prerendered.js), which the page replays
// to mount before the engine is ready.
//
// Charts draw at their container's pixel width and font size, which only a
// browser's layout knows. The pre-render draws each chart twice, at the
// widths it has in two reference layouts measured in Chromium (LAYOUTS: a
// 1280 px wide desktop and a 390 px phone); the page's CSS shows the one that
// matches the container (styles.css, "Pre-rendered charts") and scales it, its
// height in em, so the engine's own drawing at the real width takes the same
// room. e2e/web/prerender.test.mjs checks both against the page.
//
// stdin: {web, wasmExec, wasm: {name: file}, lessons: [{slug, html}]}
// stdout: {slug: html}; a widget that cannot be pre-rendered keeps its
// placeholder and is named on stderr.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseHTML } from 'linkedom';

// The reference layouts: a full-width chart's and a small-multiples panel's
// width, and the chart font size (web/styles.css: html's font-size clamp).
export const LAYOUTS = {
  wide: { full: 840, panel: 376, fs: 16.9 },
  narrow: { full: 327, panel: 293, fs: 16 },
};
// A container at least this wide shows the wide drawing (styles.css says the
// same): the full chart's own stacked/side-by-side switch, and for panels the
// midpoint of the two reference widths.
export const SWITCH = { full: 560, panel: 335 };
// A widget whose recording would be larger than this is left to the engine.
const MAX_RECORDING = 64 * 1024;

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const web = path.resolve(input.web);

// ---- A document for the modules -------------------------------------------
const { window, document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
let layout = LAYOUTS.wide;
for (const k of ['window', 'document', 'HTMLElement', 'Element', 'Node', 'Event', 'CustomEvent', 'MutationObserver', 'DocumentFragment']) {
  if (!(k in globalThis) || k === 'window' || k === 'document') globalThis[k] = k === 'window' ? window : k === 'document' ? document : window[k];
}
globalThis.getComputedStyle = () => ({ fontSize: `${layout.fs}px` });
globalThis.matchMedia = () => ({ matches: false, addEventListener() {}, removeEventListener() {} });
globalThis.requestAnimationFrame = (f) => setTimeout(() => f(performance.now()), 0);
globalThis.ResizeObserver = class {
  constructor(cb) { this.cb = cb; }
  observe(el) { queueMicrotask(() => this.cb([{ target: el }])); }
  unobserve() {}
  disconnect() {}
};
// What linkedom leaves out and the widgets use: a select's value setter and
// a checkbox's checked property (both kept as attributes, so the HTML shows them).
Object.defineProperty(window.HTMLSelectElement.prototype, 'value', {
  configurable: true,
  get() { const o = this.querySelector('option[selected]') || this.querySelector('option'); return o ? o.value : ''; },
  set(v) { for (const o of this.querySelectorAll('option')) o.toggleAttribute('selected', o.value === String(v)); },
});
Object.defineProperty(window.HTMLInputElement.prototype, 'checked', {
  configurable: true,
  get() { return this.hasAttribute('checked'); },
  set(v) { this.toggleAttribute('checked', !!v); },
});
const inPanel = (el) => !!el.closest?.('.small-multiples, .panel');
Object.defineProperty(window.HTMLElement.prototype, 'clientWidth', {
  configurable: true,
  get() { return inPanel(this) ? layout.panel : layout.full; },
});

// ---- The engine -------------------------------------------------------------
await import(pathToFileURL(path.resolve(input.wasmExec)).href);
const started = new Map();
globalThis.dpplayReady = (name) => started.get(name)?.();
const modules = new Map();
function engine(name) {
  if (!modules.has(name)) {
    const file = input.wasm[name];
    if (!file) throw new Error(`no WebAssembly module named ${name}`);
    modules.set(name, (async () => {
      const go = new globalThis.Go();
      const ready = new Promise((resolve) => started.set(name, resolve));
      const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), go.importObject);
      go.run(instance);
      await ready;
      return globalThis[`dpplay_${name}`];
    })());
  }
  return modules.get(name);
}

const { mountWidget } = await import(pathToFileURL(path.join(web, 'page', 'mount.js')).href);
const { callKey, pack, unpack, replaying } = await import(pathToFileURL(path.join(web, 'page', 'prerendered.js')).href);
const { attachExport } = await import(pathToFileURL(path.join(web, 'page', 'export.js')).href);
const { attachTableCSV } = await import(pathToFileURL(path.join(web, 'page', 'tablecsv.js')).href);
const { attachEmbed } = await import(pathToFileURL(path.join(web, 'lesson', 'embedbutton.js')).href);

/**
 * recorder() is a bridge that runs calls in the engine (as worker.js does)
 * and keeps them; pending counts the calls and module loads under way.
 */
function recorder() {
  const calls = new Map();
  let pending = 0;
  const track = async (p) => {
    pending++;
    try {
      return await p;
    } finally {
      pending--;
    }
  };
  return {
    calls,
    get pending() { return pending; },
    call: (name, fn, args) => track(Promise.resolve(name).then(engine).then((api) => {
      if (typeof api?.[fn] !== 'function') throw new Error(`no function ${name}.${fn}`);
      const result = pack(api[fn](args));
      if (result && result.error) throw new Error(result.error);
      calls.set(callKey(name, fn, args), result);
      return unpack(result);
    })),
    load: (name) => track(Promise.resolve(name).then(engine).then(() => {})),
    onStatus() {},
    offStatus() {},
  };
}

/**
 * replayer(calls) is the page's bridge before its engine has started: it
 * answers from the recording (replaying), and lists in misses the calls it
 * could not answer, which fail.
 */
function replayer(calls) {
  const misses = [];
  const engineless = {
    call(name, fn, args) {
      misses.push(callKey(name, fn, args));
      return Promise.reject(new Error('not recorded'));
    },
    load: async () => {},
    onStatus() {},
    offStatus() {},
  };
  return { misses, ...replaying(engineless, calls), pending: 0 };
}

// ---- Pre-rendering ----------------------------------------------------------
const settle = () => new Promise((r) => setTimeout(r, 0));

/**
 * quiet(bridge) waits until the widget has no engine call or module load
 * under way through a few turns of the event loop: a mount may draw its
 * first state after calls it does not await (the auditor loads its module
 * and audits after mount returns), and the drawing is what the page shows
 * once they answer. A widget still calling after a minute is left to the
 * engine.
 */
async function quiet(bridge) {
  const deadline = performance.now() + 60000;
  for (let still = 0; still < 3; ) {
    if (performance.now() > deadline) throw new Error('its engine calls never stop');
    await settle();
    still = bridge.pending ? 0 : still + 1;
  }
}

/**
 * draw(fig, mod, which, bridge) mounts a copy of fig in layout which, with
 * engine calls through bridge, and returns the copy's widget body.
 */
async function draw(lessonDoc, fig, mod, which, bridge) {
  layout = LAYOUTS[which];
  const copy = fig.cloneNode(true);
  // The widget may look for its neighbours in the lesson: mount it in place.
  fig.replaceWith(copy);
  let n = 0;
  try {
    await mountWidget(copy, mod, { params: new Map(), notes: [], bridge, uid: () => ++n, onSet() {} });
    await quiet(bridge);
  } finally {
    copy.replaceWith(fig);
  }
  if (copy.querySelector('.widget-body > .widget-error, .widget-error:not(:empty)')?.textContent) {
    throw new Error(copy.querySelector('.widget-error').textContent);
  }
  const body = copy.querySelector('.widget-body');
  if (/failed to start/.test(body.textContent)) throw new Error(body.textContent);
  reflect(copy);
  return body;
}

/**
 * reflect(root) writes as attributes what linkedom keeps as plain
 * properties and a browser reads from the markup: a label's htmlFor, and a
 * meter's or progress bar's numbers.
 */
function reflect(root) {
  for (const e of root.querySelectorAll('label')) if (Object.hasOwn(e, 'htmlFor')) e.setAttribute('for', e.htmlFor);
  for (const e of root.querySelectorAll('meter, progress')) {
    for (const k of ['min', 'max', 'low', 'high', 'optimum', 'value']) if (Object.hasOwn(e, k)) e.setAttribute(k, String(e[k]));
  }
}

/**
 * suffixIds(svg) renames the ids in svg (a second drawing of a chart) with
 * -n, so that they do not repeat the first drawing's, and points its own
 * references (url(#id), href="#id", aria-labelledby) at the renamed ids: the
 * first drawing is hidden at the second's width.
 */
function suffixIds(svg) {
  const renamed = new Set();
  for (const e of [svg, ...svg.querySelectorAll('[id]')]) {
    if (e.id) {
      renamed.add(e.id);
      e.id += '-n';
    }
  }
  const ref = (id) => (renamed.has(id) ? `${id}-n` : id);
  for (const e of [svg, ...svg.querySelectorAll('*')]) {
    for (const { name, value } of [...e.attributes]) {
      let v = value.replace(/url\(#([^)]+)\)/g, (_, id) => `url(#${ref(id)})`);
      if (/^(aria-labelledby|aria-describedby)$/.test(name)) v = v.split(' ').map(ref).join(' ');
      if (/^(href|xlink:href)$/.test(name) && v.startsWith('#')) v = `#${ref(v.slice(1))}`;
      if (v !== value) e.setAttribute(name, v);
    }
  }
}

async function prerenderFigure(lessonDoc, fig) {
  const name = fig.dataset.widget;
  const mod = await import(pathToFileURL(path.join(web, 'widgets', `${name}.js`)).href);
  if (typeof mod.mount !== 'function') return;
  const rec = recorder();
  const wide = await draw(lessonDoc, fig, mod, 'wide', rec);
  const narrow = await draw(lessonDoc, fig, mod, 'narrow', rec);
  // A call that opens state in the engine (a SmallDB run) returns a handle:
  // replayed, it would name a run the reader's engine never opened.
  if ([...rec.calls.values()].some((r) => r && typeof r === 'object' && 'handle' in r)) {
    process.stderr.write(`prerender: ${name} (${fig.dataset.id}): its calls open state in the engine; left to the engine\n`);
    return;
  }
  // The page must mount from the recording alone, at either width: calls
  // that depend on more than the widget's state (a timing) would miss it.
  for (const which of ['wide', 'narrow']) {
    const r = replayer(rec.calls);
    const failed = await draw(lessonDoc, fig, mod, which, r).then(() => '', (err) => err.message);
    if (r.misses.length || failed) {
      process.stderr.write(`prerender: ${name} (${fig.dataset.id}): replay at the ${which} width ${r.misses.length ? `asks what was not recorded (${r.misses[0]})` : `fails (${failed})`}; left to the engine\n`);
      return;
    }
  }
  // The charts on show: a hidden one (a later step of a walk-through) is
  // drawn by the engine when the reader gets there.
  const shown = (body) => [...body.querySelectorAll('.chart-svg')].filter((b) => !b.closest('[hidden]'));
  const boxes = shown(wide);
  const others = shown(narrow);
  // A widget whose mount leaves a chart on show undrawn (it waits for
  // something else) is left to the engine: half a drawing would jump.
  const drawn = (b) => b.querySelector(':scope > svg');
  if (boxes.length !== others.length || !boxes.every(drawn) || !others.every(drawn)) {
    process.stderr.write(`prerender: ${name} (${fig.dataset.id}): mount leaves a chart undrawn; left to the engine\n`);
    return;
  }
  boxes.forEach((box, i) => {
    const svg = drawn(box);
    const alt = drawn(others[i]);
    const panel = inPanel(box);
    box.classList.add('pre');
    if (panel) box.classList.add('pre-panel');
    suffixIds(alt);
    for (const [s, cls, l] of [[svg, 'pre-wide', LAYOUTS.wide], [alt, 'pre-narrow', LAYOUTS.narrow]]) {
      const w = +s.getAttribute('width'), h = +s.getAttribute('height');
      s.setAttribute('class', `${s.getAttribute('class') || ''} ${cls}`.trim());
      s.setAttribute('viewBox', s.getAttribute('viewBox') || `0 0 ${w} ${h}`);
      s.setAttribute('preserveAspectRatio', 'xMinYMin meet');
      s.setAttribute('width', '100%');
      s.removeAttribute('height');
      // The engine redraws at the real font size, so the height follows it.
      s.setAttribute('style', `height:${+(h / l.fs).toFixed(4)}em`);
    }
    box.append(alt);
  });
  const calls = JSON.stringify([...rec.calls]);
  if (calls.length > MAX_RECORDING) {
    process.stderr.write(`prerender: ${name} (${fig.dataset.id}): recording of ${calls.length} bytes left to the engine\n`);
    return;
  }
  // linkedom writes some empty SVG elements without their end tag; write
  // the charts out ourselves.
  const svgs = [];
  for (const svg of wide.querySelectorAll('svg')) {
    svgs.push(markup(svg));
    svg.replaceWith(lessonDoc.createComment(`dpplay-svg-${svgs.length - 1}`));
  }
  const body = fig.querySelector('.widget-body');
  body.innerHTML = wide.innerHTML.replace(/<!--dpplay-svg-(\d+)-->/g, (_, i) => svgs[+i]);
  // Not inert: its controls are in the accessibility tree from the first
  // paint, and the page mounts the widget as soon as one is used
  // (web/lesson/lazymount.js), handing over what the reader did (web/page/prerendered.js).
  body.removeAttribute('aria-busy');
  body.dataset.prerendered = '';
  // The row the page adds under a mounted widget ("Export figure",
  // "Download table (CSV)", "Embed or share"), so that it too is there from the first paint.
  if (fig.dataset.figures) attachExport(fig);
  attachTableCSV(fig).parentNode.dataset.prerendered = '';
  attachEmbed(fig);
  const script = lessonDoc.createElement('script');
  script.setAttribute('type', 'application/json');
  script.setAttribute('class', 'widget-calls');
  script.textContent = calls.replace(/</g, '\\u003c');
  fig.append(script);
}

const escape = (t) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** markup(node) is an SVG subtree as HTML, every element with its end tag. */
function markup(n) {
  if (n.nodeType === 3) return escape(n.data);
  if (n.nodeType !== 1) return '';
  const attrs = [...n.attributes].map((a) => ` ${a.name}="${escape(a.value)}"`).join('');
  return `<${n.localName}${attrs}>${[...n.childNodes].map(markup).join('')}</${n.localName}>`;
}

const out = {};
for (const { slug, html } of input.lessons) {
  const { document: lessonDoc } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  globalThis.document = lessonDoc;
  for (const fig of lessonDoc.querySelectorAll('figure.widget')) {
    try {
      await prerenderFigure(lessonDoc, fig);
    } catch (err) {
      process.stderr.write(`prerender: ${slug}: ${fig.dataset.widget} (${fig.dataset.id}) left to the engine: ${err.message}\n`);
    }
  }
  // A widget's link to another file of the site is written from its module's
  // own address (import.meta.url), here the copy of web/: in the lesson's
  // page, one level below the site's root, it is ../.
  out[slug] = lessonDoc.body.innerHTML.split(`${pathToFileURL(web).href}/`).join('../');
}
fs.writeSync(1, JSON.stringify(out));
process.exit(0);
