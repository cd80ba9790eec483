// The playground's shell: lesson navigation, widget mounting, URL state,
// presentation mode, keyboard shortcuts, predict-then-reveal questions,
// checked exercises and offline support.
//
// A widget is an ES module web/widgets/NAME.js that exports
//   schema: {key: {type, min, max, default, label, …}}   (see state.js: coerce)
//   mount(ctx) → controller {draw(), reset(), step(±1)} (all optional)
//   checks: {name({value, params, bridge}) → {ok, message}} (optional, for ```exercise check: NAME.name)
// ctx.title is the widget's title from the lesson; use it in chart names so
// two widgets of one kind on a page stay distinguishable to screen readers.
// ctx gives the widget its validated values (ctx.values), ctx.set(key, value)
// to change one (the URL follows), ctx.bridge.call(module, fn, args) to run Go
// core functions in the worker, ctx.body to render into, ctx.uid(name) for
// unique ids, and ctx.announce(text) for screen readers.
import { getBridge } from './core.js';
import { parseHash, formatHash, encode } from './state.js';
import { mountWidget as mount, linkChanges } from './mount.js';
import { schemas } from './gen/widgets.js';
import { recorded, recording, replaying } from './prerendered.js';
import { savePrediction, saveExercise, saveLast } from './progress.js';
import { markProgress, decorateLanding, restoreLesson, setupTheme, setupShare, setupScrollMemory, restoreScroll, setupSearch } from './site.js';

const index = JSON.parse(document.getElementById('site-index').textContent);
const bridge = getBridge(index);
const lessonsBySlug = new Map(index.lessons.concat(index.pages || []).map((l) => [l.slug, l]));
const $ = (sel, root = document) => root.querySelector(sel);

// ---- Engine loading indicator -------------------------------------------
const progress = $('#engine-progress');
const engineStatus = $('#engine-status');
bridge.onStatus((msg) => {
  if (msg.type === 'progress' && msg.total) {
    progress.value = Math.min(100, Math.round((100 * msg.loaded) / msg.total));
    engineStatus.textContent = `Loading the engine… ${progress.value}%`;
  } else if (msg.type === 'ready') {
    progress.value = 100;
    performance.mark('dpplay-engine-ready', { detail: msg.timing });
    document.body.classList.add('engine-ready');
    engineStatus.textContent = 'Engine ready: the controls are live';
    markLive();
  } else if (msg.type === 'failed') {
    document.body.classList.add('engine-failed');
    engineStatus.textContent = `The engine could not start: ${msg.message}`;
  }
});
bridge.load('core');

// ---- Lessons and widgets --------------------------------------------------
const state = { slug: '', widgets: [], active: null, notes: [], writeTimer: 0, shown: 0, hash: '', section: '', loading: false, near: null, rest: null, picked: false };
let uidCount = 0;

// Lesson articles as first rendered, so that showing a lesson again (a new
// hash for the same lesson) mounts its widgets on fresh markup rather than on
// the previous mount's.
const articles = new Map();
// The page's head fetches the lesson its link names and shows it as soon as
// it arrives (index.html), keeping the landing page's HTML; the first
// showLesson for that lesson takes it over.
let early = window.dpplayEarlyLesson || null;
{
  // The root's article is the landing page, kept under the slug ''. The head
  // may be putting the early lesson in its place, block by block.
  const inline = $('#lesson article.lesson');
  if (inline && inline.dataset.slug !== early?.slug) articles.set(inline.dataset.slug, inline.outerHTML);
  if (early?.landing) articles.set('', early.landing);
}

async function lessonHTML(slug) {
  if (early && early.slug === slug && !articles.has(slug)) {
    const html = await early.html;
    if (html !== null && !articles.has(slug)) articles.set(slug, html);
  }
  if (!articles.has(slug)) {
    const res = await fetch(`lessons/${slug}.html`);
    if (!res.ok) throw new Error(`lessons/${slug}.html: HTTP ${res.status}`);
    articles.set(slug, await res.text());
  }
  return articles.get(slug);
}

/** dropEarly stops the head's early lesson, if still going: the page shows something else or has taken it over. */
function dropEarly() {
  if (early) early.taken = true;
  early = null;
}

