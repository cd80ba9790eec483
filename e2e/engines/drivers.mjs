// One small driver interface over two browser engines, so that each check of
// e2e/engines/engines.test.mjs is written once: Debian's Firefox ESR through
// puppeteer-core over WebDriver BiDi, and Debian's WebKitGTK MiniBrowser
// through WebKitWebDriver (classic W3C WebDriver only) with
// selenium-webdriver, under an Xvfb display of its own. Each driver is one
// browser process with one tab:
//
//   name                          'firefox' or 'webkit'
//   open(url, {width, height, probe})
//                                 loads url in a viewport of width × height
//                                 CSS px, with the error lists emptied; probe:
//                                 false for a page the error probe is kept out of
//   evaluate(fn, ...args)         fn(...args) run in the page (it may return a
//                                 promise): its value, as JSON carries it
//   waitFor(fn, args, {timeout, what})
//                                 until fn(...args) in the page is truthy (its value)
//   press(selector, key)          focuses the element and presses key with a real
//                                 key event ('ArrowRight', 'Shift', 'Enter', …)
//   fill(selector, text)          empties the text field and types text in it
//   click(selector)               clicks the element with the mouse
//   errors()                      the errors since open, the engine's own
//                                 reports and the probe's, and forgets them
//                                 (not Firefox's of a formula it laid out
//                                 half-parsed, once the parsed one is valid)
//   screenshot({path})            what the viewport shows, as a PNG file
//   close()                       ends the browser and what it needed
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { TimeoutError } from 'puppeteer-core';
import { Builder, By, Key } from 'selenium-webdriver';
import { ARITY, wrongArity } from '../mathcore.mjs';

export const FIREFOX = '/usr/bin/firefox-esr';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const DEFAULT_TIMEOUT = 60000;

/** readProbe, run in a page, takes the probe's errors out of the page (null: no probe ran). */
function readProbe() {
  try { sessionStorage.removeItem('__probe.errors'); } catch { /* a page without storage */ }
  return Array.isArray(window.__errors) ? window.__errors.splice(0) : null;
}

/** forgetProbe, run in a page, drops what the probe kept for the pages after it. */
function forgetProbe() {
  try { sessionStorage.removeItem('__probe.errors'); } catch { /* about:blank and the like */ }
}

/**
 * collected(native, probe, expected) is the list errors() returns: the
 * engine's own reports, the probe's, and a line saying the probe did not
 * run on a page that should have had it.
 */
function collected(native, probe, expected) {
  const out = native.splice(0);
  if (probe) out.push(...probe.map((e) => `probe: ${e}`));
  else if (expected) out.push('probe: the error probe did not run on this page');
  return out;
}

/** timeoutError(what, ms) is the error of a wait that ran out. */
const timeoutError = (what, ms) => new Error(`timed out after ${ms} ms waiting for ${what}`);

/**
 * firefox() launches Debian's Firefox ESR, headless, through puppeteer over
 * WebDriver BiDi, and resolves to its driver. The engine's console errors
 * and uncaught exceptions (puppeteer's console and pageerror events) are
 * reported besides the probe's.
 */
