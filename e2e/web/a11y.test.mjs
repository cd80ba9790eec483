// Every reader (issue 33), in Debian's Chromium: every control of a lesson
// is in the accessibility tree from the first paint, before the engine
// (CDP's accessibility domain), and axe finds nothing there; single-key
// shortcuts act only in a widget; focus never falls to the page when a
// control disables itself; the focus ring has 3:1 contrast against every
// background it is drawn on, light and dark; nothing scrolls sideways at 320 px; "Listen" plays a chart as tones
// (an AudioContext spy records them) and reads its values; a widget says it
// is waiting while the engine loads. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { ready, watch } from './browser.mjs';
import { audioSpy, everyLive, harness, idle, live, shots, siteIndex } from './harness.mjs';

const index = siteIndex();
const slugs = index.lessons.map((l) => l.slug);
const web = harness(['index.html', 'dist/ is missing: run make site']);

/** blank(opts) is a page in a fresh context (opts: its options) that has not loaded anything yet, with its console errors. */
async function blank(opts) {
  const context = await web.browser.newContext({ serviceWorkers: 'block', ...opts });
  const page = await context.newPage();
  return { context, page, errors: watch(page) };
}

/** holdEngine(page) holds back every wasm module until the returned release() is called. */
async function holdEngine(page) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue().catch(() => {}); });
  return release;
}

// The roles of controls (a <summary> is a DisclosureTriangle).
const ROLES = ['button', 'checkbox', 'combobox', 'DisclosureTriangle', 'link', 'radio', 'searchbox', 'slider', 'spinbutton', 'textbox'];

