// The widgets' schemas reach the page from package app/widget through the
// generated module gen/widgets.js: a link outside a schema is clamped with
// a note, as `dpplay figures -state` clamps it, a text key's characters are
// checked by the pattern the module compiles, and the shared data sets,
// grids and formulas are what the widgets draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { harness } from './harness.mjs';

const web = harness([path.join('gen', 'widgets.js'), 'dist/gen/widgets.js is missing: run make site']);

/** open(hash, slug) is the page at hash (1280 × 720), once lesson slug is ready, with its URL notes. */
async function open(hash, slug) {
  const { page, errors } = await web.open(hash, { width: 1280, height: 720, lesson: slug });
  return { page, errors, notes: async () => (await page.locator('#url-notes').textContent()).replace(/\s+/g, ' ') };
}

test('ε = 50 is clamped to 20 with a note, as dpplay figures -state clamps it', async () => {
  const { page, errors, notes } = await open('exponential-mechanism/#meet.eps=50', 'exponential-mechanism');
  assert.match(await notes(), /Choosing a meeting day: ε = 50 is outside 0\.01 … 20, so 20 is used\./);
  assert.equal(await page.locator('#w-meet .slider-box').first().inputValue(), '20');
  await page.waitForFunction(() => /meet\.eps=20(&|$)/.test(location.hash));
  // The formula is the build's MathML of the TeX in app/widget.
  assert.equal(await page.locator('#w-meet .formula-line math annotation').textContent(),
    String.raw`\Pr[r] \propto \exp\left(\frac{\varepsilon \cdot u(r)}{2\Delta}\right)`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a text key keeps only its characters; an enum only its values', async () => {
  const budget = await open('report-noisy-max/#budget.log=ahx', 'report-noisy-max');
  assert.match(await budget.notes(), /ledger: "ahx" is not valid here, so the default is used\./);
  assert.deepEqual(budget.errors, []);
  await budget.page.close();
  const audit = await open('check-a-mechanism/#check.score=count%5Br%5D%20-%201&check.sens=ABC&check.mech=zzz', 'check-a-mechanism');
  const text = await audit.notes();
  assert.match(text, /sensitivity: "ABC" is not valid here/);
  assert.match(text, /mechanism: "zzz" is not one of exponential, report-noisy-max-laplace,/);
  assert.doesNotMatch(text, /score:/, 'count[r] - 1 is a valid score');
  assert.deepEqual(audit.errors, []);
  await audit.page.close();
});

test('the permute-and-flip chart runs over the 49-point ε grid from 0.05 to 10', async () => {
  const { page, errors } = await open('permute-and-flip/', 'permute-and-flip');
  // The page is one level below the site's root.
  const grid = await page.evaluate(async () => (await import('../gen/widgets.js')).lossGrid);
  assert.equal(grid.length, 49);
  assert.equal(grid[0], 0.05);
  assert.equal(grid[48], 10);
  const rows = await page.locator('figure[data-widget="permute-and-flip-loss"] .data-table tbody tr').count();
  assert.equal(rows, 49, 'one data-table row per ε of the grid');
  assert.deepEqual(errors, []);
  await page.close();
});
