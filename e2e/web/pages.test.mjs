// Every lesson is a page of its own, in Debian's Chromium: each address
// answers with its title, description and link preview image; read without
// JavaScript it shows its text, figures and questions; its first chart comes
// with the first contentful paint; links of the site's first form
// (#/slug?state) land on the same state at the page's address; the sitemap,
// robots.txt and the 404 page; search that forgives a typo and opens the
// heading found; Back to the place left. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ready } from './browser.mjs';
import { axe, harness, root, shots, siteIndex, dist } from './harness.mjs';

const index = siteIndex();
const all = index.lessons.concat(index.pages || []);
const web = harness(['index.html', 'dist/ is missing: run make site']);

const html = (file) => fs.readFileSync(path.join(dist, file), 'utf8');
/** attr(page, re) is re's first group in the HTML page, its character references read. */
const attr = (page, re) => page.match(re)?.[1]?.replace(/&(amp|lt|gt|#34|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', '#34': '"', '#39': "'" })[e]);
/** pngSize(bytes) is [width, height] from a PNG's header, or null. */
const pngSize = (b) => (b.subarray(1, 4).toString() === 'PNG' ? [b.readUInt32BE(16), b.readUInt32BE(20)] : null);

test('every page answers at its own address with its title, description, canonical address and link preview; the sitemap lists them all', async () => {
  const base = attr(html('index.html'), /<link rel="canonical" href="([^"]+)">/);
  assert.ok(base, 'the build names the site\'s address (make site passes BASE_URL)');
  const local = (u) => u.replace(base, web.server.url);
  const pages = [['', 'dpplay — a differential privacy playground'], ...all.map((l) => [`${l.slug}/`, `${l.title} — dpplay`]), ['handout/', null]];
  for (const [p, title] of pages) {
    const res = await fetch(web.server.url + p);
    assert.equal(res.status, 200, `${p || './'} answers 200`);
    const h = await res.text();
    if (title) assert.equal(attr(h, /<title>([^<]*)<\/title>/), title);
    const l = all.find((x) => `${x.slug}/` === p);
    if (l) assert.equal(attr(h, /<meta name="description" content="([^"]*)">/), l.summary);
    assert.ok(attr(h, /<meta name="description" content="([^"]{40,})">/), `${p}: a description`);
    assert.equal(attr(h, /<link rel="canonical" href="([^"]+)">/), base + p);
    assert.equal(attr(h, /<meta property="og:url" content="([^"]+)">/), base + p);
    for (const k of ['og:title', 'og:description', 'og:image:alt']) assert.ok(attr(h, new RegExp(`<meta property="${k}" content="([^"]+)">`)), `${p}: ${k}`);
    assert.equal(attr(h, /<meta name="twitter:card" content="([^"]+)">/), 'summary_large_image');
    const image = attr(h, /<meta property="og:image" content="([^"]+)">/);
    assert.ok(image.startsWith(base), `${p}: the image's address is absolute`);
    // A lesson's card is its first figure; a page without one shows the site's.
    if (l && l.widgets?.length && l.slug !== 'about') assert.equal(image, `${base}og/${l.slug}.png`);
    const img = await fetch(local(image));
    assert.equal(img.status, 200, `${image} answers`);
    assert.deepEqual(pngSize(Buffer.from(await img.arrayBuffer())), [1200, 630], `${image} is 1200 × 630`);
  }
  const sitemap = await (await fetch(`${web.server.url}sitemap.xml`)).text();
  assert.deepEqual([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]).sort(), pages.map(([p]) => base + p).sort());
  assert.match(await (await fetch(`${web.server.url}robots.txt`)).text(), new RegExp(`^User-agent: \\*\\nAllow: /\\nSitemap: ${base}sitemap.xml\\n$`));
  // A directory's address without its closing / goes to the one with it.
  const bare = await fetch(`${web.server.url}${index.lessons[0].slug}`, { redirect: 'manual' });
  assert.equal(bare.status, 301);
});

test('the link preview image is the lesson\'s first figure, readable at its size', async () => {
  const slug = 'exponential-mechanism';
  const context = await web.browser.newContext({ viewport: { width: 1200, height: 630 } });
  const page = await context.newPage();
  await page.goto(`${web.server.url}og/${slug}.png`);
  await page.screenshot({ path: path.join(shots, `og-${slug}.png`) });
  assert.deepEqual(await page.evaluate(() => [document.querySelector('img').naturalWidth, document.querySelector('img').naturalHeight]), [1200, 630]);
  await context.close();
});

