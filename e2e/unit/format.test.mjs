// The page's number formatting (web/base/format.js) in Node, no browser: fmtInt
// groups digits itself (format.js says why) and must write what Intl writes for
// every count a widget shows; niceStep is the round step of axes and grids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtInt, niceStep } from '../../web/base/format.js';
import { seeded } from './seeded.mjs';

test('fmtInt writes what toLocaleString("en-US") writes', () => {
  const random = seeded(20261127);
  const values = [0, -0, 0.4, 0.5, 1, 9, 10, 99, 100, 999, 999.5, 1000, 1001, 12345, 99999, 100000, 654321, 1e6, 1234567.8, 1e9, 2 ** 53 - 1];
  for (let k = 0; k < 2000; k++) values.push(Math.floor(random() * 10 ** (1 + (k % 15))));
  for (const v of values.concat(values.map((x) => -x))) {
    // Intl writes −0 as "-0"; a count of minus nothing reads better as 0.
    if (Object.is(Math.round(v), -0)) { assert.equal(fmtInt(v), '0'); continue; }
    assert.equal(fmtInt(v), Math.round(v).toLocaleString('en-US'), `fmtInt(${v})`);
  }
});

test('niceStep is the smallest round step at or above x', () => {
  for (const [x, want] of [[1, 1], [1.1, 2], [2.1, 2.5], [2.6, 5], [5.5, 10], [0.07, 0.1], [0.0123, 0.02], [740, 1000], [0.3 / 30, 0.01]]) {
    assert.equal(niceStep(x), want, `niceStep(${x})`);
  }
  assert.equal(niceStep(2.1, [1, 2, 5, 10]), 5);
  const random = seeded(7);
  for (let k = 0; k < 1000; k++) {
    const x = 10 ** (12 * random() - 6);
    const s = niceStep(x);
    const p = 10 ** Math.floor(Math.log10(s) + 1e-9);
    assert.ok(s >= x && s <= 2 * x * (1 + 1e-12), `niceStep(${x}) = ${s}`);
    assert.ok([1, 2, 2.5, 5, 10].some((m) => Math.abs(s / p - m) < 1e-9), `niceStep(${x}) = ${s} is not round`);
  }
});
