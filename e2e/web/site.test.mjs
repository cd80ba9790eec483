// End-to-end tests of the playground in Debian's Chromium (playwright-core):
// the site is served from dist/ under the sub-path /dpplay/, as GitHub Pages
// serves a project site. Run `make site` first (make test-e2e does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ready } from './browser.mjs';
import { axe, checked, everyLive, harness, idle, live, shoot, siteIndex, steady, dist } from './harness.mjs';
import { serve } from './server.mjs';
import { firstLoad, BUDGET_BYTES } from '../../scripts/bundle-size.mjs';

const index = siteIndex();
const slugs = index.lessons.map((l) => l.slug);
const web = harness(['index.html', 'dist/ is missing: run make site']);
const open = web.open;

const tableText = (page, sel) => page.locator(`${sel} .data-table table`).first().evaluate((t) => t.textContent);
const chartDesc = (page, sel) => page.locator(`${sel} svg desc`).first().textContent();
/** settled waits until widget sel has no pending work and the hash matches re. */
async function settled(page, sel, re) {
  await page.waitForFunction(([s, src]) => !document.querySelector(s).dataset.busy && new RegExp(src).test(location.hash), [sel, re.source]);
}
async function renders(page, sel) { return Number(await page.locator(sel).getAttribute('data-renders')); }

test('moving ε with the keyboard changes the chart and its data table; reload reproduces them', async () => {
  await checked(await open('exponential-mechanism/', { lesson: 'exponential-mechanism' }), async ({ page }) => {
    const w = '#w-meet';
    await live(page, w);
    const table0 = await tableText(page, w);
    const desc0 = await chartDesc(page, w);
    const slider = page.locator(`${w} input[type=range]`);
    assert.match(await page.locator(`label[for="${await slider.getAttribute('id')}"]`).textContent(), /ε \(epsilon\)/);
    const n0 = await renders(page, w);
    await slider.focus();
    for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel).dataset.renders) > n, [w, n0]);
    await settled(page, w, /meet\.eps=0\.\d+/);
    const table1 = await tableText(page, w);
    assert.notEqual(table1, table0, 'data table unchanged after moving ε');
    assert.notEqual(await chartDesc(page, w), desc0, 'chart description unchanged after moving ε');
    assert.match(page.url(), /meet\.eps=0\.\d+/);
    // Draw two more batches with Space (focus in the widget, not on a control).
    await page.locator(w).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => /3 batches/.test(document.querySelector('#w-meet .draw-status').textContent));
    await settled(page, w, /meet\.step=3/);
    const url = page.url();
    assert.match(url, /meet\.step=3/);
    const before = await tableText(page, w);
    await page.reload();
    await ready(page, 'exponential-mechanism');
    assert.equal(await tableText(page, w), before, 'reload changed the numbers');
    // The same link in a brand-new browser context gives the same numbers too.
    await checked(await open(url.slice(web.server.url.length), { lesson: 'exponential-mechanism' }), async (other) => {
      assert.equal(await tableText(other.page, w), before, 'a fresh context gave different numbers');
    });
  });
});

test('a bad hash is clamped with a visible note and never crashes', async () => {
  const { context, page, errors } = await open('exponential-mechanism/#meet.eps=999&meet.seed=abc&meet.data=nope&meet.step=-4&meet.u=1,2', { lesson: 'exponential-mechanism' });
  const notes = page.locator('#url-notes');
  assert.ok(await notes.isVisible());
  const text = await notes.textContent();
  assert.match(text, /ε = 999 is outside/);
  assert.match(text, /seed/);
  assert.match(text, /data set/);
  assert.equal(await page.locator('#w-meet .slider-box').first().inputValue(), '20');
  assert.equal(await page.locator('#w-meet input[type=range]').first().getAttribute('aria-valuetext'), 'ε = 20');
  assert.match(page.url(), /meet\.eps=20&/);
  const unknown = await open('#/no-such-lesson?x=1');
  await ready(unknown.page, slugs[0]);
  assert.match(await unknown.page.locator('#url-notes').textContent(), /no lesson called/);
  assert.deepEqual(errors, []);
  assert.deepEqual(unknown.errors, []);
  await unknown.context.close();
  await context.close();
});

