#!/usr/bin/env node
// Measures the playground's first load in Debian's Chromium: the gzipped size
// (gzip -9) of every file the first lesson fetches (wasm + JS + CSS + HTML),
// the time from navigation until the lesson is interactive, and the latency
// from moving the ε slider to the painted chart with 10,000 draws.
// Usage: node scripts/bundle-size.mjs [dist]   (prints one JSON object)
import zlib from 'node:zlib';
import { serve } from '../e2e/web/server.mjs';
import { launch } from '../e2e/web/browser.mjs';

export const BUDGET_BYTES = 1_000_000;

/** firstLoad(browser, url) loads url in a fresh context and returns the files it fetched with their gzipped sizes. */
export async function firstLoad(browser, url) {
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
  await page.waitForFunction(() => document.body.dataset.lessonReady && document.body.classList.contains('engine-ready'), null, { timeout: 30000 });
  const tti = await page.evaluate(() => performance.getEntriesByName('dpplay-interactive')[0]?.startTime ?? NaN);
  await page.waitForTimeout(200);
  const list = (await Promise.all(files)).filter(Boolean);
  await context.close();
  const gzip = list.reduce((s, f) => s + f.gzip, 0);
  const raw = list.reduce((s, f) => s + f.raw, 0);
  return { files: list, gzip, raw, tti };
}

/**
 * sliderLatency measures ε slider → painted chart, in ms, for a widget
 * holding 10,000 draws: from the input event to the end of the frame that
 * shows the new chart (the first task after its animation frame callbacks),
 * each move after the previous one painted. It returns the median, p95 and
 * max over moves.
 */
export async function sliderLatency(browser, baseURL, moves = 40) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${baseURL}#/exponential-mechanism?meet.batch=10000&meet.step=1&meet.seed=5`);
  await page.waitForFunction(() => document.body.dataset.lessonReady && document.body.classList.contains('engine-ready'));
  const times = await page.evaluate(async (moves) => {
    const fig = document.querySelector('#w-meet');
    const slider = fig.querySelector('input[type=range]');
    const out = [];
    for (let i = 0; i < moves; i++) {
      const before = fig.dataset.renders;
      const done = new Promise((resolve) => {
        const mo = new MutationObserver(() => {
          if (fig.dataset.renders !== before) { mo.disconnect(); resolve(); }
        });
        mo.observe(fig, { attributes: true, attributeFilter: ['data-renders'] });
      });
      const t0 = performance.now();
      slider.value = String(Math.round(+slider.max * (0.4 + ((i * 37) % 500) / 1000)));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await done;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      out.push(performance.now() - t0);
    }
    return out;
  }, moves);
  await context.close();
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)];
  return { median: q(0.5), p95: q(0.95), max: times[times.length - 1], draws: 10000, times: times.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || 'dist';
  const server = await serve(dir, '/dpplay/');
  const browser = await launch();
  try {
    const load = await firstLoad(browser, server.url);
    const lat = await sliderLatency(browser, server.url);
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
      slider_to_paint_ms_10k_draws: { median: +lat.median.toFixed(1), p95: +lat.p95.toFixed(1), max: +lat.max.toFixed(1), moves: lat.times },
    }));
    if (load.gzip >= BUDGET_BYTES) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.close();
  }
}
