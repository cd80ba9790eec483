// A widget taken to another site, in Debian's Chromium: a page served on
// another origin (another port) frames widgets of two lessons with the
// iframe snippets web/embed/embedlink.js writes, and with <dpplay-widget>
// (web/embed.js). Each draws and answers the keyboard; hide and lock work;
// the frame fits its widget with no inner scrollbar; the parent's
// dpplay:set changes the state and malformed messages change nothing; axe
// finds nothing in the frame, light or dark. The lecture's instructor view
// and a lesson refuse to be framed by another site, both on a static host
// (web/frameguard.js) and on `dpplay serve` (headers). Run `make site` first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { axe, dist, dpplayBin, harness, shoot, siteIndex, steady } from './harness.mjs';
import { watch } from './browser.mjs';
import { embedAddress, iframeSnippet } from '../../web/embed/embedlink.js';
import { firstLoad, BUDGET_BYTES, EMBEDS } from '../../scripts/bundle-size.mjs';

const web = harness(['embed.html', 'dist/embed.html is missing: run make site'], ['embed.js', 'dist/embed.js is missing: run make site']);
const slugs = siteIndex().lessons.map((l) => l.slug);
const MEET = { slug: 'exponential-mechanism', id: 'meet', title: 'Choosing a meeting day' };
const BAND = { slug: 'what-dp-promises', id: 'band', title: 'Ana’s two polls and the ±ε band' };