test('with JavaScript off every lesson reads in full: text, pre-rendered figures and MathML, exercises\' questions, and a note that the controls need JavaScript', async () => {
  for (const width of [390, 1280]) {
    const context = await web.browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
    for (const l of index.lessons) {
      const page = await context.newPage();
      const res = await page.goto(`${web.server.url}${l.slug}/`);
      assert.equal(res.status(), 200);
      const seen = await page.evaluate(() => {
        const visible = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
        const figs = [...document.querySelectorAll('#lesson figure.widget')];
        return {
          title: document.querySelector('h1').textContent,
          words: document.querySelector('#lesson article').innerText.split(/\s+/).length,
          figures: figs.length,
          noted: figs.filter((f) => visible(f.querySelector('.widget-noscript'))).length,
          charts: [...document.querySelectorAll('#lesson .chart-svg svg')].filter(visible).length,
          cards: [...document.querySelectorAll('#lesson figure.widget img.widget-card')].filter((i) => visible(i) && i.complete && i.naturalWidth === 1200).length,
          tables: [...document.querySelectorAll('#lesson table')].length,
          maths: [...document.querySelectorAll('#lesson math')].filter(visible).length,
          exercises: [...document.querySelectorAll('#lesson section.exercise')].filter((s) => visible(s) && s.innerText.length > 40 && visible(s.querySelector('.exercise-noscript'))).length,
          allExercises: document.querySelectorAll('#lesson section.exercise').length,
          reveals: [...document.querySelectorAll('#lesson .reveal')].filter(visible).length,
          allReveals: document.querySelectorAll('#lesson .reveal').length,
          loading: visible(document.querySelector('.engine')) || [...document.querySelectorAll('.widget-loading')].some(visible),
          // The page scrolls sideways, apart from the predictions'
          // explanations, which a reader with JavaScript sees after Reveal
          // (one long inline formula in a small database's is wider than a
          // phone).
          sideways: (() => {
            for (const r of document.querySelectorAll('.reveal')) r.style.display = 'none';
            const by = document.documentElement.scrollWidth - document.documentElement.clientWidth;
            for (const r of document.querySelectorAll('.reveal')) r.style.display = '';
            return by;
          })(),
          pager: [...document.querySelectorAll('.pager a')].map((a) => a.getAttribute('href')),
        };
      });
      assert.equal(seen.title, l.title);
      assert.ok(seen.words > 400, `${l.slug}: ${seen.words} words`);
      assert.equal(seen.noted, seen.figures, `${l.slug}: every widget says its controls need JavaScript`);
      assert.ok(seen.charts >= 1 || seen.cards >= 1, `${l.slug}: a pre-rendered chart (or, for a widget the build cannot pre-render, its figure) is on show`);
      assert.ok(seen.maths > 0, `${l.slug}: MathML`);
      assert.equal(seen.exercises, seen.allExercises, `${l.slug}: every exercise's question, with a note`);
      assert.equal(seen.reveals, seen.allReveals, `${l.slug}: every prediction's explanation`);
      assert.equal(seen.loading, false, `${l.slug}: nothing says it is loading`);
      assert.ok(seen.sideways <= 0, `${l.slug} at ${width} px scrolls sideways by ${seen.sideways} px`);
      assert.ok(seen.pager.length >= 1 && seen.pager.every((h) => /^\.\.\/[a-z0-9-]+\/$/.test(h)), `${l.slug}: links to its neighbours ${seen.pager}`);
      if (l.slug === 'exponential-mechanism') await page.screenshot({ path: path.join(shots, `nojs-${l.slug}-${width}.png`), fullPage: width < 500 });
      await page.close();
    }
    await context.close();
  }
});

// Runs in the page before its scripts: each animation frame's time, and the
// first frame with a pre-rendered or drawn chart on show in the lesson.
function frames() {
  window.__frames = { at: [], chart: -1 };
  const look = (t) => {
    const f = window.__frames;
    f.at.push(t);
    if (f.chart < 0 && [...document.querySelectorAll('#lesson .chart-svg svg')].some((s) => s.getClientRects().length)) f.chart = f.at.length - 1;
    if (f.at.length < 600) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** chartFrames(page) waits for the first contentful paint and the first chart, and returns how many frames the chart came after the paint (≤ 0: with it). */
async function chartFrames(page) {
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length && window.__frames.chart >= 0, null, { timeout: 60000 });
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0].startTime;
    const f = window.__frames;
    // The frame painted at the first contentful paint is the last to start before it.
    const painted = f.at.findLastIndex((t) => t <= fcp);
    return { late: f.chart - painted, fcp: Math.round(fcp), chart: Math.round(f.at[f.chart]) };
  });
}

