// The synthetic-data lessons end to end in Chromium: SmallDB stage by stage
// and run to the end (progress reaching 100%, exact error levels summing to
// 1, the URL reproducing the draw, ε moved after the run), the
// ask-before-a-long-run panel and Cancel, which points to the MWEM lesson,
// MWEM round by round on its own lesson, and axe on the finished pages. Run
// `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ready } from './browser.mjs';
import { axe, dpplayBin, harness, live, root } from './harness.mjs';

const slug = 'small-database';
const web = harness([path.join(slug, 'index.html'), 'dist/ has no small-database lesson: run make site'],
  [path.join('mwem', 'index.html'), 'dist/ has no mwem lesson: run make site']);

async function open(hash) {
  const o = await web.open(hash, { lesson: slug });
  await idle(o.page, '#w-sdb');
  return o;
}
/** idle(page, sel) brings the widget sel live and waits until it is not busy. */
async function idle(page, sel) {
  await live(page, sel);
  await page.waitForFunction((s) => !document.querySelector(s).dataset.busy, sel, { timeout: 20000 });
}
const stage = (page) => page.locator('#w-sdb').getAttribute('data-stage');
const button = (page, sel, name) => page.locator(`${sel} button`, { hasText: name }).first();

// The levels chart's histogram is app/synth's (View.Band*): the page draws
// what the synth module returns and dpplay figures draws the same View, so
// the page's bands (its bars' data table) are the figure's, band by band.
test('SmallDB: the page draws the levels histogram that dpplay figures draws', async () => {
  const link = `#/${slug}?sdb.k=3&sdb.q=marginals:2&sdb.m=5&sdb.eps=0.5&sdb.seed=3&sdb.stage=levels`;
  const { context, page, errors } = await open(link);
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.stage === 'levels' && !document.querySelector('#w-sdb').dataset.busy, null, { timeout: 20000 });
  const table = page.locator('#w-sdb table.bars-table');
  const caption = await table.locator('caption').textContent();
  const heights = await table.locator('tbody td').allTextContents();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-levels-'));
  execFileSync(dpplayBin(), ['figures', '-out', out, '-format', 'json', '-state', link], { cwd: root, encoding: 'utf8' });
  const file = fs.readdirSync(out).find((f) => f.endsWith('-sdb-levels.json'));
  const bars = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')).series.find((x) => x.kind === 'bars');
  assert.equal(caption, bars.name, 'the band width');
  assert.ok(heights.length > 5, `${heights.length} bands`);
  assert.deepEqual(heights, bars.y.map((h) => String(+h.toPrecision(4))), 'the probability in each band');
  assert.deepEqual(errors, []);
  await context.close();
});

test('SmallDB: stages one by one, then a full run with progress to 100% and exact levels', async () => {
  const { context, page, errors } = await open(`${slug}/#sdb.m=8`);
  assert.equal(await stage(page), 'data');
  // Record every progress value the page shows.
  await page.evaluate(() => {
    window.seen = [];
    new MutationObserver(() => window.seen.push(+document.querySelector('#w-sdb').dataset.progress))
      .observe(document.querySelector('#w-sdb'), { attributes: true, attributeFilter: ['data-progress'] });
  });
  for (const want of ['queries', 'count']) {
    await button(page, '#w-sdb', 'Next stage').click();
    await page.waitForFunction((w) => document.querySelector('#w-sdb').dataset.stage === w, want);
  }
  assert.match(await page.locator('#w-sdb').textContent(), /C\(16 \+ 8 − 1, 8\) =\s*490,314/);
  assert.match(await page.locator('#w-sdb').textContent(), /Predicted scoring time: (\d+ ms|\d+(\.\d+)? s)\./);
  await button(page, '#w-sdb', 'Next stage').click(); // scoring, through to the levels
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.stage === 'levels' && !document.querySelector('#w-sdb').dataset.busy, null, { timeout: 20000 });
  const seen = await page.evaluate(() => window.seen);
  assert.equal(seen[seen.length - 1], 1, 'progress reaches 100%');
  assert.ok(seen.every((x, i) => i === 0 || x >= seen[i - 1]), `progress never goes back: ${seen}`);
  const sum = Number(await page.locator('#w-sdb').getAttribute('data-prob-sum'));
  assert.ok(Math.abs(sum - 1) < 1e-9, `error levels sum to ${sum}`);
  assert.match(await page.locator('#w-sdb .synth-progress-text').textContent(), /All 490,314 candidates scored/);
  // The run is measured against Proposition 4.4 at its own m; Theorem 4.5
  // is shown with the m it is about (11 rows at ε = 1), not as a bound on
  // this m = 8 run.
  const bounds = await page.locator('#w-sdb .loss-line').textContent();
  assert.match(bounds, /Proposition 4\.4 for this run \(m = 8,/);
  assert.match(bounds, /Exact probability that this run exceeds it: /);
  assert.match(bounds, /SmallDB with its own m = ⌈4·ln\|Q\|\/α²⌉ = 11 rows/);
  assert.match(bounds, /It says nothing about this run, whose m is 8\./);
  assert.doesNotMatch(bounds, /exceeding Theorem 4\.5/);
  // The CDF in the levels chart's data table ends at 1.
  const lastCdf = await page.locator('#w-sdb .line-chart').first().locator('.data-table table tbody tr:last-child td').first().textContent();
  assert.equal(lastCdf, '1');
  // On to the end.
  await button(page, '#w-sdb', 'Run to the end').click();
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.stage === 'compare' && !document.querySelector('#w-sdb').dataset.busy);
  const drawn = await page.locator('#w-sdb .synth-big strong').last().textContent();
  assert.match(drawn, /^0\.\d+$/);
  const worst = await page.locator('#w-sdb tr.synth-worst').count();
  assert.equal(worst, 1, 'the worst query is marked');
  await page.waitForFunction(() => /sdb\.stage=compare/.test(location.hash));

  // A reload reproduces the draw from the URL.
  await page.reload();
  await ready(page, slug);
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.stage === 'compare' && !document.querySelector('#w-sdb').dataset.busy, null, { timeout: 20000 });
  assert.equal(await page.locator('#w-sdb .synth-big strong').last().textContent(), drawn);

  // ε moved after the run: the levels are reweighted without scoring again,
  // the stage stays, and the expected error falls.
  const expected = async () => Number((await page.locator('#w-sdb .loss-line strong').first().textContent()));
  const before = await expected();
  const slider = page.locator('#w-sdb input[type=range]').nth(1);
  await slider.focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => /sdb\.eps=50(&|$)/.test(location.hash));
  await idle(page, '#w-sdb');
  assert.equal(await stage(page), 'compare');
  assert.ok(await expected() < before, `expected error ${await expected()} is not below ${before} after raising ε`);

  // Back to the levels keeps the scores.
  await page.locator('#w-sdb').click({ position: { x: 5, y: 5 } });
  await button(page, '#w-sdb', 'Back').click();
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.stage === 'draw');

  await axe(page, 'the SmallDB widget', '#w-sdb');
  assert.deepEqual(errors, []);
  await context.close();
});

