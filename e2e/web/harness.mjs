// What every browser test file shares: dist/ served under /dpplay/ (the
// sub-path GitHub Pages serves a project site at), one Chromium, pages opened
// in fresh contexts, waits on a widget's redraws, and axe. Under e2e/run.mjs
// the server and the browser are the run's (DPPLAY_SITE, DPPLAY_CHROMIUM);
// a file run alone starts its own.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './server.mjs';
import { launch, watch, ready } from './browser.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = process.env.DIST || path.join(root, 'dist');
/**
 * shots is where screenshots go: $SHOTS (`make shots` sets e2e/screenshots),
 * or null, and then none is taken: a screenshot is for a person to look at,
 * and costs the run about a second of CPU each.
 */
export const shots = process.env.SHOTS ? path.resolve(process.env.SHOTS) : null;

/**
 * shoot(target, file, opts) saves target's screenshot (a page, locator or
 * engine driver: anything with screenshot({path})) as file in shots, when
 * screenshots are asked for.
 */
export async function shoot(target, file, opts = {}) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await target.screenshot({ path: path.join(shots, file), ...opts });
}

/** siteIndex(dir) is the site's index (lessons, pages, wasm modules) that the build writes into dir/index.html (dir: dist/). */
export const siteIndex = (dir = dist) => JSON.parse(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')
  .match(/<script type="application\/json" id="site-index">(.*?)<\/script>/s)[1]);

/**
 * harness(...need) adds the hooks of a browser test file: before its tests it
 * asserts that each [file, message] of need is in dist/, serves dist/ and
 * launches Chromium; after them it closes both. It returns
 * {server, browser, open}, whose server and browser are set once the hooks ran.
 */
export function harness(...need) {
  const h = {
    server: null,
    browser: null,
    /**
     * open(url, opts) is a page at the site's url (an address, 'slug/#state…') with
     * its console errors, the URLs it requested and those outside the site. It opens in
     * opts.context or in a fresh one (width × height, service workers
     * opts.sw, colour scheme opts.scheme, and any further context options);
     * with opts.lesson it waits until that lesson is ready.
     */
    async open(url = '', { width = 1280, height = 900, sw = 'block', scheme = 'light', context, lesson, ...more } = {}) {
      context ||= await h.browser.newContext({ viewport: { width, height }, serviceWorkers: sw, colorScheme: scheme, ...more });
      const page = await context.newPage();
      const errors = watch(page);
      const requests = [], outside = [];
      page.on('request', (r) => {
        requests.push(r.url());
        if (!r.url().startsWith(h.server.url) && !r.url().startsWith('data:')) outside.push(r.url());
      });
      await page.goto(h.server.url + url);
      if (lesson) await ready(page, lesson);
      return { context, page, errors, requests, outside };
    },
  };
  before(async () => {
    for (const [file, message] of need) assert.ok(fs.existsSync(path.join(dist, file)), message);
    h.server = await site();
    h.browser = await launch();
  });
  after(async () => {
    await h.browser?.close();
    await h.server?.close();
  });
  return h;
}

let built = null;
/**
 * dpplayBin() is the path of a `dpplay` binary: DPPLAY_BIN, the one `make
 * test` builds for the whole run, or one built once per process into a
 * temporary directory (removed at exit).
 */
export function dpplayBin() {
  if (process.env.DPPLAY_BIN) return process.env.DPPLAY_BIN;
  if (!built) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-bin-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    built = path.join(dir, 'dpplay');
    execFileSync('go', ['build', '-o', built, './cmd/dpplay'], { cwd: root, stdio: 'inherit' });
  }
  return built;
}

/**
 * site() is dist/ served under /dpplay/: the run's server (DPPLAY_SITE), or
 * a new one. It is {url, close}; close stops only a server site started.
 */
export async function site() {
  if (process.env.DPPLAY_SITE) return { url: process.env.DPPLAY_SITE, close: async () => {} };
  return serve(dist, '/dpplay/');
}

/**
 * checked(opened, body) runs body on a page that open returned, then checks
 * that the page logged no error, and closes its context whether body passed
 * or not.
 */
