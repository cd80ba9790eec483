// Every reader (issue 33), in Debian's Chromium: a pre-rendered widget's
// controls work before it mounts; single-key shortcuts act only in a
// widget; focus never falls to the page when a control disables itself;
// "Listen" plays a chart as tones (an AudioContext spy records them) and
// reads its values; a widget says it is waiting while the engine loads.
// The accessibility tree at load, the focus ring's contrast and 320 px are
// the sweep's (sweep.test.mjs). Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, watch } from './browser.mjs';
import { audioSpy, everyLive, harness, hold, idle, live, shoot } from './harness.mjs';

const web = harness(['index.html', 'dist/ is missing: run make site']);

/** blank(opts) is a page in a fresh context (opts: its options) that has not loaded anything yet, with its console errors. */
async function blank(opts) {
  const context = await web.browser.newContext({ serviceWorkers: 'block', ...opts });
  const page = await context.newPage();
  return { context, page, errors: watch(page) };
}

test('a pre-rendered widget\'s controls work before it mounts: a moved slider, a press and the focus carry over to the live widget', async () => {
  const { context, page, errors } = await web.open('#/exponential-mechanism', { width: 1280, height: 800, lesson: 'exponential-mechanism' });
  // The lesson's last widget is far below the screen: still the build's drawing.
  const fig = page.locator('#lesson figure.widget[data-widget="exponential-mechanism"]').last();
  const id = await fig.getAttribute('id');
  assert.equal(await page.locator(`#${id} > .widget-body[data-prerendered]`).count(), 1, 'the last widget is already mounted');
  const status = page.locator(`#${id} .draw-status`);
  const before = await status.textContent();
  // Press "Draw a batch" on the drawing without scrolling to it (as a screen
  // reader's virtual cursor can), then focus its slider and move it.
  await page.locator(`#${id} .actions button.primary`).dispatchEvent('click');
  await page.waitForFunction((i) => !document.querySelector(`#${i} > [data-prerendered]`), id);
  await page.waitForFunction(([i, b]) => document.querySelector(`#${i} .draw-status`).textContent !== b, [id, before]);
  assert.match(await status.textContent(), /^2 batches/, 'the press on the drawing was not passed on');
  assert.deepEqual(errors, []);
  await context.close();

  // Tab into a drawing: focus lands on the live slider, and an arrow key moves it.
  const other = await web.open('#/exponential-mechanism', { width: 1280, height: 800, lesson: 'exponential-mechanism' });
  const p = other.page;
  const sel = `#${id} .widget-body[data-prerendered] input[type=range]`;
  await p.locator(sel).evaluate((el) => el.focus({ preventScroll: true }));
  await p.waitForFunction((i) => !document.querySelector(`#${i} > .widget-body[data-prerendered]`) && document.activeElement?.matches(`#${i} input[type=range]`), id);
  const eps = new RegExp(`${id.slice(2)}\\.eps=`);
  await p.keyboard.press('ArrowRight');
  await p.waitForFunction((re) => new RegExp(re).test(location.hash), eps.source);
  assert.deepEqual(other.errors, []);
  await other.context.close();
});