async function showLesson(hash, focus) {
  // A newer call (the hash changed again while this one waited) wins: this
  // one stops at its next await rather than overwrite the newer lesson.
  const call = ++state.shown;
  state.near?.disconnect();
  state.rest = null;
  state.hash = location.hash;
  state.loading = true;
  let { slug, params, notes } = parseHash(hash);
  state.notes = notes;
  // The root (no hash, or "#/") is the landing page; it keeps the address
  // as it is.
  if (!slug && !notes.length && !params.size && articles.has('')) return showHome(call, focus);
  if (!lessonsBySlug.has(slug)) {
    if (slug) state.notes.push(`There is no lesson called “${slug}”, so the first lesson is shown.`);
    slug = index.lessons[0].slug;
    params = new Map();
  }
  const html = await lessonHTML(slug);
  if (call !== state.shown) return;
  const shown = early?.slug === slug && await early.shown;
  if (call !== state.shown) return;
  dropEarly();
  if (!shown) $('#lesson').innerHTML = html;
  document.documentElement.classList.remove('lesson-route');
  for (const w of state.widgets) w.controller?.destroy?.();
  state.slug = slug;
  state.widgets = [];
  state.active = null;
  const lesson = lessonsBySlug.get(slug);
  document.title = `${lesson.title} — dpplay`;
  for (const a of document.querySelectorAll('#lesson-nav a')) {
    if (a.dataset.slug === slug) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  renderPager(slug);
  wirePredictions();
  wireExercises();
  restoreLesson(slug, reveal);
  markProgress(index);
  // One slot per widget, in reading order, so that "active", n and p do not
  // depend on which mount finished first; a slot gets its schema, values and
  // controller when its widget mounts.
  state.widgets = [...document.querySelectorAll('#lesson figure.widget')]
    .map((fig) => ({ id: fig.dataset.id, fig, schema: {}, values: {}, controller: null, mounting: null }));
  keepAbove.disconnect();
  for (const w of state.widgets) keepAbove.observe(w.fig);
  state.picked = false;
  // Scrolled where the reader will be before choosing the widgets near the
  // screen; again after, as a widget without a pre-rendered drawing changes
  // height when it mounts.
  placeScroll(focus);
  await mountNear(state.widgets, params, call);
  if (call !== state.shown) return;
  pickActive();
  showNotes();
  writeURL();
  if (focus) $('#lesson-title')?.focus?.({ preventScroll: true });
  placeScroll(focus);
  state.section = '';
  state.loading = false;
  document.body.dataset.lessonReady = slug;
  if (document.body.classList.contains('presenting')) setPresenting(true);
  if (!performance.getEntriesByName('dpplay-interactive').length) performance.mark('dpplay-interactive');
  markLive();
}

/** placeScroll(focus) scrolls to where the reader left the lesson, else to the section the link names, else (focus: a new lesson) to the top. */
function placeScroll(focus) {
  if (restoreScroll()) return;
  const target = state.section && document.getElementById(state.section);
  if (target) target.scrollIntoView({ block: 'start' });
  else if (focus) scrollTo(0, 0);
}

// The first moment the lesson's controls answer: the widgets on or near the
// screen are mounted (from the build's recording, before the engine) and the
// engine is ready.
function markLive() {
  if (document.body.classList.contains('engine-ready') && document.body.dataset.lessonReady &&
    !performance.getEntriesByName('dpplay-live').length) performance.mark('dpplay-live');
}

function showHome(call, focus) {
  clearTimeout(state.writeTimer);
  for (const w of state.widgets) w.controller?.destroy?.();
  grown.disconnect();
  keepAbove.disconnect();
  state.slug = '';
  state.widgets = [];
  state.active = null;
  dropEarly();
  $('#lesson').innerHTML = articles.get('');
  document.documentElement.classList.remove('lesson-route');
  document.title = 'dpplay — a differential privacy playground';
  for (const a of document.querySelectorAll('#lesson-nav a')) a.removeAttribute('aria-current');
  $('.pager').replaceChildren();
  $('#url-notes').hidden = true;
  decorateLanding($('#lesson'), index);
  markProgress(index);
  if (focus) $('#lesson-title')?.focus?.({ preventScroll: true });
  if (!restoreScroll()) scrollTo(0, 0);
  state.loading = false;
  document.body.dataset.lessonReady = 'home';
  if (!performance.getEntriesByName('dpplay-interactive').length) performance.mark('dpplay-interactive');
}

/**
 * mountNear(slots, params, call) mounts the widgets that are on or near the
 * screen, those the link sets to other than their opening values and those
 * above the screen's bottom without a pre-rendered drawing (such a widget
 * changes height when it mounts; below the reader, that moves nothing they
 * see), and resolves when they are mounted. Every
 * other widget keeps its pre-rendered drawing (inert, and the same picture)
 * until it comes within a screen of the viewport, or until the reader first
 * presses a key (Tab would skip an inert widget), after which the rest mount
 * one per idle period. Mounting builds and lays out a widget's live controls
 * and charts, which is most of the main thread's work in opening a lesson.
 * A hidden page mounts every widget at once: the observer reports nothing
 * until the page is shown.
 */
async function mountNear(slots, params, call) {
  const now = (w) => document.hidden || (!recorded(w.fig) && w.fig.getBoundingClientRect().top < innerHeight) ||
    linkChanges(w.fig, schemas[w.fig.dataset.widget] || {}, params);
  const bySlot = new Map(slots.map((w) => [w.fig, w]));
  let first;
  const seen = new Promise((resolve) => { first = resolve; });
  const near = state.near = new IntersectionObserver((entries) => {
    const started = [];
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      started.push(mountSlot(bySlot.get(e.target), params, call));
    }
    first(started);
  }, { rootMargin: '100% 0px' });
  const eager = [];
  for (const w of slots) {
    if (now(w)) eager.push(mountSlot(w, params, call));
    else near.observe(w.fig);
  }
  state.rest = () => {
    state.rest = null;
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

const whenIdle = (f) => (window.requestIdleCallback ? requestIdleCallback(f, { timeout: 1000 }) : setTimeout(f, 50));
document.addEventListener('keydown', () => state.rest?.(), { capture: true });

/** mountSlot(w, params, call) mounts slot w's widget once, and fills the slot. */
function mountSlot(w, params, call) {
  state.near?.unobserve(w.fig);
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

// A browser that does not anchor the scroll (Safari) would move what the
// reader is reading when a widget above them changes height (it mounts, or
// draws a longer result): scroll by as much. Where the browser anchors, it
// has done so already.
const heights = new WeakMap();
const anchors = () => [document.documentElement, document.body].every((e) => getComputedStyle(e).overflowAnchor === 'auto');
const keepAbove = new ResizeObserver((entries) => {
  let by = 0;
  for (const { target } of entries) {
    const h = target.offsetHeight, before = heights.get(target);
    heights.set(target, h);
    if (before !== undefined && h !== before && target.getBoundingClientRect().bottom - (h - before) <= 0) by += h - before;
  }
  if (by && !anchors()) scrollBy(0, by);
});

/**
 * pickActive makes the first widget with a draw action the one the keys
 * act on, until the reader picks one (focus, a click, n or p).
 */
function pickActive() {
  if (!state.picked) state.active = state.widgets.find((w) => w.controller?.draw) || state.widgets[0] || null;
}

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

function scheduleWrite() {
  clearTimeout(state.writeTimer);
  state.writeTimer = setTimeout(writeURL, 120);
}

function writeURL() {
  // A hash set since the one shown or written (a link, the user) waits for
  // its hashchange: writing now would replace it with the old lesson's.
  if (location.hash !== state.hash || !state.slug) return;
  const params = new Map();
  const linked = parseHash(location.hash).params;
  for (const w of state.widgets) {
    // A widget not mounted yet keeps what the link said of it.
    if (!w.controller) for (const [k, v] of linked) if (k.startsWith(`${w.id}.`)) params.set(k, v);
    for (const [key, spec] of Object.entries(w.schema)) {
      const v = encode(spec, w.values[key]);
      if (v !== null) params.set(`${w.id}.${key}`, v);
    }
  }
  const hash = formatHash(state.slug, params);
  if (location.hash !== hash) history.replaceState(history.state, '', hash);
  state.hash = location.hash;
  saveLast(state.slug, location.hash);
}

function showNotes() {
  const box = $('#url-notes');
  if (!state.notes.length) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const h = document.createElement('p');
  h.innerHTML = '<strong>This link asked for settings the page cannot show, so it adjusted them:</strong>';
  const ul = document.createElement('ul');
  for (const n of state.notes) {
    const li = document.createElement('li');
    li.textContent = n;
    ul.append(li);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'link-button';
  close.textContent = 'Dismiss';
  close.addEventListener('click', () => { box.hidden = true; });
  box.replaceChildren(h, ul, close);
}

function renderPager(slug) {
  const i = index.lessons.findIndex((l) => l.slug === slug);
  const pager = $('.pager');
  pager.replaceChildren();
  const link = (l, rel, text) => {
    const a = document.createElement('a');
    a.href = `#/${l.slug}`;
    a.rel = rel;
    a.className = `pager-${rel}`;
    a.innerHTML = `<span class="pager-dir">${text}</span><span class="pager-title"></span>`;
    a.lastChild.textContent = l.title;
    pager.append(a);
  };
  if (i > 0) link(index.lessons[i - 1], 'prev', '← Previous lesson');
  if (i >= 0 && i < index.lessons.length - 1) link(index.lessons[i + 1], 'next', 'Next lesson →');
}

// ---- Predict, then reveal -----------------------------------------------
function wirePredictions() {
  for (const sec of document.querySelectorAll('#lesson section.predict')) {
    $('.reveal-button', sec).addEventListener('click', () => {
      const chosen = reveal(sec);
      savePrediction(state.slug, sec.id, chosen ? Number(chosen.value) : -1);
      markProgress(index);
    });
  }
}

// reveal shows a prediction's answer and returns the choice made, if any.
function reveal(sec) {
  const button = $('.reveal-button', sec);
  const chosen = $('input[type=radio]:checked', sec);
  const verdict = $('.verdict', sec);
  for (const input of sec.querySelectorAll('input[type=radio]')) {
    input.closest('label').classList.toggle('is-correct', input.dataset.correct === 'true');
  }
  if (!chosen) verdict.textContent = 'You did not choose an answer; here is the explanation.';
  else if (chosen.dataset.correct === 'true') verdict.textContent = 'Your prediction was right.';
  else verdict.textContent = 'Not quite: the marked choice is the right one.';
  verdict.className = 'verdict ' + (chosen ? (chosen.dataset.correct === 'true' ? 'ok' : 'bad') : '');
  $('.reveal', sec).hidden = false;
  button.setAttribute('aria-expanded', 'true');
  button.disabled = true;
  return chosen;
}

// ---- Checked exercises ----------------------------------------------------
function parseNumber(s) {
  const t = String(s).trim().replace(/,/g, '').replace(/%$/, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return NaN;
  return Number(t) / (String(s).trim().endsWith('%') ? 100 : 1);
}

function wireExercises() {
  for (const sec of document.querySelectorAll('#lesson section.exercise')) {
    const params = JSON.parse(sec.dataset.params || '{}');
    const out = $('.exercise-result', sec);
    $('form', sec).addEventListener('submit', async (e) => {
      e.preventDefault();
      const value = parseNumber($('input', sec).value);
      let res;
      if (!Number.isFinite(value)) {
        res = { ok: false, message: 'Please enter a number, such as 0.5.' };
      } else if (params.check) {
        const [modName, fn] = String(params.check).split('.');
        try {
          const mod = await import(`./widgets/${modName}.js`);
          res = await mod.checks[fn]({ value, params, bridge });
        } catch (err) {
          res = { ok: false, message: `The check failed: ${err.message}` };
        }
      } else {
        const tol = Number(params.tolerance ?? 1e-9);
        const ok = Math.abs(value - Number(params.answer)) <= tol * Math.max(1, Math.abs(Number(params.answer)));
        res = { ok, message: ok ? (params.right || 'Correct.') : (params.wrong || 'Not yet: look again at the widget above.') };
      }
      out.textContent = (res.ok ? '✓ ' : '✗ ') + res.message;
      out.className = 'exercise-result ' + (res.ok ? 'ok' : 'bad');
      if (Number.isFinite(value)) {
        saveExercise(state.slug, sec.id, $('input', sec).value, res.ok, res.message);
        markProgress(index);
      }
    });
  }
}

// ---- Presentation mode and keyboard ----------------------------------------
const presentButton = $('#present-button');
const keysDialog = $('#keys-dialog');

// A widget can grow after it was fitted (a result with more rows, as the
// auditor's with more candidates; a widget mounts on its pre-rendered
// drawing), so the presented widget's parts are watched, and one that still
// does not fit a moment later (a progress bar comes and goes) is fitted again
// from the full size.
let regrow = 0;
const grown = new ResizeObserver(() => {
  clearTimeout(regrow);
  regrow = setTimeout(() => {
    const fig = document.querySelector('figure.widget.is-presented');
    if (fig?.dataset.fitted && fig.scrollHeight > fig.clientHeight + 1) {
      document.documentElement.style.removeProperty('font-size');
      fitToScreen(fig);
    }
  }, 250);
});

function setPresenting(on) {
  const w = state.active || state.widgets[0];
  document.body.classList.toggle('presenting', on);
  // Full screen too, where the browser allows it; leaving full screen (the
  // browser's own Esc) leaves presentation mode.
  if (on && document.fullscreenEnabled && !document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => {});
  if (!on && document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
  for (const f of document.querySelectorAll('figure.widget.is-presented')) f.classList.remove('is-presented');
  grown.disconnect();
  presentButton.setAttribute('aria-pressed', String(on));
  document.documentElement.style.removeProperty('font-size');
  if (on && w) {
    state.picked = true;
    w.fig.classList.add('is-presented');
    w.fig.scrollTop = 0;
    w.fig.setAttribute('tabindex', '-1');
    w.fig.focus({ preventScroll: true });
    fitToScreen(w.fig);
    for (const part of w.fig.children) grown.observe(part);
  } else if (w) {
    w.fig.scrollIntoView({ block: 'start' });
  }
}

/**
 * fitToScreen(fig) shrinks the page's root font size, and with it everything
 * sized in rem or em (text, controls, charts), until the presented widget fits
 * the screen without scrolling, or the root size reaches 10 px. Charts redraw at their new width
 * between steps, so it measures again after two frames.
 */
async function fitToScreen(fig) {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  delete fig.dataset.fitted;
  for (let i = 0; i < 12 && fig.classList.contains('is-presented'); i++) {
    await frame();
    const over = fig.scrollHeight / fig.clientHeight;
    const root = document.documentElement;
    const fs = parseFloat(getComputedStyle(root).fontSize);
    if (fig.scrollHeight <= fig.clientHeight || fs <= 10) break;
    root.style.fontSize = `${Math.max(10, fs * Math.max(0.8, 0.985 / Math.sqrt(over)))}px`;
  }
  fig.dataset.fitted = '1'; // the tests wait for it
}
window.addEventListener('resize', () => {
  const fig = document.querySelector('figure.widget.is-presented');
  if (fig) { document.documentElement.style.removeProperty('font-size'); fitToScreen(fig); }
});

function moveActive(dir) {
  if (!state.widgets.length) return;
  const i = Math.max(0, state.widgets.indexOf(state.active));
  state.active = state.widgets[(i + dir + state.widgets.length) % state.widgets.length];
  state.picked = true;
  if (document.body.classList.contains('presenting')) setPresenting(true);
  else state.active.fig.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
}

document.addEventListener('fullscreenchange', () => {
  if (!document.fullscreenElement && document.body.classList.contains('presenting')) setPresenting(false);
});

/** nudge(d) moves the active widget's first slider (its ε) d positions, as its arrow keys would. */
function nudge(d) {
  const input = state.active?.controller && state.active.fig.querySelector('.control-slider input[type=range]');
  if (!input) return false;
  const next = Math.min(Math.max(+input.value + d, 0), +input.max);
  if (next !== +input.value) {
    input.value = String(next);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return true;
}

/** goLesson(d) opens the lesson d places on in the navigation order. */
function goLesson(d) {
  const i = index.lessons.findIndex((l) => l.slug === state.slug);
  const l = index.lessons[i + d];
  if (l) location.hash = `#/${l.slug}`;
}

presentButton.addEventListener('click', () => setPresenting(!document.body.classList.contains('presenting')));
$('#keys-button').addEventListener('click', () => keysDialog.showModal());

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || keysDialog.open) return;
  const t = e.target;
  const typing = t.closest?.('input:not([type=range]):not([type=radio]):not([type=checkbox]), textarea, select, [contenteditable=""], [contenteditable=true]');
  if (typing) return;
  if (e.key === '?') { e.preventDefault(); keysDialog.showModal(); return; }
  if (e.key === 'Escape' && document.body.classList.contains('presenting')) { setPresenting(false); return; }
  if (e.key === 'Escape' && document.body.classList.contains('nav-open')) { navToggle.click(); navToggle.focus(); return; }
  const onControl = t.closest?.('button, a, summary, input, [role=button]');
  // A focusable region (a data table, a readout) scrolls with the arrow keys
  // and Space; leave those keys to it.
  const inRegion = t.closest?.('[role=region], .table-wrap');
  const c = state.active?.controller;
  switch (e.key) {
    case 'f': e.preventDefault(); setPresenting(!document.body.classList.contains('presenting')); break;
    case ' ':
      if (onControl || inRegion || !c?.draw) return;
      e.preventDefault(); c.draw(); break;
    case 'r': if (c?.reset) { e.preventDefault(); c.reset(); } break;
    case 'n': e.preventDefault(); moveActive(1); break;
    case ']': e.preventDefault(); goLesson(1); break;
    case '[': e.preventDefault(); goLesson(-1); break;
    case '+': case '=': case '-':
      if (nudge(e.key === '-' ? -1 : 1)) e.preventDefault();
      break;
    case 'ArrowUp': case 'ArrowDown':
      if (!document.body.classList.contains('presenting') || onControl || inRegion) return;
      if (nudge(e.key === 'ArrowUp' ? 1 : -1)) e.preventDefault();
      break;
    case 'p': e.preventDefault(); moveActive(-1); break;
    case 'ArrowRight': case 'ArrowLeft':
      if (t.matches?.('input[type=range], input[type=radio]') || inRegion || !c?.step) return;
      e.preventDefault(); c.step(e.key === 'ArrowRight' ? 1 : -1); break;
  }
});

// ---- Navigation -----------------------------------------------------------
const navToggle = $('.nav-toggle');
navToggle.addEventListener('click', () => {
  const open = navToggle.getAttribute('aria-expanded') !== 'true';
  navToggle.setAttribute('aria-expanded', String(open));
  document.body.classList.toggle('nav-open', open);
});
$('#lesson-nav').addEventListener('click', (e) => {
  if (e.target.closest('a')) { navToggle.setAttribute('aria-expanded', 'false'); document.body.classList.remove('nav-open'); }
});
window.addEventListener('hashchange', () => {
  // Our own replaceState never fires hashchange: this is a link or the user.
  // parseHash never throws, whatever the hash holds.
  const { slug } = parseHash(location.hash);
  showLesson(location.hash, slug !== state.slug).catch(reportError);
});
setupTheme($('#theme-button'));
setupShare($('#share-button'), $('#share-status'));
setupScrollMemory(() => !state.loading);
setupSearch($('#search'), index, (slug, section) => {
  state.section = section || '';
  const target = `#/${slug}`;
  if (slug === state.slug) {
    const t = section && document.getElementById(section);
    if (t) t.scrollIntoView({ block: 'start' }); else scrollTo(0, 0);
  } else location.hash = target;
  navToggle.setAttribute('aria-expanded', 'false');
  document.body.classList.remove('nav-open');
});

function reportError(err) {
  document.documentElement.classList.remove('lesson-route');
  const box = $('#url-notes');
  box.hidden = false;
  box.textContent = `Something went wrong: ${err.message}`;
}

showLesson(location.hash, false).catch(reportError);

// Register the service worker after the first load, so precaching the site
// for offline use never competes with the first lesson's download.
if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  const register = () => import('./offline.js').then((m) => m.register()).catch(() => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
