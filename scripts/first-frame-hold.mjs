#!/usr/bin/env node
// Reproduces, without the site, the hold on the first frame that makes
// Lighthouse's mobile figures bimodal here (docs/web.md, "What the main thread
// does while a lesson loads"). A page of one heading and one paragraph is
// kept from drawing for delay_ms in one of two ways: its stylesheet arrives
// after delay_ms, or an inline script at the end of its body keeps the main
// thread busy for delay_ms. Chromium starts as Lighthouse's command line
// starts it (lighthouseChrome), opens a new tab, sets the emulation and loads
// the page, which reports its first contentful paint, in four settings:
// mobile emulation (Lighthouse's 412 × 823 phone) or the same viewport
// without it, and RenderDocument off (as Lighthouse starts Chromium) or at
// the build's default. -1 means no paint within 2.5 s of the load event.
// Usage: node scripts/first-frame-hold.mjs [runs] [delay_ms…]  (one line per way, delay and setting)
import http from 'node:http';
import { chromium } from 'playwright-core';
import { lighthouseChrome } from './perf-bench.mjs';

const [runsArg, ...delayArgs] = process.argv.slice(2);
const runs = Number(runsArg || 4);
const delays = (delayArgs.length ? delayArgs : ['100', '500']).map(Number);

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const ms = Number(u.searchParams.get('ms'));
  if (u.pathname === '/slow.css') {
    res.setHeader('Content-Type', 'text/css');
    setTimeout(() => res.end('p { color: #333 }'), ms);
    return;
  }
  const css = u.searchParams.get('way') === 'css' ? `<link rel="stylesheet" href="/slow.css?ms=${ms}">` : '';
  const busy = u.searchParams.get('way') === 'busy' ? `<script>for (const t = performance.now(); performance.now() - t < ${ms};);</script>` : '';
  res.setHeader('Content-Type', 'text/html');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>first frame</title>${css}</head>
<body><h1>A heading</h1><p>A paragraph of text.</p>${busy}</body></html>`);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

/** firstPaint loads the page once in a fresh Chromium and returns its first contentful paint in ms. */
async function firstPaint(way, delay, mobile, renderDocument) {
  const chrome = await lighthouseChrome({ renderDocument });
  let browser;
  try {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0].newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { mobile, width: 412, height: 823, deviceScaleFactor: mobile ? 1.75 : 1 });
    await page.goto(`${base}?way=${way}&ms=${delay}`, { waitUntil: 'load' });
    await page.waitForTimeout(2500);
    return await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1));
  } finally {
    await browser?.close().catch(() => {});
    await chrome.kill();
  }
}

try {
  for (const [way, what] of [['css', 'stylesheet after'], ['busy', 'main thread busy for']]) {
    for (const delay of delays) {
      for (const mobile of [false, true]) {
        for (const renderDocument of [false, true]) {
          const fcp = [];
          for (let i = 0; i < runs; i++) fcp.push(await firstPaint(way, delay, mobile, renderDocument));
          console.log(`${what} ${delay} ms, ${mobile ? 'mobile emulation' : 'no emulation    '}, RenderDocument ${renderDocument ? 'default' : 'off    '}: first paint ${fcp.join(', ')} ms`);
        }
      }
    }
  }
} finally {
  server.close();
}
