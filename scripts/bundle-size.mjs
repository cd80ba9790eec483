#!/usr/bin/env node
// Measures the playground's first load in Debian's Chromium: the gzipped size
// (gzip -9) of every file the first lesson fetches (wasm + JS + CSS + HTML),
// the time from navigation until the lesson is interactive, what moving
// the ε slider costs with 10,000 draws (see sliderLatency), and the first
// load of the embed page for one widget of each engine (EMBEDS).
// Usage: node scripts/bundle-size.mjs [dist]   (prints one JSON object)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve } from '../e2e/web/server.mjs';
import { launch } from '../e2e/web/browser.mjs';

export const BUDGET_BYTES = 1_000_000;

/** lessonReady is true in a lesson's page once its widgets are mounted and the engine is ready. */
const lessonReady = () => document.body.dataset.lessonReady && document.body.classList.contains('engine-ready');

/** embedReady is the same on the embed page (web/embed/embedpage.js). */
const embedReady = () => document.body.dataset.embedReady && document.body.classList.contains('engine-ready');

/**
 * EMBEDS are the widgets whose embed page's first load is measured: one for
 * each engine module a widget's opening state uses ([lesson slug, widget id]).
 */
export const EMBEDS = [['exponential-mechanism', 'meet'], ['private-pricing', 'price'], ['sparse-vector', 'variants'], ['mwem', 'mw'], ['check-a-mechanism', 'check']];

/**
 * firstLoad(browser, url, ready) loads url in a fresh context, waits until
 * ready (a function run in the page; by default a lesson's readiness) and
 * returns the files it fetched with their gzipped sizes.
 */
export async function firstLoad(browser, url, ready = lessonReady) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const files = [];
  page.on('response', async (res) => {
    if (res.status() !== 200) return;
    files.push(res.body().then((b) => ({
      url: res.url(), raw: b.length, gzip: zlib.gzipSync(b, { level: 9 }).length,
    })).catch(() => null));
  });
  await page.goto(url);
  await page.waitForFunction(ready, null, { timeout: 30000 });
  const tti = await page.evaluate(() => performance.getEntriesByName('dpplay-interactive')[0]?.startTime ?? NaN);
  await page.waitForTimeout(200);
  const list = (await Promise.all(files)).filter(Boolean);
  await context.close();
  const gzip = list.reduce((s, f) => s + f.gzip, 0);
  const raw = list.reduce((s, f) => s + f.raw, 0);
  return { files: list, gzip, raw, tti };
}

/**
 * sliderLatency measures ε slider → painted chart for a widget holding 10,000
 * draws. Each move is dispatched at the start of a frame, in a
 * requestAnimationFrame callback, where Chromium delivers a dragged slider's
 * input, and after the previous move painted. It returns, over the moves, the
 * median, p95 and max of: work, the ms from the input to the end of the
 * redraw (worker round trip and the chart's DOM update); paint, the ms to the
 * end of the frame that shows the new chart; and frames, how many frames that
 * took (1: the chart is painted in the frame right after the input).
 */
export async function sliderLatency(browser, baseURL, moves = 40) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${baseURL}exponential-mechanism/#meet.batch=10000&meet.step=1&meet.seed=5`);
  await page.waitForFunction(() => document.body.dataset.lessonReady && document.body.classList.contains('engine-ready'));
  const rows = await page.evaluate(async (moves) => {
    const fig = document.querySelector('#w-meet');
    const slider = fig.querySelector('input[type=range]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const out = [];
    for (let i = 0; i < moves; i++) {
      const before = fig.dataset.renders;
      await frame();
      const t0 = performance.now();
      let t1 = 0, frames = 0;
      const drawn = new Promise((resolve) => {
        const mo = new MutationObserver(() => {
          if (fig.dataset.renders !== before) { t1 = performance.now(); mo.disconnect(); resolve(); }
        });
        mo.observe(fig, { attributes: true, attributeFilter: ['data-renders'] });
      });
      slider.value = String(Math.round(+slider.max * (0.4 + ((i * 37) % 500) / 1000)));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      let painted = false;
      drawn.then(() => { painted = true; });
      // Count frames until one starts after the redraw; that frame paints it.
      for (;;) {
        await frame();
        frames++;
        if (painted) break;
      }
      await new Promise((r) => setTimeout(r, 0));
      out.push({ work: t1 - t0, paint: performance.now() - t0, frames });
    }
    return out;
  }, moves);
  await context.close();
  const stats = (k) => {
    const v = rows.map((r) => r[k]).sort((a, b) => a - b);
    const q = (p) => v[Math.min(v.length - 1, Math.ceil(p * v.length) - 1)];
    return { median: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), max: +v[v.length - 1].toFixed(1) };
  };
  return { work: stats('work'), paint: stats('paint'), frames: stats('frames'), draws: 10000, moves: rows.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || 'dist';
  const server = await serve(dir, '/dpplay/');
  const browser = await launch();
  try {
    // The first lesson's own page: its text and pre-rendered charts come in the HTML.
    const { lessons } = JSON.parse(fs.readFileSync(path.join(dir, 'index.html'), 'utf8').match(/<script type="application\/json" id="site-index">(.*?)<\/script>/s)[1]);
    const load = await firstLoad(browser, `${server.url}${lessons[0].slug}/`);
    const lat = await sliderLatency(browser, server.url);
    // The embed page of one widget on another site (embed.html): its HTML,
    // JS, CSS, the widget's fragment (embed/slug/id.html), and the engine
    // modules the widget uses.
    const embeds = {};
    for (const [slug, id] of EMBEDS) {
      const e = await firstLoad(browser, `${server.url}embed.html#/${slug}/${id}`, embedReady);
      embeds[`${slug}/${id}`] = { gzip_bytes: e.gzip, wasm: e.files.filter((f) => f.url.endsWith('.wasm')).map((f) => path.basename(f.url)), within_budget: e.gzip <= BUDGET_BYTES };
    }
    const byType = {};
    for (const f of load.files) {
      const ext = (new URL(f.url).pathname.match(/\.([a-z0-9]+)$/) || [, 'html'])[1];
      byType[ext] = (byType[ext] || 0) + f.gzip;
    }
    console.log(JSON.stringify({
      first_load_gzip_bytes: load.gzip,
      first_load_raw_bytes: load.raw,
      budget_bytes: BUDGET_BYTES,
      within_budget: load.gzip < BUDGET_BYTES,
      gzip_bytes_by_type: byType,
      files: load.files.length,
      time_to_interactive_ms: Math.round(load.tti),
      slider_10k_draws: { work_ms: lat.work, paint_ms: lat.paint, frames: lat.frames, moves: lat.moves },
      embed_first_load: embeds,
    }));
    // The embed page of every engine's widget is held to the budget too.
    if (load.gzip >= BUDGET_BYTES || Object.values(embeds).some((e) => !e.within_budget)) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.close();
  }
}
