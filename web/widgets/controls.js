// Small builders for labelled, keyboard-reachable controls shared by widgets.
import { escapeHTML, fmtInt } from '../chart.js';

/** logSlider maps a range input's 0…1000 positions to [min, max] on a log scale. */
export const logSlider = (opts) => slider(opts, Math.log10, (x) => Math.pow(10, x));

/** linearSlider maps them to [min, max] evenly. */
export const linearSlider = (opts) => slider(opts, (x) => x, (x) => x);

function slider({ id, label, min, max, value, digits = 3, onInput, describe }, fwd, inv) {
  const wrap = document.createElement('div');
  wrap.className = 'control control-slider';
  const lmin = fwd(min), lmax = fwd(max);
  const toPos = (v) => Math.round(((fwd(v) - lmin) / (lmax - lmin)) * 1000);
  const fromPos = (p) => +inv(lmin + (p / 1000) * (lmax - lmin)).toPrecision(digits);
  wrap.innerHTML = `<label for="${id}">${label}</label>
    <div class="slider-row"><input type="range" id="${id}" min="0" max="1000" step="1">
    <output for="${id}" id="${id}-out"></output></div>`;
  const input = wrap.querySelector('input');
  const out = wrap.querySelector('output');
  const show = (v) => {
    out.textContent = describe ? describe(v) : String(v);
    input.setAttribute('aria-valuetext', describe ? describe(v) : String(v));
  };
  const api = {
    el: wrap, input,
    get value() { return fromPos(+input.value); },
    set(v) { input.value = String(toPos(v)); show(v); },
  };
  input.addEventListener('input', () => { const v = fromPos(+input.value); show(v); onInput(v); });
  api.set(value);
  return api;
}

export function select({ id, label, options, value, onChange, wide }) {
  const wrap = document.createElement('div');
  wrap.className = wide ? 'control control-wide' : 'control';
  wrap.innerHTML = `<label for="${id}">${label}</label><select id="${id}">${options
    .map(([v, text]) => `<option value="${escapeHTML(v)}">${escapeHTML(text)}</option>`).join('')}</select>`;
  const s = wrap.querySelector('select');
  s.value = value;
  s.addEventListener('change', () => onChange(s.value));
  return { el: wrap, input: s, set(v) { s.value = v; } };
}

export function numberInput({ id, label, value, min, max, step = 'any', onChange, hint, inline }) {
  const wrap = document.createElement('div');
  wrap.className = inline ? 'control control-inline' : 'control';
  wrap.innerHTML = `<label for="${id}">${label}</label><input type="number" id="${id}" min="${min}" max="${max}" step="${step}" inputmode="decimal"${hint ? ` aria-describedby="${id}-hint"` : ''}>${hint ? `<span class="hint" id="${id}-hint">${hint}</span>` : ''}`;
  const input = wrap.querySelector('input');
  input.value = String(value);
  input.addEventListener('change', () => {
    const v = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(v)) { input.setAttribute('aria-invalid', 'true'); return; }
    const c = Math.min(Math.max(v, min), max);
    input.removeAttribute('aria-invalid');
    if (c !== v) input.value = String(c);
    onChange(c);
  });
  return { el: wrap, input, set(v) { input.value = String(v); } };
}

export function radios({ name, legend, options, value, onChange }) {
  const fs = document.createElement('fieldset');
  fs.className = 'control control-radios';
  fs.innerHTML = `<legend>${legend}</legend>` + options.map(([v, html], i) =>
    `<label class="radio"><input type="radio" name="${name}" value="${escapeHTML(v)}"${v === value ? ' checked' : ''}> <span>${html}</span></label>`).join('');
  fs.addEventListener('change', (e) => onChange(e.target.value));
  return { el: fs, set(v) { for (const r of fs.querySelectorAll('input')) r.checked = r.value === v; } };
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

export { fmt } from '../svg.js';

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
 * batchControls(ctx, schema, refresh) builds what every widget that draws in
 * seeded batches shares (schema keys batch, seed and step): the draws-per-batch
 * select, the seed box, the Draw / Undo / Reset buttons with a status line,
 * and the controller {draw, step, reset} the page's keys call. The widget
 * places batch.el among its controls and actions below them.
 */
export function batchControls(ctx, schema, refresh, { batchLabel = 'Draws per batch' } = {}) {
  const v = ctx.values;
  const batch = keySelect(ctx, schema, 'batch', batchLabel, (b) => fmtInt(+b), refresh);
  const seed = keyInput(ctx, schema, 'seed', 'Seed', refresh, { inline: true });
  const ctl = {
    draw() { ctx.set('step', Math.min(v.step + 1, schema.step.max)); refresh(); },
    step(d) { ctx.set('step', Math.min(Math.max(v.step + d, 0), schema.step.max)); refresh(); },
    reset() { ctx.set('step', 0); refresh(); },
  };
  const actions = document.createElement('div');
  actions.className = 'actions';
  const status = document.createElement('p');
  status.className = 'draw-status';
  actions.append(
    button('Draw a batch', () => ctl.draw(), { kbd: 'Space', primary: true }),
    button('Undo batch', () => ctl.step(-1), { kbd: '←' }),
    button('Reset', () => ctl.reset(), { kbd: 'r' }),
    seed.el, status,
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

/**
 * epsSlider(ctx, schema, label, refresh, key) is the log-scale slider of a
 * widget's ε (schema key eps, or key): it shows "ε = value", stores each
 * move with ctx.set and redraws.
 */
export function epsSlider(ctx, schema, label, refresh, key = 'eps') {
  const name = key === 'eps' ? 'ε' : key.replace(/^e(?=a$)/, 'ε_');
  return logSlider({
    id: ctx.uid(key), label, min: schema[key].min, max: schema[key].max, value: ctx.values[key],
    describe: (x) => `${name} = ${x}`,
    onInput: (x) => { ctx.set(key, x); refresh(); },
  });
}

/**
 * keyInput(ctx, schema, key, label, refresh, opts) is the number box of a
 * widget's schema key: the key's range, whole numbers for an int key, each
 * change stored with ctx.set and redrawn. opts go to numberInput (step,
 * inline, hint).
 */
export function keyInput(ctx, schema, key, label, refresh, opts = {}) {
  const { type, min, max } = schema[key];
  const int = type === 'int';
  return numberInput({
    id: ctx.uid(key), label, value: ctx.values[key], min, max, step: int ? 1 : 'any', ...opts,
    onChange: (x) => { ctx.set(key, int ? Math.round(x) : x); refresh(); },
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
    id: ctx.uid(key), label, value: ctx.values[key], ...opts,
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