export async function firefox() {
  if (!fs.existsSync(FIREFOX)) throw new Error(`${FIREFOX} not found: run scripts/setup.sh`);
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi' });
  const page = (await browser.pages())[0] || await browser.newPage();
  const native = [];
  page.on('console', (m) => { if (m.type() === 'error') native.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => native.push(`pageerror: ${e.message}`));
  let probe = true;
  return {
    name: 'firefox',
    async open(url, { width = 1280, height = 900, probe: expected = true } = {}) {
      await page.evaluate(forgetProbe).catch(() => {});
      // The page left behind reports its teardown while it unloads: what
      // it reports before the blank page has loaded is not the next page's.
      await page.goto('about:blank');
      await page.setViewport({ width, height });
      native.length = 0;
      probe = expected;
      await page.goto(url);
    },
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    async waitFor(fn, args = [], { timeout = DEFAULT_TIMEOUT, what = String(fn) } = {}) {
      try {
        const handle = await page.waitForFunction(fn, { timeout, polling: 50 }, ...args);
        return await handle.jsonValue();
      } catch (err) {
        if (err instanceof TimeoutError) throw timeoutError(what, timeout);
        throw err;
      }
    },
    async press(selector, key) {
      await page.focus(selector);
      await page.keyboard.press(key);
    },
    async fill(selector, text) {
      await page.$eval(selector, (el) => { el.value = ''; });
      await page.focus(selector);
      await page.keyboard.type(text);
    },
    click: (selector) => page.click(selector),
    async errors() {
      const out = collected(native, await page.evaluate(readProbe).catch(() => null), probe);
      const tags = [...new Set(out.map(partialTag).filter(Boolean))];
      if (!tags.length) return out;
      const wrong = await page.evaluate(wrongArity, tags, ARITY);
      return out.filter((e) => !partialTag(e) || wrong.includes(partialTag(e)));
    },
    screenshot: ({ path: file }) => page.screenshot({ path: file }),
    close: () => browser.close(),
  };
}

// Firefox lays out a formula that its parser has only half read (a page
// arriving slowly, a busy machine) and reports, say, an <mfrac> with one
// child. Such a report stands only when the page, parsed, still has one.
const PARTIAL = /^pageerror: Invalid markup: Incorrect number of children for <(\w+)\/> tag\.$/;

/** partialTag(report) is the MathML element a report of PARTIAL names, if ARITY knows it, else undefined. */
function partialTag(report) {
  const tag = PARTIAL.exec(report)?.[1];
  return tag in ARITY ? tag : undefined;
}

/** ended(proc) kills proc and resolves once it has exited. */
const ended = (proc) => new Promise((resolve) => {
  if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
  proc.once('exit', resolve);
  proc.kill();
});

/** freePort() is a TCP port free on 127.0.0.1 a moment ago. */
const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  s.on('error', reject);
});