/** axControls(cdp, sel, roles) lists the controls in sel that Chromium's accessibility tree exposes, as "role: name", sorted. */
async function axControls(cdp, sel = '#lesson', roles = ROLES) {
  const { result } = await cdp.send('Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(sel)})` });
  const out = [];
  for (const role of roles) {
    const { nodes } = await cdp.send('Accessibility.queryAXTree', { objectId: result.objectId, role });
    for (const n of nodes) if (!n.ignored) out.push(`${role}: ${n.name?.value ?? ''}`);
  }
  return out.sort();
}

/** missing(want, got) is each entry of the multiset want that got lacks. */
function missing(want, got) {
  const left = new Map();
  for (const g of got) left.set(g, (left.get(g) || 0) + 1);
  return want.filter((w) => (left.get(w) || 0) > 0 ? (left.set(w, left.get(w) - 1), false) : true);
}

test('every control of every lesson is in the accessibility tree at load, before the engine, or marked as loading', async () => {
  const figures = [];
  for (const slug of slugs) {
    const { context, page, errors } = await blank({ viewport: { width: 1280, height: 800 } });
    const release = await holdEngine(page);
    await page.goto(`${web.server.url}#/${slug}`);
    await page.waitForFunction((s) => document.body.dataset.lessonReady === s, slug, { timeout: 30000 });
    const cdp = await context.newCDPSession(page);
    assert.equal(await page.evaluate(() => document.body.classList.contains('engine-ready')), false, 'the engine arrived');
    const atLoad = await axControls(cdp);
    // Nothing on the page is hidden from the tree by inert (the old lazy mount's way).
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const inert = nodes.filter((x) => x.ignored && (x.ignoredReasons || []).some((r) => /inert/i.test(r.name)));
    assert.equal(inert.length, 0, `${slug}: ${inert.length} nodes left out of the accessibility tree as inert`);
    // A widget the build could not draw (SmallDB: its first call opens a run
    // in the engine) shows that it is loading until it mounts.
    const loading = await page.evaluate(() => [...document.querySelectorAll('#lesson figure.widget')]
      .filter((f) => f.querySelector(':scope > .widget-body[aria-busy] > .widget-loading')).map((f) => f.id));
    const said = [];
    for (const id of loading) said.push(...await axControls(cdp, `#${id}`, ['StaticText']));
    // The drawings' controls are exposed now: axe checks them as they are at load.
    const { violations } = await new AxeBuilder({ page }).include('#lesson').analyze();
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).slice(0, 3).join('; ')}`), [], `${slug}: axe at load`);
    release();
    await ready(page, slug);
    await everyLive(page);
    const after = await axControls(cdp);
    const excused = [];
    for (const id of loading) {
      assert.ok(said.some((t) => /Loading the interactive part/.test(t)), `${slug} #${id}: its controls are missing and it does not say it is loading`);
      excused.push(...await axControls(cdp, `#${id}`));
    }
    const lost = missing(missing(after, atLoad), excused);
    assert.deepEqual(lost, [], `${slug}: controls missing from the accessibility tree at load`);
    const sliders = await page.locator('#lesson figure.widget:not(:is(' + (loading.map((id) => `#${id}`).join(',') || '#none') + ')) input[type=range]')
      .evaluateAll((xs) => xs.filter((x) => x.checkVisibility()).length);
    const n = (list, role) => list.filter((x) => x.startsWith(`${role}:`)).length;
    assert.equal(n(atLoad, 'slider'), sliders, `${slug}: sliders on screen and in the tree at load`);
    figures.push(`${slug}: ${atLoad.length} of ${after.length} controls at load (${n(atLoad, 'slider')} of ${n(after, 'slider')} sliders)${loading.length ? `; loading: ${loading.join(' ')}` : ''}`);
    assert.deepEqual(errors, [], slug);
    await context.close();
  }
  console.log(figures.join('\n'));
});

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
  await page.keyboard.press('Space');
  await page.waitForFunction((y) => scrollY > y, before.y, { timeout: 5000 }).catch(() => {});
  await page.waitForTimeout(400);
  const after = await state();
  assert.ok(after.y > before.y, `Space did not scroll the page (${before.y} → ${after.y})`);
  assert.deepEqual(after.renders, before.renders, 'Space with nothing focused redrew a widget');
  assert.equal(after.hash, before.hash, 'Space with nothing focused changed a widget');
  for (const key of ['r', 'ArrowRight', 'n', 'f', '?']) await page.keyboard.press(key);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => location.hash), before.hash, 'a key with nothing focused changed a widget');
  assert.equal(await page.evaluate(() => document.body.classList.contains('presenting') || document.querySelector('#keys-dialog').open), false);

  // A click in the widget gives it focus: Space draws there.
  const status = page.locator('#w-meet .draw-status');
  await page.locator('#w-meet .widget-title').click();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /^2 batches/.test(document.querySelector('#w-meet .draw-status').textContent));

  // Off in the Keys dialog: Space in the widget draws nothing, and the choice lasts.
  await page.locator('#keys-button').click();
  await page.locator('#keys-on').uncheck();
  await page.keyboard.press('Escape');
  await page.locator('#w-meet .widget-title').click();
  await page.keyboard.press('Space');
  await page.waitForTimeout(400);
  assert.match(await status.textContent(), /^2 batches/, 'Space drew with the shortcuts off');
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
  await other.page.waitForTimeout(100);
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
  await p.waitForTimeout(100);
  const at = await p.evaluate(() => ({ inside: !!document.activeElement.closest('#w-meet'), what: document.activeElement.tagName }));
  assert.ok(at.inside, `focus fell out of the widget after "Forget my data", to ${at.what}`);
  assert.deepEqual(third.errors, []);
  await third.context.close();
});

/**
 * ringContrast runs in the page: it focuses every control in the tab order
 * in turn (after a key press, so focus is shown as for the keyboard) and
 * returns each whose focus ring is missing or has less than 3:1 contrast
 * against the background it is drawn on (the composited backgrounds of its
 * ancestors: the ring lies outside the control).
 */