export async function checked(opened, body) {
  try {
    await body(opened);
    assert.deepEqual(opened.errors, []);
  } finally {
    await opened.context.close();
  }
}

/**
 * hold(page, glob) holds back every request of page whose URL matches glob
 * until the returned release() is called.
 */
export async function hold(page, glob) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(glob, async (route) => { await held; await route.continue().catch(() => {}); });
  return release;
}

/**
 * afterTasks(page) resolves once the tasks already queued in the page, and
 * two frames, have run: for a check that something did not happen, made
 * after the event that could have caused it has been handled.
 */
export const afterTasks = (page) => page.evaluate(() => new Promise((done) => {
  setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))), 0);
}));

/**
 * downloaded(download) is the bytes of a finished download. Read as a
 * stream: a browser the run shares (launch) keeps its files on its side.
 */
export async function downloaded(download) {
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  return Buffer.concat(chunks);
}

/** renders(page, sel) is how many redraws the widget sel has finished. */
export const renders = async (page, sel) => +(await page.locator(sel).getAttribute('data-renders'));

/**
 * live(page, sel, timeout) scrolls the widget sel into view and waits until it
 * has mounted: a widget away from the screen keeps its pre-rendered drawing
 * until it comes near or is used (web/lesson/lazymount.js: mountNear).
 */
export async function live(page, sel, timeout = 30000) {
  await page.locator(sel).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => {
    const body = document.querySelector(`${s} .widget-body`);
    return body && !body.hasAttribute('aria-busy') && !body.hasAttribute('data-prerendered');
  }, sel, { timeout });
}

/**
 * everyLive(page) presses a key, on which the page mounts every widget still
 * showing its pre-rendered drawing, and waits until all are mounted and none
 * is busy.
 */
export async function everyLive(page, timeout = 30000) {
  await page.keyboard.press('Shift');
  await page.waitForFunction(() => !document.querySelector('#lesson .widget-body:is([aria-busy], [data-prerendered])') &&
    ![...document.querySelectorAll('figure.widget')].some((f) => f.dataset.busy), null, { timeout });
}

/**
 * nearLive(page) waits until every widget on or within a screen of the
 * viewport has mounted and is not busy: those are the ones the page mounts
 * as they come near (web/lesson/lazymount.js), so that once they have, scrolling
 * and restoring a place move nothing more.
 */
export async function nearLive(page, timeout = 30000) {
  await page.waitForFunction(() => [...document.querySelectorAll('#lesson figure.widget')].every((f) => {
    const r = f.getBoundingClientRect();
    if (r.bottom < -innerHeight || r.top > 2 * innerHeight) return true;
    return !f.querySelector(':scope > .widget-body:is([aria-busy], [data-prerendered])') && !f.dataset.busy;
  }), null, { timeout });
}

/**
 * steady(page, read, {every, times, tries}) calls read every `every` ms until
 * it has returned the same value (compared as JSON) `times` times in a row
 * after the first, or has been called `tries` times, and returns the last
 * value: for reading a layout once what moves it has settled.
 */
export async function steady(page, read, { every = 100, times = 1, tries = 40 } = {}) {
  let last;
  for (let same = 0, i = 0; same < times && i < tries; i++) {
    await page.waitForTimeout(every);
    const now = JSON.stringify(await read());
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return JSON.parse(last);
}

/** idle(page, sel, timeout) brings the widget sel live and waits until it has drawn and is not busy. */
export async function idle(page, sel, timeout = 30000) {
  await live(page, sel, timeout);
  await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return el && el.dataset.renders && !el.dataset.busy;
  }, sel, { timeout });
}

/**
 * frameReady(page, part) is the frame of page whose address contains part,
 * once its widget has drawn (its figure's data-renders is set and it is not busy).
 */
export async function frameReady(page, part, timeout = 60000) {
  const end = Date.now() + timeout;
  let frame;
  while (!(frame = page.frames().find((f) => f.url().includes(part)))) {
    assert.ok(Date.now() < end, `no frame ${part}`);
    await page.waitForEvent('framenavigated', { timeout: end - Date.now() }).catch(() => {});
  }
  await frame.waitForFunction(() => {
    const f = document.querySelector('figure.widget');
    return f && f.dataset.renders && !f.dataset.busy;
  }, null, { timeout });
  return frame;
}

