// fmtInt groups digits itself (web/svg.js says why); it must write what
// Intl writes for every count a widget shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.env.DIST || 'dist');

test('fmtInt writes what toLocaleString("en-US") writes', async () => {
  const { fmtInt } = await import(pathToFileURL(path.join(dist, 'svg.js')).href);
  const values = [0, -0, 0.4, 0.5, 1, 9, 10, 99, 100, 999, 999.5, 1000, 1001, 12345, 99999, 100000, 654321, 1e6, 1234567.8, 1e9, 2 ** 53 - 1];
  for (let k = 0; k < 2000; k++) values.push(Math.floor(Math.random() * 10 ** (1 + (k % 15))));
  for (const v of values.concat(values.map((x) => -x))) {
    // Intl writes −0 as "-0"; a count of minus nothing reads better as 0.
    if (Object.is(Math.round(v), -0)) { assert.equal(fmtInt(v), '0'); continue; }
    assert.equal(fmtInt(v), Math.round(v).toLocaleString('en-US'), `fmtInt(${v})`);
  }
});
