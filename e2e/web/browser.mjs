// Launches Debian's Chromium through playwright-core with the flags from
// shared/notes/stack.md (no browser download, no background network).
// playwright's launch() gives every browser a fresh temporary profile.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

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
  if (process.env.DPPLAY_CHROMIUM) return chromium.connect(process.env.DPPLAY_CHROMIUM);
  return chromium.launch(chromiumOptions());
}

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
