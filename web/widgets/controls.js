// Small builders for labelled, keyboard-reachable controls shared by widgets.
import { escapeHTML } from '../chart.js';

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

export const fmt = (v, d = 3) => (Number.isFinite(v) ? String(+v.toPrecision(d)) : '–');

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