test('with nothing focused, Space scrolls the page and draws nothing; in a focused widget it draws; the Keys dialog turns the keys off', async () => {
  const { context, page, errors } = await web.open('#/exponential-mechanism', { width: 1280, height: 800, lesson: 'exponential-mechanism' });
  await everyLive(page);
  const state = () => page.evaluate(() => ({
    y: scrollY, hash: location.hash,
    renders: [...document.querySelectorAll('figure.widget')].map((f) => f.dataset.renders || ''),
  }));
  await page.evaluate(() => document.activeElement?.blur());
  const before = await state();
  const status = page.locator('#w-meet .draw-status');
  const drawn = await status.textContent();
  await page.keyboard.press('Space');
  await page.waitForFunction((y) => scrollY > y, before.y, { timeout: 5000 }).catch(() => {});
  assert.ok(await page.evaluate(() => scrollY) > before.y, `Space did not scroll the page (${before.y} → ${await page.evaluate(() => scrollY)})`);
  for (const key of ['r', 'ArrowRight', 'n', 'f', '?']) await page.keyboard.press(key);
  assert.equal(await page.evaluate(() => document.body.classList.contains('presenting') || document.querySelector('#keys-dialog').open), false);

  // A click in the widget gives it focus: Space draws there, once. The keys
  // above ran first (events run in order): had any reached a widget, its
  // redraw or changed state would show by the time this one has drawn.
  await page.locator('#w-meet .widget-title').click();
  await page.keyboard.press('Space');
  await page.waitForFunction((d) => document.querySelector('#w-meet .draw-status').textContent !== d, drawn);
  assert.match(await status.textContent(), /^2 batches/, 'Space with nothing focused, or a key, changed the widget');
  await page.waitForFunction(() => ![...document.querySelectorAll('figure.widget')].some((f) => f.dataset.busy));
  const after = await state();
  const meet = await page.locator('figure.widget').evaluateAll((fs) => fs.findIndex((f) => f.id === 'w-meet'));
  assert.deepEqual(after.renders.filter((_, i) => i !== meet), before.renders.filter((_, i) => i !== meet), 'a key with nothing focused redrew a widget');
  assert.equal(+after.renders[meet], +before.renders[meet] + 1, 'Space in the widget drew more than once');
  const without = (h) => h.replace(/&?meet\.step=\d+/, '');
  assert.equal(without(after.hash), without(before.hash), 'a key with nothing focused changed a widget');

  // Off in the Keys dialog: Space in the widget draws nothing, and the choice lasts.
  await page.locator('#keys-button').click();
  await page.locator('#keys-on').uncheck();
  await page.keyboard.press('Escape');
  await page.locator('#w-meet .widget-title').click();
  await page.keyboard.press('Space');
  // Then a press of Draw, which draws once: after it, a draw by Space would show as one batch more.
  await page.locator('#w-meet .actions button.primary').click();
  await page.waitForFunction(() => !/^2 batches/.test(document.querySelector('#w-meet .draw-status').textContent));
  assert.match(await status.textContent(), /^3 batches/, 'Space drew with the shortcuts off');
  assert.equal(await page.locator('#w-meet button kbd').first().isVisible(), false, 'key hints shown with the shortcuts off');
  await page.reload();
  await ready(page, 'exponential-mechanism');
  assert.equal(await page.locator('#keys-on').isChecked(), false, 'the choice did not last');
  assert.deepEqual(errors, []);
  await context.close();
});