// ---- The other site: pages set by the tests, on a port of their own ---------
const hostPages = new Map();
let host = null;
before(async () => {
  const server = http.createServer((req, res) => {
    const page = hostPages.get(new URL(req.url, 'http://x').pathname);
    res.writeHead(page ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page || 'not here');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  host = { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
});
after(() => host?.close());

/** hostPage(name, body) serves body as a page of the other site and returns its address. */
function hostPage(name, body) {
  hostPages.set(`/${name}`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>A course page</title>
<style>body { font: 16px/1.4 system-ui, sans-serif; margin: 0; padding: 12px; background: #f4f1ea; } iframe, dpplay-widget { display: block; margin: 0 0 16px; }</style></head>
<body><main><h1>Week 3: choosing privately</h1>${body}</main></body></html>`);
  return host.url + name;
}

/** visit(url, opts) opens url, a page of the other site, in a fresh context (width × height, colour scheme): {page, errors, context}. */
async function visit(url, { width = 1280, height = 900, scheme = 'light' } = {}) {
  const context = await web.browser.newContext({ viewport: { width, height }, serviceWorkers: 'block', colorScheme: scheme });
  const page = await context.newPage();
  const errors = watch(page);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  return { page, errors, context, requests };
}

const site = () => new URL(web.server.url);
const snippet = (w, values = {}, opts = {}) => iframeSnippet(embedAddress(site(), w.slug, w.id, values, opts), w.title, 400);
const embedScript = () => `<script src="${new URL('embed.js', site()).href}"></script>`;

/** framed(page, n) is the nth embed frame of page, once its widget has mounted and the engine is ready. */
async function framed(page, n = 0) {
  await page.waitForFunction((i) => document.querySelectorAll('iframe')[i]?.contentWindow, n);
  const handle = await page.locator('iframe').nth(n).elementHandle();
  const frame = await handle.contentFrame();
  await frame.waitForFunction(() => {
    const body = document.querySelector('figure.widget .widget-body');
    return body && !body.hasAttribute('aria-busy') && !('prerendered' in body.dataset) && document.body.classList.contains('engine-ready');
  }, null, { timeout: 60000 });
  return frame;
}

/** settle(page) waits until every frame's height has stayed put for a moment (the resize messages have arrived). */
const settle = (page) => steady(page, () => page.$$eval('iframe', (fs) => fs.map((f) => f.getBoundingClientRect().height)), { every: 150 });

/**
 * noInnerScroll(frame, what) asserts that the frame's document fits it, in
 * height and width, once the frame has been fitted: the parent sizes it on
 * the frame's message, which may come a few frames after the page settled.
 */
async function noInnerScroll(frame, what) {
  const fits = () => {
    const d = document.documentElement;
    return d.scrollHeight <= d.clientHeight + 1 && d.scrollWidth <= d.clientWidth + 1;
  };
  await frame.waitForFunction(fits, null, { timeout: 10000 }).catch(() => {});
  const m = await frame.evaluate(() => ({ sh: document.documentElement.scrollHeight, ch: document.documentElement.clientHeight, sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  assert.ok(m.sh <= m.ch + 1, `${what}: the frame scrolls inside (${m.sh} > ${m.ch})`);
  assert.ok(m.sw <= m.cw + 1, `${what}: the frame scrolls sideways (${m.sw} > ${m.cw})`);
}

/** stepOf(frame) is the batch count the frame's address holds. */
const stepOf = async (frame) => +(await frame.evaluate(() => /[?&]step=(\d+)/.exec(location.hash)?.[1] ?? 0));

const renders = (frame) => frame.evaluate(() => +document.querySelector('figure.widget').dataset.renders || 0);

test('the lessons the tests frame exist', () => {
  assert.ok(slugs.includes(MEET.slug) && slugs.includes(BAND.slug), slugs.join(' '));
});

test('two widgets of two lessons, framed by another site from their snippets, draw, answer the keyboard and fit their frames', async () => {
  const url = hostPage('two.html', `<p>Before the first widget.</p>${snippet(MEET, { eps: 2 })}<p>Between the widgets.</p>${snippet(BAND)}${embedScript()}`);
  for (const width of [320, 1280]) {
    const { page, errors, context } = await visit(url, { width, height: 800 });
    const frames = [await framed(page, 0), await framed(page, 1)];
    for (const [i, f] of frames.entries()) {
      assert.ok(await f.locator('figure.widget svg').count() > 0, `frame ${i} draws`);
      assert.equal(await f.locator('.topbar, #lesson-nav').count(), 0, 'no site chrome');
    }
    assert.equal(await frames[0].locator('[data-key="eps"] input[type=range]').getAttribute('aria-valuetext'), 'ε = 2');
    // The keys act with focus in the widget: Space draws a batch in each.
    for (const f of frames) {
      const before = await renders(f);
      const step = await stepOf(f);
      await f.locator('figure.widget .widget-title').click();
      await f.locator('figure.widget').press(' ');
      await f.waitForFunction((n) => +document.querySelector('figure.widget').dataset.renders > n, before);
      await f.waitForFunction((n) => new RegExp(`[?&]step=${n}(&|$)`).test(location.hash), step + 1);
    }
    await settle(page);
    for (const [i, f] of frames.entries()) await noInnerScroll(f, `frame ${i} at ${width} px`);
    const heights = await page.$$eval('iframe', (fs) => fs.map((f) => f.getBoundingClientRect().height));
    assert.ok(heights.every((h) => h > 400), `the frames grew to their widgets: ${heights}`);
    if (width === 1280) await shoot(page, 'embed-two-1280.png', { fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('hide=eps removes the ε control; lock=eps leaves it shown, inert and named as fixed', async () => {
  const url = hostPage('fixed.html', `${snippet(MEET, {}, { hide: ['eps'] })}${snippet(MEET, { eps: 3 }, { lock: ['eps'] })}${embedScript()}`);
  const { page, errors, context } = await visit(url, { width: 390, height: 800 });
  const hidden = await framed(page, 0);
  const locked = await framed(page, 1);
  assert.equal(await hidden.locator('[data-key="eps"]').count(), 0);
  assert.equal(await hidden.getByRole('slider', { name: /ε/ }).count(), 0, 'no ε slider in the accessibility tree');
  assert.ok(await hidden.locator('[data-key="seed"]').count() > 0, 'the other controls stay');
  const slider = locked.getByRole('slider', { name: /ε \(epsilon\) fixed by the link/ });
  assert.equal(await slider.count(), 1);
  assert.ok(await slider.isDisabled());
  assert.ok(await locked.getByRole('textbox', { name: /fixed by the link/ }).isDisabled());
  assert.ok(await locked.locator('[data-key="eps"] .fixed-mark').isVisible());
  // + and − would nudge ε: the lock holds, while Space still draws.
  const step = await stepOf(locked);
  await locked.locator('figure.widget .widget-title').click();
  for (const k of ['+', '+', '-', '=']) await locked.locator('figure.widget').press(k);
  await locked.locator('figure.widget').press(' ');
  await locked.waitForFunction((n) => new RegExp(`[?&]step=${n}(&|$)`).test(location.hash), step + 1);
  assert.match(await locked.evaluate(() => location.hash), /eps=3&/);
  assert.match(await locked.evaluate(() => location.hash), /lock=eps/);
  assert.equal(await slider.getAttribute('aria-valuetext'), 'ε = 3');
  await settle(page);
  await shoot(page, 'embed-fixed-390.png', { fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the parent sets the state with dpplay:set; malformed messages change nothing; the state comes back as dpplay:state', async () => {
  const url = hostPage('api.html', `${snippet(MEET, {}, { lock: ['seed'] })}<script>
window.states = [];
addEventListener('message', (e) => { if (e.data && e.data.type === 'dpplay:state') states.push(e.data); });
</script>`);
  const { page, errors, context } = await visit(url, { width: 1280, height: 900 });
  let frame = await framed(page, 0);
  const origin = site().origin;
  const send = (m) => page.evaluate(([msg, o]) => document.querySelector('iframe').contentWindow.postMessage(msg, o), [m, origin]);
  await page.waitForFunction(() => window.states.length > 0);
  const start = await frame.evaluate(() => location.hash);
  const mark = await frame.evaluate(() => { document.querySelector('figure.widget').dataset.mark = 'first'; return 'first'; });
  const huge = {};
  for (let i = 0; i < 5000; i++) huge[`k${i}`] = i;
  for (const bad of [
    'dpplay:set',
    null,
    [1, 2],
    { type: 'dpplay:set' },
    { type: 'dpplay:set', params: { eps: '2' } },
    { type: 'dpplay:set', params: { eps: 2 }, extra: 1 },
    { type: 'dpplay:set', params: [2] },
    { type: 'dpplay:set', params: { eps: Infinity } },
    { type: 'dpplay:set', params: { nope: 1 } },
    { type: 'dpplay:set', params: { eps: 2, hide: 'seed' } },
    { type: 'dpplay:set', params: {} },
    { type: 'dpplay:set', params: huge },
    { type: 'dpplay:set', params: { eps: 2, data: 7 } },
    { type: 'dpplay:set', params: { data: '<img src=x onerror=alert(1)>' + 'x'.repeat(5000) } },
    { type: 'dpplay:present', on: 'yes' },
    { type: 'dpplay:present', on: true, params: {} },
    { type: 'DPPLAY:SET', params: { eps: 2 } },
  ]) await send(bad);
  // Messages arrive in order: once the frame has read one more, it has read
  // (and ignored) all of them.
  await frame.evaluate(() => { addEventListener('message', (e) => { if (e.data === 'test:barrier') window.barrier = true; }); });
  await send('test:barrier');
  await frame.waitForFunction(() => window.barrier);
  await frame.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  assert.equal(await frame.evaluate(() => location.hash), start, 'a malformed message changes nothing');
  assert.equal(await frame.evaluate(() => document.querySelector('figure.widget').dataset.mark), mark, 'nor mounts the widget again');
  assert.equal(await frame.locator('#url-notes').isHidden(), true);
  assert.equal(await frame.evaluate(() => document.body.classList.contains('embed-presenting')), false);

  // A valid one: ε to 2, and ε out of range clamped with the page's note; the locked seed stays.
  await send({ type: 'dpplay:set', params: { eps: 2 } });
  await page.waitForFunction(() => window.states.some((s) => s.widget === 'meet' && s.params.eps === '2'));
  frame = await framed(page, 0);
  assert.equal(await frame.locator('[data-key="eps"] input[type=range]').getAttribute('aria-valuetext'), 'ε = 2');
  const seed = await frame.evaluate(() => /seed=(\d+)/.exec(location.hash)[1]);
  await send({ type: 'dpplay:set', params: { eps: 500, seed: 1 } });
  await page.waitForFunction(() => window.states.some((s) => s.params.eps === '20'));
  frame = await framed(page, 0);
  const notes = await frame.locator('#url-notes').textContent();
  assert.match(notes, /ε.*= 500 is outside 0\.01 … 20, so 20 is used/);
  assert.match(notes, /fixed by the link, so it was not changed/);
  assert.equal(await frame.evaluate(() => /seed=(\d+)/.exec(location.hash)[1]), seed);
  await send({ type: 'dpplay:present', on: true });
  await frame.waitForFunction(() => document.body.classList.contains('embed-presenting'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('<dpplay-widget> makes the frame, fits it, forwards set and present, and re-emits the state', async () => {
  const src = embedAddress(site(), BAND.slug, BAND.id, { eps: 1 }, { caption: false });
  const url = hostPage('element.html', `${embedScript()}<dpplay-widget src="${src}" title="${BAND.title}"></dpplay-widget>
<script>window.states = []; document.addEventListener('dpplay-state', (e) => states.push(e.detail));</script>`);
  const { page, errors, context } = await visit(url, { width: 390, height: 800 });
  const frame = await framed(page, 0);
  assert.equal(await page.locator('dpplay-widget iframe').getAttribute('title'), BAND.title);
  await page.waitForFunction(() => window.states.length > 0);
  assert.equal(await frame.locator('figure.widget > figcaption').isVisible().catch(() => false), false, 'caption=0');
  await settle(page);
  await noInnerScroll(frame, '<dpplay-widget> at 390 px');
  await page.evaluate(() => document.querySelector('dpplay-widget').set({ eps: 0.5 }));
  await page.waitForFunction(() => window.states.some((s) => s.widget === 'band' && s.params.eps === '0.5'));
  await page.evaluate(() => document.querySelector('dpplay-widget').setAttribute('present', ''));
  await frame.waitForFunction(() => document.body.classList.contains('embed-presenting'));
  await settle(page);
  await shoot(page, 'embed-element-390.png', { fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('axe finds nothing inside the frame, light and dark', async () => {
  for (const theme of ['light', 'dark']) {
    const url = hostPage(`axe-${theme}.html`, snippet(MEET, {}, { theme, lock: ['eps'] }) + embedScript());
    const { page, context } = await visit(url, { width: 1280, height: 900, scheme: theme });
    const frame = await framed(page, 0);
    await axe(frame, `the frame, ${theme}`);
    assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), theme);
    await context.close();
  }
});

// ---- Framing refused ---------------------------------------------------------
const framedPages = () => [`${MEET.slug}/`, 'lecture.html?role=host&activity=meeting-day', ''];

test('on a static host, a lesson, the landing page and the lecture\'s instructor view blank themselves in another site\'s frame', async () => {
  const url = hostPage('steal.html', framedPages().map((p) => `<iframe src="${new URL(p, site()).href}" title="x" width="600" height="400"></iframe>`).join(''));
  const { page, context, requests } = await visit(url);
  // Every frame has loaded: each page's scripts, its modules among them, have had their turn.
  await page.waitForLoadState('load');
  for (const [i, p] of framedPages().entries()) {
    const frame = await (await page.locator('iframe').nth(i).elementHandle()).contentFrame();
    assert.equal(await frame.evaluate(() => getComputedStyle(document.documentElement).display), 'none', `${p || 'the landing page'} is hidden`);
    assert.equal(await frame.evaluate(() => document.body?.dataset.lessonReady ?? null), null, `${p}: no script of the page ran`);
  }
  assert.deepEqual(requests.filter((u) => /\.wasm$|worker\.js$/.test(u)), [], 'no engine or worker loaded (no script of the page ran)');
  // The same pages on their own site, and framed by it, are untouched.
  const own = await web.open(`${MEET.slug}/`, { lesson: MEET.slug });
  assert.notEqual(await own.page.evaluate(() => getComputedStyle(document.documentElement).display), 'none');
  await own.context.close();
  await context.close();
});

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  s.on('error', reject);
});

test('on dpplay serve, only the embed page may be framed by another site: headers and browser agree', async () => {
  const dbDir = mkdtempSync(path.join(os.tmpdir(), 'dpplay-embed-'));
  const port = await freePort();
  const proc = spawn(dpplayBin(), ['serve', '-dir', dist, '-db', path.join(dbDir, 'l.db'), '-addr', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve, reject) => { proc.stdout.once('data', resolve); proc.once('exit', (c) => reject(new Error(`dpplay serve exited ${c}`))); });
    proc.stdout.resume();
    const served = new URL(`http://127.0.0.1:${port}/`);
    for (const p of ['embed.html', ...framedPages()]) {
      const res = await fetch(new URL(p, served));
      const csp = res.headers.get('content-security-policy');
      if (p === 'embed.html') {
        assert.match(csp, /; frame-ancestors \*$/);
        assert.equal(res.headers.get('x-frame-options'), null);
      } else {
        assert.match(csp, /; frame-ancestors 'self'$/, p);
        assert.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN', p);
      }
    }
    const url = hostPage('steal-served.html', [embedAddress(served, MEET.slug, MEET.id, {}), ...framedPages().map((p) => new URL(p, served).href)]
      .map((u) => `<iframe src="${u}" title="x" width="600" height="400"></iframe>`).join(''));
    const { page, context } = await visit(url, { width: 1280, height: 900 });
    const embed = await framed(page, 0);
    assert.ok(await embed.locator('figure.widget svg').count() > 0, 'the embed page draws');
    await page.waitForLoadState('load');
    for (const [i, p] of framedPages().entries()) {
      const frame = await (await page.locator('iframe').nth(i + 1).elementHandle()).contentFrame();
      const shown = await frame.evaluate(() => document.querySelector('main, #lesson, body')?.innerText ?? '').catch(() => '');
      assert.ok(!/dpplay|lecture|lesson/i.test(shown), `${p || 'the landing page'} is not shown in the frame (${frame.url()})`);
    }
    await context.close();
  } finally {
    proc.kill('SIGKILL');
    rmSync(dbDir, { recursive: true, force: true });
  }
});

test(`the embed page's first load of each engine's widget is at most ${BUDGET_BYTES} bytes gzipped`, async () => {
  const ready = () => document.body.dataset.embedReady && document.body.classList.contains('engine-ready');
  for (const [slug, id] of EMBEDS) {
    const load = await firstLoad(web.browser, `${web.server.url}embed.html#/${slug}/${id}`, ready);
    const paths = load.files.map((f) => new URL(f.url).pathname);
    assert.ok(paths.some((p) => p.endsWith(`/embed/${slug}/${id}.html`)), `${slug}/${id}: the widget's fragment was not fetched: ${paths}`);
    assert.ok(!paths.some((p) => p.endsWith(`/${slug}/`) || p.endsWith(`/${slug}/index.html`)), `${slug}/${id}: the whole lesson page was fetched`);
    assert.ok(paths.some((p) => p.endsWith('.wasm')), `${slug}/${id}: no engine module in the first load`);
    assert.ok(load.gzip <= BUDGET_BYTES, `${slug}/${id}: first load ${load.gzip} bytes gzipped`);
  }
});

test('an embed link to a missing widget or lesson says which', async () => {
  const { context, page } = await web.open(`embed.html#/${MEET.slug}/nosuch`);
  const note = page.locator('#url-notes');
  await note.filter({ hasText: /The lesson “exponential-mechanism” has no widget “nosuch”/ }).waitFor({ timeout: 15000 });
  await page.goto(`${web.server.url}embed.html#/no-such-lesson/meet`);
  await page.reload();
  await note.filter({ hasText: /There is no lesson called “no-such-lesson”/ }).waitFor({ timeout: 15000 });
  await context.close();
});
