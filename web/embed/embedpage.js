// The embed page (embed.html): one widget of one lesson in another site's iframe.
//
// The embed page (embed.html): one widget of one lesson, without the site
// around it, for an iframe on another site (docs/embed.md). Its address,
// embed.html#/slug/id?key=value&…, is read by embedlink.js readEmbed. The
// page fetches the widget's figure as the lesson's page holds it, with the
// build's drawing of its opening state (the build's fragment
// embed/slug/id.html, same origin), and mounts it with the lesson's code
// (mount.js), so the widget is the lesson's, number for number. The keys act as in the lesson with focus in the widget
// (widgetkeys.js); the settings the link hides or locks stay so.
//
// Messages to the parent window (postMessage, any origin: they carry nothing
// the address does not):
//   {type: 'dpplay:resize', height}          the page's height in CSS px, when it changes
//   {type: 'dpplay:state', widget, params}   the widget's id and values (URL form), when they change
// Messages from the parent window, each ignored unless exactly of this form
// (readMessage):
//   {type: 'dpplay:set', params: {key: value}}  values as for the address, clamped with its notes
//   {type: 'dpplay:present', on: boolean}       larger type for a projected slide
import { readEmbed, lessonAddress, embedAddress } from './embedlink.js';
import { coerce, encode } from '../state/values.js';
import { pageAddress } from '../state/address.js';
import { mountWidget } from '../page/mount.js';
import { engineClient } from '../engine/client.js';
import { recording, replaying, handOver } from '../page/prerendered.js';
import { tracked, watchEngine } from '../page/pending.js';
import { showNotes, reportError } from '../page/urlnotes.js';
import { applyTheme } from '../page/theme.js';
import { typing, widgetKey } from '../page/widgetkeys.js';

const root = new URL('../', import.meta.url);
const main = document.getElementById('main');
const open = document.getElementById('open-lesson');

// Limits on a parent's message: more than any widget needs.
const MAX_KEYS = 64;
const MAX_TEXT = 2000;
const MAX_LIST = 200;

/**
 * readMessage(data, schema) is the parent's message data read as one of the
 * two the page accepts: {set: Map key → URL-form value} or {present:
 * boolean}; anything else is null. A set must name only keys of schema
 * (hide and lock are the link's, not the parent's), each with a value of the
 * key's kind: a finite number for a number or int, a string for an enum or
 * text, an array of finite numbers for a list; an object with any other
 * field, prototype or getter is refused whole.
 */
export function readMessage(data, schema) {
  const plain = (o) => o !== null && typeof o === 'object' && !Array.isArray(o) && Object.getPrototypeOf(o) === Object.prototype;
  if (!plain(data)) return null;
  const fields = Object.keys(data);
  if (data.type === 'dpplay:present') {
    return fields.length === 2 && typeof data.on === 'boolean' ? { present: data.on } : null;
  }
  if (data.type !== 'dpplay:set' || fields.length !== 2 || !plain(data.params)) return null;
  const entries = Object.entries(data.params);
  if (!entries.length || entries.length > MAX_KEYS) return null;
  const set = new Map();
  for (const [k, v] of entries) {
    const spec = Object.hasOwn(schema, k) ? schema[k] : null;
    if (!spec) return null;
    const number = (x) => typeof x === 'number' && Number.isFinite(x);
    switch (spec.type) {
      case 'number': case 'int':
        if (!number(v)) return null;
        set.set(k, String(v));
        break;
      case 'list':
        if (!Array.isArray(v) || v.length > MAX_LIST || !v.every(number)) return null;
        set.set(k, v.join(','));
        break;
      default:
        if (typeof v !== 'string' || v.length > MAX_TEXT) return null;
        set.set(k, v);
    }
  }
  return { set };
}

