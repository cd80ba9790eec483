// Every lesson is a page of its own, in Debian's Chromium: its link preview
// image; links of the site's first form (#/slug?state) land on the same
// state at the page's address; the 404 page's link home; search that
// forgives a typo and opens the heading found; Back to the place left.
// Each page's markup (title, description, sitemap, what reads without
// JavaScript) is e2e/dist's. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ready } from './browser.mjs';
import { axe, harness, nearLive, shoot, siteIndex, steady, dist } from './harness.mjs';

const index = siteIndex();
const web = harness(['index.html', 'dist/ is missing: run make site']);

const html = (file) => fs.readFileSync(path.join(dist, file), 'utf8');
/** attr(page, re) is re's first group in the HTML page, its character references read. */
const attr = (page, re) => page.match(re)?.[1]?.replace(/&(amp|lt|gt|#34|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', '#34': '"', '#39': "'" })[e]);

test('the link preview image is the lesson\'s first figure, readable at its size', async () => {
  const slug = 'exponential-mechanism';
  const context = await web.browser.newContext({ viewport: { width: 1200, height: 630 } });
  const page = await context.newPage();
  await page.goto(`${web.server.url}og/${slug}.png`);
  await shoot(page, `og-${slug}.png`);
  assert.deepEqual(await page.evaluate(() => [document.querySelector('img').naturalWidth, document.querySelector('img').naturalHeight]), [1200, 630]);
  await context.close();
});

// Every old link the lessons, README and docs hold is sent to its page's
// address with its state by the page's first script (e2e/dist/addresses).
// Followed here in Chromium: one with state, a page, the root.
const oldLinks = ['#/exponential-mechanism?meet.eps=0.5&meet.seed=7&meet.step=3', '#/about', '#/'];

/** settledAddress(page) is the page's address once the widgets near the screen have mounted and written their state into it. */
async function settledAddress(page) {
  await nearLive(page);
  return steady(page, () => page.evaluate(() => location.href), { times: 2 });
}

test('old links of the form #/slug?state land on the same state at the page\'s address, at the root, on a lesson\'s page and by hashchange', async () => {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  for (const old of oldLinks) {
    const [, slug, state = ''] = /^#\/([a-z0-9-]*)(?:\?(.*))?$/.exec(old);
    const address = slug ? `${slug}/${state && `#${state}`}` : '';
    // What the page's own address shows, and writes back into its fragment.
    const page = await context.newPage();
    await page.goto(web.server.url + address);
    await ready(page, slug || 'home');
    const want = await settledAddress(page);
    await page.close();
    // The same from the old link, opened at the site's root ...
    const p2 = await context.newPage();
    await p2.goto(web.server.url + old);
    await ready(p2, slug || 'home');
    assert.equal(await settledAddress(p2), want, `${old} lands on the same address and state`);
    assert.equal(await p2.evaluate(() => document.querySelectorAll('#url-notes:not([hidden])').length), 0, `${old}: no note`);
    await p2.close();
  }
  // ... on a lesson's page, and by hashchange on a page already open.
  const page = await context.newPage();
  await page.goto(`${web.server.url}what-dp-promises/#/report-noisy-max?rnm.eps=2&rnm.seed=4`);
  await ready(page, 'report-noisy-max');
  assert.match(page.url(), /\/dpplay\/report-noisy-max\/#.*rnm\.eps=2&.*rnm\.seed=4/);
  await page.evaluate(() => { delete document.body.dataset.lessonReady; location.hash = '#/exponential-mechanism?meet.eps=3'; });
  await ready(page, 'exponential-mechanism');
  await page.waitForFunction(() => /^#.*meet\.eps=3(&|$)/.test(location.hash));
  assert.equal(new URL(page.url()).pathname, '/dpplay/exponential-mechanism/');
  assert.equal(await page.locator('#w-meet .slider-box').first().inputValue(), '3');
  await context.close();
});

test('the 404 page\'s link to the start page works at every depth', async () => {
  // The build writes the path of the site's address; the tests serve the
  // site at /dpplay/, as GitHub Pages serves a repository called dpplay.
  const home = new URL(attr(html('index.html'), /<link rel="canonical" href="([^"]+)">/)).pathname;
  assert.equal(home, '/dpplay/', 'make site builds for a site at /dpplay/ (BASE_URL)');
  const context = await web.browser.newContext();
  const page = await context.newPage();
  for (const missing of ['nothing-here', 'nothing-here/', 'a/b/c/', 'a/b/c/d.html', 'exponential-mechanism/x/y']) {
    const res = await page.goto(web.server.url + missing);
    assert.equal(res.status(), 404, missing);
    await page.click('#home');
    await ready(page, 'home');
    assert.equal(new URL(page.url()).pathname, '/dpplay/', `from ${missing}`);
  }
  await page.goto(`${web.server.url}a/b/c/`);
  await axe(page, 'the 404 page');
  await context.close();
});

test('search forgives a typo and opens the heading found on its page', async () => {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${web.server.url}exponential-mechanism/`);
  await ready(page, 'exponential-mechanism');
  await page.fill('#search-input', 'sensitivty');
  await page.waitForSelector('.search-results li');
  const hits = await page.locator('.search-results a').evaluateAll((as) => as.map((a) => [a.href, a.textContent]));
  assert.ok(hits.length >= 3, `results for a typo: ${hits.length}`);
  assert.ok(hits.every(([, t]) => /sensitivit/i.test(t)), 'every result is about sensitivity');
  const target = hits.find(([href]) => !href.includes('/exponential-mechanism/') && new URL(href).hash);
  assert.ok(target, 'a result on another page, at a heading');
  const url = new URL(target[0]);
  assert.match(url.pathname, /^\/dpplay\/[a-z0-9-]+\/$/);
  await page.locator(`.search-results a[href="${target[0]}"]`).click();
  const slug = url.pathname.split('/')[2];
  await ready(page, slug);
  assert.equal(new URL(page.url()).pathname, url.pathname);
  const top = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().top, url.hash.slice(1));
  assert.ok(Math.abs(top) < 120, `the heading found is at the top of the screen (${top} px)`);
  await context.close();
});

test('Back returns to the place left, once the widgets above it have mounted, and Forward to the next page\'s', async () => {
  // A long lesson with widgets all the way down, read on a phone.
  const slug = 'private-pricing';
  const i = index.lessons.findIndex((l) => l.slug === slug);
  const context = await web.browser.newContext({ viewport: { width: 390, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${web.server.url}${slug}/`);
  await ready(page, slug);
  // Places in the document, and the reader 300 px inside each widget: a
  // widget whose own height changes as it mounts and draws moves what the
  // browser's scroll anchoring keeps on screen.
  const figures = await page.evaluate(() => document.querySelectorAll('#lesson figure.widget').length);
  const places = [5600, 2400, 9000].map((y) => ({ y })).concat(Array.from({ length: figures }, (_, fig) => ({ fig })));
  for (const place of places) {
    await page.evaluate(({ y, fig }) => {
      const f = document.querySelectorAll('#lesson figure.widget')[fig];
      scrollTo(0, f ? f.getBoundingClientRect().top + scrollY + 300 : y);
    }, place);
    const y = place.y ?? `widget ${place.fig + 1}`;
    // What the reader sees at the top of the screen, and where, once the
    // widgets near it have mounted.
    await nearLive(page);
    const mark = await steady(page, () => page.evaluate(() => {
      const el = [...document.querySelectorAll('#lesson article > *')].find((e) => e.getBoundingClientRect().bottom > 0);
      return { i: [...el.parentNode.children].indexOf(el), top: Math.round(el.getBoundingClientRect().top) };
    }), { times: 2 });
    // The next-lesson link, followed from where the reader is (a pointer
    // click would scroll to it first; ] acts only with focus in a widget).
    await page.evaluate(() => document.querySelector('a.pager-next').click());
    await ready(page, index.lessons[i + 1].slug);
    assert.ok(await page.evaluate(() => scrollY) < 400, 'the next lesson opens at its top');
    await page.goBack();
    await ready(page, slug);
    // The widgets near the screen mount, those above the reader among them.
    await nearLive(page);
    const back = await steady(page, () => page.evaluate((k) => Math.round(document.querySelector('#lesson article').children[k].getBoundingClientRect().top), mark.i), { times: 3 });
    assert.ok(Math.abs(back - mark.top) <= 5, `Back from ${y}: the block at the top moved from ${mark.top} to ${back} px`);
    await page.goForward();
    await ready(page, index.lessons[i + 1].slug);
    assert.ok(await page.evaluate(() => scrollY) < 400, 'Forward returns to the next lesson\'s top');
    await page.goBack();
    await ready(page, slug);
  }
  await context.close();
});

// A root's sign is drawn from the math font, though no text holds it: on
// every page with a square or nth root, each root is wider than what it
// covers once the font has loaded, so √x never reads as x.
test('every root on every page draws its sign', async () => {
  const pages = fs.readdirSync(dist, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dist, e.name, 'index.html')) && /<m(sqrt|root)\b/.test(html(`${e.name}/index.html`)))
    .map((e) => e.name);
  assert.ok(pages.includes('what-epsilon-promises'), `pages with roots: ${pages}`);
  for (const slug of pages) {
    const { context, page, errors } = await web.open(`${slug}/`);
    const roots = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.querySelectorAll('msqrt, mroot')].map((r) => {
        const inner = r.localName === 'msqrt' ? [...r.children] : [r.firstElementChild];
        const covered = inner.reduce((w, c) => w + c.getBoundingClientRect().width, 0);
        return { tex: r.closest('math').querySelector('annotation')?.textContent, width: r.getBoundingClientRect().width, covered };
      });
    });
    assert.ok(roots.length > 0, `${slug}: no root found`);
    for (const r of roots) assert.ok(r.width > r.covered + 2, `${slug}: the root in ${r.tex} is ${r.width} px wide over ${r.covered} px: no sign drawn`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
