// Hiding and locking a widget's controls from its link (web/state/values.js
// readKeys, web/page/mount.js readFixing and ctx.set, web/page/fixing.js), in Node on
// a linkedom document, with the controls every widget builds (controls.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHTML } from 'linkedom';

const { window, document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
for (const k of ['window', 'document', 'HTMLElement', 'Element', 'Node', 'Event', 'CustomEvent', 'MutationObserver', 'DocumentFragment']) {
  if (!(k in globalThis) || k === 'window' || k === 'document') globalThis[k] = k === 'window' ? window : k === 'document' ? document : window[k];
}
globalThis.matchMedia = () => ({ matches: false, addEventListener() {}, removeEventListener() {} });
globalThis.ResizeObserver = class { observe() {} unobserve() {} disconnect() {} };
// What linkedom leaves out and the controls use (scripts/prerender.mjs adds the same).
Object.defineProperty(window.HTMLSelectElement.prototype, 'value', {
  configurable: true,
  get() { const o = this.querySelector('option[selected]') || this.querySelector('option'); return o ? o.value : ''; },
  set(v) { for (const o of this.querySelectorAll('option')) o.toggleAttribute('selected', o.value === String(v)); },
});

const { readKeys } = await import('../../web/state/values.js');
const { parseState } = await import('../../web/state/address.js');
const { mountWidget, readFixing } = await import('../../web/page/mount.js');
const { epsSlider, keyInput, keySelect, radios, settings } = await import('../../web/widgets/controls.js');

const schema = {
  eps: { type: 'number', min: 0.01, max: 20, default: 1, digits: 3, label: 'ε' },
  delta: { type: 'number', min: 0.1, max: 10, default: 1, label: 'Δ' },
  data: { type: 'enum', values: ['a', 'b'], default: 'a', label: 'data' },
  form: { type: 'enum', values: ['x', 'y'], default: 'x', label: 'form' },
  seed: { type: 'int', min: 0, max: 4294967295, default: 7, label: 'seed' },
};

test('readKeys keeps the schema keys a list names, once each, and notes the rest', () => {
  const notes = [];
  assert.deepEqual(readKeys(schema, ' seed,eps ,,seed', 'w.hide', notes), ['seed', 'eps']);
  assert.deepEqual(notes, []);
  assert.deepEqual(readKeys(schema, 'controls,eps,__proto__', 'w.hide', notes), ['eps']);
  assert.deepEqual(notes, ['w.hide: "controls", "__proto__" are not settings of this widget, so they were ignored.']);
  assert.deepEqual(readKeys(schema, 'x,'.repeat(64) + 'eps', 'w.lock', []), []);
});

test('readFixing reads hide and lock and notes a key the widget does not have', () => {
  const notes = [];
  const { params } = parseState('#w.hide=seed,controls&w.lock=eps&w.colour=red&v.hide=eps&w.eps=2');
  assert.deepEqual(readFixing('w', schema, params, 'The widget', notes), { hide: ['seed'], lock: ['eps'] });
  assert.equal(notes.length, 2);
  assert.match(notes[0], /^The widget \(w\.hide\): "controls" is not a setting/);
  assert.match(notes[1], /^The widget: the link’s “colour” is not a setting of this widget/);
});

/** widget is a module whose mount builds one control of each kind, seed under "More settings". */
const widget = {
  schema,
  mount(ctx) {
    const redraw = () => {};
    const c = [
      epsSlider(ctx, schema, 'ε (epsilon)', redraw),
      keyInput(ctx, schema, 'delta', 'Δ', redraw),
      keySelect(ctx, schema, 'data', 'Data', String, redraw),
      radios({ name: ctx.uid('form'), key: 'form', legend: 'Form', value: ctx.values.form, options: [['x', 'x'], ['y', 'y']], onChange: (v) => ctx.set('form', v) }),
    ];
    const seed = keyInput(ctx, schema, 'seed', 'Seed', redraw);
    ctx.body.append(...settings(ctx, c, [seed]).els);
    return { ctx };
  },
};

async function mounted(hash) {
  const fig = document.createElement('figure');
  fig.className = 'widget';
  fig.dataset.widget = 'test';
  fig.dataset.id = 'w';
  fig.innerHTML = '<figcaption class="widget-title">Test</figcaption><div class="widget-body"></div>';
  document.body.append(fig);
  const notes = [];
  let sets = 0;
  let n = 0;
  const w = await mountWidget(fig, widget, { params: parseState(hash).params, notes, bridge: null, uid: () => ++n, onSet: () => sets++ });
  return { fig, w, notes, sets: () => sets };
}

const key = (fig, k) => fig.querySelector(`[data-key="${k}"]`);

test('every control carries its key; without hide or lock all are live', async () => {
  const { fig, w } = await mounted('#w.eps=2');
  for (const k of Object.keys(schema)) assert.ok(key(fig, k), k);
  assert.equal(fig.querySelectorAll(':disabled, .is-locked, .fixed-mark').length, 0);
  assert.equal(w.controller.ctx.set('eps', 3), 3);
});

test('a hidden control is gone; a locked one stays, disabled and marked, and ctx.set refuses it', async () => {
  const { fig, w, notes, sets } = await mounted('#w.hide=seed,data&w.lock=eps,form&w.eps=2');
  assert.deepEqual(notes, []);
  assert.equal(key(fig, 'seed'), null);
  assert.equal(key(fig, 'data'), null);
  // "More settings" held only the seed: it goes too.
  assert.equal(fig.querySelector('details.more-settings'), null);
  const eps = key(fig, 'eps');
  assert.ok(eps.classList.contains('is-locked'));
  for (const f of eps.querySelectorAll('input')) assert.ok(f.hasAttribute('disabled'), f.outerHTML);
  assert.match(eps.querySelector('label').textContent, /^ε \(epsilon\) fixed by the link$/);
  assert.match(key(fig, 'form').querySelector('legend').textContent, /fixed by the link/);
  for (const f of key(fig, 'form').querySelectorAll('input')) assert.ok(f.hasAttribute('disabled'));
  assert.equal(key(fig, 'delta').querySelector('input').hasAttribute('disabled'), false);
  const ctx = w.controller.ctx;
  assert.equal(ctx.set('eps', 5), 2);
  assert.equal(w.values.eps, 2);
  assert.equal(ctx.set('form', 'y'), 'x');
  assert.equal(ctx.set('seed', 9), 7, 'a hidden key is fixed too');
  assert.equal(sets(), 0);
  assert.equal(ctx.set('delta', 4), 4);
  assert.equal(sets(), 1);
  assert.deepEqual(w.fixed, { hide: ['seed', 'data'], lock: ['eps', 'form'] });
});

test('"hide=controls" is a note, not an error or a silent drop', async () => {
  const { fig, notes } = await mounted('#w.hide=controls');
  assert.equal(notes.length, 1);
  assert.match(notes[0], /“?"controls"”? is not a setting of this widget/);
  for (const k of Object.keys(schema)) assert.ok(key(fig, k), k);
});