function ringContrast() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c) || /color\(srgb ([^)]+)\)/.exec(c);
    if (!m) return null;
    const [rgb, alpha] = m[1].split('/');
    const parts = rgb.trim().split(/[\s,]+/).map(Number);
    const srgb = c.startsWith('color(') ? parts.slice(0, 3).map((x) => x * 255) : parts.slice(0, 3);
    const a = alpha !== undefined ? Number(alpha) : parts.length > 3 ? parts[3] : 1;
    return [...srgb, a];
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    let out = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse()) out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
    return out;
  };
  const bad = [];
  let checked = 0;
  const all = document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]');
  for (const el of all) {
    if (el.tabIndex < 0 || el.disabled || !el.checkVisibility({ visibilityProperty: true }) || el.closest('[inert], dialog:not([open])')) continue;
    el.focus({ preventScroll: true });
    if (document.activeElement !== el) continue;
    checked++;
    const cs = getComputedStyle(el);
    const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className?.baseVal ?? el.className} “${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)}”`;
    if (!el.matches(':focus-visible') || cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) < 2) {
      bad.push(`${name}: no focus ring (${cs.outlineStyle} ${cs.outlineWidth})`);
      continue;
    }
    const ring = parse(cs.outlineColor);
    const behind = background(el.parentElement);
    const r = ratio(ring, behind);
    if (r < 3) bad.push(`${name}: ${r.toFixed(2)}:1 on rgb(${behind.map(Math.round)})`);
  }
  return { checked, bad };
}

test('the focus ring has at least 3:1 contrast against every background it is drawn on, light and dark', async () => {
  const seen = [];
  for (const scheme of ['light', 'dark']) {
    for (const slug of ['', ...slugs]) {
      const { context, page, errors } = await web.open(slug ? `#/${slug}` : '', { scheme, lesson: slug || 'home' });
      if (slug) await everyLive(page);
      await page.evaluate(() => document.querySelectorAll('#lesson details').forEach((d) => { d.open = true; }));
      await page.keyboard.press('Tab');
      const { checked, bad } = await page.evaluate(ringContrast);
      assert.deepEqual(bad, [], `${slug || 'root'} (${scheme})`);
      assert.ok(checked > 10, `${slug || 'root'}: only ${checked} controls checked`);
      seen.push(`${slug || 'root'} ${scheme}: ${checked}`);
      if (slug === 'exponential-mechanism') {
        await page.locator('#w-meet input[type=range]').focus();
        await page.screenshot({ path: path.join(shots, `a11y-focus-${scheme}.png`) });
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
  console.log(`focus rings checked: ${seen.join(', ')}`);
});

test('at 320 px nothing scrolls sideways and the whole top bar is on screen, on every page', async () => {
  for (const slug of ['', ...slugs, ...(index.pages || []).map((p) => p.slug)]) {
    const { context, page, errors } = await web.open(slug ? `#/${slug}` : '', { width: 320, height: 640, lesson: slug || 'home' });
    if (slug && await page.locator('#lesson figure.widget').count()) await everyLive(page);
    const r = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: innerWidth,
      cut: [...document.querySelectorAll('.topbar a, .topbar button')].filter((e) => e.checkVisibility())
        .map((e) => ({ e: e.id || e.className, b: e.getBoundingClientRect() }))
        .filter(({ b }) => b.left < 0 || b.right > innerWidth).map(({ e, b }) => `${e}: ${Math.round(b.left)}..${Math.round(b.right)}`),
    }));
    assert.ok(r.scroll <= r.width, `${slug || 'root'}: ${r.scroll} px wide at ${r.width}`);
    assert.deepEqual(r.cut, [], `${slug || 'root'}: top bar cut off`);
    if (slug === '' || slug === 'exponential-mechanism') await page.screenshot({ path: path.join(shots, `a11y-320-${slug || 'root'}.png`) });
    // Radio buttons keep their size when their label wraps.
    const shrunk = await page.locator('input[type=radio]').evaluateAll((rs) => rs.filter((x) => x.checkVisibility())
      .map((x) => x.getBoundingClientRect()).filter((b) => Math.abs(b.width - b.height) > 0.5).length);
    assert.equal(shrunk, 0, `${slug || 'root'}: radio buttons squeezed at 320 px`);
    assert.deepEqual(errors, [], slug);
    await context.close();
  }
  // The site's other pages: the lecture's join form (a phone's first view), the handout, the machine, the 404 page.
  for (const url of ['lecture.html', 'lecture.html?join=ABCD-1234', 'handout.html', 'machine.html', '404.html']) {
    const { context, page } = await web.open(url, { width: 320, height: 640 });
    await page.waitForLoadState('networkidle');
    const r = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
    assert.ok(r.scroll <= r.width, `${url}: ${r.scroll} px wide at ${r.width}`);
    await context.close();
  }
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
  const release = await holdEngine(page);
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
  await page.screenshot({ path: path.join(shots, 'a11y-waiting-390.png') });
  release();
  await page.waitForFunction((i) => !document.getElementById(i).hasAttribute('data-pending'), id, { timeout: 30000 });
  await page.waitForFunction(([i, b]) => document.querySelector(`#${i} .loss-line`).textContent !== b, [id, before]);
  assert.match(await page.locator(`#${id} > p[role=status].visually-hidden`).textContent(), /\(was /, 'the status line does not say what changed');
  assert.deepEqual(errors, []);
  await context.close();
});
