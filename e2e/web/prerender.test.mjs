// The build's pre-rendered opening state (scripts/prerender.mjs) in Debian's
// Chromium: with the engine held back, the lesson mounts from the recording
// and its controls go live when the engine arrives; a widget without a
// drawing waits below the screen and moves nothing when it mounts above the
// reader. That every pre-rendered chart equals the engine's at 1280 and
// 390 px is the sweep's (sweep.test.mjs). Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watch, ready } from './browser.mjs';
import { harness, everyLive, live, nearLive, siteIndex, steady } from './harness.mjs';

const index = siteIndex();

const web = harness();

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
  // The widgets near the screen mount as it arrives: read the heading once
  // they have, and it stays put.
  await nearLive(page);
  const before = await steady(page, () => heading.evaluate((h) => h.getBoundingClientRect().top), { times: 2 });
  const height = await page.evaluate(() => document.querySelector('#w-sdb').offsetHeight);
  await everyLive(page);
  await page.waitForFunction(() => document.querySelector('#w-sdb').dataset.renders);
  assert.ok(await page.evaluate((h) => document.querySelector('#w-sdb').offsetHeight - h > 100, height), 'SmallDB did not grow as it mounted');
  // The page answers the growth in the frames after it (under load, more
  // than one): read the heading once it has come to rest.
  const after = await steady(page, () => heading.evaluate((h) => h.getBoundingClientRect().top), { times: 2 });
  assert.ok(Math.abs(after - before) <= 2, `the heading moved from ${before} to ${after}`);
  assert.deepEqual(errors, []);
  await context.close();
});
