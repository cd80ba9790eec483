// Small builders for labelled, keyboard-reachable controls shared by widgets.
import { escapeHTML } from '../base/dom.js';
import { fmtInt, niceStep } from '../base/format.js';
import { coerce, encode } from '../state/values.js';
import { readLink, readTyped } from '../base/number.js';
import { opening } from '../state/values.js';

// The real deployments the ε sliders mark come from the site's generated
// module (Go writes it from app/deployments). Node, which runs this file's
// unit tests from web/ where no generated module is, draws no marks; in a
// browser a missing module is an error, as for every widget.
const { deployments = [] } = await import('../gen/widgets.js').catch((err) => {
  if (typeof process === 'undefined') throw err;
  return {};
});

/**
 * logSlider is a slider over [min, max] whose positions are the round values
 * of roundGrid (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8 times a power of ten), so
 * 0.05, 0.5, 3 and 5 are each one position and 0.01 to 1 is 22 key presses.
 */
export const logSlider = (opts) => slider(opts, roundGrid(opts.min, opts.max), Math.log);

/**
 * linearSlider is a slider over [min, max] in equal steps of opts.step (by
 * default the 1-2-5 step that gives at most 200 positions).
 */
export const linearSlider = (opts) => slider(opts, linearGrid(opts.min, opts.max, opts.step), (x) => x);

/** PHONE matches the narrow layout of styles.css (max-width: 40rem). */
export const PHONE = matchMedia('(max-width: 40rem)');

const MANTISSAS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8];
const round6 = (x) => +x.toPrecision(6);

/** roundGrid(min, max) is min, the round values m·10^k (m in MANTISSAS) strictly between, and max. */
export function roundGrid(min, max) {
  const grid = [min];
  for (let k = Math.floor(Math.log10(min)); k <= Math.ceil(Math.log10(max)); k++) {
    for (const m of MANTISSAS) {
      const v = round6(m * 10 ** k);
      if (v > min && v < max) grid.push(v);
    }
  }
  grid.push(max);
  return grid;
}

/** linearGrid(min, max, step) is min, min + step, … up to max (max included). */
export function linearGrid(min, max, step) {
  if (!(step > 0)) step = niceStep((max - min) / 200, [1, 2, 5]);
  const grid = [];
  for (let i = 0; min + i * step < max - step * 1e-9; i++) grid.push(round6(min + i * step));
  grid.push(max);
  return grid;
}

/** nearest(grid, v, f) is the index of the grid value closest to v after the map f. */
function nearest(grid, v, f) {
  let best = 0;
  for (let i = 1; i < grid.length; i++) if (Math.abs(f(grid[i]) - f(v)) < Math.abs(f(grid[best]) - f(v))) best = i;
  return best;
}

/**
 * readBox(text, spec, label) reads what a person typed into the number box of
 * schema entry spec ({type: 'number' or 'int', min, max, digits}) with the
 * one rule for typed numbers (number.js readTyped: a lone comma is a decimal
 * point, fractions, e, π, …), then as the page reads a link's value (state/values.js
 * coerce: a whole number for an int, clamped to [min, max] with the page's
 * note, kept to the link's digits). It returns {ok: true, value, note} or
 * {ok: false, message}; note says how the text was read when that was not
 * literal ("Read as 0.5. A comma is read as a decimal point.") and what was
 * changed to fit.
 */
export function readBox(text, spec, label) {
  const r = readTyped(text);
  if (!r.ok) return { ok: false, message: r.message };
  const notes = [];
  if (readLink(text) !== r.value) notes.push(`Read as ${r.read}.${r.note ? ` ${r.note}` : ''}`);
  if (spec.type === 'int' && !Number.isInteger(r.value)) notes.push(`${label}: a whole number, so ${Math.round(r.value)}.`);
  const value = coerce(spec, String(spec.type === 'int' ? Math.round(r.value) : r.value), label, notes);
  return { ok: true, value, note: notes.join(' ') };
}

