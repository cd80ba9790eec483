// Launches Debian's Chromium through playwright-core with the flags from
// shared/notes/stack.md (no browser download, no background network).
// playwright's launch() gives every browser a fresh temporary profile.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';

/**
 * chromiumPath is the Chromium the tests drive: Debian's
 * chrome-headless-shell, the same Blink and V8 as the browser without its
 * user interface, whose browser process spends a fifth of the full
 * browser's CPU on opening a page (docs/testing.md).
 */
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium-headless-shell';

/** browserPath is Debian's full Chromium, for what measures a reader's browser (Lighthouse). */
export const browserPath = process.env.CHROMIUM_BROWSER || '/usr/bin/chromium';

/** chromiumArgs are the flags every Chromium of the tests and benchmarks gets, besides headless. */
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** chromiumOptions() are playwright's launch options for Debian's Chromium, headless. */
export function chromiumOptions() {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} not found: run scripts/setup.sh`);
  return { executablePath: chromiumPath, headless: true, args: ['--headless', ...chromiumArgs] };
}

/**
 * launch() is a Chromium: the one e2e/run.mjs started for the whole run
 * (DPPLAY_CHROMIUM, its address), or a new one when a file runs alone.
 * Closing it closes only this connection's contexts.
 */
export async function launch() {
  const browser = process.env.DPPLAY_CHROMIUM ? await chromium.connect(process.env.DPPLAY_CHROMIUM) : await chromium.launch(chromiumOptions());
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => pollEvery(await newPage());
    return context;
  };
  return browser;
}

/** POLL_MS is how often a page's waitForFunction checks, unless told otherwise. */
export const POLL_MS = 20;

/**
 * pollEvery(page) makes POLL_MS the default polling of waitForFunction for
 * every page and frame (their classes' own, so once is enough), and returns
 * page. Playwright's default, every animation frame, has the renderer draw a
 * frame for each check for as long as a wait lasts; a timer does not.
 */
export function pollEvery(page) {
  const frame = Object.getPrototypeOf(page.mainFrame());
  if (!frame[POLLED]) {
    const wait = frame.waitForFunction;
    frame.waitForFunction = function (fn, arg, options = {}) {
      return wait.call(this, fn, arg, { polling: POLL_MS, ...options });
    };
    frame[POLLED] = true;
  }
  return page;
}
const POLLED = Symbol('polled');

/**
 * launchProfile(dir, opts) is a browser context on the on-disk profile dir,
 * as a reader's browser keeps one: its caches (the HTTP cache, Cache
 * Storage, compiled code) outlive a page. launch()'s contexts are in memory.
 */
export async function launchProfile(dir, opts = {}) {
  return chromium.launchPersistentContext(dir, { ...chromiumOptions(), ...opts });
}

/** watch(page) collects console errors and uncaught exceptions. */
export function watch(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** ready(page) waits until the lesson's widgets are mounted and the engine is up. */
export async function ready(page, slug, timeout = 60000) {
  // Right after a click that navigates, the new document may have no body yet.
  await page.waitForFunction((s) => {
    const b = document.body;
    return !!b && !!b.dataset.lessonReady && b.dataset.lessonReady === (s || b.dataset.lessonReady) && b.classList.contains('engine-ready');
  }, slug, { timeout });
}
