// A slider's number box reads a typed value with its widget's schema entry
// (controls.js readBox), so that the value kept is the one its link keeps,
// to the schema's digits: without a spec the box would round to 3
// significant digits, and 1.024 typed into the exponential mechanism's ε box would become
// 1.02. This reads every widget's source for sliders built without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { coerce } from '../../web/state/values.js';

const dir = new URL('../../web/widgets/', import.meta.url);

test('every slider over a schema key passes its schema entry as spec', () => {
  let found = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const src = readFileSync(new URL(f, dir), 'utf8');
    for (const m of src.matchAll(/(?:logSlider|linearSlider)\(\{([\s\S]*?)\}\);/g)) {
      const call = m[1];
      if (!/min: schema\.\w+\.min/.test(call)) continue; // a slider over a fixed range, not a schema key
      found++;
      assert.match(call, /spec: \{ \.\.\.schema(\.\w+|\[key\])/, `${f}: a slider over a schema key without its spec:\n${call.slice(0, 200)}`);
    }
  }
  assert.ok(found >= 6, `only ${found} sliders over schema keys found: the pattern no longer matches them`);
});

test('a typed value is kept to the schema digits, and a rounding is said', () => {
  const notes = [];
  assert.equal(coerce({ type: 'number', min: 0.01, max: 20, digits: 17, label: 'ε' }, '1.024', 'eps', notes), 1.024);
  assert.deepEqual(notes, []);
  assert.equal(coerce({ type: 'number', min: 0.01, max: 20, digits: 3, label: 'ε' }, '1.024', 'eps', notes), 1.02);
  assert.deepEqual(notes, ['ε = 1.024 is kept to 3 significant digits, so 1.02 is used.']);
});