/** shownBox(v, spec) is a value as its box shows it: at most 6 significant digits, or the spec's fewer. */
const shownBox = (v, spec) => String(+v.toPrecision(Math.min(spec.digits || 6, 6)));

/** EPS_KEYS are the schema keys whose slider is an ε: those get the marks of real deployments. */
const EPS_KEYS = ['eps', 'ea'];

/** LESSON_SECTION is the section of the lesson on ε that says how to read the marks. */
const LESSON_SECTION = new URL('../what-epsilon-promises/#where-real-deployments-sit', import.meta.url).href;

/**
 * position(grid, x, f) is where x lies along a slider over grid, from 0 (the
 * first position) to 1 (the last): its index, interpolated in f between the
 * two positions around it. x must lie in [grid[0], grid[last]].
 */
export function position(grid, x, f) {
  let i = 0;
  while (i < grid.length - 2 && grid[i + 1] < x) i++;
  const t = grid[i + 1] === grid[i] ? 0 : (f(x) - f(grid[i])) / (f(grid[i + 1]) - f(grid[i]));
  return (i + Math.min(Math.max(t, 0), 1)) / (grid.length - 1);
}

/**
 * deploymentMarks(id, grid, f) marks, along an ε slider over grid, the real
 * deployments (gen/widgets.js deployments, from app/deployments) whose
 * stated ε lies in its range: a tick under the track for each, drawn by kind
 * (ε only, (ε, δ), ρ placed at the ε of its row's (ε, δ)), hidden from
 * assistive technology, and a "Real deployments" disclosure that names them
 * (each name a link to its source), says how many lie beyond the range and
 * points to the lesson that says why they are not comparable. The range
 * input is described by a sentence that counts the ticks; its value is
 * untouched. Every text comes from the data with textContent.
 * Returns {ticks, list, description}.
 */
function deploymentMarks(id, grid, f) {
  const lo = grid[0], hi = grid[grid.length - 1];
  const shown = deployments.filter((d) => d.epsilon !== null && d.epsilon >= lo && d.epsilon <= hi)
    .sort((a, b) => a.epsilon - b.epsilon);
  const above = deployments.filter((d) => d.epsilon !== null && d.epsilon > hi).length;
  const below = deployments.filter((d) => d.epsilon !== null && d.epsilon < lo).length;
  const glyph = (kind) => {
    const g = document.createElement('span');
    g.className = `deployment-mark mark-${kind}`;
    g.setAttribute('aria-hidden', 'true');
    return g;
  };

  const ticks = document.createElement('div');
  ticks.className = 'slider-marks';
  ticks.setAttribute('aria-hidden', 'true');
  for (const d of shown) {
    const t = glyph(d.kind);
    t.dataset.deployment = d.id;
    t.style.left = `calc(var(--thumb) / 2 + ${position(grid, d.epsilon, f)} * (100% - var(--thumb)))`;
    ticks.append(t);
  }

  const description = Object.assign(document.createElement('span'), { className: 'visually-hidden', id: `${id}-marks` });
  description.textContent = shown.length === 1
    ? 'A tick under the slider marks the ε of 1 real deployment, named under “Real deployments”.'
    : `Ticks under the slider mark the ε of ${shown.length} real deployments, named under “Real deployments”.`;

  const list = document.createElement('details');
  list.className = 'slider-deployments';
  const summary = document.createElement('summary');
  summary.textContent = `Real deployments (${shown.length})`;
  const legend = document.createElement('p');
  legend.className = 'hint deployment-legend';
  for (const [kind, text] of [['pure', 'ε only'], ['approx', '(ε, δ)'], ['zcdp', 'ρ (zCDP), placed at the ε of its row’s (ε, δ)']]) {
    const item = document.createElement('span');
    item.append(glyph(kind), text);
    legend.append(item);
  }
  const ul = document.createElement('ul');
  for (const d of shown) {
    const li = document.createElement('li');
    li.dataset.deployment = d.id;
    const a = document.createElement('a');
    a.href = d.source;
    a.rel = 'noopener';
    a.textContent = d.label;
    li.append(glyph(d.kind), a);
    ul.append(li);
  }
  const rest = document.createElement('p');
  rest.className = 'hint';
  const beyond = [];
  if (below) beyond.push(`${below} more lie below ε = ${lo}.`);
  if (above) beyond.push(`${above} more lie above ε = ${hi}, past this slider.`);
  const why = Object.assign(document.createElement('a'), { href: LESSON_SECTION, textContent: 'why these numbers are not comparable' });
  rest.append(beyond.join(' ') + (beyond.length ? ' ' : ''), 'The rows differ in their unit of privacy (not recorded for every row), in whether they have a δ, and in their accounting: see ', why, '.');
  list.append(summary, legend, ul, rest);
  return { ticks, list, description };
}