test('on a lesson link the first chart is painted with the first contentful paint, cold and warm', async () => {
  for (const slug of [index.lessons[0].slug, 'exponential-mechanism', 'private-pricing']) {
    const context = await web.browser.newContext({ viewport: { width: 412, height: 823 }, serviceWorkers: 'allow' });
    await context.addInitScript(frames);
    const cold = await context.newPage();
    await cold.goto(`${web.server.url}${slug}/`);
    const c = await chartFrames(cold);
    assert.ok(c.late <= 1, `${slug}, cold: the chart came ${c.late} frames after the first contentful paint (${JSON.stringify(c)})`);
    await ready(cold, slug);
    await cold.evaluate(() => navigator.serviceWorker.ready);
    const warm = await context.newPage();
    await warm.goto(`${web.server.url}${slug}/`);
    const w = await chartFrames(warm);
    assert.ok(w.late <= 1, `${slug}, warm: the chart came ${w.late} frames after the first contentful paint (${JSON.stringify(w)})`);
    await context.close();
  }
});

/**
 * oldLinks are links of the site's first form: every one the lessons hold
 * (their Markdown links to each other that way), those the README and docs
 * held (a figure's state, the about page), and a few with state.
 */
const oldLinks = [...new Set([
  ...fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md'))
    .flatMap((f) => [...fs.readFileSync(path.join(root, 'lessons', f), 'utf8').matchAll(/\]\((#\/[^)\s]*)\)/g)].map((m) => m[1])),
  ...['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
    .flatMap((f) => [...fs.readFileSync(path.join(root, f), 'utf8').matchAll(/'(#\/[a-z0-9-]+\?[^'\s]*)'/g)].map((m) => m[1])),
  '#/what-epsilon-promises?band.eps=2&band.scale=broken', '#/about', '#/', '#/exponential-mechanism?meet.eps=0.5&meet.seed=7&meet.step=3',
  '#/report-noisy-max?rnm.eps=2&budget.log=hh',
])].filter((h) => h !== '#/slug');

test(`old links of the form #/slug?state (${oldLinks.length} of them, from the lessons, README and docs) land on the same state at the page's address`, async () => {
  assert.ok(oldLinks.length >= 12, `${oldLinks.length} old links`);
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  for (const old of oldLinks) {
    const [, slug, state = ''] = /^#\/([a-z0-9-]*)(?:\?(.*))?$/.exec(old);
    const address = slug ? `${slug}/${state && `#${state}`}` : '';
    // What the page's own address shows, and writes back into its fragment.
    const page = await context.newPage();
    await page.goto(web.server.url + address);
    await ready(page, slug || 'home');
    await page.waitForTimeout(300);
    const want = await page.evaluate(() => location.href);
    await page.close();
    // The same from the old link, opened at the site's root ...
    const p2 = await context.newPage();
    await p2.goto(web.server.url + old);
    await ready(p2, slug || 'home');
    await p2.waitForTimeout(300);
    assert.equal(await p2.evaluate(() => location.href), want, `${old} lands on the same address and state`);
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

test('search indexes text, not data; it forgives a typo and opens the heading found on its page', async () => {
  const search = html('search.json');
  assert.doesNotMatch(search, /Float64Array|widget-calls|Loading the interactive/);
  assert.ok(search.length < 200000, `search.json is ${search.length} bytes`);
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
    await page.waitForTimeout(600);
    const y = place.y ?? `widget ${place.fig + 1}`;
    // What the reader sees at the top of the screen, and where.
    const mark = await page.evaluate(() => {
      const el = [...document.querySelectorAll('#lesson article > *')].find((e) => e.getBoundingClientRect().bottom > 0);
      return { i: [...el.parentNode.children].indexOf(el), top: Math.round(el.getBoundingClientRect().top) };
    });
    // The next-lesson link, followed from where the reader is (a pointer
    // click would scroll to it first; ] acts only with focus in a widget).
    await page.evaluate(() => document.querySelector('a.pager-next').click());
    await ready(page, index.lessons[i + 1].slug);
    assert.ok(await page.evaluate(() => scrollY) < 400, 'the next lesson opens at its top');
    await page.goBack();
    await ready(page, slug);
    // The widgets near the screen mount, those above the reader among them.
    await page.waitForTimeout(1500);
    const back = await page.evaluate((k) => Math.round(document.querySelector('#lesson article').children[k].getBoundingClientRect().top), mark.i);
    assert.ok(Math.abs(back - mark.top) <= 5, `Back from ${y}: the block at the top moved from ${mark.top} to ${back} px`);
    await page.goForward();
    await ready(page, index.lessons[i + 1].slug);
    assert.ok(await page.evaluate(() => scrollY) < 400, 'Forward returns to the next lesson\'s top');
    await page.goBack();
    await ready(page, slug);
  }
  await context.close();
});
