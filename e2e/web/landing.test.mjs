// End-to-end tests of the site around the lessons, in Debian's Chromium:
// moving between pages in one document, progress kept on the device, Back
// restoring the scroll position, the theme toggle, copy link, search, the
// course handout's print. Every page's layout and axe are
// the sweep's, the markup e2e/dist's. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ready } from './browser.mjs';
import { axe, harness, dist, shoot, siteIndex } from './harness.mjs';

const index = siteIndex();
const web = harness(['index.html', 'dist/ is missing: run make site']);
const open = web.open;

/** blocks(page, html) is how many blocks the article in a page's HTML has. */
const blocks = (page, html) => page.evaluate((h) => new DOMParser().parseFromString(h, 'text/html').querySelector('#lesson > article').children.length, html);

// The landing page at 360, 390, 1280 and 1920 px, light and dark (axe, no
// sideways scroll) is the sweep's; its lesson map is e2e/dist's.
test('a lesson\'s own page comes whole in the first response; the logo and the start button move between pages in this document', async () => {
  // A lesson's own address: the lesson comes in the first response, and
  // the logo and the start button move between pages in this document.
  const { context, page, requests } = await open(`${index.lessons[2].slug}/`);
  await ready(page, index.lessons[2].slug);
  assert.equal(requests.filter((u) => new URL(u).pathname.endsWith(`/${index.lessons[2].slug}/`)).length, 1, 'the lesson is requested once');
  assert.equal(await page.locator('#lesson article.lesson > *').count(), await blocks(page, fs.readFileSync(path.join(dist, index.lessons[2].slug, 'index.html'), 'utf8')), 'every block of the lesson');
  const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);
  await page.click('.brand');
  await ready(page, 'home');
  assert.equal(new URL(page.url()).pathname, '/dpplay/');
  assert.match(await page.locator('h1').textContent(), /Learn differential privacy/);
  await page.click('.hero-actions .button.primary');
  await ready(page, index.lessons[0].slug);
  assert.equal(new URL(page.url()).pathname, `/dpplay/${index.lessons[0].slug}/`);
  assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), loads, 'no page load');
  await context.close();
});

test('leaving for another page before the one clicked arrives keeps the page left for; the lesson then comes back whole', async () => {
  const slug = index.lessons[2].slug;
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  let release;
  const held = new Promise((r) => { release = r; });
  const { page, errors } = await open('', { context, lesson: 'home' });
  await context.route(`**/${slug}/`, async (route) => { await held; await route.continue(); });
  await page.click(`.map-title a[href="${slug}/"]`);
  await page.click('.brand');
  await ready(page, 'home');
  release();
  // Once the page has the whole response, and the tasks that read and parse it have run.
  await page.waitForFunction((s) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(`/${s}/`) && e.responseEnd > 0), slug);
  await page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(() => setTimeout(done, 0)), 0)));
  assert.match(await page.locator('h1').textContent(), /Learn differential privacy/, 'the landing page stays');
  assert.equal(new URL(page.url()).pathname, '/dpplay/');
  await page.click(`.map-title a[href="${slug}/"]`);
  await ready(page, slug);
  const html = fs.readFileSync(path.join(dist, slug, 'index.html'), 'utf8');
  assert.equal(await page.locator('#lesson article.lesson > *').count(), await blocks(page, html), 'every block of the lesson');
  assert.deepEqual(errors, []);
  await context.close();
});