/** xvfb() starts an Xvfb on a display it picks itself (-displayfd): {display, stop}. */
async function xvfb() {
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (b) => { log += b; });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdio[3].on('data', (b) => { out += b; if (out.includes('\n')) resolve(`:${out.trim()}`); });
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}: ${log.slice(-500)}`)));
  });
  proc.removeAllListeners('exit');
  return { display, stop: () => ended(proc) };
}

/**
 * webDriverServer(env) starts WebKitWebDriver on a free port with env and
 * resolves to {url, stop} once its /status says it is ready.
 */
async function webDriverServer(env) {
  const port = await freePort();
  const proc = spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((_, reject) => proc.once('exit', (code) => reject(new Error(`WebKitWebDriver exited with ${code}`))));
  exited.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15000;
  // It says nothing when it listens: its /status is asked every 20 ms until it answers ready.
  for (;;) {
    const ok = await Promise.race([fetch(`${url}/status`).then((r) => r.json()).then((s) => s.value?.ready, () => false), exited]);
    if (ok) break;
    if (Date.now() > deadline) { await ended(proc); throw new Error('WebKitWebDriver did not become ready in 15 s'); }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, stop: () => ended(proc) };
}

// MiniBrowser's toolbar keeps its window at least 447 px wide; without
// the padding and minimum widths of its entry and buttons it can be as
// narrow as a phone. The style is GTK's, for the browser's own window:
// WebKit draws the page's form controls itself.
const GTK_CSS = 'entry, button { min-width: 0; padding: 0; margin: 0; border-width: 0; }\n';

const KEYS = { ArrowRight: Key.ARROW_RIGHT, ArrowLeft: Key.ARROW_LEFT, Shift: Key.SHIFT, Enter: Key.ENTER, Space: Key.SPACE, Escape: Key.ESCAPE, Tab: Key.TAB };

/**
 * inPage(fn) is the source of an asynchronous WebDriver script that calls
 * fn (a function or its source) with the script's arguments and answers
 * {v: its value} or {e: its error}.
 */
const inPage = (fn) => `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${fn}).apply(null, arguments[0])).then((v) => done({ v: v === undefined ? null : v }), (e) => done({ e: String((e && e.stack) || e) }));`;

/**
 * polling(fn) is the source of a function of (args, slice) that waits in
 * the page up to slice ms for fn(...args) to be truthy and resolves to its
 * value, or to false.
 */
const polling = (fn) => `(args, slice) => new Promise((resolve, reject) => {
  const fn = (${fn});
  const end = Date.now() + slice;
  const tick = () => {
    let v;
    try { v = fn(...args); } catch (e) { reject(e); return; }
    if (v) resolve(v);
    else if (Date.now() > end) resolve(false);
    else setTimeout(tick, 30);
  };
  tick();
})`;

/**
 * webkit() starts an Xvfb, WebKitWebDriver on it and a MiniBrowser session
 * through selenium-webdriver (its driver never looked for or downloaded:
 * the session is made on the server given), and resolves to its driver.
 * Classic WebDriver has no console events: the errors are the probe's.
 */
export async function webkit() {
  if (!fs.existsSync(MINIBROWSER)) throw new Error(`${MINIBROWSER} not found: run scripts/setup.sh (webkit2gtk-driver)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-webkit-'));
  fs.mkdirSync(path.join(tmp, 'gtk-3.0'));
  fs.writeFileSync(path.join(tmp, 'gtk-3.0', 'gtk.css'), GTK_CSS);
  const stops = [() => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5 })];
  const stop = async () => { for (const s of stops.splice(0).reverse()) await s(); };
  let driver;
  try {
    const x = await xvfb();
    stops.push(x.stop);
    // Xvfb has no GPU: composited with Mesa's software GL, a first page
    // waits seconds for its first frames, so the page is drawn without
    // compositing (WebGL, which the sampling machine needs, still works).
    const server = await webDriverServer({
      ...process.env, DISPLAY: x.display, XDG_CONFIG_HOME: tmp, WEBKIT_DISABLE_COMPOSITING_MODE: '1', MESA_SHADER_CACHE_DISABLE: 'true',
    });
    stops.push(server.stop);
    driver = await new Builder().disableEnvironmentOverrides().usingServer(server.url).withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    }).build();
  } catch (err) {
    await stop();
    throw err;
  }
  await driver.manage().setTimeouts({ script: 60000, pageLoad: 60000 });
  const evaluate = async (fn, ...args) => {
    const r = await driver.executeAsyncScript(inPage(fn), args);
    if (r && 'e' in r) throw new Error(r.e);
    return r?.v;
  };
  const find = (selector) => driver.findElement(By.css(selector));
  /** waitFor as the interface says, polled in the page a slice at a time, within WebDriver's script timeout. */
  const waitFor = async (fn, args = [], { timeout = DEFAULT_TIMEOUT, what = String(fn) } = {}) => {
    const end = Date.now() + timeout;
    while (Date.now() < end) {
      const v = await evaluate(polling(fn), args, Math.min(5000, end - Date.now()));
      if (v) return v;
    }
    throw timeoutError(what, timeout);
  };
  /**
   * resize(width, height) sizes the window so that its viewport is width ×
   * height CSS px: the window is the viewport and the browser's toolbar, and
   * the window takes its new size a moment after WebDriver answers.
   */
  const resize = async (width, height) => {
    for (let tries = 0; ; tries++) {
      const [w, h, outerW, outerH] = await driver.executeScript('return [innerWidth, innerHeight, outerWidth, outerHeight]');
      if (w === width && h === height) return;
      if (tries === 3) throw new Error(`the viewport is ${w} × ${h}, not ${width} × ${height}`);
      await driver.manage().window().setRect({ width: width + outerW - w, height: height + outerH - h });
      // A window that ends up at another size is measured and sized again.
      await waitFor((ww, hh) => innerWidth === ww && innerHeight === hh, [width, height], { timeout: 5000, what: 'the window to take its size' }).catch(() => {});
    }
  };
  let probe = true;
  return {
    name: 'webkit',
    async open(url, { width = 1280, height = 900, probe: expected = true } = {}) {
      await evaluate(forgetProbe).catch(() => {});
      // From a blank page, so that a wait cannot be met by the page left
      // behind: once in a loaded run, a lesson opened again at a new width
      // was read before its navigation had replaced it.
      await driver.get('about:blank');
      await resize(width, height);
      probe = expected;
      await driver.get(url);
    },
    evaluate,
    waitFor,
    async press(selector, key) {
      await driver.executeScript('arguments[0].focus()', await find(selector));
      await driver.actions().sendKeys(KEYS[key] ?? key).perform();
    },
    async fill(selector, text) {
      const el = await find(selector);
      await el.clear();
      await el.sendKeys(text);
    },
    // WebKitWebDriver scrolls an element only until it is in the viewport,
    // where the sticky top bar may cover it; a reader scrolls it clear.
    async click(selector) {
      const el = await find(selector);
      await driver.executeScript('arguments[0].scrollIntoView({ block: "center" })', el);
      await el.click();
    },
    errors: async () => collected([], await evaluate(readProbe).catch(() => null), probe),
    async screenshot({ path: file }) {
      fs.writeFileSync(file, Buffer.from(await driver.takeScreenshot(), 'base64'));
    },
    async close() {
      try { await driver.quit(); } finally { await stop(); }
    },
  };
}

/** ENGINES are the drivers by name. */
export const ENGINES = { firefox, webkit };
