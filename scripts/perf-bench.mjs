#!/usr/bin/env node
// The page's load figures in Debian's Chromium, with dist/ served as GitHub
// Pages serves it (gzip, max-age=600): for the first lesson, cold (a fresh
// profile) and warm (the same profile again, the service worker installed),
// on localhost and with slow 4G plus a 4× slower CPU (CDP throttling, the
// values Lighthouse's mobile preset uses), it prints
//   fcp_ms         first contentful paint
//   chart_ms       the first frame with a chart in the lesson, and no
//                  earlier than fcp_ms (a frame while the stylesheets
//                  still block rendering shows nothing)
//   live_ms        the controls on screen answer: the widgets on or near the
//                  screen mounted and the engine ready
//   load_task_ms   the longest main-thread task during the load
//                  (PerformanceObserver "longtask", which reports tasks over
//                  50 ms; 0 means none)
//   slider_task_ms the longest main-thread task during five slider moves
//   compile_ms     the worker's compile and instantiation of the core
//                  module, from its response's headers to the instance
//                  (the compile streams, so a slow download counts too)
// then, in an on-disk profile (code_cache: the HTTP cache, Cache Storage
// and Chromium's cache of compiled wasm outlive the page, as in a reader's
// browser), per visit (first, second, third): core_compile_ms;
// machine_compile_ms and machine_ready_ms, from the sampling machine page's
// start to its compiled module and to its ready message (its start-up calls
// many functions, each compiled on first call unless the cache has it). V8
// caches a module only once enough of its code has been optimized: the
// machine's is, a lesson's use of core is not,
// then Lighthouse (mobile, simulated throttling) for the root and every
// lesson's and page's own address: lighthouseFigures, with the machine's load
// average when it ran, once in Chromium as Lighthouse's command line starts it
// (lighthouse_mobile) and once with RenderDocument at the build's default
// (lighthouse_mobile_render_document; see lighthouseChrome), which doubles
// this part's time (about 40 s a run here). scripts/bundle-size.mjs measures
// the slider to the painted chart at 10,000 draws.
// Usage: node scripts/perf-bench.mjs [dist] [runs]  (prints JSON)
// Timings are figures, never pass/fail.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import { serve } from '../e2e/web/server.mjs';
import fs from 'node:fs';
import { launch, launchProfile, browserPath, chromiumArgs } from '../e2e/web/browser.mjs';
import { siteIndex } from '../e2e/web/harness.mjs';

// Lighthouse's mobile "slow 4G" (its DevTools throttling preset) and 4× CPU.
export const SLOW4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };

/** throttle(cdp, on) turns slow 4G and a 4× slower CPU on or off for the CDP session's page. */
export async function throttle(cdp, on) {
  if (on) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  } else {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }
}

/**
 * firstWidgetLive runs in the page: it brings the lesson's first widget on
 * screen and waits, up to 10 s, until it has mounted, since a widget off
 * screen keeps its pre-rendered drawing until it comes near.
 */
export async function firstWidgetLive() {
  const fig = document.querySelector('#lesson figure.widget');
  fig?.scrollIntoView();
  for (let t0 = performance.now(); fig?.querySelector('.widget-body:is([aria-busy], [data-prerendered])') && performance.now() - t0 < 10000;) await new Promise((r) => setTimeout(r, 10));
}

// Runs in the page before its scripts: watches for the first chart frame and
// for long tasks.
function probe() {
  const w = window;
  w.__bench = { longest: 0, chart: NaN };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longest = Math.max(w.__bench.longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch { /* no longtask support */ }
  const look = (t) => {
    if (document.querySelector('#lesson .chart-svg svg')) { w.__bench.chart = t; return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

async function measure(page, url, throttled) {
  const cdp = await page.context().newCDPSession(page);
  if (throttled) await throttle(cdp, true);
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.lessonReady && document.body.classList.contains('engine-ready'), null, { timeout: 120000 });
  // Let the load's last tasks finish, then count the slider's on their own.
  await page.waitForTimeout(500);
  const loadTask = await page.evaluate(() => { const t = window.__bench.longest; window.__bench.longest = 0; return t; });
  await page.evaluate(firstWidgetLive);
  await page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 300));
    window.__bench.longest = 0;
  });
  await page.evaluate(async () => {
    const fig = document.querySelector('#lesson figure.widget');
    const slider = fig?.querySelector('input[type=range]');
    for (let i = 0; slider && i < 5; i++) {
      const before = fig.dataset.renders;
      slider.value = String(300 + 80 * i);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      const t0 = performance.now();
      while (fig.dataset.renders === before && performance.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 100));
  });
  const r = await page.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    const fcp = at('first-contentful-paint');
    // Live: the widgets near the screen are mounted and the engine answers (whichever is later).
    const live = performance.getEntriesByName('dpplay-live')[0]?.startTime
      ?? Math.max(at('dpplay-interactive'), at('dpplay-engine-ready'));
    const t = performance.getEntriesByName('dpplay-engine-ready')[0]?.detail;
    return { fcp_ms: fcp, chart_ms: Math.max(window.__bench.chart, fcp), live_ms: live, slider_task_ms: window.__bench.longest,
      compile_ms: t ? t.compiled - t.response : NaN };
  });
  if (throttled) await throttle(cdp, false);
  await cdp.detach();
  r.load_task_ms = loadTask;
  for (const k of Object.keys(r)) r[k] = Math.round(r[k]);
  return r;
}

