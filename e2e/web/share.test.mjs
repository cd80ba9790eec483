// "Embed or share" (issue 32), in Debian's Chromium: every widget has the
// button, from the first paint; its dialog writes the lesson link, the
// <iframe> code and a QR code from the widget's state and the choices (hide,
// lock, caption, data table, theme), and they follow every change; Copy puts
// exactly the text shown on the clipboard; it works from the keyboard alone
// (focus moves in, Escape closes, focus returns to the button), fits 320 px,
// and axe finds nothing in it, light and dark. docs/embed.md's reveal.js
// deck, served on another origin, shows live widgets (that its addresses read
// without a note is e2e/dist's). Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { axe, frameReady, harness, idle, root as repo, shoot } from './harness.mjs';
import { qrMatrix } from '../../web/base/qr.js';

const web = harness(['index.html', 'dist/ is missing: run make site']);

// Two widgets of two kinds on two lessons, each opened with a state of its own.
const CASES = [
  { slug: 'exponential-mechanism', id: 'meet', state: 'meet.eps=2&meet.seed=9', values: 'eps=2&seed=9', hide: 'seed', lock: 'eps' },
  { slug: 'what-epsilon-promises', id: 'band', state: 'band.eps=0.5', values: 'eps=0.5', hide: 'scale', lock: 'eps' },
];

/** dialogText(page) is what the open dialog shows: {open, link, href, code, frames, src, title, height}, the frame's attributes read from the code as a browser reads it. */
const dialogText = (page) => page.evaluate(() => {
  const d = document.querySelector('#embed-dialog');
  const code = d.querySelector('#embed-code').value;
  const frame = new DOMParser().parseFromString(code, 'text/html').querySelector('iframe');
  return {
    open: d.open, link: d.querySelector('#embed-link').value, href: d.querySelector('.embed-open').href, code,
    frames: new DOMParser().parseFromString(code, 'text/html').querySelectorAll('*:not(html, head, body)').length,
    src: frame?.getAttribute('src'), title: frame?.getAttribute('title'), height: frame?.getAttribute('height'),
  };
});

/** choose(page, key, what) sets the dialog's choice for schema key to '' (can change), 'lock' or 'hide'. */
const choose = (page, key, what) => page.locator(`#embed-dialog select[data-setting="${key}"]`).selectOption(what);

/** qrModules(page) is [dark modules drawn in the dialog's QR code, dark modules of qr.js's matrix of the link shown]. */
const qrModules = async (page) => {
  const [drawn, link] = await page.evaluate(() => {
    const d = document.querySelector('#embed-dialog');
    // The path draws each run of dark modules in a row as one rectangle, h<width>.
    return [[...(d.querySelector('.embed-qr svg path')?.getAttribute('d') ?? '').matchAll(/h(\d+)/g)].reduce((n, m) => n + +m[1], 0), d.querySelector('#embed-link').value];
  });
  return [drawn, qrMatrix(link).modules.flat().filter(Boolean).length];
};

