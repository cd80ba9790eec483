// The private-pricing and billboard-prices lessons end to end in Chromium: a
// buyer's report dragged with the keyboard changes the exact expected-utility
// table and keeps every gain within the privacy bound; the billboard stepper
// advances round by round, keeps the round in the URL and reaches the final
// allocation with welfare, over-allocation and the ε spent. Run `make site`
// first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ready } from './browser.mjs';
import { harness, idle, renders, rerendered } from './harness.mjs';

const web = harness(...['private-pricing', 'billboard-prices'].map((slug) => [path.join(slug, 'index.html'), `dist/ has no ${slug}: run make site`]));
const open = (slug, hash = '') => web.open(`${slug}/${hash}`, { lesson: slug });

// The utility chart's data table: one row per report, [report, E[utility], truthful].
async function utilityTable(page) {
  return page.locator('#w-lie .data-table table tbody tr').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => Number(c.textContent.replace(/[$,]/g, '')))));
}

test('private pricing: dragging a report changes the utility, and no lie beats the privacy bound', async () => {
  const { context, page, errors } = await open('private-pricing');
  await idle(page, '#w-lie');
  const readout = page.locator('#w-lie .laplace-readout');
  const before = await readout.textContent();
  assert.match(before, /Buyer 4 values the good at \$4\.01/);
  assert.match(before, /Reporting \$4\.01: .*\(no change\)/);
  const table = await utilityTable(page);
  assert.equal(table.length, 501, 'one row for $0 and one per report on the $0.01 grid up to $5.00');
  assert.equal(table[0][0], 0, 'the first report is $0, below every price');
  const truthful = table[401][2];
  assert.ok(Math.abs(table[401][1] - truthful) <= 1e-3 * Math.max(1, truthful), 'reporting the value is the truthful utility');
  // The best lie in the table, and the bound the readout states, each named
  // by its source: the displayed cap, then the slides' ε·B and its proof's
  // (1 − e^−ε)·B, which are looser.
  const gain = Math.max(...table.map((r) => r[1] - r[2]));
  const bound = Number(before.match(/caps every lie's gain at ([\d.]+)/)[1]);
  const slides = Number(before.match(/slides' theorem gives ε·B = ([\d.]+)/)[1]);
  const proof = Number(before.match(/\)·B = ([\d.]+)\./)[1]);
  assert.ok(gain <= bound + 1e-3, `best gain ${gain} within the bound ${bound}`);
  assert.ok(bound <= proof + 1e-3 && proof <= slides + 1e-3, `bounds ordered: ${bound} ≤ ${proof} ≤ ${slides}`);
  assert.equal(slides, 4, 'ε·B with ε = 1 and B = $4.00');

  // Drag the report to the bottom of the grid with the keyboard, then two steps up.
  const slider = page.locator('#w-lie input[type=range]').nth(1);
  let n = await renders(page, '#w-lie');
  await slider.focus();
  await page.keyboard.press('Home');
  await rerendered(page, '#w-lie', n);
  n = await renders(page, '#w-lie');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await rerendered(page, '#w-lie', n);
  // Home is $0 and each arrow one $0.01 step; the URL is written after the redraw.
  await page.waitForFunction(() => /lie\.report=0\.02(&|$)/.test(location.hash));
  const report = Number((await page.evaluate(() => location.hash)).match(/lie\.report=([\d.]+)/)[1]);
  assert.ok(report < 1, `the report went down to ${report}`);
  const after = await readout.textContent();
  assert.notEqual(after, before);
  assert.match(after, new RegExp(`Reporting \\$${report.toFixed(2).replace('.', '\\.')}:`));
  // The readout's utility for the lie is the table's row for that report,
  // and whatever it gains stays within the bound.
  const row = table.find((r) => Math.abs(r[0] - report) < 1e-9);
  const shown = Number(after.match(/Reporting \$[\d.]+: ([\d.]+)/)[1]);
  assert.ok(Math.abs(shown - row[1]) <= 1e-2 * Math.max(1, row[1]), `readout ${shown} against table ${row[1]}`);
  assert.ok(row[1] - row[2] <= bound + 1e-3);
  // Without privacy one lie moves the posted price a lot and pays far more.
  const det = Number(after.match(/moves the price to \$[\d.]+ and gains (\d+(?:\.\d+)?)/)[1]);
  assert.ok(det > gain, `the deterministic lie gains ${det}, more than the private best lie ${gain}`);

  // Changing ε moves the whole utility table (a fresh load of the link: from
  // the same page only the fragment would change, and the widget remount).
  await page.goto('about:blank');
  await page.goto(`${web.server.url}private-pricing/#lie.eps=10`);
  await ready(page, 'private-pricing');
  await idle(page, '#w-lie');
  const sharp = await utilityTable(page);
  assert.notDeepEqual(sharp.map((r) => r[1]), table.map((r) => r[1]));
  assert.deepEqual(errors, []);
  await context.close();
});

test('billboard prices: the stepper advances rounds and reaches the final allocation', async () => {
  const { context, page, errors } = await open('billboard-prices', '#board.rounds=16');
  await idle(page, '#w-board');
  const round = page.locator('#w-board .billboard-round');
  assert.match(await round.locator('h4').textContent(), /^Round 1 of 16$/);
  // Round 1: all prices are 0, so everybody wants the good they like best.
  const prices = await round.locator('tbody tr td:nth-child(2)').allTextContents();
  assert.deepEqual(prices.map(Number), [0, 0, 0]);
  const next = page.locator('#w-board button', { hasText: 'Next round' });
  for (const t of [2, 3]) {
    const n = await renders(page, '#w-board');
    await next.click();
    await rerendered(page, '#w-board', n);
    assert.match(await round.locator('h4').textContent(), new RegExp(`^Round ${t} of 16$`));
  }
  await page.waitForFunction(() => /board\.t=3/.test(location.hash));
  // The chart's data table holds one row per round plus the final prices.
  assert.equal(await page.locator('#w-board .data-table table tbody tr').count(), 17);

  const n = await renders(page, '#w-board');
  await page.locator('#w-board button', { hasText: 'Go to the allocation' }).click();
  await rerendered(page, '#w-board', n);
  assert.match(await round.locator('h4').textContent(), /^The allocation$/);
  assert.equal(await round.locator('tbody tr').count(), 3);
  // The overshoot is on screen: per good, copies over the supply and the exact chance of overshooting.
  const head = await round.locator('thead th').allTextContents();
  assert.deepEqual(head.slice(-3), ['Over', 'Mean', 'P(over)']);
  for (const c of await round.locator('tbody tr td:last-child').allTextContents()) assert.match(c, /^\d{1,3}%$/);
  assert.match(await round.locator('.hint').textContent(), /jointly private, and it can exceed the supply/);
  // The totals use every buyer's demand: labelled as no private release, with the payment rule stated.
  assert.match(await round.locator('caption').textContent(), /every buyer's demand, yours included: not a jointly private release/);
  assert.match(await round.locator('.hint').textContent(), /pays that round's price.*shown for teaching, not released/);
  const final = await page.locator('#w-board .laplace-readout').textContent();
  const m = final.match(/which is (\d+)% of the best possible/);
  assert.ok(m && +m[1] > 0 && +m[1] <= 100, `welfare share in (0, 100]: ${final}`);
  const spent = Number(final.match(/ε spent ([\d.]+)/)[1]);
  assert.ok(Math.abs(spent - 1) < 1e-9, `the ledger adds up to ε = 1, got ${spent}`);
  await page.waitForFunction(() => /board\.t=17/.test(location.hash));
  // The derivation exercise names what a likely wrong answer got wrong.
  const ex = page.locator('section.exercise').first();
  await ex.locator('input').fill('16');
  await ex.locator('button').click();
  await page.waitForFunction((el) => /^✗ That is T\/ε/.test(el.querySelector('.exercise-result').textContent), await ex.elementHandle());
  await ex.locator('input').fill('7');
  await ex.locator('button').click();
  await page.waitForFunction((el) => /^✗ Not yet\. Add up/.test(el.querySelector('.exercise-result').textContent), await ex.elementHandle());
  assert.deepEqual(errors, []);
  await context.close();
});
