// Mounting a lesson's widgets when the reader needs them. Those on or near
// the screen, and those the link changes, mount at once (from the build's
// recording of their engine calls, before the engine is ready); every other
// widget keeps its pre-rendered drawing until it comes near the screen or
// the reader first presses a key, and then mounts in an idle period.
import { mountWidget as mount, linkChanges } from './mount.js';
import { schemas } from './gen/widgets.js';
import { recorded, recording, replaying } from './prerendered.js';
import { $, bridge, state, pickActive } from './current.js';
import { scheduleWrite, writeURL } from './urlsync.js';
import { reportError } from './urlnotes.js';

let uidCount = 0;
let near = null; // the IntersectionObserver of the lesson on screen
let rest = null; // mounts the lesson's remaining widgets, once

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
    mod = await import(`./widgets/${name}.js`);
  } catch (err) {
    body.textContent = `This widget could not be loaded (${err.message}).`;
    body.removeAttribute('aria-busy');
    body.removeAttribute('inert');
    return null;
  }
  // The build's recording of the opening state's engine calls answers them
  // now, so the widget paints before the engine is ready (prerendered.js).
  const w = await mount(fig, mod, {
    params, notes: state.notes, bridge: replaying(bridge, recording(fig)), uid: () => ++uidCount, onSet: scheduleWrite,
  });
  // "Export figure" renders the same state with the Go figures package; its
  // module (and the several-MB wasm behind it) loads only when asked. The
  // site build lists the widget's figures in data-figures.
  const exported = fig.dataset.figures ? import('./export.js').then((m) => m.attachExport(fig)) : Promise.resolve();
  // Beside it, "Download table (CSV)" for the widget's data tables.
  exported.catch(() => {}).then(() => import('./tablecsv.js')).then((m) => m.attachTableCSV(fig)).catch(() => {});
  const slot = () => state.widgets.find((x) => x.fig === fig);
  const pick = () => { state.active = slot() || state.active; state.picked = true; };
  fig.addEventListener('focusin', pick);
  fig.addEventListener('pointerdown', pick);
  return w;
}
