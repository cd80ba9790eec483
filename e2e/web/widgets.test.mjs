// Widgets that stay true and fit (issue 29), in Debian's Chromium: each
// panel and lane says what its ε guarantees; a link's buyer past the market
// is clamped with the page's note; SmallDB prints what Proposition 4.4 gives
// at Theorem 4.5's whole m; every probability axis ends at 100% and no chart
// cuts its data off at the schema's corners; number boxes read what a person
// types; a link to a setting under "More settings" opens it. How many
// controls show, the phone's layout and axe on every page are the sweep's
// (sweep.test.mjs). Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, frameReady, harness, idle, live, siteIndex } from './harness.mjs';
import { ready } from './browser.mjs';

const index = siteIndex();
const slugs = index.lessons.map((l) => l.slug);
const web = harness(['index.html', 'dist/ is missing: run make site']);
const { schemas, selections } = await import(pathToFileURL(path.join(dist, 'gen', 'widgets.js')).href);

/** open(hash, opts) is a page in a fresh context; a phone (width < 600) has touch and no hover. */
const open = (hash, { width = 1280, ...opts } = {}) => web.open(hash, { width, ...opts, hasTouch: width < 600, isMobile: width < 600 });

/** go(page, hash, sel) sets the old link hash (#/slug?state) in the open page and waits until widget sel has drawn it. */
async function go(page, hash, sel) {
  await page.evaluate((h) => {
    if (location.hash === h) return;
    delete document.body.dataset.lessonReady;
    location.hash = h;
  }, hash);
  const slug = hash.replace(/^#\/([^?]*).*$/, '$1');
  try {
    // An old link (#/slug?state) is redirected to the lesson's own page.
    await page.waitForFunction((s) => document.body.dataset.lessonReady === s && location.pathname.endsWith(`/${s}/`), slug);
    await idle(page, sel, 60000);
  } catch (err) {
    err.message = `${hash}, ${sel}: ${err.message}`;
    throw err;
  }
}

test('report noisy max: each panel says what its ε guarantees; the machine runs each lane ε-private', async () => {
  const { context, page, errors } = await open('#/report-noisy-max', { lesson: 'report-noisy-max' });
  await idle(page, '#w-rnm');
  const label = await page.locator('#w-rnm .control-slider label').first().textContent();
  assert.match(label, /ε \(epsilon\), the same number in all four panels/);
  const said = await page.locator('#w-rnm .panel').evaluateAll((ps) => ps.map((p) => [p.querySelector('h4').textContent, p.querySelector('.panel-guarantee')?.textContent]));
  assert.equal(said.length, 4);
  const want = ['exponential', 'report-noisy-max-laplace', 'report-noisy-max-gumbel', 'permute-and-flip']
    .map((m) => selections.find((s) => s.mechanism === m && s.factor === 1));
  said.forEach(([title, text], i) => {
    assert.ok(title.startsWith(want[i].title), `panel ${i}: ${title}`);
    assert.equal(text, `At this ε: ${want[i].guarantee}.`);
  });
  assert.match(said[1][1], /only for counts with add-or-remove neighbours; otherwise only 2ε-private/);
  for (const i of [0, 2, 3]) assert.match(said[i][1], /ε-private for any scores that one person moves by at most Δ, with either neighbour notion/);
  // The machine on a change-one-answer page runs report noisy max with Laplace noise at scale 2Δ/ε.
  await go(page, '#/exponential-mechanism', '#w-meet');
  await live(page, 'figure.widget[data-id="machine"]');
  assert.match(await page.locator('figure.widget[data-id="machine"] .lane-guarantees').textContent(),
    /Exponential mechanism: ε-private for any scores.*Report noisy max \(Laplace 2Δ\/ε\): ε-private for any scores/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('truthfulness: a buyer past the market is clamped with the page\'s note, and the box is bounded by the market', async () => {
  const { context, page, errors } = await open('#/private-pricing?lie.buyer=7', { lesson: 'private-pricing' });
  await idle(page, '#w-lie');
  const title = await page.locator('#w-lie .widget-title').textContent();
  assert.match(await page.locator('#url-notes').textContent(), new RegExp(`${title.trim()}: buyer = 7 is outside 1 … 4, so 4 is used\\.`));
  const box = page.locator('#w-lie').getByLabel('Which buyer lies (1 = first)');
  assert.equal(await box.inputValue(), '4');
  await page.waitForFunction(() => /lie\.buyer=4(&|$)/.test(location.hash));
  assert.match(await page.locator('#w-lie .laplace-readout').textContent(), /^Buyer 4 values/);
  // Typed past the market: clamped to its size, and said under the box.
  let n = +(await page.locator('#w-lie').getAttribute('data-renders'));
  await box.fill('9');
  await box.press('Enter');
  assert.match(await page.locator('#w-lie .box-note').last().textContent(), /buyer = 9 is outside 1 … 4, so 4 is used/);
  await box.fill('2');
  await box.press('Enter');
  await page.waitForFunction(([k]) => +document.querySelector('#w-lie').dataset.renders > k && /lie\.buyer=2(&|$)/.test(location.hash), [n]);
  // A smaller market moves the liar into it.
  n = +(await page.locator('#w-lie').getAttribute('data-renders'));
  const values = page.locator('#w-lie').getByLabel(/Buyers’ values in dollars/);
  await values.fill('1; 3,5');
  await values.press('Enter');
  await page.waitForFunction(([k]) => +document.querySelector('#w-lie').dataset.renders > k && /lie\.values=1,3\.5(&|$)/.test(location.hash), [n]);
  assert.equal(await values.inputValue(), '1, 3.5');
  await values.fill('4');
  await values.press('Enter');
  await page.waitForFunction(() => /lie\.buyer=1(&|$)/.test(location.hash));
  assert.equal(await box.inputValue(), '1');
  assert.match(await page.locator('#w-lie .box-note').evaluateAll((ns) => ns.map((x) => x.textContent).join(' ')), /buyer = 2 is outside 1 … 1, so 1 is used/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('SmallDB at Theorem 4.5\'s own m prints what Proposition 4.4 gives at that whole m', async () => {
  // k = 3, 3-way marginals, ε = 0.8: α = 0.946 asks for m = ⌈4·ln|Q|/α²⌉ = 10 rows, where Proposition 4.4 gives 0.952.
  const { context, page, errors } = await open('#/small-database?sdb.k=3&sdb.q=marginals:3&sdb.eps=0.8&sdb.m=10&sdb.stage=levels', { lesson: 'small-database' });
  await live(page, '#w-sdb');
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.stage === 'levels' && !document.querySelector('#w-sdb').dataset.busy, null, { timeout: 60000 });
  const bounds = await page.locator('#w-sdb .loss-line').first().textContent();
  assert.match(bounds, /Proposition 4\.4 for this run \(m = 10, .*the max-error is at most 0\.952 /);
  assert.match(bounds, /Theorem 4\.5 for α = 0\.946 asks for m = 4·ln\|Q\|\/α² rows, rounded up here to ⌈4·ln\|Q\|\/α²⌉ = 10, this run's m\. At this whole m what holds is Proposition 4\.4 above: max-error at most 0\.952 with probability at least 0\.95, a little more than α/);
  assert.doesNotMatch(bounds, /promises max-error at most α/);
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * corners(name, base) lists the settings to try for widget name: its
 * opening values (base: the lesson block's), every number at its minimum
 * together and at its maximum together, each number alone at either end,
 * and each value of every choice. Keys that only replay draws (seed, step)
 * are left as they are.
 */
function corners(name, base) {
  const schema = schemas[name];
  const nums = Object.entries(schema).filter(([k, s]) => !SKIP.has(k) && (s.type === 'number' || s.type === 'int')).map(([k]) => k);
  const enums = Object.entries(schema).filter(([k, s]) => !SKIP.has(k) && s.type === 'enum').map(([k]) => k);
  const out = [{}];
  for (const end of ['min', 'max']) out.push(Object.fromEntries(nums.map((k) => [k, schema[k][end]])));
  for (const k of nums) for (const end of ['min', 'max']) out.push({ [k]: schema[k][end] });
  for (const k of enums) for (const v of schema[k].values) if (String(base[k] ?? schema[k].default) !== v) out.push({ [k]: v });
  return out;
}
const SKIP = new Set(['seed', 'step', 'src', 't', 'stage', 'u', 'mu', 'ax', 'ay', 'values', 'log', 'buyer', 'report']);

/**
 * setting(name, base, corner) is what a parent sends the embed page
 * (dpplay:set) for widget name to show corner as a link would: every
 * number and choice the corner leaves out at its opening value (base, or
 * the schema's default), in the kinds the message takes.
 */
function setting(name, base, corner) {
  const out = {};
  for (const [k, spec] of Object.entries(schemas[name])) {
    const v = k in corner ? corner[k] : SKIP.has(k) ? undefined : base[k] ?? spec.default;
    if (v === undefined || !['number', 'int', 'enum'].includes(spec.type)) continue;
    out[k] = spec.type === 'enum' ? String(v) : Number(v);
  }
  return out;
}

/** Widgets whose corners cost too much to draw in a test (SmallDB scores up to 10⁸ candidates there) get these instead. */
const fixedCorners = {
  smalldb: [{ k: 3, m: 1, eps: 0.05, stage: 'levels' }, { k: 3, m: 8, eps: 50, stage: 'levels' }, { k: 3, q: 'halfspaces', m: 6, eps: 1, stage: 'compare' }],
  mwem: [{ eps: 0.05, rounds: 1, t: 1 }, { eps: 50, rounds: 40, t: 40 }, { k: 5, q: 'marginals:3', eps: 1, rounds: 40, t: 40 }],
  audit: [], // another helper's widget
  machine: [], // no chart on the page: its canvas is another page's
  budget: [], measurebound: [], 'floating-point-attack': [], classrun: [], // tables and buttons, no chart
};

// Each widget is framed once, by its embed page, and set to each corner by
// the parent's dpplay:set, read as a link's values are (embedpage.js): a
// corner redraws one widget, not its whole lesson.
test('charts stay true at the schema\'s corners: a probability axis ends at 100%, no axis cuts its data off or runs far past it', async () => {
  const { context, page, errors } = await open(`${slugs[0]}/`, { lesson: slugs[0] });
  const widgets = [];
  const done = new Set(); // one instance of each widget: the others share its code and schema
  for (const slug of slugs) {
    if (slug !== slugs[0]) await page.locator(`#lesson-nav a[data-slug="${slug}"]`).click();
    await ready(page, slug);
    const figs = await page.locator('#lesson figure.widget').evaluateAll((fs) => fs.map((f) => ({ id: f.dataset.id, name: f.dataset.widget, params: JSON.parse(f.dataset.params || '{}') })));
    for (const f of figs) {
      if (!schemas[f.name] || done.has(f.name) || (fixedCorners[f.name] && !fixedCorners[f.name].length)) continue;
      done.add(f.name);
      widgets.push({ slug, ...f });
    }
  }
  let checked = 0;
  for (const f of widgets) {
    const part = `embed.html#/${f.slug}/${f.id}`;
    await page.setContent(`<iframe title="${f.id}" src="${web.server.url}${part}" style="width: 1280px; height: 1000px; border: 0"></iframe>`);
    const frame = await frameReady(page, part);
    for (const c of fixedCorners[f.name] || corners(f.name, f.params)) {
      const what = Object.entries(c).map(([k, v]) => `${k}=${v}`).join('&') || '(opening values)';
      if (Object.keys(c).length) {
        await frame.evaluate(() => { document.querySelector('figure.widget').dataset.was = ''; });
        await page.evaluate((params) => frames[0].postMessage({ type: 'dpplay:set', params }, '*'), setting(f.name, f.params, c));
        await frame.waitForFunction((stage) => {
          const fig = document.querySelector('figure.widget');
          return fig && !('was' in fig.dataset) && fig.dataset.renders && !fig.dataset.busy && (!stage || fig.dataset.stage === stage);
        }, c.stage, { timeout: 60000 }).catch((err) => { err.message = `${part} ${what}: ${err.message}`; throw err; });
      }
      const axes = await frame.locator('figure.widget svg[data-axis-top]').evaluateAll((ss) => ss.filter((s) => s.getClientRects().length).map((s) => ({
        title: s.querySelector('title').textContent, top: +s.dataset.axisTop, max: +s.dataset.dataMax, cap: s.dataset.axisCap ? +s.dataset.axisCap : null,
        ticks: [...s.querySelectorAll('.grid text')].map((t) => t.textContent),
      })));
      for (const a of axes) {
        const where = `${f.slug}/${f.id} ${what}: ${a.title}`;
        assert.ok(a.top >= a.max * (1 - 1e-9), `${where}: axis ends at ${a.top} below the data's ${a.max}`);
        if (a.cap !== null) {
          assert.ok(a.top <= a.cap, `${where}: a probability axis runs to ${a.top}`);
          assert.ok(!a.ticks.some((t) => /^(\d+(\.\d+)?)%$/.test(t) && parseFloat(t) > 100), `${where}: ticks past 100%: ${a.ticks}`);
        }
        if (a.max > 0) assert.ok(a.top <= Math.max(2.2 * a.max, 0.05), `${where}: data up to ${a.max}, axis to ${a.top}: mostly empty`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 150, `only ${checked} chart axes checked`);
  console.log(`axes checked: ${checked} over ${widgets.length} widgets`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the exponential mechanism checks the typed Δ against the scores’ sensitivity and names its neighbours', async () => {
  const { context, page, errors } = await open('#/exponential-mechanism?meet.eps=20&meet.delta=0.001', { lesson: 'exponential-mechanism' });
  const line = (w) => page.locator(`${w} .formula-values`).textContent();
  await idle(page, '#w-meet');
  assert.equal(await line('#w-meet'), 'with ε = 20, Δ = 0.001: no guarantee at ε = 20. One person moves a score by up to 1, more than Δ, so for change-one-answer neighbours (and add-or-remove ones) the proof gives only ε·1/Δ = 20000.');
  await go(page, '#/exponential-mechanism?meet.delta=0.9999', '#w-meet');
  assert.match(await line('#w-meet'), /^with ε = 1, Δ = 0\.9999: no guarantee at ε = 1\. .* = 1\.0001\.$/);
  await go(page, '#/exponential-mechanism?meet.delta=1', '#w-meet');
  assert.match(await line('#w-meet'), /^with ε = 1, Δ = 1: this is ε-differentially private, ε = 1, for change-one-answer neighbours \(and add-or-remove ones\): one person moves each score by at most Δ = 1/);
  // The Adult scores in thousands: one person moves a score by 0.001, and
  // Δ = 0.001, the box's smallest, is exactly that.
  assert.match(await line('#w-adult'), /since Δ is more than the scores’ sensitivity, 0\.001: for one person the privacy loss is at most ε·0\.001\/Δ = 0\.001\.$/);
  await go(page, '#/exponential-mechanism?adult.delta=0.001', '#w-adult');
  assert.match(await line('#w-adult'), /^with ε = 1, Δ = 0\.001: this is ε-differentially private, ε = 1, .*at most Δ = 0\.001, the scores’ sensitivity\.$/);
  // Scores typed in: the condition, not a verdict.
  await go(page, '#/exponential-mechanism?meet.u=21,27,25,27,18', '#w-meet');
  assert.match(await line('#w-meet'), /if one person can move each score by at most Δ, the scores’ sensitivity\. For these scores the widget cannot check that/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Laplace, discrete Laplace, pricing, budget, MWEM and billboard readouts name their neighbours', async () => {
  const { context, page, errors } = await open('#/laplace-from-exponential', { lesson: 'laplace-from-exponential' });
  await idle(page, '#w-lap');
  assert.match(await page.locator('#w-lap .laplace-readout').textContent(),
    /The general theorem certifies εrun = 1, under either neighbour notion when Δq is at least the query’s sensitivity, the most one person moves q\(x\)\. The exact privacy loss against the neighbours q\(x\) ± Δq: 0\.5\./);
  await go(page, '#/floating-point', '#w-dl');
  assert.match(await page.locator('#w-dl .fp-stat').textContent(),
    /^Scale σ = Δ\/ε with Δ = 1, rounded up to a multiple of 1\/4096: achieved ε = [\d.]+ for a count, which one person moves by at most 1 under either neighbour notion\./);
  await go(page, '#/private-pricing', '#w-price');
  assert.match(await page.locator('#w-price .laplace-readout').textContent(),
    /The price is ε-differentially private for change-one-answer neighbours \(one buyer’s value changes\): that buyer moves the revenue at each price by at most the price, so Δ is the highest price, \$5\.00\./);
  assert.match(await page.locator('#w-lie .laplace-readout').textContent(), /ε-differential privacy for change-one-answer neighbours, where a lie is one buyer's report changed, caps every lie's gain at/);
  await go(page, '#/report-noisy-max', '#w-budget');
  assert.match(await page.locator('#w-budget .budget-numbers').textContent(), /The charges add up for add-or-remove neighbours, under which a selection by report noisy max on counts is ε-private\.$/);
  await go(page, '#/mwem', '#w-mw');
  assert.match(await page.locator('#w-mw .budget-numbers').textContent(), /Each charge is ε\/\(2T\)-differentially private for change-one-answer neighbours \(one patient’s record changes\), and the T rounds together are ε-private by sequential composition\.$/);
  await go(page, '#/billboard-prices?board.t=129', '#w-board');
  assert.match(await page.locator('#w-board').textContent(), /Privacy, for neighbours that change one buyer’s report \(jointly private for what the other buyers receive; the prices alone ε-differentially private\): ε spent/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('typed numbers: a lone comma is a decimal point, the value as read is shown, nonsense changes nothing, out of range is clamped', async () => {
  const { context, page, errors } = await open('#/exponential-mechanism', { lesson: 'exponential-mechanism' });
  const w = '#w-meet';
  await idle(page, w);
  const box = page.locator(`${w} .slider-box`);
  const note = page.locator(`${w} .slider-note`);
  const typed = async (loc, text) => { await loc.fill(text); await loc.press('Enter'); };
  await typed(box, '0,5');
  await page.waitForFunction(() => /meet\.eps=0\.5(&|$)/.test(location.hash));
  assert.equal(await box.inputValue(), '0.5');
  assert.equal(await note.textContent(), 'Read as 0.5. A comma is read as a decimal point.');
  assert.equal(await page.locator(`${w} input[type=range]`).getAttribute('aria-valuetext'), 'ε = 0.5');
  await typed(box, '3/4');
  await page.waitForFunction(() => /meet\.eps=0\.75(&|$)/.test(location.hash));
  assert.equal(await note.textContent(), 'Read as 0.75.');
  await typed(box, 'two');
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  assert.match(await note.textContent(), /^Not a number I can read\. Type a number from 0\.01 to 20\.$/);
  assert.match(page.url(), /meet\.eps=0\.75(&|$)/);
  await typed(box, '1e3');
  await page.waitForFunction(() => /meet\.eps=20(&|$)/.test(location.hash));
  assert.match(await note.textContent(), /ε \(epsilon\) = 1000 is outside 0\.01 … 20, so 20 is used\./);
  assert.equal(await box.getAttribute('aria-invalid'), null);
  // A plain number box (Δ), and its keyboard: a text box with a decimal keypad on phones.
  const delta = page.locator(`${w} input[id*="-delta-"]`);
  assert.equal(await delta.getAttribute('type'), 'text');
  assert.equal(await delta.getAttribute('inputmode'), 'decimal');
  await typed(delta, ' 2,5 ');
  await page.waitForFunction(() => /meet\.delta=2\.5(&|$)/.test(location.hash));
  assert.equal(await delta.inputValue(), '2.5');
  assert.match(await page.locator(`${w} [id$="-note"].box-note`).first().textContent(), /^Read as 2\.5\. A comma is read as a decimal point\.$/);
  await typed(delta, '1/0');
  assert.equal(await delta.getAttribute('aria-invalid'), 'true');
  assert.match(page.url(), /meet\.delta=2\.5(&|$)/);
  // A whole-number box rounds, and says so.
  await go(page, '#/how-accurate', '#w-acc');
  const n = page.getByLabel('Candidates |R|');
  await typed(n, '12,6');
  await page.waitForFunction(() => /acc\.n=13(&|$)/.test(location.hash));
  assert.match(await page.locator('#w-acc .box-note').first().textContent(), /Read as 12\.6\. A comma is read as a decimal point\. .*a whole number, so 13\./);
  assert.deepEqual(errors, []);
  await context.close();
});

// At most four controls in view, and "More settings" closed on a lesson's
// own values, on every page at 1280 and 390 px: the sweep's.
test('a link that sets a key under "More settings" opens it; Tab reaches its summary and Enter opens it too', async () => {
  const { context, page, errors } = await open('#/laplace-from-exponential?lap.mode=grid&lap.h=2', { lesson: 'laplace-from-exponential' });
  await idle(page, '#w-lap');
  const more = page.locator('#w-lap details.more-settings');
  assert.equal(await more.evaluate((d) => d.open), true, 'a link setting the grid opens More settings');
  assert.equal(await page.getByLabel('Grid spacing h', { exact: false }).first().isVisible(), true);
  await go(page, '#/laplace-from-exponential', '#w-lap');
  const more2 = page.locator('#w-lap details.more-settings');
  assert.equal(await more2.evaluate((d) => d.open), false);
  await more2.locator('summary').focus();
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'More settings');
  await page.keyboard.press('Enter');
  assert.equal(await more2.evaluate((d) => d.open), true);
  await page.locator('#w-lap').getByRole('radio', { name: 'A grid of spacing h' }).check();
  await page.waitForFunction(() => /lap\.mode=grid(&|$)/.test(location.hash));
  // In the accessibility tree: the summary is a named, focusable control.
  const tree = await page.locator('#w-lap').ariaSnapshot();
  assert.match(tree, /More settings/);
  assert.deepEqual(errors, []);
  await context.close();
});