test('predictions and exercises are remembered on the device and progress shows on the landing page and in the list', async () => {
  const slug = 'exponential-mechanism';
  const lesson = index.lessons.find((l) => l.slug === slug);
  const { context, page, errors } = await open(`${slug}/`);
  await ready(page, slug);
  const predict = page.locator('section.predict').first();
  const predictId = await predict.getAttribute('id');
  const right = predict.locator('input[data-correct="true"]');
  await right.check();
  await predict.locator('.reveal-button').click();
  const exercise = page.locator('section.exercise').first();
  const exId = await exercise.getAttribute('id');
  const params = JSON.parse(await exercise.getAttribute('data-params'));
  await exercise.locator('input').fill(String(params['example-right'] ?? params.answer));
  await exercise.locator('button[type=submit]').click();
  await page.waitForFunction((id) => /^✓/.test(document.querySelector(`#${id} .exercise-result`).textContent), exId);
  const message = await exercise.locator('.exercise-result').textContent();

  // A reload (or a return days later) shows the same state.
  await page.reload();
  await ready(page, slug);
  assert.ok(await page.locator(`#${predictId} .reveal`).isVisible(), 'the prediction stays revealed');
  assert.ok(await page.locator(`#${predictId} input[data-correct="true"]`).isChecked(), 'with the choice made');
  assert.equal(await page.locator(`#${predictId} .reveal-button`).isDisabled(), true);
  assert.equal(await page.locator(`#${exId} .exercise-result`).textContent(), message, 'the exercise keeps its answer');
  assert.equal(await page.locator(`#${exId} input`).inputValue(), String(params['example-right'] ?? params.answer));
  const nav = page.locator(`#lesson-nav a[data-slug="${slug}"]`);
  assert.match(await nav.getAttribute('class'), /is-started|is-done/);
  assert.match(await nav.locator('.nav-progress').textContent(), /2 of \d+ questions answered/);

  // The landing page shows the progress and a way back to exactly this view.
  const here = page.url();
  await page.click('.brand');
  await ready(page, 'home');
  const item = page.locator(`.map-item[data-slug="${slug}"]`);
  assert.equal((await item.locator('.map-progress').textContent()).trim(), `2 of ${lesson.predicts + lesson.exercises} questions answered`);
  assert.match(await page.locator('#progress-all').textContent(), /answered 2 of the course's \d+ questions/);
  const cont = page.locator('#continue-link');
  assert.ok(await cont.isVisible());
  assert.equal(await cont.getAttribute('href'), here);
  assert.match(await cont.textContent(), /The exponential mechanism/);
  await shoot(page, 'landing-progress-1280.png');
  await cont.click();
  await ready(page, slug);
  assert.equal(page.url(), here);

  // Forgetting clears it all.
  await page.click('.brand');
  await ready(page, 'home');
  await page.click('#forget-progress');
  await ready(page, 'home');
  assert.equal(await page.locator('.map-progress:not(:empty)').count(), 0);
  assert.ok(await page.locator('#continue-link').isHidden());
  assert.deepEqual(errors, []);
  await context.close();
});

test('stored progress is untrusted: malformed entries are ignored and text stays text', async () => {
  const { context, page, errors } = await open('', { lesson: 'home' });
  await page.evaluate(() => localStorage.setItem('dpplay-progress-v1', JSON.stringify({
    lessons: {
      'exponential-mechanism': { predicts: { 'predict-1': 'x', 'bad id': 0 }, exercises: { 'ex-9999': { value: '<img src=x onerror=alert(1)>', ok: true, message: '<b>hi</b>' } } },
      '<script>': { predicts: {} },
    },
    last: { slug: 'what-dp-promises', hash: 'javascript:alert(1)' },
  })));
  await page.reload();
  await ready(page, 'home');
  assert.ok(await page.locator('#continue-link').isHidden(), 'a stored address that is not a lesson link is ignored');
  await page.goto(web.server.url + 'exponential-mechanism/');
  await ready(page, 'exponential-mechanism');
  assert.equal(await page.locator('#lesson img, #lesson b').count(), 0, 'stored text never becomes markup');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Back returns to the scroll position the lesson was left at', async () => {
  const { context, page, errors } = await open(`${index.lessons[0].slug}/`, { width: 390, height: 800 });
  await ready(page, index.lessons[0].slug);
  await page.evaluate(() => scrollTo(0, 2400));
  // The page keeps the place in its history entry (shell/scrollkeep.js saveScroll).
  await page.waitForFunction(() => scrollY > 0 && history.state?.scroll === Math.round(scrollY));
  const y = await page.evaluate(() => scrollY);
  assert.ok(y > 2000, `scrolled to ${y}`);
  // The next-lesson link, followed from where the reader is (a pointer
  // click would scroll to it first; ] acts only with focus in a widget).
  await page.evaluate(() => document.querySelector('a.pager-next').click());
  await ready(page, index.lessons[1].slug);
  assert.ok(await page.evaluate(() => scrollY) < 400, 'a new lesson opens at its top');
  await page.goBack();
  await ready(page, index.lessons[0].slug);
  await page.waitForFunction((want) => Math.abs(scrollY - want) < 5, y, { timeout: 5000 });
  await page.goForward();
  await ready(page, index.lessons[1].slug);
  assert.ok(await page.evaluate(() => scrollY) < 400);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the theme toggle overrides the system scheme and is remembered; axe is clean in both', async () => {
  const { context, page, errors } = await open(`${index.lessons[1].slug}/`, { scheme: 'light' });
  await ready(page, index.lessons[1].slug);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  const button = page.locator('#theme-button');
  assert.match(await button.textContent(), /Theme: system/);
  await button.click();
  assert.match(await button.textContent(), /Theme: light/);
  assert.equal(await bg(), light);
  await button.click();
  assert.match(await button.textContent(), /Theme: dark/);
  const dark = await bg();
  assert.notEqual(dark, light, 'dark theme under a light system');
  await axe(page, 'a lesson in the dark theme under a light system');
  await shoot(page, 'theme-dark-1280.png');
  await page.reload();
  await ready(page, index.lessons[1].slug);
  assert.equal(await bg(), dark, 'the choice survives a reload');
  await page.emulateMedia({ colorScheme: 'dark' });
  await button.click();
  assert.match(await button.textContent(), /Theme: system/);
  assert.equal(await bg(), dark, 'system follows the (now dark) system');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await bg(), light);
  assert.deepEqual(errors, []);
  await context.close();
});

