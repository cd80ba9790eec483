// The lesson "Check a mechanism yourself" end to end in Chromium: the audit
// module loads when the reader reaches for the controls, the starting audit
// (pre-rendered) fails with the loss the Go
// tests compute, a typed score is audited, a bad or hostile expression is
// reported as text (never markup), the gallery loads a mistake and its fix,
// and a 100,000-data-set universe shows progress. The page's axe, sideways
// scroll and screenshots are the sweep's.
// Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { harness, idle as idleFor, renders as rendersOf, rerendered } from './harness.mjs';

const slug = 'check-a-mechanism';
const W = '#w-check';
const web = harness([path.join(slug, 'index.html'), `dist/ has no ${slug}: run make site`]);

async function open(hash = '', opts = {}) {
  const o = await web.open(`${slug}/${hash}`, { ...opts, lesson: slug });
  await idle(o.page);
  return o;
}
const idle = (page) => idleFor(page, W, 60000);
const renders = (page) => rendersOf(page, W);
const after1 = (page, n) => rerendered(page, W, n, 60000);
const verdict = (page) => page.locator(`${W} .loss-line`).textContent();
const score = (page) => page.getByLabel('Score u(x, r)');

test('the starting audit fails with the exact worst loss and shows the worst pair', async () => {
  const { context, page, errors, requests } = await open();
  const auditModule = () => requests.some((u) => /\/wasm\/audit\.wasm/.test(u));
  // The opening audit is the build's: drawn from the recording, without the module.
  assert.equal(auditModule(), false, 'the audit module was fetched before the reader reached for the controls');
  const v = await verdict(page);
  assert.match(v, /^Fails for neighbours that change one person’s choice: the worst loss over 108 neighbouring pairs of 64 data sets is 1\.372,/);
  // The worst pair moves one person from option 1 to option 2: two marked counts in each column.
  const caption = await page.locator(`${W} .table-wrap caption`).first().textContent();
  assert.match(caption, /x = \(0, 1, 2\) and x′ = \(0, 0, 3\)/);
  assert.equal(await page.locator(`${W} .table-wrap mark`).count(), 4);
  // The log-ratio of the worst output is outside the band, with its value printed.
  assert.match(await page.locator(`${W} .band-chart svg[role="img"]`).textContent(), /1\.37/);
  // The growth chart climbs towards 1.5 up to m = 8.
  const desc = await page.locator(`${W} svg desc`).last().textContent();
  assert.equal(desc, 'Worst loss for universes with counts up to m = 1 … 8: 1, 1.227, 1.372, 1.446, 1.479, 1.492, 1.497, 1.499.');
  // Reaching for a control fetches it.
  const fetched = page.waitForRequest(/\/wasm\/audit\.wasm/);
  await score(page).focus();
  await fetched;
  assert.deepEqual(errors, []);
  await context.close();
});

