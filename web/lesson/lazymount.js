// Mounting a lesson's widgets when the reader needs them.
//
// Mounting a lesson's widgets when the reader needs them. Those on or near
// the screen, and those the link changes, mount at once (from the build's
// recording of their engine calls, before the engine is ready); every other
// widget keeps its pre-rendered drawing until it comes near the screen, the
// reader first presses a key, or one of its controls is focused or used,
// and then mounts. The drawing's controls are real ones, in the
// accessibility tree from the first paint; what the reader did to them is
// handed over to the live widget (prerendered.js handOver).
import { mountWidget as mount, linkChanges } from '../page/mount.js';
import { schemas } from '../gen/widgets.js';
import { recorded, recording, replaying, handOver } from '../page/prerendered.js';
import { $, bridge, state, pickActive } from './current.js';
import { scheduleWrite, writeURL } from './urlsync.js';
import { reportError } from '../page/urlnotes.js';
import { tracked, start, stop } from '../page/pending.js';
import { yieldTask } from '../base/tasks.js';

let uidCount = 0;
let near = null; // the IntersectionObserver of the lesson on screen
let rest = null; // mounts the lesson's remaining widgets, once
let shown = null; // {params, call} of the lesson on screen
const pressed = new WeakMap(); // figure → the drawing's buttons pressed before its mount

// A pre-rendered widget mounts as soon as the reader reaches for it: a
// pointer over it, focus in it (Tab, or a screen reader moving focus), a key,
// a click or a changed value; the buttons pressed meanwhile are kept, to be
// pressed again on the live widget.
for (const type of ['pointerover', 'pointerdown', 'focusin', 'keydown', 'click', 'input', 'change']) {
  document.addEventListener(type, (e) => {
    const fig = e.target.closest?.('#lesson figure.widget');
    if (!fig || !shown || !fig.querySelector(':scope > [data-prerendered]')) return;
    const w = state.widgets.find((x) => x.fig === fig);
    if (!w) return;
    const b = e.type === 'click' && e.target.closest('button');
    if (b && fig.contains(b)) pressed.set(fig, (pressed.get(fig) || []).concat(b));
    const mounting = mountSlot(w, shown.params, shown.call);
    if (e.type === 'pointerover') return;
    start(fig, true);
    mounting.finally(() => stop(fig, true));
  }, { capture: true, passive: true });
}

/**
 * mountNear(slots, params, call) mounts the widgets that are on or near the
 * screen, those the link sets to other than their opening values and those
 * above the screen's bottom without a pre-rendered drawing (such a widget
 * changes height when it mounts; below the reader, that moves nothing they
 * see), and resolves when they are mounted. Every
 * other widget keeps its pre-rendered drawing (inert, and the same picture)
 * until it comes within a screen of the viewport, or until the reader first
 * presses a key (Tab would skip an inert widget; mountRest), after which the
 * rest mount one per idle period. Mounting builds and lays out a widget's live controls
 * and charts, which is most of the main thread's work in opening a lesson.
 * A hidden page mounts every widget at once: the observer reports nothing
 * until the page is shown.
 */
export async function mountNear(slots, params, call) {
  shown = { params, call };
  // A click anywhere in a widget focuses it, so that its keys act on it
  // (keys.js), and n and p can move focus to it.
  for (const w of slots) if (!w.fig.hasAttribute('tabindex')) w.fig.tabIndex = -1;
  const now = (w) => document.hidden || (!recorded(w.fig) && w.fig.getBoundingClientRect().top < innerHeight) ||
    linkChanges(w.fig, schemas[w.fig.dataset.widget] || {}, params);
  const bySlot = new Map(slots.map((w) => [w.fig, w]));
  let first;
  const seen = new Promise((resolve) => { first = resolve; });
  const observer = near = new IntersectionObserver((entries) => {
    const started = [];
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      observer.unobserve(e.target);
      started.push(mountSlot(bySlot.get(e.target), params, call));
    }
    first(started);
  }, { rootMargin: '100% 0px' });
  const eager = [];
  for (const w of slots) {
    if (now(w)) eager.push(mountSlot(w, params, call));
    else observer.observe(w.fig);
  }
  rest = () => {
    rest = null;
    const next = () => {
      const w = slots.find((x) => !x.mounting);
      if (w && call === state.shown) mountSlot(w, params, call).finally(() => whenIdle(next));
    };
    whenIdle(next);
  };
  // The observer's first report says which widgets are near the screen.
  const visible = eager.length === slots.length ? [] : await seen;
  await Promise.all(eager.concat(visible));
}