/** rerendered(page, sel, n, timeout) waits until the widget sel has finished a redraw after its n-th. */
export const rerendered = (page, sel, n, timeout = 30000) => page.waitForFunction(([s, k]) => {
  const el = document.querySelector(s);
  return +el.dataset.renders > k && !el.dataset.busy;
}, [sel, n], { timeout });

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * violations(target, {include, rules}) runs axe-core in target, a page or a
 * frame, over the elements matching the selectors include (all of target's
 * document when none) and the rules named (every rule when none), and
 * returns each violation as "rule: help (the first three elements)". It
 * calls axe.run in the document itself: @axe-core/playwright's runPartial
 * and finishRun, which opens a page of its own for each audit, took about
 * eight times as long on a lesson. Frames inside target are not entered;
 * audit each one as a target of its own.
 *
 * A table's rows come from one template, and a long one has hundreds (the
 * pricing lesson's price tables, 2,000 rows, were three quarters of its
 * audit): axe reads one row of each kind, a kind being the row's markup
 * with each text made one letter (an empty cell stays empty), its parity
 * (for striped rows) and whether it is first or last; the rows that repeat
 * a kind already read are out of the document while axe runs.
 */
export async function violations(target, { include = [], rules = null } = {}) {
  if (!(await target.evaluate(() => typeof window.axe === 'object'))) await target.evaluate(axeSource);
  return target.evaluate(async ([inc, only]) => {
    const bodies = [];
    for (const body of document.querySelectorAll('tbody')) {
      const kinds = new Set();
      const repeats = [...body.rows].filter((tr, i, rows) => {
        const kind = `${i % 2} ${i === 0} ${i === rows.length - 1} ${tr.outerHTML.replace(/>[^<]+</g, '>_<')}`;
        return kinds.has(kind) || !kinds.add(kind);
      });
      if (repeats.length) bodies.push([body, [...body.childNodes], repeats]);
    }
    // Out of the document while axe reads it (leaving them out by a context
    // of thousands of nodes costs more than it saves), back in place after.
    for (const [, , repeats] of bodies) repeats.forEach((tr) => tr.remove());
    try {
      const options = { resultTypes: ['violations'], iframes: false, ...(only && { runOnly: { type: 'rule', values: only } }) };
      const r = await window.axe.run(inc.length ? { include: inc.map((s) => [s]) } : document, options);
      return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
    } finally {
      for (const [body, nodes] of bodies) body.replaceChildren(...nodes);
    }
  }, [include, rules]);
}

/** COLOUR_RULES are the axe rules a colour scheme can change the outcome of: a second scheme is audited with these. */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe(target, what, ...include) asserts that axe finds no violations in
 * target (a page or a frame), or within the selectors include, with every
 * <details> open.
 */
export async function axe(target, what, ...include) {
  await target.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  assert.deepEqual(await violations(target, { include }), [], `axe violations on ${what}`);
}

/**
 * audioSpy, run in a page, puts in its AudioContext one that records every
 * tone scheduled in window.__tones: {f, t}, its frequency and start time.
 * Its clock stands at the end of the last tone scheduled: what is scheduled
 * has played as soon as it is scheduled, so a test need not wait for it.
 */
export function audioSpy() {
  window.__tones = [];
  let end = 0;
  class Param { setValueAtTime() {} linearRampToValueAtTime() {} }
  window.AudioContext = class {
    constructor() { this.state = 'running'; this.destination = {}; }
    get currentTime() { return end; }
    resume() { return Promise.resolve(); }
    createGain() { return { gain: new Param(), connect: (n) => n }; }
    createOscillator() {
      const tone = {};
      return {
        type: '',
        frequency: { setValueAtTime(f, t) { tone.f = f; tone.t = t; } },
        connect: (n) => n,
        start() { window.__tones.push(tone); },
        stop(t) { end = Math.max(end, t); },
      };
    }
  };
}