test('a typed score is audited; bad and hostile expressions become plain error text', async () => {
  const { context, page, errors } = await open();
  let n = await renders(page);
  await score(page).fill('count[r]');
  await score(page).press('Enter');
  await after1(page, n);
  assert.match(await verdict(page), /^Holds for neighbours that change one person’s choice: .* is 0\.6887, within the claimed ε = 1\./);
  assert.match(await page.evaluate(() => location.hash), /check\.score=count%5Br%5D/);
  for (const bad of ['count[r', '<img src=x onerror="document.body.dataset.pwned=1">', 'count[r] / (n - 1)']) {
    n = await renders(page);
    await score(page).fill(bad);
    await score(page).press('Enter');
    await after1(page, n);
    const msg = await page.locator(`${W} .widget-error`).textContent();
    assert.match(msg, /^Score u\(x, r\): /, `error for ${bad}`);
    assert.equal(await page.locator(`${W} .widget-error *`).count(), 0, 'the error is text, not markup');
    assert.equal(await page.locator(`${W} img`).count(), 0);
  }
  assert.match(await page.locator(`${W} .widget-error`).textContent(), /count = \[1 0 0\], r = 0 gives \+Inf .*finite/);
  assert.equal(await page.evaluate(() => document.body.dataset.pwned), undefined);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the gallery loads a mistake and its fix', async () => {
  const { context, page, errors } = await open();
  await page.getByLabel('Gallery of mistakes').selectOption('histogram');
  let n = await renders(page);
  await page.getByRole('button', { name: 'Load the example', exact: true }).click();
  await after1(page, n);
  assert.match(await verdict(page), /^Fails for neighbours that change one person’s choice: .* is 2, above the claimed ε = 1\./);
  assert.match(await page.locator(`${W} .panel-stat`).first().textContent(), /two bars move/);
  assert.equal(await page.getByLabel('Mechanism', { exact: true }).inputValue(), 'laplace');
  n = await renders(page);
  await page.getByRole('button', { name: 'Load the fix', exact: true }).click();
  await after1(page, n);
  assert.match(await verdict(page), /^Holds for neighbours that change one person’s choice: .* is 1, within the claimed ε = 1\./);
  assert.equal(await page.getByLabel('Claimed sensitivity Δ').inputValue(), '2');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 100,000-data-set universe is audited in chunks with a progress bar', async () => {
  const { context, page, errors } = await open('#check.k=5&check.m=9&check.nb=add-remove&check.score=count%5Br%5D');
  // The first load already audited it; audit again and watch the progress bar.
  const n = await renders(page);
  const seen = page.waitForFunction((s) => !document.querySelector(`${s} progress[aria-label="Pairs audited"]`).hidden, W, { timeout: 60000 });
  await page.getByLabel('Claimed sensitivity Δ').fill('2');
  await page.getByLabel('Claimed sensitivity Δ').press('Enter');
  await seen;
  await after1(page, n);
  assert.match(await verdict(page), /over 450,000 neighbouring pairs of 100,000 data sets/);
  assert.ok(await page.locator(`${W} progress[aria-label="Pairs audited"]`).isHidden());
  assert.deepEqual(errors, []);
  await context.close();
});

test('the verdict names the neighbours audited; errors name the page’s controls, never a flag', async () => {
  const { context, page, errors } = await open('#check.k=4&check.m=5&check.nb=add-remove&check.score=count%5Br%5D');
  assert.match(await verdict(page), /^Holds for neighbours that add or remove one person: the worst loss over [\d,]+ neighbouring pairs of 1,296 data sets is 0\.4829, within the claimed ε = 1\./);
  // The largest universe the page allows, and one candidate under change-one.
  const error = page.locator(`${W} .widget-error`);
  /** type(label, value) types value in the widget's box of that label and waits for the redraw it causes. */
  const type = async (label, value) => {
    const n = await renders(page);
    const box = page.locator(W).getByLabel(label, { exact: true });
    await box.fill(value);
    await box.press('Enter');
    await after1(page, n);
  };
  await type('Candidates k', '6');
  await type('Largest count m', '60');
  const big = await error.textContent();
  assert.equal(big, 'Universe: (60+1)^6 data sets is more than the 16777216 an audit may check; lower “Largest count m” or “Candidates k”');
  // Each control it names is one on the page, by its visible label.
  for (const [, label] of big.matchAll(/“([^”]+)”/g)) assert.equal(await page.locator(W).getByLabel(label, { exact: true }).count(), 1, label);
  await type('Largest count m', '3');
  await type('Candidates k', '1');
  assert.equal(await verdict(page), 'Holds for neighbours that add or remove one person: the worst loss over 3 neighbouring pairs of 4 data sets is 0, within the claimed ε = 1.');
  const n = await renders(page);
  await page.locator(W).getByLabel('change one person’s choice', { exact: true }).check();
  await after1(page, n);
  const one = await error.textContent();
  assert.equal(one, 'Candidates k: neighbours that change one person’s choice need at least 2 candidates');
  for (const msg of [big, one]) assert.doesNotMatch(msg, /(^|\s)-[a-z]|max-count/);
  assert.deepEqual(errors, []);
  await context.close();
});