/**
 * slider is a labelled range input over the positions of grid, with a number
 * box beside it bound both ways: moving the slider writes the box, and a
 * typed value moves the slider to its nearest position. A typed value is
 * read with readBox (opts.spec, by default a number in [min, max] to
 * opts.digits significant digits), quantised to opts.step when there is
 * one; how it was read and what had to change are said under the box, and
 * an unreadable text is said to be so and changes nothing. onInput receives
 * every new value. An ε slider (opts.marks, by default a key in EPS_KEYS)
 * carries the marks of real deployments (deploymentMarks).
 */
function slider({ id, label, min, max, value, digits = 3, step, spec, onInput, describe, key, marks = EPS_KEYS.includes(key) }, grid, f) {
  spec = spec || { type: 'number', min, max, digits, label: label.replace(/<[^>]*>/g, '') };
  const wrap = document.createElement('div');
  wrap.className = 'control control-slider';
  if (key) wrap.dataset.key = key;
  wrap.innerHTML = `<label for="${id}" id="${id}-label">${label}</label>
    <div class="slider-row"><div class="slider-track"><input type="range" id="${id}" min="0" max="${grid.length - 1}" step="1"></div>
    <input type="text" class="slider-box" id="${id}-box" inputmode="decimal" autocomplete="off" spellcheck="false" aria-labelledby="${id}-label" aria-describedby="${id}-note"></div>
    <span class="slider-note hint" id="${id}-note" role="status"></span>`;
  const input = wrap.querySelector('input[type=range]');
  if (marks) {
    const m = deploymentMarks(id, grid, f);
    input.after(m.ticks);
    input.setAttribute('aria-describedby', m.description.id);
    wrap.append(m.description, m.list);
  }
  const box = wrap.querySelector('.slider-box');
  const note = wrap.querySelector('.slider-note');
  let current = value;
  const show = (v) => {
    current = v;
    const text = describe ? describe(v) : String(v);
    input.setAttribute('aria-valuetext', text);
    box.value = shownBox(v, spec);
  };
  const api = {
    el: wrap, input, box, key,
    get value() { return current; },
    set(v) { input.value = String(nearest(grid, v, f)); show(v); },
  };
  input.addEventListener('input', () => {
    const v = grid[+input.value];
    note.textContent = '';
    box.removeAttribute('aria-invalid');
    show(v);
    onInput(v);
  });
  box.addEventListener('change', () => {
    const r = readBox(box.value, spec, spec.label);
    if (!r.ok) {
      box.setAttribute('aria-invalid', 'true');
      note.textContent = `${r.message} Type a number from ${min} to ${max}.`;
      return;
    }
    let v = r.value;
    if (step > 0) v = round6(Math.min(Math.max(min + Math.round((v - min) / step) * step, min), max));
    box.removeAttribute('aria-invalid');
    note.textContent = r.note;
    api.set(v);
    onInput(v);
  });
  api.set(value);
  dock(wrap);
  return api;
}

/**
 * select is a labelled drop-down. An option written "Name (detail)" or
 * "Name: detail" shows only its name on a phone, where the whole text would be cut off, with the
 * chosen option's detail on a line under the box.
 */