/** loads(browser, url, throttled) measures a cold load, then a warm one in the same profile. */
async function loads(browser, url, throttled) {
  const context = await browser.newContext({ viewport: throttled ? { width: 412, height: 823 } : { width: 1280, height: 900 } });
  await context.addInitScript(probe);
  const page = await context.newPage();
  const cold = await measure(page, url, throttled);
  // Let the service worker install and precache, as a second visit would find it.
  await page.evaluate(() => navigator.serviceWorker?.ready.then((r) => new Promise((res) => {
    const sw = r.active;
    if (!sw || sw.state === 'activated') res(); else sw.addEventListener('statechange', () => sw.state === 'activated' && res());
  })));
  await page.waitForTimeout(1000);
  const page2 = await context.newPage();
  await page.close();
  const warm = await measure(page2, url, throttled);
  await context.close();
  return { cold, warm };
}

/**
 * codeCache(url, lesson, machineBytes) visits the site's lesson and then the
 * sampling machine three times each in a fresh on-disk profile and returns
 * their compile and start-up times (ms) per visit.
 */
export async function codeCache(url, lesson, machineBytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-bench-'));
  const context = await launchProfile(dir);
  const out = { core_compile_ms: [], machine_compile_ms: [], machine_ready_ms: [] };
  try {
    for (let i = 0; i < 3; i++) {
      const page = await context.newPage();
      await page.goto(`${url}${lesson}/`);
      await page.waitForFunction(() => document.body.classList.contains('engine-ready'), null, { timeout: 120000 });
      const t = await page.evaluate(() => performance.getEntriesByName('dpplay-engine-ready')[0].detail);
      out.core_compile_ms.push(Math.round(t.compiled - t.response));
      await page.evaluate(() => navigator.serviceWorker?.ready);
      // V8 writes its cache a while after the module's code is optimized.
      await page.waitForTimeout(4000);
      await page.close();
    }
    for (let i = 0; i < 3; i++) {
      const page = await context.newPage();
      await page.goto(`${url}machine.html#bytes=${machineBytes}`);
      await page.waitForFunction(() => document.body.classList.contains('running'), null, { timeout: 120000 });
      const s = await page.evaluate(() => window.machineStats);
      out.machine_compile_ms.push(Math.round(s.compiledAt - s.loadStart));
      out.machine_ready_ms.push(Math.round(s.readyAt - s.loadStart));
      await page.waitForTimeout(4000);
      await page.close();
    }
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** median(xs) is the median of the finite numbers in xs, NaN if there are none. */
export const median = (xs) => { const s = xs.filter(Number.isFinite).sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };

/** medians(runs) is, for each figure of runs[i].cold and runs[i].warm, its median over the runs. */
export function medians(runs) {
  const out = {};
  for (const kind of ['cold', 'warm']) {
    out[kind] = {};
    for (const k of Object.keys(runs[0][kind])) out[kind][k] = median(runs.map((r) => r[kind][k]));
  }
  return out;
}

/**
 * lighthouseChrome launches a headless Chromium for Lighthouse with
 * chrome-launcher's default flags, the ones Lighthouse's command line uses,
 * and chromiumArgs. With renderDocument, RenderDocument is taken out of the
 * defaults' --disable-features, which leaves it at the build's default:
 * docs/web.md ("What the main thread does while a lesson loads") says why.
 */
export async function lighthouseChrome({ renderDocument = false } = {}) {
  const chromeLauncher = await import('chrome-launcher');
  let flags = chromeLauncher.Launcher.defaultFlags();
  if (renderDocument) {
    const before = flags.join(' ');
    flags = flags.map((f) => (f.startsWith('--disable-features=')
      ? '--disable-features=' + f.slice('--disable-features='.length).split(',').filter((x) => x !== 'RenderDocument').join(',')
      : f));
    if (flags.join(' ') === before) throw new Error('chrome-launcher no longer turns RenderDocument off: drop the renderDocument setting');
  }
  return chromeLauncher.launch({
    chromePath: browserPath,
    ignoreDefaultFlags: true,
    chromeFlags: [...new Set([...flags, '--headless=new', ...chromiumArgs])],
  });
}

/**
 * lighthouseFigures(lhr) is what a Lighthouse result says of the page's load:
 * the score of each category it ran, the performance metrics Lighthouse
 * simulates (ms, and the layout shift), the first contentful paint it
 * observed before simulating, the main thread's total work, its largest four
 * kinds of work, and its long tasks (at most 20, the longest: count, sum and
 * longest, in simulated time).
 */
export function lighthouseFigures(lhr) {
  const out = {};
  for (const [k, c] of Object.entries(lhr.categories)) out[k] = Math.round(100 * c.score);
  const a = lhr.audits;
  const ms = (id) => Math.round(a[id]?.numericValue ?? NaN);
  Object.assign(out, {
    fcp_ms: ms('first-contentful-paint'), lcp_ms: ms('largest-contentful-paint'), si_ms: ms('speed-index'),
    tbt_ms: ms('total-blocking-time'), cls: +(a['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3),
    observed_fcp_ms: Math.round(a.metrics?.details?.items?.[0]?.observedFirstContentfulPaint ?? NaN),
    main_thread_ms: ms('mainthread-work-breakdown'),
    main_thread_top: Object.fromEntries((a['mainthread-work-breakdown']?.details?.items || []).slice(0, 4).map((i) => [i.group, Math.round(i.duration)])),
  });
  const long = a['long-tasks']?.details?.items || [];
  out.long_tasks = long.length;
  out.long_sum_ms = Math.round(long.reduce((sum, t) => sum + t.duration, 0));
  out.longest_task_ms = Math.round(Math.max(0, ...long.map((t) => t.duration)));
  return out;
}

/**
 * lighthouseScores(url, options, categories) runs Lighthouse mobile
 * (simulated throttling; the categories named, or every one) on url in a
 * fresh lighthouseChrome(options)
 * and returns lighthouseFigures with the one-minute load average when it ran:
 * Lighthouse simulates a slow phone from what it measures here, so a busy
 * machine lowers the score.
 */
export async function lighthouseScores(url, options, categories) {
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await lighthouseChrome(options);
  try {
    const load = +os.loadavg()[0].toFixed(1);
    const { lhr } = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: categories });
    return { load, ...lighthouseFigures(lhr) };
  } finally {
    await chrome.kill();
  }
}

if (import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const dir = path.resolve(process.argv[2] || 'dist');
  const runs = Number(process.argv[3] || 3);
  const server = await serve(dir, '/dpplay/', { pages: true });
  const { lessons, pages = [] } = siteIndex(dir);
  const lesson1 = `${server.url}${lessons[0].slug}/`;
  const browser = await launch();
  // The machine may be shared: the load average says how busy it was.
  const out = { runs, loadavg_start: os.loadavg().map((x) => +x.toFixed(2)) };
  try {
    for (const [name, throttled] of [['localhost', false], ['slow4g_cpu4x', true]]) {
      const rs = [];
      // The first lesson (the root is a landing page without a widget).
      for (let i = 0; i < (throttled ? Math.min(runs, 2) : runs); i++) rs.push(await loads(browser, lesson1, throttled));
      out[name] = medians(rs);
    }
  } finally {
    await browser.close();
  }
  out.code_cache = await codeCache(server.url, lessons[0].slug, fs.statSync(path.join(dir, 'wasm', 'machine.wasm')).size);
  try {
    // Chromium as Lighthouse's command line starts it, and with RenderDocument
    // at the build's default (lighthouseChrome): both on each page in turn,
    // first one then the other, so that both see about the same load.
    out.lighthouse_mobile = {};
    out.lighthouse_mobile_render_document = {};
    for (const [i, slug] of ['', ...lessons.concat(pages).map((p) => p.slug)].entries()) {
      const url = slug ? `${server.url}${slug}/` : server.url;
      for (const renderDocument of i % 2 ? [true, false] : [false, true]) {
        const key = renderDocument ? 'lighthouse_mobile_render_document' : 'lighthouse_mobile';
        out[key][slug || 'root'] = await lighthouseScores(url, { renderDocument });
      }
    }
  } finally {
    await server.close();
  }
  out.loadavg_end = os.loadavg().map((x) => +x.toFixed(2));
  console.log(JSON.stringify(out, null, 1));
}