test('a fragment that cannot be decoded, garbage or far too long is dropped with a note, on load and on hashchange', async () => {
  /** check waits until page shows lesson slug with widget drawn, and returns the note above it. */
  const check = async (page, slug, widget) => {
    await ready(page, slug);
    assert.equal(await page.locator('#lesson article.lesson').getAttribute('data-slug'), slug, 'the lesson shown');
    if (widget) await idle(page, widget);
    const notes = page.locator('#url-notes');
    assert.ok(await notes.isVisible(), 'a note is shown');
    const text = await notes.textContent();
    assert.doesNotMatch(text, /went wrong/);
    return text;
  };
  // [the page's slug, its fragment, the widget to wait for, the note, what the address keeps]
  const cases = [
    // A malformed percent-escape in a name: that setting goes, the rest stay.
    ['report-noisy-max', '#%E0=1&rnm.eps=2', '#w-rnm', /setting name “%E0” .*not validly encoded/, /rnm\.eps=2(&|$)/],
    ['report-noisy-max', '#rnm.%ZZeps=3&rnm.seed=9', '#w-rnm', /“rnm\.%ZZeps”/, /rnm\.seed=9(&|$)/],
    // A malformed value: the usual value is used, and the note says so.
    ['report-noisy-max', '#rnm.eps=%E0%A4&rnm.seed=5', '#w-rnm', /value of “rnm\.eps” .*not validly encoded/, /rnm\.eps=1&.*rnm\.seed=5/],
    ['exponential-mechanism', '#meet.eps=2%&meet.step=2', '#w-meet', /value of “meet\.eps”/, /meet\.step=2(&|$)/],
    // Garbage.
    [slugs[0], '#%%%E0/..\\?&&==%?%=%&==%E0%%', '#lesson figure.widget', /not validly encoded/, null],
    ['exponential-mechanism', '#=&&=&%&%%=%E0&meet.=1&.=&&&', '#w-meet', /not validly encoded/, null],
    // Far too long: cut, with a note; what was read still applies.
    ['exponential-mechanism', '#meet.eps=2&' + 'meet.x%E0=1&'.repeat(4000), '#w-meet', /characters long; only its first 16,000 were read/, /meet\.eps=2(&|$)/],
  ];
  // Each case in a new page of one context: loaded afresh, with the
  // context's cache of the site's files.
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  for (const [slug, hash, widget, note, url] of cases) {
    // On load, in a new page ...
    const fresh = await open(`${slug}/${hash}`, { context });
    const text = await check(fresh.page, slug, widget);
    assert.match(text, note, `note for ${hash.slice(0, 60)}`);
    if (url) await fresh.page.waitForFunction((src) => new RegExp(src).test(location.hash), url.source);
    assert.ok((await fresh.page.evaluate(() => location.hash.length)) < 2000, 'the page rewrites the fragment to its own');
    assert.deepEqual(fresh.errors, [], `errors for ${hash.slice(0, 60)}`);
    // ... and by hashchange on the page already open. lessonReady is
    // cleared first, or ready() would not wait for the lesson shown again.
    await fresh.page.evaluate(() => { delete document.body.dataset.lessonReady; location.hash = '#x.y=1'; });
    await ready(fresh.page, slug);
    await fresh.page.evaluate((x) => { delete document.body.dataset.lessonReady; location.hash = x; }, hash);
    assert.match(await check(fresh.page, slug, widget), note, `note after hashchange to ${hash.slice(0, 60)}`);
    assert.deepEqual(fresh.errors, [], `errors after hashchange to ${hash.slice(0, 60)}`);
    await fresh.page.close();
  }
  await context.close();
});

