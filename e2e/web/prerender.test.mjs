// The build's pre-rendered opening state (scripts/prerender.mjs) against what
// the page itself paints, in Debian's Chromium: at the two reference layouts
// (1280 and 390 px) every pre-rendered chart the CSS shows has the engine's
// drawing's size, viewBox and content, so the engine takes over without a
// visible jump; and with the engine held back, the lesson mounts from the
// recording and its controls go live when the engine arrives.
// Run `make site` first (make test-e2e does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { watch, ready } from './browser.mjs';
import { harness, dist, everyLive, live, siteIndex, steady } from './harness.mjs';

const index = siteIndex();
// Every lesson with a pre-rendered chart.
const slugs = index.lessons.map((l) => l.slug)
  .filter((s) => fs.readFileSync(path.join(dist, s, 'index.html'), 'utf8').includes('pre-wide'));

const web = harness();

// charts(selector) runs in the page: each chart box's shown SVG as
// {w: box width, h: drawn height, viewBox, inner: its content with sorted
// attributes, without ids, with each url(#id) named as the wide drawing
// names it (the build suffixes the narrow drawing's ids with -n), and without
// an empty class (linkedom, which the build draws with, does not write
// class="")}. A chart in a hidden part of a widget is not on show.
function charts(sel) {
  const value = (a) => a.value.replace(/url\(#([^)]*)-n\)/g, 'url(#$1)');
  const canon = (n) => (n.nodeType === 3 ? n.data : n.nodeType !== 1 ? '' : `<${n.localName}${[...n.attributes]
    .filter((a) => !/^(id|aria-labelledby|aria-describedby)$/.test(a.name) && !(a.name === 'class' && !a.value)).map((a) => ` ${a.name}="${value(a)}"`).sort().join('')}>${[...n.childNodes].map(canon).join('')}</${n.localName}>`);
  return [...document.querySelectorAll(sel)].filter((box) => !box.closest('[hidden]')).map((box) => {
    const svg = [...box.querySelectorAll(':scope > svg')].find((s) => getComputedStyle(s).display !== 'none');
    if (!svg) return null;
    return { w: box.clientWidth, h: Math.round(svg.getBoundingClientRect().height), viewBox: svg.getAttribute('viewBox'), inner: [...svg.childNodes].map(canon).join('') };
  });
}

test('there are pre-rendered lessons, the first lesson among them', () => {
  assert.ok(slugs.includes(index.lessons[0].slug), `pre-rendered: ${slugs.join(', ')}`);
});

for (const width of [1280, 390]) {
  test(`pre-rendered charts equal the engine's at ${width} px`, async () => {
    for (const slug of slugs) {
      // The lesson's page as it shows before any module runs (app.js
      // replaced by nothing).
      const c0 = await web.browser.newContext({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
      await c0.addInitScript(`window.charts = ${charts}`);
      const p0 = await c0.newPage();
      await p0.route('**/app.js', (r) => r.fulfill({ contentType: 'text/javascript', body: '' }));
      await p0.goto(`${web.server.url}${slug}/`);
      const pre = await p0.evaluate(async () => {
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return window.charts('.widget-body[data-prerendered] .chart-svg');
      });
      await c0.close();

      const c1 = await web.browser.newContext({ viewport: { width, height: 900 }, serviceWorkers: 'block' });
      await c1.addInitScript(`window.charts = ${charts}`);
      const p1 = await c1.newPage();
      const errors = watch(p1);
      // Only the figures the build pre-rendered are compared.
      await p1.goto(`${web.server.url}${slug}/`);
      await ready(p1, slug);
      await everyLive(p1);
      const live = await p1.evaluate(() => {
        const pre = new Set([...document.querySelectorAll('figure.widget > script.widget-calls')].map((s) => s.parentElement));
        for (const f of pre) f.classList.add('was-pre');
        return window.charts('figure.was-pre .widget-body .chart-svg');
      });
      await c1.close();
      assert.deepEqual(errors, []);
      assert.ok(pre.length > 0, `${slug}: no pre-rendered chart`);
      assert.equal(pre.length, live.length, `${slug}: chart count`);
      pre.forEach((p, i) => {
        assert.ok(p, `${slug} chart ${i}: no pre-rendered drawing shown`);
        const l = live[i];
        assert.equal(p.w, l.w, `${slug} chart ${i}: box width`);
        assert.ok(Math.abs(p.h - l.h) <= 1, `${slug} chart ${i}: height ${p.h} pre-rendered, ${l.h} live`);
        assert.equal(p.viewBox, l.viewBox, `${slug} chart ${i}: viewBox`);
        assert.equal(p.inner, l.inner, `${slug} chart ${i}: content`);
      });
    }
  });
}

test('the lesson mounts from the recording before the engine, and goes live with it', async () => {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = watch(page);
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/wasm/core.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(`${web.server.url}${index.lessons[0].slug}/`);
  await page.waitForFunction(() => document.body.dataset.lessonReady);
  await live(page, 'figure.widget');
  const before = await page.evaluate(() => {
    const fig = document.querySelector('figure.widget');
    return {
      engine: document.body.classList.contains('engine-ready'),
      inert: fig.querySelector('.widget-body').hasAttribute('inert'),
      prerendered: 'prerendered' in fig.querySelector('.widget-body').dataset,
      charts: fig.querySelectorAll('.chart-svg svg').length,
      renders: fig.dataset.renders,
      live: performance.getEntriesByName('dpplay-live').length,
    };
  });
  assert.deepEqual(before, { engine: false, inert: false, prerendered: false, charts: 3, renders: '1', live: 0 });
  // A slider moved now waits for the engine, then redraws.
  const table = () => page.evaluate(() => document.querySelector('figure.widget .data-table tbody').textContent);
  const first = await table();
  await page.evaluate(() => {
    const s = document.querySelector('figure.widget input[type=range]');
    s.value = '900';
    s.dispatchEvent(new Event('input', { bubbles: true }));
  });
  release();
  await ready(page);
  await page.waitForFunction(() => document.querySelector('figure.widget').dataset.renders === '2');
  assert.notEqual(await table(), first);
  assert.match(await page.textContent('#engine-status'), /controls are live/);
  assert.equal(await page.evaluate(() => performance.getEntriesByName('dpplay-live').length), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('no recording holds engine state: SmallDB, whose first call opens a run, keeps its placeholder', () => {
  const html = fs.readFileSync(path.join(dist, 'small-database', 'index.html'), 'utf8');
  assert.match(html, /<figure [^>]*id="w-sdb"/);
  assert.doesNotMatch(html.slice(html.indexOf('id="w-sdb"')).split('</figure>')[0], /widget-calls/);
  for (const { slug } of index.lessons) {
    const doc = fs.readFileSync(path.join(dist, slug, 'index.html'), 'utf8');
    for (const [, json] of doc.matchAll(/<script class="widget-calls" type="application\/json">([\s\S]*?)<\/script>/g)) {
      for (const [key, result] of JSON.parse(json)) assert.ok(!(result && typeof result === 'object' && 'handle' in result), `${slug}: ${key} returns a handle`);
    }
  }
});

test('a widget without a pre-rendered drawing waits below the screen; mounted above the reader, it moves nothing they read', async () => {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  // As in a browser that does not anchor the scroll (Safari).
  await context.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    document.documentElement.style.overflowAnchor = 'none';
    document.body.style.overflowAnchor = 'none';
  }));
  const page = await context.newPage();
  const errors = watch(page);
  await page.goto(`${web.server.url}small-database/`);
  await ready(page, 'small-database');
  const busy = () => page.evaluate(() => document.querySelector('#w-sdb .widget-body').hasAttribute('aria-busy'));
  assert.equal(await busy(), true, 'SmallDB, below the screen, mounted at load');
  // Jump far below it, then press a key: the rest mount, SmallDB above the reader.
  const heading = page.locator('#when-the-universe-is-too-large');
  await heading.evaluate((h) => h.scrollIntoView({ block: 'center' }));
  // The widgets near the screen mount as it arrives, later on a busy machine:
  // read the heading once it has stayed put for half a second (up to 10 s).
  const before = await steady(page, () => heading.evaluate((h) => h.getBoundingClientRect().top), { times: 5, tries: 100 });
  const height = await page.evaluate(() => document.querySelector('#w-sdb').offsetHeight);
  await everyLive(page);
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.renders);
  assert.ok(await page.evaluate((h) => document.querySelector('#w-sdb').offsetHeight - h > 100, height), 'SmallDB did not grow as it mounted');
  const after = await heading.evaluate((h) => h.getBoundingClientRect().top);
  assert.ok(Math.abs(after - before) <= 2, `the heading moved from ${before} to ${after}`);
  assert.deepEqual(errors, []);
  await context.close();
});
