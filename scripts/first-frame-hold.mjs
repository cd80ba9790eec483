#!/usr/bin/env node
// Reproduces, without the site, the hold on the first frame that makes
// Lighthouse's mobile figures bimodal here (docs/web.md, "What the main thread
// does while a lesson loads"). A page of one heading and one paragraph links a
// stylesheet that the server sends after delay_ms. Chromium starts with the
// flags Lighthouse's command line gives it (lighthouseChrome), navigates from
// about:blank as Lighthouse does, and the page reports its first contentful
// paint, in four settings: desktop or mobile emulation, and the RenderDocument
// feature off (as Lighthouse starts Chromium) or at the build's default. -1
// means no paint within 2.5 s of the load event.
// Usage: node scripts/first-frame-hold.mjs [runs] [delay_ms…]  (prints one line per setting and delay)
import http from 'node:http';
import { chromium } from 'playwright-core';
import { lighthouseChrome } from './perf-bench.mjs';

const [runsArg, ...delayArgs] = process.argv.slice(2);
const runs = Number(runsArg || 4);
const delays = (delayArgs.length ? delayArgs : ['100', '500']).map(Number);

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  if (u.pathname === '/slow.css') {
    setTimeout(() => res.end('p { color: #333 }'), Number(u.searchParams.get('ms')));
    res.setHeader('Content-Type', 'text/css');
    return;
  }
  res.setHeader('Content-Type', 'text/html');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>first frame</title>
<link rel="stylesheet" href="/slow.css?ms=${Number(u.searchParams.get('ms'))}"></head>
<body><h1>A heading</h1><p>A paragraph of text.</p></body></html>`);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

/** firstPaint loads the page once in a fresh Chromium and returns its first contentful paint in ms. */
async function firstPaint(delay, mobile, renderDocument) {
  const chrome = await lighthouseChrome({ renderDocument });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const page = browser.contexts()[0].pages()[0] || await browser.contexts()[0].newPage();
    const cdp = await page.context().newCDPSession(page);
    await page.goto('about:blank');
    // Lighthouse's mobile device: 412 × 823 CSS px (device scale 1.75 or 1 gives the same).
    await cdp.send('Emulation.setDeviceMetricsOverride', { mobile, width: 412, height: 823, deviceScaleFactor: mobile ? 1.75 : 1 });
    await page.goto(`${base}?ms=${delay}`, { waitUntil: 'load' });
    await page.waitForTimeout(2500);
    return await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1));
  } finally {
    await browser.close().catch(() => {});
    await chrome.kill();
  }
}

try {
  for (const delay of delays) {
    for (const mobile of [false, true]) {
      for (const renderDocument of [false, true]) {
        const fcp = [];
        for (let i = 0; i < runs; i++) fcp.push(await firstPaint(delay, mobile, renderDocument));
        console.log(`stylesheet after ${delay} ms, ${mobile ? 'mobile ' : 'desktop'}, RenderDocument ${renderDocument ? 'default' : 'off    '}: first paint ${fcp.join(', ')} ms`);
      }
    }
  }
} finally {
  server.close();
}