test('presentation mode: f, Space, arrows, r, ? and Esc', async () => {
  const { context, page, errors } = await open('report-noisy-max/', { lesson: 'report-noisy-max' });
  // The keys act on the widget with focus (keys.js).
  await page.locator('#w-rnm').focus();
  await page.keyboard.press('f');
  assert.ok(await page.evaluate(() => document.body.classList.contains('presenting')));
  const fig = page.locator('figure.widget.is-presented');
  assert.equal(await fig.count(), 1);
  assert.equal(await fig.getAttribute('id'), 'w-rnm', 'the first drawable widget in reading order is presented');
  const box = await fig.boundingBox();
  assert.ok(box.width >= 1279 && box.height >= 899, 'presented widget fills the screen');
  const status = () => page.locator('#w-rnm .draw-status').textContent();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /^2 batches/.test(document.querySelector('#w-rnm .draw-status').textContent));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /^3 batches/.test(document.querySelector('#w-rnm .draw-status').textContent));
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /^2 batches/.test(document.querySelector('#w-rnm .draw-status').textContent));
  await page.keyboard.press('r');
  await page.waitForFunction(() => /^0 batches/.test(document.querySelector('#w-rnm .draw-status').textContent));
  assert.match(await status(), /0 draws/);
  await page.keyboard.press('?');
  assert.ok(await page.locator('#keys-dialog').isVisible());
  await page.keyboard.press('Escape');
  assert.ok(!(await page.locator('#keys-dialog').isVisible()));
  await shoot(page, 'present-1280.png');
  await page.keyboard.press('Escape');
  assert.ok(!(await page.evaluate(() => document.body.classList.contains('presenting'))));
  await page.locator('#present-button').click();
  assert.equal(await page.locator('#present-button').getAttribute('aria-pressed'), 'true');
  assert.ok(await page.evaluate(() => document.body.classList.contains('presenting')));
  assert.equal(await page.locator('figure.widget.is-presented').count(), 1);
  // The presented widget covers the button, so the second press comes from the keyboard.
  await page.locator('#present-button').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#present-button').getAttribute('aria-pressed'), 'false');
  assert.ok(!(await page.evaluate(() => document.body.classList.contains('presenting'))));
  assert.equal(await page.locator('figure.widget.is-presented').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('in a focused data table, ←/→ and Space scroll the table and leave the widget alone', async () => {
  const { context, page, errors } = await open('report-noisy-max/', { width: 360, height: 800, lesson: 'report-noisy-max' });
  const status = () => page.locator('#w-rnm .draw-status').textContent();
  // Every widget mounted first: a later mount writes its state into the URL.
  await everyLive(page);
  const before = await status();
  const wrap = page.locator('#w-rnm .data-table').first();
  await wrap.locator('summary').click();
  const region = wrap.locator('.table-wrap[role=region]');
  await region.focus();
  const wide = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
  for (const key of ['ArrowRight', 'ArrowRight', 'Space', 'ArrowLeft', 'ArrowRight']) await page.keyboard.press(key);
  assert.ok(wide, 'at 360 px the first panel\'s table should be wider than its region');
  await region.evaluate((el) => new Promise((done, fail) => {
    const t0 = performance.now();
    const look = () => (el.scrollLeft > 0 ? done() : performance.now() - t0 > 5000 ? fail(new Error('ArrowRight did not scroll the wide table')) : requestAnimationFrame(look));
    look();
  }));
  // Outside the table, in the widget, → steps the widget once: had the keys
  // above reached it, they would have stepped it first (events run in order).
  const batches = (text) => Number(/^(\d+) batch/.exec(text)?.[1]);
  await page.locator('#w-rnm').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => document.querySelector('#w-rnm .draw-status').textContent !== b, before);
  const after = await steady(page, () => page.evaluate(() => !document.querySelector('#w-rnm').dataset.busy && document.querySelector('#w-rnm .draw-status').textContent), { times: 3 });
  assert.equal(batches(after), batches(before) + 1, `the keys in the table drew or stepped the widget: ${before} → ${after}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the formula switch keeps the mechanism: ε converts exactly and the histogram does not change', async () => {
  const { context, page, errors } = await open('exponential-mechanism/#meet.eps=1&meet.delta=3&meet.step=5', { lesson: 'exponential-mechanism' });
  const w = '#w-meet';
  await settled(page, w, /meet\.step=5/);
  const table = await tableText(page, w);
  const article = page.locator(`${w} input[type=radio][value=article]`);
  await article.check();
  await settled(page, w, /meet\.form=article/);
  // 1/(2·3) kept to the last digit, not rounded to 0.167.
  await settled(page, w, /meet\.eps=0\.16666666666666666(&|$)/);
  assert.equal(await tableText(page, w), table, 'the histogram changed when the formula switch moved');
  await page.reload();
  await ready(page, 'exponential-mechanism');
  assert.equal(await tableText(page, w), table, 'a reload in the article form changed the histogram');
  await page.locator(`${w} input[type=radio][value=dp]`).check();
  await settled(page, w, /meet\.form=dp&meet\.eps=1&/);
  assert.equal(await tableText(page, w), table);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every exercise says ✗ to its wrong example and ✓ to its right one; predictions reveal', async () => {
  const { context, page, errors } = await open(`${slugs[0]}/`);
  for (const slug of slugs) {
    if (slug !== slugs[0]) await page.locator(`#lesson-nav a[data-slug="${slug}"]`).click();
    await ready(page, slug);
    // A font arriving after the lesson is shown moves the text under a click.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const exercises = page.locator('section.exercise');
    const n = await exercises.count();
    for (let i = 0; i < n; i++) {
      const ex = exercises.nth(i);
      const params = JSON.parse(await ex.getAttribute('data-params'));
      for (const [value, mark] of [[params['example-wrong'], '✗'], [params['example-right'], '✓']]) {
        await ex.locator('input').fill(String(value));
        await ex.locator('button').click();
        await page.waitForFunction(([el, m]) => el.querySelector('.exercise-result').textContent.startsWith(m), [await ex.elementHandle(), mark]);
      }
    }
    const pr = page.locator('section.predict').first();
    await pr.locator('input[data-correct=true]').check();
    await pr.locator('.reveal-button').click();
    assert.ok(await pr.locator('.reveal').isVisible());
    assert.match(await pr.locator('.verdict').textContent(), /right/);
  }
  // A likely mistake, typed to the precision asked, gets its own message.
  await page.locator(`#lesson-nav a[data-slug="exponential-mechanism"]`).click();
  await ready(page, 'exponential-mechanism');
  const ex = page.locator('section.exercise').first();
  await ex.locator('input').fill('0.512');
  await ex.locator('button').click();
  await page.waitForFunction(() => /the exponent has a 2 underneath/.test(document.querySelector('section.exercise .exercise-result').textContent));
  await ex.locator('input').fill('4.193');
  await ex.locator('button').click();
  await page.waitForFunction(() => /leaves out the logarithm/.test(document.querySelector('section.exercise .exercise-result').textContent));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a typed answer is read as people type it, the value as read is shown, and unreadable text is not marked wrong', async () => {
  const { context, page, errors } = await open('mwem/', { lesson: 'mwem' });
  const ex = page.locator('section.exercise').first();
  const answer = async (text, result) => {
    await ex.locator('input').fill(text);
    await ex.locator('button').click();
    await page.waitForFunction(([el, re]) => new RegExp(re).test(el.querySelector('.exercise-result').textContent), [await ex.elementHandle(), result.source]);
    return { read: await ex.locator('.exercise-read').textContent(), verdict: await ex.locator('.exercise-result').getAttribute('class') };
  };
  // A decimal comma: read as 0.083, which is a listed mistake with its own message.
  let r = await answer('0,083', /^✗ That is T\/\(εn\)/);
  assert.equal(r.read, 'Read as 0.083. A comma is read as a decimal point.');
  // A fraction and an expression are right, and the value as read is shown.
  r = await answer('20/120', /^✓ Right/);
  assert.equal(r.read, 'Read as 0.1666666667.');
  r = await answer(' 2*10 / (1*120) ', /^✓ Right/);
  assert.equal(r.read, 'Read as 0.1666666667.');
  // Typed as read: no reading shown.
  r = await answer('0.167', /^✓ Right/);
  assert.equal(r.read, '');
  // Unreadable: said so, neither ✓ nor ✗, and not styled as wrong.
  r = await answer('about a sixth', /^Not a number I can read\./);
  assert.equal(r.verdict, 'exercise-result');
  assert.equal(r.read, '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the budget accountant refuses overspending, and Gumbel noise matches the exponential mechanism', async () => {
  const { context, page, errors } = await open('report-noisy-max/', { lesson: 'report-noisy-max' });
  await live(page, '#w-budget');
  const all = page.locator('#w-budget button', { hasText: 'Publish all' });
  await all.click();
  await page.waitForFunction(() => document.querySelectorAll('#w-budget .ledger li.ok').length === 1);
  await all.click();
  await page.waitForFunction(() => document.querySelectorAll('#w-budget .ledger li.refused').length === 1);
  assert.match(await page.locator('#w-budget .ledger li.refused').textContent(), /refused/);
  assert.match(await page.locator('#w-budget .budget-numbers').textContent(), /ε = 1\.25/);
  await page.waitForFunction(() => /budget\.log=hh/.test(location.hash));
  for (let i = 0; i < 4; i++) await page.locator('#w-budget button', { hasText: 'Report noisy max' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#w-budget .ledger li.ok').length === 4);
  assert.match(await page.locator('#w-budget .budget-numbers').textContent(), /ε = 2\b/);
  assert.match(await page.locator('#w-rnm .panel').nth(2).locator('.panel-stat').textContent(), /: 0$/);
  assert.doesNotMatch(await page.locator('#w-rnm .panel').nth(1).locator('.panel-stat').textContent(), /: 0$/);
  assert.deepEqual(errors, []);
  await context.close();
});

/** controlled(page) waits until the service worker has installed and controls page. */
function controlled(page) {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
  });
}

/** cachedFiles(page) lists the files in the site's service-worker caches, relative to the site. */
function cachedFiles(page) {
  return page.evaluate(async () => {
    const base = new URL('./', location.href).href;
    const files = new Set();
    for (const key of await caches.keys()) {
      if (!key.startsWith('dpplay-') || key === 'dpplay-keep-every-lesson') continue;
      for (const req of await (await caches.open(key)).keys()) files.add(req.url.slice(base.length));
    }
    return [...files].sort();
  });
}

// Save-Data as Chromium reports it to a page (navigator.connection); the
// page chooses the service worker's precache.
const saveData = () => Object.defineProperty(Navigator.prototype, 'connection', {
  configurable: true,
  get: () => ({ saveData: true, effectiveType: '4g', addEventListener() {}, removeEventListener() {} }),
});
const extras = index.offline.map((f) => f.file);
const extrasMB = (index.offline.reduce((n, f) => n + f.gzip, 0) / 1e6).toFixed(1);

test('without Save-Data the first visit precaches every lesson, the landing page offers nothing, and the site works offline', async () => {
  assert.ok(extras.length >= 3, 'the index lists the lessons\' own modules');
  const { context, page, errors } = await open('', { sw: 'allow' });
  await controlled(page);
  const cached = await cachedFiles(page);
  for (const f of ['', 'index.html', 'app.js', 'wasm/core.wasm', ...extras]) assert.ok(cached.includes(f), `${f || './'} is precached`);
  await page.reload();
  await page.waitForFunction(() => document.body.classList.contains('engine-ready') && document.querySelector('[data-offline-missing]'));
  assert.equal(await page.locator('[data-offline-missing]').getAttribute('data-offline-missing'), '0');
  assert.equal(await page.locator('.offline-offer').count(), 0);
  // Offline: the page reloads, and lessons never opened online, whose
  // modules load on demand, work from the links and from their addresses.
  await context.setOffline(true);
  await page.reload();
  await ready(page, 'home');
  await page.goto(`${web.server.url}exponential-mechanism/`);
  await ready(page, 'exponential-mechanism');
  await page.locator('#lesson-nav a[data-slug="report-noisy-max"]').click();
  await ready(page, 'report-noisy-max');
  assert.equal(await page.locator('#w-rnm .widget-error:not(:empty)').count(), 0);
  await page.locator('#lesson-nav a[data-slug="small-database"]').click();
  await ready(page, 'small-database');
  await idle(page, '#w-sdb', 20000);
  await page.locator('#lesson-nav a[data-slug="private-pricing"]').click();
  await ready(page, 'private-pricing');
  await idle(page, '#w-price', 20000);
  assert.equal(await page.locator('.widget-error:not(:empty)').count(), 0);
  // A page's address with its state.
  await page.goto(`${web.server.url}billboard-prices/#board.rounds=16`);
  await ready(page, 'billboard-prices');
  assert.match(await page.title(), /^Billboard prices/);
  await page.waitForFunction(() => /board\.rounds=16(&|$)/.test(location.hash));
  assert.deepEqual(errors, []);
  await context.close();
});

test('on Save-Data the first visit precaches the shell and core only; the landing page\'s button caches every lesson', async () => {
  const context = await web.browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' });
  await context.addInitScript(saveData);
  const { page, errors } = await open('', { context });
  await controlled(page);
  const cached = await cachedFiles(page);
  for (const f of ['', 'index.html', 'app.js', 'wasm/core.wasm', 'wasm_exec.js', 'search.json']) assert.ok(cached.includes(f), `${f || './'} is precached`);
  for (const f of extras) assert.ok(!cached.includes(f), `${f} is not precached on Save-Data`);
  // The lighter precache is the page's choice: cellular and slow links count too.
  assert.deepEqual(await page.evaluate(async () => {
    // The bundle names offline.js's file offline-HASH.js; the page has loaded it.
    const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/offline-[A-Z0-9]+\.js$/.test(n));
    const { metered } = await import(url);
    return [{ saveData: true }, { type: 'cellular' }, { effectiveType: '3g' }, { effectiveType: '2g' }, { effectiveType: '4g', type: 'wifi' }, null].map((c) => metered(c));
  }), [true, true, true, true, false, false]);
  const button = page.getByRole('button', { name: `Make every lesson available offline (${extrasMB} MB)` });
  await button.waitFor();
  assert.equal(await page.locator('.offline-offer').evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && document.documentElement.scrollWidth <= 390), true, 'fits at 390 px');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await axe(page, `the offer (${scheme})`, '.offline-offer');
  }
  for (const [width, scheme] of [[390, 'light'], [390, 'dark'], [1280, 'light'], [1280, 'dark']]) {
    await page.setViewportSize({ width, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await shoot(page.locator('.offline-offer'), `offline-offer-${width}-${scheme}.png`);
  }
  // Watch the bar: it moves, and reads 100% only once everything is cached.
  await page.evaluate(() => {
    const bar = document.querySelector('.offline-offer progress');
    window.offlineBar = [];
    new MutationObserver(() => window.offlineBar.push(bar.hidden ? 'hidden' : bar.value)).observe(bar, { attributes: true });
  });
  await button.click();
  await page.locator('.offline-status', { hasText: 'Every lesson is now available offline on this device.' }).waitFor({ timeout: 60000 });
  const bar = await page.evaluate(() => window.offlineBar);
  assert.ok(bar.some((v) => v > 0 && v < 100), `the bar moves: ${bar}`);
  assert.equal(await button.count(), 0, 'the button is gone');
  await shoot(page.locator('.offline-offer'), 'offline-offer-done-1280-dark.png');
  const after = await cachedFiles(page);
  for (const f of extras) assert.ok(after.includes(f), `${f} is cached after the button`);
  // Lessons never opened online work offline now.
  await context.setOffline(true);
  await page.goto(web.server.url + 'private-pricing/');
  await ready(page, 'private-pricing');
  await idle(page, '#w-price', 20000);
  assert.equal(await page.locator('.widget-error:not(:empty)').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('over a slow gzipping server the engine\'s progress counts the module\'s bytes to the end, reaching 100% only with the last', async () => {
  const server = await serve(dist, '/dpplay/', { pages: true });
  const context = await web.browser.newContext();
  // Every message the page's worker sends, as the page receives it.
  await context.addInitScript(() => {
    const W = window.Worker;
    window.workerLog = [];
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        this.addEventListener('message', (e) => window.workerLog.push({ type: e.data.type, name: e.data.name, loaded: e.data.loaded, total: e.data.total }));
      }
    };
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 50, downloadThroughput: 1024 * 1024, uploadThroughput: 1024 * 1024 });
    const res = page.waitForResponse((r) => r.url().endsWith('wasm/core.wasm'));
    await page.goto(server.url + 'what-dp-promises/');
    assert.equal((await (await res).allHeaders())['content-encoding'], 'gzip', 'the server gzips the module');
    await page.waitForFunction(() => document.body.classList.contains('engine-ready'), null, { timeout: 60000 });
    const log = (await page.evaluate(() => window.workerLog)).filter((m) => m.name === 'core');
    const progress = log.filter((m) => m.type === 'progress');
    const last = progress.at(-1);
    assert.equal(last.total, index.wasm.core.bytes);
    assert.equal(last.loaded, last.total, 'the last message counts every byte of the module as built');
    assert.ok(progress.slice(0, -1).every((m) => m.loaded < m.total), 'no earlier message reads 100%');
    assert.ok(progress.filter((m) => m.loaded / m.total > 0.1 && m.loaded / m.total < 0.9).length >= 5, `the bar moves in steps: ${progress.map((m) => (m.loaded / m.total).toFixed(2))}`);
    assert.deepEqual(log.map((m) => m.type).slice(-1), ['ready'], 'ready comes after the last progress');
  } finally {
    await context.close();
    await server.close();
  }
});

test(`first load of the first lesson is under ${BUDGET_BYTES} bytes gzipped`, async () => {
  const load = await firstLoad(web.browser, `${web.server.url}${slugs[0]}/`);
  const kinds = new Set(load.files.map((f) => path.extname(new URL(f.url).pathname) || '.html'));
  for (const k of ['.wasm', '.js', '.css', '.html']) assert.ok(kinds.has(k), `first load fetched no ${k}`);
  assert.ok(load.gzip < BUDGET_BYTES, `first load is ${load.gzip} bytes gzipped`);
});