test('focus moves to the revealed answer, and never falls to the page when a control disables itself', async () => {
  const { context, page, errors } = await web.open('#/exponential-mechanism', { lesson: 'exponential-mechanism' });
  const sec = page.locator('section.predict').first();
  await sec.locator('input[type=radio]').first().focus();
  await page.keyboard.press('Space');
  await sec.locator('.reveal-button').focus();
  await page.keyboard.press('Enter');
  assert.ok(await sec.locator('.reveal-button').isDisabled());
  assert.ok(await page.evaluate(() => !!document.activeElement.closest('section.predict .reveal') && !document.activeElement.hidden), 'focus is not on the revealed answer');
  assert.deepEqual(errors, []);
  await context.close();

  // MWEM's "All rounds" disables itself at the last round: focus goes on to the next control.
  const other = await web.open('#/mwem', { lesson: 'mwem' });
  const w = 'figure.widget[data-widget="mwem"]';
  await idle(other.page, w);
  const all = other.page.locator(`${w} button`, { hasText: 'All rounds' });
  await all.focus();
  const n = +(await other.page.locator(w).getAttribute('data-renders'));
  await other.page.keyboard.press('Enter');
  await other.page.waitForFunction(([s, k]) => +document.querySelector(s).dataset.renders > k && !document.querySelector(s).dataset.busy, [w, n]);
  assert.ok(await all.isDisabled(), '"All rounds" should disable itself at the last round');
  await other.page.waitForFunction((s) => document.activeElement?.closest(s), w, { timeout: 5000 }).catch(() => {});
  const where = await other.page.evaluate((s) => {
    const a = document.activeElement;
    return { inside: !!a.closest(s), what: `${a.tagName} ${a.textContent.trim().slice(0, 30)}` };
  }, w);
  assert.ok(where.inside, `focus fell out of the widget, to ${where.what}`);
  assert.deepEqual(other.errors, []);
  await other.context.close();

  // "Forget my data" hides itself once it has forgotten: focus stays in the widget.
  const third = await web.open('#/exponential-mechanism', { lesson: 'exponential-mechanism' });
  const p = third.page;
  await idle(p, '#w-meet');
  await p.locator('#w-meet details.data-panel > summary').click();
  await p.locator('#w-meet details.data-panel textarea').fill('day,free\nMon,3\nTue,5\nWed,4\n');
  await p.locator('#w-meet button', { hasText: 'Use the pasted text' }).click();
  const forget = p.locator('#w-meet button', { hasText: 'Forget my data' });
  await forget.waitFor({ state: 'visible', timeout: 15000 });
  await forget.focus();
  await p.keyboard.press('Enter');
  await forget.waitFor({ state: 'hidden', timeout: 15000 });
  await p.waitForFunction(() => document.activeElement?.closest('#w-meet'), null, { timeout: 5000 }).catch(() => {});
  const at = await p.evaluate(() => ({ inside: !!document.activeElement.closest('#w-meet'), what: document.activeElement.tagName }));
  assert.ok(at.inside, `focus fell out of the widget after "Forget my data", to ${at.what}`);
  assert.deepEqual(third.errors, []);
  await third.context.close();
});

