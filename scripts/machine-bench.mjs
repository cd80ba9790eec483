#!/usr/bin/env node
// The sampling machine's start in Debian's Chromium, with dist/ served as
// GitHub Pages serves it (scripts/perf-bench.mjs's server, browser and
// throttling): on the exponential-mechanism lesson it presses "Start the
// machine" and times, from the press,
//   first_ball_ms  the frame with the first ball has been drawn (the
//                  machine page's performance mark dpplay-machine-first-ball)
//   heard_ms       the lesson page hears of it (its status line can change)
//   frame_ms       the iframe's navigation starts
//   script_ms      machine.html's script starts
//   compiled_ms    machine.wasm is compiled and instantiated
//   ready_ms       the machine's first frame
// and, once started on localhost, the frames per second with about 2,000
// balls in flight (1,000 a second in each lane; median and least over ten
// one-second samples),
// cold (a fresh profile; the service worker installed first, as for a
// student who reads before pressing) and warm (a second page in the same
// profile: the module in the service worker's cache), on localhost and with
// slow 4G plus a 4× slower CPU (switched on once the lesson is ready, so only
// the machine's start is throttled). Medians of [runs] (2 at most when throttled).
// Usage: node scripts/machine-bench.mjs [dist] [runs]  (prints JSON)
// Timings are figures, never pass/fail.
import path from 'node:path';
import os from 'node:os';
import { serve } from '../e2e/web/server.mjs';
import { launch, ready } from '../e2e/web/browser.mjs';
import { throttle, medians, SLOW4G } from './perf-bench.mjs';

const lesson = 'exponential-mechanism';

async function press(page, url, throttled) {
  await page.goto(url);
  await ready(page, lesson);
  await page.evaluate(() => navigator.serviceWorker?.ready);
  const host = page.locator('figure.widget[data-id="machine"] .machine-host').first();
  await host.scrollIntoViewIfNeeded();
  const cdp = await page.context().newCDPSession(page);
  if (throttled) await throttle(cdp, true);
  const sw = throttled ? await throttleWorkers(page.context().browser()) : null;
  await host.locator('button.machine-start').click();
  await host.evaluate((el) => new Promise((resolve) => {
    const look = () => (el.dataset.firstBallMs ? resolve() : setTimeout(look, 20));
    look();
  }), null, { timeout: 180000 });
  if (throttled) await throttle(cdp, false);
  await cdp.detach();
  await sw?.();
  const frame = page.frames().find((f) => f.url().includes('machine.html'));
  const pressed = Number(await host.getAttribute('data-pressed-at'));
  const first = Number(await host.getAttribute('data-first-ball-ms'));
  const s = await frame.evaluate(() => ({ origin: performance.timeOrigin, ...window.machineStats,
    mark: performance.getEntriesByName('dpplay-machine-first-ball')[0]?.startTime ?? NaN }));
  const at = (t) => Math.round(s.origin + t - pressed);
  return { first_ball_ms: at(s.mark), heard_ms: first, frame_ms: at(0), script_ms: at(s.loadStart), compiled_ms: at(s.compiledAt), ready_ms: at(s.readyAt) };
}

/**
 * throttleWorkers(browser) puts every service worker on slow 4G, since a page's
 * network emulation does not reach the fetches its service worker makes for it.
 * It returns a function that lifts the throttling.
 */
async function throttleWorkers(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const sessions = [];
  let id = 0;
  const tell = (sessionId, method, params) => cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) });
  for (const t of targetInfos.filter((t) => t.type === 'service_worker')) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
    await tell(sessionId, 'Network.enable', {});
    await tell(sessionId, 'Network.emulateNetworkConditions', SLOW4G);
    sessions.push(sessionId);
  }
  return async () => {
    for (const s of sessions) await cdp.send('Target.detachFromTarget', { sessionId: s });
    await cdp.detach();
  };
}

/** fps(browser, url) starts the machine, runs it at 1,000 balls a second per lane and samples its frame rate once about 2,000 are in flight. */
async function fps(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(url);
  await ready(page, lesson);
  const host = page.locator('figure.widget[data-id="machine"] .machine-host').first();
  await host.scrollIntoViewIfNeeded();
  await host.locator('button.machine-start').click();
  await page.waitForFunction(() => document.querySelector('figure.widget[data-id="machine"] .machine-host').dataset.firstBallMs, null, { timeout: 60000 });
  await host.evaluate((el) => { el.machine.send({ type: 'speed', speed: 1000 }); el.machine.send({ type: 'pause', paused: false }); });
  const frame = page.frames().find((f) => f.url().includes('machine.html'));
  await frame.waitForFunction(() => window.machineStats.fpsLog.slice(-1)[0]?.inFlight >= 1900, null, { timeout: 60000 });
  const from = await frame.evaluate(() => window.machineStats.fpsLog.length);
  await frame.waitForFunction((n) => window.machineStats.fpsLog.length >= n + 10, from, { timeout: 60000 });
  const log = await frame.evaluate((n) => window.machineStats.fpsLog.slice(n, n + 10), from);
  const software = await frame.evaluate(() => window.machineStats.softwareGL);
  await context.close();
  const f = log.map((x) => x.fps).sort((a, b) => a - b);
  return { median: +f[f.length >> 1].toFixed(1), min: +f[0].toFixed(1), in_flight: [log[0].inFlight, log.at(-1).inFlight], software_gl: software };
}

/** starts(browser, url, throttled) presses the start button in a fresh profile, then again in a second page of it. */
async function starts(browser, url, throttled) {
  const context = await browser.newContext({ viewport: throttled ? { width: 412, height: 823 } : { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cold = await press(page, url, throttled);
  const page2 = await context.newPage();
  await page.close();
  const warm = await press(page2, url, throttled);
  await context.close();
  return { cold, warm };
}

const dir = path.resolve(process.argv[2] || 'dist');
const runs = Number(process.argv[3] || 3);
const server = await serve(dir, '/dpplay/', { pages: true });
const browser = await launch();
// The server gzips each file once, on its first request; do that before timing.
await fetch(`${server.url}wasm/machine.wasm`, { headers: { 'Accept-Encoding': 'gzip' } }).then((r) => r.arrayBuffer());
// The machine may be shared: the load average says how busy it was.
const out = { machine_start: { runs, loadavg_start: os.loadavg().map((x) => +x.toFixed(2)) } };
try {
  for (const [name, throttled] of [['localhost', false], ['slow4g_cpu4x', true]]) {
    const rs = [];
    for (let i = 0; i < (throttled ? Math.min(runs, 2) : runs); i++) rs.push(await starts(browser, `${server.url}${lesson}/`, throttled));
    out.machine_start[name] = medians(rs);
  }
  out.machine_fps_2000 = await fps(browser, `${server.url}${lesson}/`);
} finally {
  await browser.close();
  await server.close();
}
out.machine_start.loadavg_end = os.loadavg().map((x) => +x.toFixed(2));
console.log(JSON.stringify(out, null, 1));