/** mountRest starts mounting the lesson's remaining widgets, one per idle period (the reader pressed a key). */
export function mountRest() {
  rest?.();
}

/** stopMounting stops watching the lesson's widgets and forgets the rest (the page shows another). */
export function stopMounting() {
  near?.disconnect();
  rest = null;
  shown = null;
}

const whenIdle = (f) => (window.requestIdleCallback ? requestIdleCallback(f, { timeout: 1000 }) : setTimeout(f, 50));

/** mountSlot(w, params, call) mounts slot w's widget once, and fills the slot. */
function mountSlot(w, params, call) {
  near?.unobserve(w.fig);
  w.mounting ||= mountWidget(w.fig, params).then((m) => {
    if (call !== state.shown) return m?.controller?.destroy?.();
    if (m) Object.assign(w, m);
    pickActive();
    // The URL holds every mounted widget's state, which an exported figure
    // reads; write it before the widget's Export button appears.
    if (!state.loading) writeURL();
  }).catch(reportError);
  return w.mounting;
}

/** mountWidget(fig, params) loads figure fig's widget module and mounts it, with its Export and CSV buttons. */
async function mountWidget(fig, params) {
  const name = fig.dataset.widget;
  const body = $('.widget-body', fig);
  let mod;
  try {
    mod = await import(`../widgets/${name}.js`);
  } catch (err) {
    body.textContent = `This widget could not be loaded (${err.message}).`;
    body.removeAttribute('aria-busy');
    body.removeAttribute('inert');
    return null;
  }
  // Each widget mounts in a task of its own (yieldTask). The build's
  // recording of the opening state's engine calls answers them
  // now, so the widget paints before the engine is ready (prerendered.js);
  // the others show the widget as pending while they run (pending.js).
  // mount replaces the drawing at once: keep its nodes and focus first.
  await yieldTask();
  const drawing = 'prerendered' in body.dataset ? [...body.childNodes] : null;
  const focused = drawing && body.contains(document.activeElement) ? document.activeElement : null;
  const w = await mount(fig, mod, {
    params, notes: state.notes, bridge: replaying(tracked(bridge, fig), recording(fig)), uid: () => ++uidCount, onSet: scheduleWrite,
  });
  if (drawing) handOver(drawing, body, focused, pressed.get(fig));
  // "Export figure" renders the same state with the Go figures package; its
  // module (and the several-MB wasm behind it) loads only when asked. The
  // site build lists the widget's figures in data-figures. Beside it,
  // "Download table (CSV)" for the widget's data tables, and "Embed or
  // share" (embedbutton.js). The build drew this row too; the live one
  // takes its place in one task.
  Promise.all([fig.dataset.figures && import('../page/export.js'), import('../page/tablecsv.js'), import('./embedbutton.js')]).then(([ex, csv, emb]) => {
    const old = fig.querySelector(':scope > .export-figure[data-prerendered]');
    const focused = old?.contains(document.activeElement) ? document.activeElement : null;
    old?.remove();
    ex?.attachExport(fig);
    const row = csv.attachTableCSV(fig).parentNode;
    emb.attachEmbed(fig);
    if (old) handOver([old], row, focused, pressed.get(fig));
    pressed.delete(fig);
  }).catch(() => {});
  const slot = () => state.widgets.find((x) => x.fig === fig);
  const pick = () => { state.active = slot() || state.active; state.picked = true; };
  fig.addEventListener('focusin', pick);
  fig.addEventListener('pointerdown', pick);
  return w;
}