test('"Listen" plays a chart as tones in order, higher for higher bars, then reads out the exact values', async () => {
  const { context, page, errors } = await blank({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(audioSpy);
  await page.goto(`${web.server.url}#/exponential-mechanism`);
  await ready(page, 'exponential-mechanism');
  await live(page, '#w-meet');
  const table = await page.locator('#w-meet .data-table table').first().evaluate((t) => {
    const heads = [...t.tHead.rows[0].cells].map((c) => c.textContent);
    const [e, d] = [heads.indexOf('Exact probability'), heads.indexOf('Share of draws')];
    return [...t.tBodies[0].rows].map((r) => ({ name: r.cells[0].textContent, exact: parseFloat(r.cells[e].textContent), drawn: parseFloat(r.cells[d].textContent) }));
  });
  await page.locator('#w-meet .listen-button').click();
  await page.waitForFunction(() => /Exact probability/.test(document.getElementById('listen-status')?.textContent || ''), null, { timeout: 15000 });
  const tones = await page.evaluate(() => window.__tones);
  const said = await page.locator('#listen-status').textContent();
  // The exact probabilities, then the shares drawn: one tone per bar, in order.
  assert.equal(tones.length, 2 * table.length, `tones: ${JSON.stringify(tones)}`);
  for (let i = 1; i < tones.length; i++) assert.ok(tones[i].t > tones[i - 1].t, 'tones overlap or go back in time');
  for (const [k, key] of [[0, 'exact'], [1, 'drawn']]) {
    const fs = tones.slice(k * table.length, (k + 1) * table.length).map((t) => t.f);
    for (const f of fs) assert.ok(f >= 220 && f <= 880, `pitch ${f} outside 220–880 Hz`);
    for (let i = 0; i < table.length; i++) {
      for (let j = 0; j < table.length; j++) {
        if (table[i][key] > table[j][key]) assert.ok(fs[i] > fs[j], `${key}: ${table[i].name} is higher than ${table[j].name} but sounds lower`);
      }
    }
  }
  const words = table.map((r) => `${r.name} ${r.exact.toFixed(1)}%`).join(', ');
  assert.ok(said.includes(`Exact probability: ${words}.`), `read out: ${said}; want ${words}`);

  // A chart still showing the build's drawing plays too: the press carries over.
  const far = page.locator('#lesson figure.widget:has(> .widget-body[data-prerendered]) .listen-button').first();
  assert.ok(await far.count(), 'no pre-rendered chart left to press');
  await page.evaluate(() => { window.__tones = []; document.getElementById('listen-status').textContent = ''; });
  await far.dispatchEvent('click');
  await page.waitForFunction(() => window.__tones.length > 0 && /probability/i.test(document.getElementById('listen-status').textContent), null, { timeout: 15000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('"Listen" plays the other kinds of chart: lines, the ±ε band and the audit\'s pair', async () => {
  for (const [slug, widget, chart, said] of [
    ['billboard-prices', 'billboard', '.line-chart', /: round 1 /],
    ['what-epsilon-promises', 'epsilon-band', '.band-chart', /^Exact log-ratio: /],
    ['check-a-mechanism', 'audit', '.band-chart', /^P\(o \| x\): option 0 .*Log-ratio, band ±/],
  ]) {
    const { context, page, errors } = await blank({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(audioSpy);
    await page.goto(`${web.server.url}#/${slug}`);
    await ready(page, slug);
    const fig = `#lesson figure.widget[data-widget="${widget}"]`;
    await idle(page, fig);
    const button = page.locator(`${fig} ${chart} .listen-button`).first();
    assert.ok(await button.count(), `${slug}: no Listen button on the ${widget} chart`);
    await button.click();
    await page.waitForFunction(() => document.getElementById('listen-status')?.textContent, null, { timeout: 30000 });
    const tones = await page.evaluate(() => window.__tones);
    assert.ok(tones.length > 1, `${slug}: ${tones.length} tones`);
    for (const t of tones) assert.ok(t.f >= 220 && t.f <= 880, `${slug}: pitch ${t.f} outside 220–880 Hz`);
    assert.match(await page.locator('#listen-status').textContent(), said, slug);
    assert.deepEqual(errors, [], slug);
    await context.close();
  }
});

test('before the engine: a moved slider and Draw say the widget is waiting, the stale readout is dimmed, the status shows on a phone; then it updates and says what changed', async () => {
  const { context, page, errors } = await blank({ viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true });
  const release = await hold(page, '**/*.wasm');
  await page.goto(`${web.server.url}#/what-epsilon-promises`);
  await page.waitForFunction(() => document.body.dataset.lessonReady === 'what-epsilon-promises', null, { timeout: 30000 });
  assert.ok(await page.locator('#engine-status').isVisible(), 'the engine status is hidden on a phone');
  assert.match(await page.locator('#engine-status').textContent(), /Loading the engine/);
  const fig = page.locator('figure.widget[data-widget="epsilon-band"]').first();
  const id = await fig.getAttribute('id');
  await live(page, `#${id}`);
  const readout = page.locator(`#${id} .loss-line`);
  const before = await readout.textContent();
  await page.locator(`#${id} input[type=range]`).first().focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((i) => document.getElementById(i).hasAttribute('data-pending'), id, { timeout: 5000 });
  assert.match(await page.locator(`#${id} .widget-pending`).textContent(), /Waiting for the engine/);
  assert.ok(await page.locator(`#${id} .widget-pending .pending-pill`).isVisible(), 'the waiting note is not on screen');
  // The dimming may be a 0.2 s transition (styles.css), so poll until the opacity passes 0.6 rather than read it once.
  await page.waitForFunction((i) => +getComputedStyle(document.querySelector(`#${i} .loss-line`)).opacity < 0.6, id, { timeout: 3000 })
    .catch((e) => assert.fail(`the stale readout is not dimmed: ${e.message}`));
  assert.equal(await readout.textContent(), before);
  await shoot(page, 'a11y-waiting-390.png');
  release();
  await page.waitForFunction((i) => !document.getElementById(i).hasAttribute('data-pending'), id, { timeout: 30000 });
  await page.waitForFunction(([i, b]) => document.querySelector(`#${i} .loss-line`).textContent !== b, [id, before]);
  assert.match(await page.locator(`#${id} > p[role=status].visually-hidden`).textContent(), /\(was /, 'the status line does not say what changed');
  assert.deepEqual(errors, []);
  await context.close();
});