export function select({ id, label, options, value, onChange, wide, key }) {
  const wrap = document.createElement('div');
  wrap.className = wide ? 'control control-wide' : 'control';
  if (key) wrap.dataset.key = key;
  wrap.innerHTML = `<label for="${id}">${label}</label><select id="${id}">${options
    .map(([v, text]) => `<option value="${escapeHTML(v)}">${escapeHTML(text)}</option>`).join('')}</select>`;
  const s = wrap.querySelector('select');
  const parts = options.map(([, text]) => /^(.+?) \((.+)\)$/.exec(text) || /^(\w+): (.+)$/.exec(text));
  let detail = null;
  if (parts.some(Boolean)) {
    detail = document.createElement('span');
    detail.className = 'hint select-detail';
    detail.id = `${id}-detail`;
    wrap.append(detail);
    s.setAttribute('aria-describedby', detail.id);
  }
  const relabel = () => {
    if (!detail) return;
    const short = PHONE.matches;
    [...s.options].forEach((o, i) => { o.textContent = short && parts[i] ? parts[i][1] : options[i][1]; });
    const m = parts[s.selectedIndex];
    detail.textContent = short && m ? m[2] : '';
  };
  if (detail) PHONE.addEventListener('change', relabel);
  s.value = value;
  relabel();
  s.addEventListener('change', () => { relabel(); onChange(s.value); });
  return { el: wrap, input: s, key, set(v) { s.value = v; relabel(); } };
}

/**
 * numberInput is a labelled box for one number that reads what a person
 * types (readBox, with spec: {type: 'number' or 'int', min, max, digits},
 * or a function returning it when the range moves; by default a number in
 * [min, max]). onChange(v) receives each value read;
 * how the text was read, what was clamped, or why it could not be read is
 * said under the box (an unreadable text changes nothing). Returns {el,
 * input, key, set(v), say(text)}; say puts a note of the widget's own there.
 */
export function numberInput({ id, label, value, min, max, spec = { type: 'number', min, max }, onChange, hint, inline, key }) {
  const specNow = typeof spec === 'function' ? spec : () => spec;
  const wrap = document.createElement('div');
  wrap.className = inline ? 'control control-inline' : 'control';
  if (key) wrap.dataset.key = key;
  wrap.innerHTML = `<label for="${id}">${label}</label><input type="text" id="${id}" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="${hint ? `${id}-hint ` : ''}${id}-note">${hint ? `<span class="hint" id="${id}-hint">${hint}</span>` : ''}<span class="hint box-note" id="${id}-note" role="status"></span>`;
  const input = wrap.querySelector('input');
  const note = wrap.querySelector('.box-note');
  const name = label.replace(/<[^>]*>/g, '');
  input.value = String(value);
  input.addEventListener('change', () => {
    const sp = specNow();
    const r = readBox(input.value, sp, name);
    if (!r.ok) {
      input.setAttribute('aria-invalid', 'true');
      note.textContent = `${r.message} Type a number from ${sp.min} to ${sp.max}.`;
      return;
    }
    input.removeAttribute('aria-invalid');
    note.textContent = r.note;
    input.value = String(r.value);
    onChange(r.value);
  });
  return {
    el: wrap, input, key,
    set(v) { input.value = String(v); input.removeAttribute('aria-invalid'); note.textContent = ''; },
    say(text) {
      note.textContent = text;
      if (text) wrap.closest('details')?.setAttribute('open', '');
    },
  };
}

export function radios({ name, legend, options, value, onChange, key }) {
  const fs = document.createElement('fieldset');
  fs.className = 'control control-radios';
  if (key) fs.dataset.key = key;
  fs.innerHTML = `<legend>${legend}</legend>` + options.map(([v, html], i) =>
    `<label class="radio"><input type="radio" name="${name}" value="${escapeHTML(v)}"${v === value ? ' checked' : ''}> <span>${html}</span></label>`).join('');
  fs.addEventListener('change', (e) => onChange(e.target.value));
  return { el: fs, key, set(v) { for (const r of fs.querySelectorAll('input')) r.checked = r.value === v; } };
}