/** post(message) sends message to the parent window, if there is one. */
function post(message) {
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

/**
 * widgetPage(slug, id) is the build's fragment for widget id of lesson slug
 * (embed/slug/id.html: the widget's figure as the lesson's page holds it
 * and the site index's engine modules, not the whole page), parsed, with
 * the lesson's address, against which its URLs resolve; or an Error saying
 * why not.
 */
async function widgetPage(slug, id) {
  const url = new URL(pageAddress(slug), root);
  const res = await fetch(new URL(`embed/${slug}/${encodeURIComponent(id)}.html`, root));
  if (res.status === 404) {
    const lesson = await fetch(url, { method: 'HEAD' });
    throw new Error(lesson.ok ? `The lesson “${slug}” has no widget “${id}”.` : `There is no lesson called “${slug}”.`);
  }
  if (!res.ok) throw new Error(`${new URL(res.url).pathname}: HTTP ${res.status}`);
  return { url, doc: new DOMParser().parseFromString(await res.text(), 'text/html') };
}

/**
 * takeFigure(doc, id, base) is a copy, for this document, of the figure of
 * widget id in the lesson doc, or null. Its links are made absolute (they
 * were written for the lesson's address, base) and open a new tab, so that
 * following one never replaces the widget inside the frame; what only a
 * reader without JavaScript sees is left out; its title is an h1.
 */
function takeFigure(doc, id, base) {
  const src = [...doc.querySelectorAll('figure.widget')].find((f) => f.dataset.id === id);
  if (!src) return null;
  // The build's drawing of the action row ("Export figure", which renders
  // with the lesson's own address) is the lesson's; the page adds the CSV
  // download alone.
  for (const n of src.querySelectorAll('noscript, :scope > .export-figure')) n.remove();
  const fig = document.importNode(src, true);
  for (const a of fig.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    a.href = new URL(href, base).href;
    if (!href.startsWith('#')) { a.target = '_blank'; a.rel = 'noopener'; }
  }
  for (const img of fig.querySelectorAll('img[src]')) img.src = new URL(img.getAttribute('src'), base).href;
  // The widget is the page here: its title is the page's heading.
  const h3 = fig.querySelector('.widget-title');
  if (h3) {
    const h1 = document.createElement('h1');
    for (const a of h3.attributes) h1.setAttribute(a.name, a.value);
    h1.append(...h3.childNodes);
    h3.replaceWith(h1);
  }
  return fig;
}

let uid = 0;

async function start() {
  const { slug, id, params, view, notes } = readEmbed(location.hash);
  applyTheme(view.theme);
  document.body.classList.toggle('embed-no-caption', !view.caption);
  document.body.classList.toggle('embed-no-table', !view.table);
  watchSize();
  if (!slug || !id) {
    showNotes(notes);
    main.removeAttribute('aria-busy');
    main.querySelector('.embed-loading').textContent = 'This link names no widget.';
    return;
  }
  const { url, doc } = await widgetPage(slug, id);
  const pristine = takeFigure(doc, id, url);
  if (!pristine) throw new Error(`The lesson “${slug}” has no widget “${id}”.`);
  const index = JSON.parse(doc.getElementById('site-index').textContent);
  const bridge = engineClient(index);
  watchEngine(bridge);
  // The engines the widget's opening state called, by the build's
  // recording (core if it has none), start loading now, and only those:
  // the page loads no module its widget does not use.
  const engines = new Set([...(recording(pristine)?.keys() ?? [])].map((k) => k.slice(0, k.indexOf('.'))).filter((m) => index.wasm[m]));
  if (!engines.size) engines.add('core');
  Promise.all([...engines].map((m) => bridge.load(m))).then(() => {
    document.body.classList.add('engine-ready');
    performance.mark('dpplay-engine-ready');
  }, () => document.body.classList.add('engine-failed'));
  const mod = await import(`../widgets/${pristine.dataset.widget}.js`);
  const schema = mod.schema || {};
  document.title = `${pristine.querySelector('.widget-title')?.textContent || 'Widget'} — dpplay`;

  // The link's settings, keyed by the widget as on the lesson's page, and
  // the widget mounted from them; a parent's dpplay:set mounts it again on a
  // fresh copy of the figure with the new values.
  const linked = new Map([...params].map(([k, v]) => [`${id}.${k}`, v]));
  let w = null;
  let fig = null;
  const mountFrom = async (values, said) => {
    w?.controller?.destroy?.();
    const next = pristine.cloneNode(true);
    next.tabIndex = -1;
    const body = next.querySelector('.widget-body');
    // The build's drawing shows the opening state: it stands until the
    // live widget replaces it, when the link asks for just that state.
    const drawing = !fig && 'prerendered' in body.dataset ? [...body.childNodes] : null;
    if (fig) fig.replaceWith(next); else main.querySelector('.embed-loading').replaceWith(next);
    fig = next;
    const focused = fig.contains(document.activeElement) ? document.activeElement : null;
    w = await mountWidget(fig, mod, {
      params: values, notes: said, bridge: replaying(tracked(bridge, fig), recording(fig)), uid: () => ++uid, onSet: changed,
    });
    if (drawing) handOver(drawing, fig.querySelector('.widget-body'), focused, []);
    if (view.table) import('../page/tablecsv.js').then((m) => { if (fig === next) m.attachTableCSV(next); }).catch(() => {});
    main.removeAttribute('aria-busy');
    showNotes(said);
    changed();
  };

  // The address follows the widget (a reload keeps its state), and so do
  // the "Open in dpplay" link and the parent's dpplay:state.
  let timer = 0;
  function changed() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const values = {};
      for (const [key, spec] of Object.entries(schema)) {
        const v = encode(spec, w.values[key]);
        if (v === null) continue;
        values[key] = v;
        linked.set(`${id}.${key}`, v);
      }
      history.replaceState(null, '', new URL(embedAddress(root, slug, id, values, { ...w.fixed, ...view })).hash);
      open.href = lessonAddress(root, slug, id, values, w.fixed);
      post({ type: 'dpplay:state', widget: id, params: values });
    }, 120);
  }
  await mountFrom(linked, notes);
  document.body.dataset.embedReady = id;
  performance.mark('dpplay-interactive');

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || !fig?.contains(e.target) || typing(e.target)) return;
    if (w) widgetKey(e, { fig, controller: w.controller }, document.body.classList.contains('embed-presenting'));
  });
  // A click in the widget gives it focus, so that its keys act on it.
  main.addEventListener('pointerdown', (e) => { if (fig && !fig.contains(document.activeElement) && !e.target.closest('a, button, input, select, textarea, summary, label')) fig.focus({ preventScroll: true }); });

  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || window.parent === window || !w) return;
    const m = readMessage(e.data, schema);
    if (!m) return;
    if ('present' in m) {
      document.body.classList.toggle('embed-presenting', m.present);
      return;
    }
    // What the parent sets is read as a link's value is, with the same
    // notes; a key the link fixed keeps its value, with a note.
    const said = [];
    const next = new Map(linked);
    const title = fig.querySelector('.widget-title')?.textContent || id;
    for (const [k, v] of m.set) {
      if (w.fixed.hide.includes(k) || w.fixed.lock.includes(k)) {
        said.push(`${title}: ${schema[k].label || k} is fixed by the link, so it was not changed.`);
        continue;
      }
      const spec = schema[k];
      const notes = [];
      coerce({ ...spec, label: `${title}: ${spec.label || k}` }, v, k, notes);
      said.push(...notes);
      next.set(`${id}.${k}`, v);
    }
    for (const f of ['hide', 'lock']) {
      if (w.fixed[f].length) next.set(`${id}.${f}`, w.fixed[f].join(','));
    }
    // mount coerces the values again and would say the same: its notes are dropped.
    mountFrom(next, []).then(() => showNotes(said)).catch(reportError);
  });
}

/** watchSize tells the parent the page's height whenever it changes, so that the frame can fit it and never scroll inside. */
function watchSize() {
  let last = 0;
  const report = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      post({ type: 'dpplay:resize', height });
    }
  };
  new ResizeObserver(report).observe(document.body);
  report();
}

open.href = root.href;
start().catch((err) => {
  main.removeAttribute('aria-busy');
  reportError(err);
  main.querySelector('.embed-loading')?.remove();
});