test('every widget has "Embed or share", drawn by the build and live', async () => {
  const { context, page, errors } = await web.open('exponential-mechanism/');
  const figs = page.locator('#lesson figure.widget');
  const n = await figs.count();
  assert.ok(n >= 3);
  assert.equal(await page.locator('#lesson figure.widget > .export-figure .embed-button').count(), n, 'one button per widget, in the first response');
  await idle(page, '#w-meet');
  assert.equal(await page.locator('#w-meet > .export-figure .embed-button').count(), 1, 'the live row has one');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const c of CASES) {
  test(`${c.slug} ${c.id}: the dialog writes the link and the embed code from the state and the choices`, async () => {
    const { context, page, errors } = await web.open(`${c.slug}/#${c.state}`, { permissions: ['clipboard-read', 'clipboard-write'], lesson: c.slug });
    const root = new URL('..', page.url().split('#')[0]).href;
    const fig = `#w-${c.id}`;
    await idle(page, fig);
    for (const k of [c.hide, c.lock]) assert.ok(await page.locator(`${fig} .widget-body [data-key="${k}"]`).count() > 0, `${k} has a control`);
    const button = page.locator(`${fig} .embed-button`);
    await button.click();
    await page.locator('#embed-dialog[open]').waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('#embed-dialog').contains(document.activeElement)), true, 'focus moves into the dialog');
    assert.equal(await page.locator('#embed-dialog').getAttribute('aria-labelledby'), 'embed-title');
    let t = await dialogText(page);
    // The widget's state, and nothing else, with every control free.
    assert.equal(t.link, `${root}${c.slug}/#${c.values.replace(/(^|&)/g, `$1${c.id}.`)}`);
    assert.equal(t.href, t.link);
    assert.equal(t.src, `${root}embed.html#/${c.slug}/${c.id}?${c.values}`);
    assert.equal(t.frames, 1, 'the code is one iframe');
    assert.equal(t.title, await page.locator(`${fig} .widget-title`).textContent(), 'the frame is named by the widget title');
    assert.ok(+t.height >= 320 && +t.height <= 1600, `height ${t.height}`);
    let [drawn, want] = await qrModules(page);
    assert.ok(want > 100 && drawn === want, `QR code of the link: ${drawn} modules drawn, ${want} in the matrix`);
    // One row per schema key that has a control in the widget, named by its label.
    const labels = await page.locator('#embed-dialog .embed-keys label').allTextContents();
    assert.ok(labels.includes('ε'), `rows: ${labels}`);
    assert.equal(labels.length, await page.locator('#embed-dialog .embed-keys select').count());
    const keys = await page.locator('#embed-dialog .embed-keys select').evaluateAll((ss) => ss.map((s) => s.dataset.setting));
    const without = await page.locator(fig).evaluate((f, ks) => ks.filter((k) => !f.querySelector(`[data-key="${CSS.escape(k)}"]`)), keys);
    assert.deepEqual(without, [], 'rows for keys with no control to hide or lock');

    // Hide one control, lock another: link and code follow at once.
    await choose(page, c.hide, 'hide');
    await choose(page, c.lock, 'lock');
    t = await dialogText(page);
    assert.ok(t.link.endsWith(`&${c.id}.hide=${c.hide}&${c.id}.lock=${c.lock}`), t.link);
    assert.equal(t.src, `${root}embed.html#/${c.slug}/${c.id}?${c.values}&hide=${c.hide}&lock=${c.lock}`);
    [drawn, want] = await qrModules(page);
    assert.equal(drawn, want, 'the QR code follows the link');
    // The link, opened, shows the widget so: the hidden control gone, the locked one shown, disabled and marked.
    {
      const { page: other, errors: errs } = await web.open(t.link.slice(web.server.url.length), { lesson: c.slug });
      await idle(other, fig);
      assert.equal(await other.locator(`${fig} .widget-body [data-key="${c.hide}"]`).count(), 0, `${c.hide} hidden`);
      const locked = other.locator(`${fig} .widget-body [data-key="${c.lock}"]`);
      assert.equal(await locked.count(), 1, `${c.lock} shown`);
      assert.equal(await locked.locator('input:not(:disabled), select:not(:disabled)').count(), 0, `${c.lock} inert`);
      assert.match(await locked.textContent(), /fixed by the link/);
      assert.deepEqual(await other.locator('#url-notes li').allTextContents(), [], 'the link earns no note');
      // Its dialog starts from the link's choices.
      await other.locator(`${fig} .embed-button`).click();
      await other.locator('#embed-dialog[open]').waitFor();
      assert.equal(await other.locator(`#embed-dialog select[data-setting="${c.hide}"]`).inputValue(), 'hide');
      assert.equal(await other.locator(`#embed-dialog select[data-setting="${c.lock}"]`).inputValue(), 'lock');
      assert.equal((await dialogText(other)).link, t.link, 'and writes the same link');
      assert.deepEqual(errs, []);
      await other.close();
    }
    // The frame's own choices change the code, not the link.
    await page.locator('#embed-caption').uncheck();
    await page.locator('#embed-table').uncheck();
    await page.locator('#embed-theme').selectOption('dark');
    const before = t.link;
    t = await dialogText(page);
    assert.equal(t.link, before);
    assert.equal(t.src, `${root}embed.html#/${c.slug}/${c.id}?${c.values}&hide=${c.hide}&lock=${c.lock}&caption=0&table=0&theme=dark`);
    await choose(page, c.hide, '');
    t = await dialogText(page);
    assert.ok(!t.src.includes('hide=') && !t.link.includes('hide='), 'a control made free again leaves both');

    // Copy puts exactly what is shown on the clipboard, and says so.
    await page.locator('#embed-dialog').getByRole('button', { name: 'Copy embed code' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), t.code);
    assert.match(await page.locator('#embed-code ~ .embed-buttons .embed-status').textContent(), /^Embed code copied/);
    await page.locator('#embed-dialog').getByRole('button', { name: 'Copy link' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), t.link);

    // Escape closes it; focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#embed-dialog').evaluate((d) => d.open), false);
    assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus returns to the button');
    // Opened again, it starts afresh from the widget's state.
    await button.click();
    await page.locator('#embed-dialog[open]').waitFor();
    t = await dialogText(page);
    assert.equal(t.src, `${root}embed.html#/${c.slug}/${c.id}?${c.values}`);
    await page.locator('.embed-close').click();
    assert.equal(await button.evaluate((b) => b === document.activeElement), true);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the dialog works from the keyboard alone', async () => {
  const { context, page, errors } = await web.open('exponential-mechanism/#meet.eps=2', { lesson: 'exponential-mechanism' });
  await idle(page, '#w-meet');
  await page.locator('#w-meet .embed-button').focus();
  await page.keyboard.press('Enter');
  await page.locator('#embed-dialog[open]').waitFor();
  // Tab to the choice for ε and lock it with the arrow keys.
  const eps = page.locator('#embed-dialog select[data-setting="eps"]');
  for (let i = 0; i < 40 && !(await eps.evaluate((s) => s === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.querySelector('#embed-dialog').contains(document.activeElement)), true, 'Tab stays in the dialog');
  }
  assert.equal(await eps.evaluate((s) => s === document.activeElement), true, 'Tab reaches the choices');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#embed-link').value.endsWith('meet.lock=eps'));
  assert.match(await page.locator('#embed-code').inputValue(), /lock=eps/);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#w-meet .embed-button').evaluate((b) => b === document.activeElement), true, 'focus returns to the button');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the open dialog: axe clean light and dark, no sideways scroll at 320 px; screenshots at 390 and 1280 px', async () => {
  // One page, the dialog open, resized and recoloured for each setting.
  const { context, page, errors } = await web.open('exponential-mechanism/#meet.eps=2', { width: 320, height: 640, lesson: 'exponential-mechanism' });
  await idle(page, '#w-meet');
  await page.locator('#w-meet .embed-button').click();
  await page.locator('#embed-dialog[open]').waitFor();
  await choose(page, 'seed', 'hide');
  await choose(page, 'eps', 'lock');
  for (const [width, height] of [[320, 640], [390, 844], [1280, 900]]) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const box = await page.locator('#embed-dialog').evaluate((d) => ({ w: d.getBoundingClientRect().width, sw: d.scrollWidth, cw: d.clientWidth, vw: innerWidth }));
      assert.ok(box.w <= box.vw && box.sw <= box.cw, `the dialog fits ${width} px: ${JSON.stringify(box)}`);
      await axe(page, `the embed dialog at ${width} px (${scheme})`, '#embed-dialog');
      if (width !== 320) await shoot(page, `share-dialog-${width}-${scheme}.png`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// ---- docs/embed.md --------------------------------------------------------

const SITE = 'https://dpplay.github.io/dpplay/';

/** answersKeys(frame) presses → on the widget's first slider in frame and asserts that the value moved and the widget drew again. */
async function answersKeys(frame, what) {
  const slider = frame.locator('figure.widget input[type="range"]:not(:disabled)').first();
  const [before, renders] = [await slider.inputValue(), +(await frame.locator('figure.widget').getAttribute('data-renders'))];
  await slider.focus();
  await slider.press('ArrowRight');
  await frame.waitForFunction((n) => +document.querySelector('figure.widget').dataset.renders > n, renders, { timeout: 30000 });
  assert.notEqual(await slider.inputValue(), before, `${what}: → moves the slider`);
}

test('docs/embed.md: a reveal.js deck on another origin shows live widgets, as background and as a slide', async () => {
  const { embedAddress, iframeSnippet } = await import('../../web/embed/embedlink.js');
  const { serve } = await import('./server.mjs');
  const attr = (t) => t.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  // The deck's two slides, as the Embed dialog writes them for a site at root:
  // the address of a background and the embed code of a frame.
  const slides = (root) => ({
    background: attr(embedAddress(root, 'report-noisy-max', 'rnm', { eps: '0.5' }, { table: false })),
    iframe: iframeSnippet(embedAddress(root, 'exponential-mechanism', 'meet', { eps: '2' }, { hide: ['data', 'src', 'form', 'delta', 'batch', 'seed'], caption: false }), 'Choosing a meeting day', 600),
  });
  // docs/embed.md shows the same deck, for the published site.
  const doc = fs.readFileSync(path.join(repo, 'docs', 'embed.md'), 'utf8');
  for (const [k, v] of Object.entries(slides(SITE))) assert.ok(doc.includes(v), `docs/embed.md has the ${k} slide: ${v}`);
  const site = new URL('.', web.server.url).href;
  const { background, iframe } = slides(site);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-deck-'));
  fs.writeFileSync(path.join(dir, 'index.html'), fs.readFileSync(path.join(repo, 'e2e', 'embed', 'reveal-deck.html'), 'utf8')
    .replace('{{background}}', background).replace('{{iframe}}', iframe));
  fs.cpSync(path.join(repo, 'node_modules', 'reveal.js', 'dist'), path.join(dir, 'reveal'), { recursive: true });
  const deck = await serve(dir, '/');
  try {
    assert.notEqual(new URL(deck.url).origin, new URL(site).origin, 'the deck is on another origin');
    const context = await web.browser.newContext({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(deck.url);
    // Slide 1: the widget is the slide's interactive background.
    const bg = await frameReady(page, 'embed.html#/report-noisy-max/rnm');
    assert.equal(await bg.locator('figure.widget').count(), 1);
    await answersKeys(bg, 'background slide');
    await shoot(page, 'embed-reveal-background.png');
    // Slide 2: a title and the embed code's iframe, five controls hidden.
    const moved = page.evaluate(() => new Promise((r) => window.Reveal.on('slidetransitionend', r)));
    await page.evaluate(() => window.Reveal.next());
    await moved;
    const slide = await frameReady(page, 'embed.html#/exponential-mechanism/meet');
    assert.equal(await slide.locator('figure.widget [data-key]').count(), 1, 'only ε is left');
    await answersKeys(slide, 'iframe slide');
    await shoot(page, 'embed-reveal.png');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await deck.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