export function button(text, onClick, { kbd, primary, label } = {}) {
  const b = document.createElement('button');
  b.type = 'button';
  if (primary) b.className = 'primary';
  b.innerHTML = escapeHTML(text) + (kbd ? ` <kbd aria-hidden="true">${escapeHTML(kbd)}</kbd>` : '');
  if (label) b.setAttribute('aria-label', label);
  if (kbd) b.setAttribute('aria-keyshortcuts', kbd === 'Space' ? 'Space' : kbd === '←' ? 'ArrowLeft' : kbd === '→' ? 'ArrowRight' : kbd);
  b.addEventListener('click', onClick);
  return b;
}

/**
 * refresher runs an async job, coalescing calls that arrive while it runs.
 * While work is pending, el.dataset.busy is set (tests wait for it to clear).
 */
export function refresher(job, el) {
  let running = false, again = false;
  return async function run() {
    if (running) { again = true; return; }
    running = true;
    if (el) el.dataset.busy = '1';
    try {
      do { again = false; await job(); } while (again);
    } finally {
      running = false;
      if (el) delete el.dataset.busy;
    }
  };
}

export { fmt } from '../base/format.js';

/**
 * panel(ctx, titleHTML, className) is a titled section of a small-multiples
 * grid, named for assistive technology by its heading. Returns the section
 * and the host to draw into.
 */
export function panel(ctx, titleHTML, className = '') {
  const el = document.createElement('section');
  el.className = `panel ${className}`.trim();
  const hid = ctx.uid('panel');
  el.setAttribute('aria-labelledby', hid);
  el.innerHTML = `<h4 id="${hid}">${titleHTML}</h4>`;
  const host = document.createElement('div');
  el.append(host);
  return { el, host };
}

/**
 * tableRegion(label, className) is a scrollable box for a wide table: a
 * labelled region in the tab order, so a keyboard can reach and scroll it.
 */
export function tableRegion(label, className = 'pf-readout') {
  const el = document.createElement('div');
  el.className = `table-wrap ${className}`;
  el.tabIndex = 0;
  el.setAttribute('role', 'region');
  el.setAttribute('aria-label', label);
  return el;
}

/**
 * stepper(ctx, key, lo, hi, refresh) is the controller {draw, step, reset}
 * the page's keys call for a widget that steps schema key through lo …
 * hi(): draw moves it one on, step(d) by d, reset back to lo, each clamped
 * to the range, stored with ctx.set and redrawn.
 */
export function stepper(ctx, key, lo, hi, refresh) {
  const go = (x) => { ctx.set(key, Math.min(Math.max(x, lo), hi())); refresh(); };
  return {
    draw() { go(ctx.values[key] + 1); },
    step(d) { go(ctx.values[key] + d); },
    reset() { go(lo); },
  };
}

/**
 * actionsRow(...items) is a widget's row of buttons holding items and,
 * last, the status line that says what has been drawn: {actions, status}.
 */
export function actionsRow(...items) {
  const actions = document.createElement('div');
  actions.className = 'actions';
  const status = document.createElement('p');
  status.className = 'draw-status';
  actions.append(...items, status);
  return { actions, status };
}

/**
 * reseed(ctx, seed, refresh) is a function that draws a fresh seed from the
 * cryptographic source, stores it with ctx.set, shows it in the seed box
 * and redraws.
 */
export function reseed(ctx, seed, refresh) {
  return () => {
    // A seed the link locked stays: ctx.set refuses it.
    seed.set(ctx.set('seed', crypto.getRandomValues(new Uint32Array(1))[0])); refresh();
  };
}

/**
 * batchControls(ctx, schema, refresh) builds what every widget that draws in
 * seeded batches shares (schema keys batch, seed and step): the draws-per-batch
 * select, the seed box, the Draw / Undo / Reset buttons with a status line,
 * and the controller {draw, step, reset} the page's keys call. The widget
 * places batch and seed among its settings (under "More settings": they are
 * secondary) and actions below its chart.
 */