test('SmallDB: a long run asks first, and Cancel stops it', async () => {
  const { context, page, errors } = await open(`${slug}/#sdb.k=5&sdb.m=8&sdb.stage=count`);
  assert.match(await page.locator('#w-sdb').textContent(), /61,523,748/);
  await button(page, '#w-sdb', 'Run to the end').click();
  await page.waitForSelector('#w-sdb .synth-ask:not([hidden])');
  assert.equal(await stage(page), 'count', 'nothing is scored before the student agrees');
  assert.ok(await button(page, '#w-sdb', 'Try MWEM instead').isVisible());
  await button(page, '#w-sdb', 'Score them anyway').click();
  await page.waitForFunction(() => +document.querySelector('#w-sdb').dataset.progress > 0.02, null, { timeout: 20000 });
  const cancel = button(page, '#w-sdb', 'Cancel');
  assert.ok(await cancel.isEnabled());
  await cancel.click();
  await page.waitForFunction(() => /Cancelled after scoring/.test(document.querySelector('#w-sdb .synth-progress-text').textContent), null, { timeout: 10000 });
  await idle(page, '#w-sdb');
  assert.equal(await stage(page), 'count');
  await page.waitForFunction(() => /sdb\.stage=count/.test(location.hash));
  const p = Number(await page.locator('#w-sdb').getAttribute('data-progress'));
  assert.ok(p > 0 && p < 1, `cancelled at ${p}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('SmallDB: "Try MWEM instead" opens the MWEM lesson on the same attributes, queries and ε', async () => {
  const { context, page, errors } = await open(`${slug}/#sdb.k=5&sdb.m=8&sdb.eps=2&sdb.stage=count`);
  await button(page, '#w-sdb', 'Run to the end').click();
  await page.waitForSelector('#w-sdb .synth-ask:not([hidden])');
  await button(page, '#w-sdb', 'Try MWEM instead').click();
  await ready(page, 'mwem');
  await idle(page, '#w-mw');
  assert.match(page.url(), /\/dpplay\/mwem\/#.*mw\.k=5.*mw\.eps=2/);
  assert.match(await page.locator('#w-mw').textContent(), /ε spent 0 of 2/);
  assert.equal(await page.locator('#w-mw .synth-scroll tbody tr').count(), 40, 'all 2-way marginals of 5 attributes');
  assert.deepEqual(errors, []);
  await context.close();
});

test('MWEM: rounds one by one and all at once, with the budget spent exactly', async () => {
  const { context, page, errors } = await web.open('mwem/', { lesson: 'mwem' });
  await idle(page, '#w-mw');
  assert.match(await page.locator('#w-mw .loss-line').textContent(), /No rounds yet/);
  await button(page, '#w-mw', 'Next round').click();
  await page.waitForFunction(() => document.querySelector('#w-mw').dataset.round === '1' && !document.querySelector('#w-mw').dataset.busy);
  assert.match(await page.locator('#w-mw .budget-numbers').textContent(), /ε spent 0\.1 of 1: 2 charges/);
  await button(page, '#w-mw', 'All rounds').click();
  await page.waitForFunction(() => document.querySelector('#w-mw').dataset.round === '10' && !document.querySelector('#w-mw').dataset.busy);
  assert.match(await page.locator('#w-mw .budget-numbers').textContent(), /ε spent 1 of 1: 20 charges/);
  assert.match(await page.locator('#w-mw .loss-line').textContent(), /SmallDB with m = 6 at the same ε: expected 0\.143/);
  await page.waitForFunction(() => /mw\.t=10/.test(location.hash));
  assert.deepEqual(errors, []);
  await context.close();
});