test('copy link puts the exact address on the clipboard', async () => {
  const { context, page, errors } = await open('exponential-mechanism/#meet.eps=2', { permissions: ['clipboard-read', 'clipboard-write'], lesson: 'exponential-mechanism' });
  await page.click('#share-button');
  await page.waitForFunction(() => /Link copied/.test(document.querySelector('#share-status').textContent));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  assert.match(page.url(), /meet\.eps=2/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the root keeps its address; search finds sections across lessons and opens the one chosen', async () => {
  const { context, page, errors } = await open('', { width: 1280, lesson: 'home' });
  assert.equal(new URL(page.url()).hash, '', 'the root keeps its address');
  await page.fill('#search-input', 'permute flip');
  await page.waitForSelector('.search-results li');
  const first = page.locator('.search-results a').first();
  assert.match(await first.textContent(), /Permute-and-flip/i);
  await page.fill('#search-input', 'mironov');
  await page.waitForFunction(() => [...document.querySelectorAll('.search-results a')].some((a) => /floating point/i.test(a.textContent)));
  await page.fill('#search-input', 'zzqqxx');
  await page.waitForFunction(() => /Nothing found/.test(document.querySelector('#search-status').textContent));
  await page.fill('#search-input', 'Adult data set marital');
  await page.waitForSelector('.search-results li');
  await shoot(page, 'search-1280.png');
  const target = new URL(await page.locator('.search-results a').first().evaluate((a) => a.href));
  await page.locator('.search-results a').first().click();
  await ready(page, target.pathname.split('/')[2]);
  assert.ok(await page.evaluate(() => scrollY) > 200, 'the page opens at the section found');
  const said = await page.locator('#search-status').textContent();
  await page.fill('#search-input', '<img src=x onerror=alert(1)>');
  await page.waitForFunction((b) => document.querySelector('#search-status').textContent !== b, said);
  assert.equal(await page.locator('#lesson-nav img').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

// Its lessons, answers and widgets' links are e2e/dist's.
test('the course handout shows no buttons, passes axe and prints', async () => {
  const { context, page, errors } = await open('handout/', { width: 1280 });
  assert.equal(await page.locator('button:visible').count(), 0, 'no buttons on show');
  await axe(page, 'the handout');
  await page.emulateMedia({ media: 'print' });
  await shoot(page, 'handout-print.png');
  const pdf = await page.pdf({ format: 'A4' });
  assert.ok(pdf.length > 10000, 'the handout prints');
  assert.deepEqual(errors, []);
  await context.close();
});