export function batchControls(ctx, schema, refresh, { batchLabel = 'Draws per batch' } = {}) {
  const batch = keySelect(ctx, schema, 'batch', batchLabel, (b) => fmtInt(+b), refresh);
  const seed = keyInput(ctx, schema, 'seed', 'Seed', refresh);
  const ctl = stepper(ctx, 'step', 0, () => schema.step.max, refresh);
  const { actions, status } = actionsRow(
    button('Draw a batch', () => ctl.draw(), { kbd: 'Space', primary: true }),
    button('Undo batch', () => ctl.step(-1), { kbd: '←' }),
    button('Reset', () => ctl.reset(), { kbd: 'r' }),
  );
  return { batch, seed, ctl, actions, status };
}

/** errorLine() is a widget's alert line for a failed computation. */
export function errorLine() {
  const error = document.createElement('p');
  error.className = 'widget-error';
  error.setAttribute('role', 'alert');
  return error;
}

/**
 * redrawer(ctx, error, job) is refresher(job, ctx.fig) for a widget's redraw:
 * a failure shows its message in error (the last picture stays), and every
 * redraw that ends, failed or not, bumps ctx.fig.dataset.renders, which the
 * tests and the latency bench wait on.
 */
export function redrawer(ctx, error, job) {
  let renders = 0;
  return refresher(async () => {
    try {
      await job();
    } catch (err) {
      error.textContent = err.message;
    }
    ctx.fig.dataset.renders = String(++renders);
  }, ctx.fig);
}

/** setDefaults(ctx, schema) stores every key of a widget's schema at its default, as its Reset does. */
export function setDefaults(ctx, schema) {
  for (const [key, s] of Object.entries(schema)) ctx.set(key, s.default);
}

/**
 * epsSlider(ctx, schema, label, refresh, key) is the log-scale slider of a
 * widget's ε (schema key eps, or key): it shows "ε = value", stores each
 * move with ctx.set and redraws.
 */
export function epsSlider(ctx, schema, label, refresh, key = 'eps') {
  const name = key === 'eps' ? 'ε' : key.replace(/^e(?=a$)/, 'ε_');
  return logSlider({
    id: ctx.uid(key), key, label, min: schema[key].min, max: schema[key].max, value: ctx.values[key],
    spec: { ...schema[key], label: label.replace(/<[^>]*>/g, '') },
    describe: (x) => `${name} = ${x}`,
    onInput: (x) => { ctx.set(key, x); refresh(); },
  });
}

/**
 * keyInput(ctx, schema, key, label, refresh, opts) is the number box of a
 * widget's schema key, read with the key's rule (readBox: its range, whole
 * numbers for an int key, its digits), each change stored with ctx.set and
 * redrawn. opts go to numberInput (inline, hint, spec: a narrower range).
 */
export function keyInput(ctx, schema, key, label, refresh, opts = {}) {
  return numberInput({
    id: ctx.uid(key), key, label, value: ctx.values[key], spec: schema[key], ...opts,
    onChange: (x) => { ctx.set(key, x); refresh(); },
  });
}

/**
 * keySelect(ctx, schema, key, label, text, onChange, opts) is the select of
 * a widget's enum key: one option per value of the schema, shown as
 * text(value); a choice is stored with ctx.set, then onChange(value) runs.
 * opts go to select (wide).
 */
export function keySelect(ctx, schema, key, label, text, onChange, opts = {}) {
  return select({
    id: ctx.uid(key), key, label, value: ctx.values[key], ...opts,
    options: schema[key].values.map((x) => [x, text(x)]),
    onChange: (x) => { ctx.set(key, x); onChange(x); },
  });
}

/**
 * smallMultiples(ctx) is a grid of titled panels: cell(titleHTML) adds one
 * and returns the element its chart fills.
 */
export function smallMultiples(ctx) {
  const grid = document.createElement('div');
  grid.className = 'small-multiples';
  const cell = (title) => {
    const { el, host } = panel(ctx, title);
    grid.append(el);
    return host;
  };
  return { grid, cell };
}

/** controlsBox() is the row a widget's controls go in. */
export function controlsBox() {
  const controls = document.createElement('div');
  controls.className = 'controls';
  return controls;
}

/** MAX_SHOWN is how many controls a widget shows before "More settings". */
export const MAX_SHOWN = 4;

/**
 * settings(ctx, shown, more) is a widget's settings: {controls, more, els}.
 * controls is the row of the shown controls (at most MAX_SHOWN; the first is
 * the primary one, an ε slider as a rule), and more, when more is not empty,
 * a "More settings" disclosure holding the rest: one click away, in the tab
 * order by its summary, their values in the link as ever. It opens by itself
 * when the link (or the lesson) sets one of their keys (control.key) to
 * other than its opening value, and when a box in it says something
 * (numberInput's say).
 * els is [controls, more] without the missing one, to append. A control is
 * anything with an el.
 */
export function settings(ctx, shown, more = []) {
  if (shown.length > MAX_SHOWN) throw new Error(`${ctx.id}: ${shown.length} controls shown; at most ${MAX_SHOWN}`);
  const controls = controlsBox();
  controls.append(...shown.map((c) => c.el));
  if (!more.length) return { controls, more: null, els: [controls] };
  const box = document.createElement('details');
  box.className = 'more-settings';
  const summary = document.createElement('summary');
  summary.textContent = 'More settings';
  const inner = controlsBox();
  inner.append(...more.map((c) => c.el));
  box.append(summary, inner);
  const schema = Object.fromEntries(Object.entries(ctx.schema || {}).filter(([k]) => more.some((c) => c.key === k)));
  const base = opening(schema, ctx.params || {});
  box.open = Object.keys(schema).some((k) => encode(schema[k], ctx.values[k]) !== encode(schema[k], base[k]));
  return { controls, more: box, els: [controls, box] };
}

/**
 * dock(wrap) moves a slider control, on a phone, into a bar at the top of its
 * widget that stays on screen (position: sticky) while the widget's chart is
 * in view, so moving the slider moves a chart the student can see (a slider
 * under "More settings" is not moved; an ε slider's list of real deployments
 * stays where the slider was). On a wider
 * screen the control goes back to where the widget put it. The slider is
 * docked once it is laid out inside a widget (a ResizeObserver tells when).
 */
const spots = new WeakMap(); // a docked slider → the comment that holds its place in the widget

function dock(wrap) {
  const spot = document.createComment('slider');
  const place = () => {
    const body = (wrap.isConnected && (spot.parentNode || wrap.parentNode)?.closest?.('.widget-body')) || null;
    // A slider under "More settings" stays there: the dock is for the primary ones.
    if (!body || wrap.closest('.more-settings')) return;
    if (PHONE.matches && !spot.parentNode) {
      let bar = body.querySelector(':scope > .slider-dock');
      if (!bar) {
        bar = document.createElement('div');
        bar.className = 'slider-dock';
        body.prepend(bar);
      }
      wrap.replaceWith(spot);
      // The list of real deployments stays in the widget: the bar holds only what moves the chart.
      const list = wrap.querySelector(':scope > .slider-deployments');
      if (list) spot.after(list);
      // In the dock as in the widget: in document order of their places.
      const after = [...bar.children].find((c) => spots.get(c)?.compareDocumentPosition(spot) & Node.DOCUMENT_POSITION_PRECEDING);
      bar.insertBefore(wrap, after || null);
      spots.set(wrap, spot);
    } else if (!PHONE.matches && spot.parentNode) {
      const bar = wrap.parentNode;
      const list = spot.nextSibling?.classList?.contains('slider-deployments') ? spot.nextSibling : null;
      spot.replaceWith(wrap);
      if (list) wrap.append(list);
      if (bar && !bar.children.length) bar.remove();
    }
  };
  const ro = new ResizeObserver(() => { if (wrap.isConnected && wrap.closest('.widget-body')) { ro.disconnect(); place(); } });
  ro.observe(wrap);
  PHONE.addEventListener('change', place);
}
