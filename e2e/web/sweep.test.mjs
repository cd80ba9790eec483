// The one sweep over every page of the site, in Debian's Chromium: each page
// is opened once per setting it needs, and every page-level check runs
// there. Adding a lesson adds its pages to this list, nothing more. Axe
// audits each layout once in full, in light, and in dark only the rules a
// colour scheme changes (audit, dark).
//
// desktop (1280 × 900, then 1920 × 1080): the build's drawings (read before
//   any module runs) and the page before the engine (every control in the
//   accessibility tree, nothing inert, axe); then live: console errors,
//   requests outside the site, widget errors, at most four controls in view,
//   no sideways scroll, axe and the focus ring's contrast in light and dark,
//   and at 1920 px no sideways scroll and axe; the drawings equal the engine's.
// phone 390 (touch, 390 × 800, then 390 × 844): no Keys button or key hints;
//   each widget's slider and chart on one screen; drop-downs not cut off and
//   within their widget; the drawings equal the engine's; at most four
//   controls in view; the primary control and the chart on one screen; the
//   action row keeps each label with its control; no sideways scroll; axe in
//   light and dark.
// phone 360 (touch, 360 × 800): the same slider-and-chart and drop-down
//   checks; no sideways scroll; axe in light and dark.
// narrow (320 × 640, then 390 × 844, no touch): no sideways scroll, the whole
//   top bar on screen, radio buttons unsqueezed; at 390 no sideways scroll.
// no JavaScript (390 and 1280): every lesson reads in full.
// Facts that need no layout are e2e/dist's. Run `make site` first.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, watch } from './browser.mjs';
import { COLOUR_RULES, afterTasks, everyLive, harness, hold, live, shoot, shots, siteIndex, violations } from './harness.mjs';

const index = siteIndex();
const lessons = index.lessons.map((l) => l.slug);
const pages = ['', ...lessons, ...(index.pages || []).map((p) => p.slug)];
const isLesson = (slug) => lessons.includes(slug);
const name = (slug) => slug || 'root';
const web = harness(['index.html', 'dist/ is missing: run make site']);

/** found collects what one page in one setting got wrong, so that a failure lists all of it. */
function findings() {
  const list = [];
  return {
    list,
    /** ok(cond, message) notes message when cond is false. */
    ok: (cond, message) => { if (!cond) list.push(message); },
    /** none(items, message) notes message with items when there are any. */
    none: (items, message) => { if (items.length) list.push(`${message}: ${items.join('; ')}`); },
  };
}

/**
 * open(slug, opts) is a fresh context and page (width × height, colour
 * scheme light, service workers blocked, and opts' further context options)
 * with the page's console errors and the requests it made outside the site;
 * opts.held are URL globs held back until the returned release(glob).
 * It navigates to the page and returns once its HTML is parsed.
 */
async function open(slug, { width, height, held = [], ...more }) {
  const context = await web.browser.newContext({ viewport: { width, height }, serviceWorkers: 'block', colorScheme: 'light', ...more });
  const page = await context.newPage();
  const errors = watch(page);
  const outside = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(web.server.url) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  const releases = {};
  for (const glob of held) releases[glob] = await hold(page, glob);
  await page.goto(web.server.url + (slug ? `${slug}/` : ''), { waitUntil: 'commit' });
  await page.waitForFunction(() => document.readyState !== 'loading');
  return { context, page, errors, outside, release: (glob) => releases[glob]() };
}

/** shown(page, slug) waits until the page has mounted what it shows and the engine is up; on a lesson, every widget is live. */
async function shown(page, slug) {
  await ready(page, slug || 'home');
  if (isLesson(slug)) await everyLive(page, 60000);
}

// Widgets to look at, drawn on their own at 1280 and 390 px (their lessons are drawn whole too).
const WIDGET_SHOTS = { 'sparse-vector': ['nocutoff', 'stream', 'variants'], 'check-a-mechanism': ['twice', 'check'] };

/** widgetShots(page, slug, width) draws the widgets of WIDGET_SHOTS on slug's page, each as slug-id-width.png. */
async function widgetShots(page, slug, width) {
  if (!shots) return;
  for (const id of WIDGET_SHOTS[slug] || []) {
    await page.locator(`#w-${id}`).scrollIntoViewIfNeeded();
    await shoot(page.locator(`#w-${id}`), `${slug}-${id}-${width}.png`);
  }
}

/** finish(opened, f, where) checks that the page logged no error and asked nothing of another site, closes it, and fails with everything found. */
async function finish({ context, errors, outside }, f, where) {
  f.none(errors, 'console errors');
  f.none(outside, 'requests outside the site');
  await context.close();
  assert.deepEqual(f.list, [], where);
}

/**
 * audit(page, f, what, rules) notes every axe violation on the page, with
 * every <details> open, of the rules named (every rule when none).
 */
async function audit(page, f, what, rules = null) {
  await openDetails(page);
  f.none(await violations(page, { rules }), `axe on ${what}`);
}

/**
 * Each setting is audited by axe once in full, in light; the same layout in
 * dark is audited for what a colour scheme changes (COLOUR_RULES).
 */
const dark = (page, f, what) => page.emulateMedia({ colorScheme: 'dark' }).then(() => audit(page, f, `${what} (dark)`, COLOUR_RULES));

/**
 * resize(page, size) gives page a new viewport and waits for the frame that
 * lays it out: what watches sizes (ResizeObserver) has seen it after that.
 */
const resize = (page, size) => page.setViewportSize(size).then(() => afterTasks(page));

const openDetails = (page) => page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));

/** sideways(page) is how far the page scrolls sideways, in px (≤ 0: not at all). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);


// ---- The build's drawings against the engine's ----------------------------

// charts(selector) runs in the page: each chart box's shown SVG as
// {w: box width, h: drawn height, viewBox, inner: its content with sorted
// attributes, without ids, with each url(#id) named as the wide drawing
// names it (the build suffixes the narrow drawing's ids with -n), and without
// an empty class (linkedom, which the build draws with, does not write
// class="")}. A chart in a hidden part of a widget is not on show. It waits
// two frames first, so that what it reads has been laid out and painted.
async function charts(sel) {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const value = (a) => a.value.replace(/url\(#([^)]*)-n\)/g, 'url(#$1)');
  const canon = (n) => (n.nodeType === 3 ? n.data : n.nodeType !== 1 ? '' : `<${n.localName}${[...n.attributes]
    .filter((a) => !/^(id|aria-labelledby|aria-describedby)$/.test(a.name) && !(a.name === 'class' && !a.value)).map((a) => ` ${a.name}="${value(a)}"`).sort().join('')}>${[...n.childNodes].map(canon).join('')}</${n.localName}>`);
  return [...document.querySelectorAll(sel)].filter((box) => !box.closest('[hidden]')).map((box) => {
    const svg = [...box.querySelectorAll(':scope > svg')].find((s) => getComputedStyle(s).display !== 'none');
    if (!svg) return null;
    return { w: box.clientWidth, h: Math.round(svg.getBoundingClientRect().height), viewBox: svg.getAttribute('viewBox'), inner: [...svg.childNodes].map(canon).join('') };
  });
}

/** built(page) reads the pre-rendered charts of a page whose app.js is held back: the page as it shows before any module runs. */
const built = (page) => page.evaluate(charts, '.widget-body[data-prerendered] .chart-svg');

/** drawn(page) reads, on a page whose widgets are all live, the charts of the figures the build pre-rendered. */
async function drawn(page) {
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('figure.widget > script.widget-calls')) s.parentElement.classList.add('was-pre');
  });
  return page.evaluate(charts, 'figure.was-pre .widget-body .chart-svg');
}

/** samePictures(f, pre, live, where) notes every chart whose drawing the engine changed. */
function samePictures(f, pre, live, where) {
  f.ok(pre.length === live.length, `${where}: ${pre.length} charts pre-rendered, ${live.length} drawn by the engine`);
  pre.forEach((p, i) => {
    const l = live[i];
    if (!p || !l) return f.ok(false, `${where} chart ${i}: ${p ? 'no live' : 'no pre-rendered'} drawing shown`);
    f.ok(p.w === l.w, `${where} chart ${i}: box width ${p.w} pre-rendered, ${l.w} live`);
    f.ok(Math.abs(p.h - l.h) <= 1, `${where} chart ${i}: height ${p.h} pre-rendered, ${l.h} live`);
    f.ok(p.viewBox === l.viewBox, `${where} chart ${i}: viewBox ${p.viewBox} pre-rendered, ${l.viewBox} live`);
    f.ok(p.inner === l.inner, `${where} chart ${i}: content differs`);
  });
}

// ---- The accessibility tree before the engine ------------------------------

// The roles of controls (a <summary> is a DisclosureTriangle).
const ROLES = ['button', 'checkbox', 'combobox', 'DisclosureTriangle', 'link', 'radio', 'searchbox', 'slider', 'spinbutton', 'textbox'];

/** axControls(cdp, sel, roles) lists the controls in sel that Chromium's accessibility tree exposes, as "role: name", sorted. */
async function axControls(cdp, sel = '#lesson', roles = ROLES) {
  const { result } = await cdp.send('Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(sel)})` });
  // With no role asked for, every node of the subtree, in one call.
  const { nodes } = await cdp.send('Accessibility.queryAXTree', { objectId: result.objectId });
  return nodes.filter((n) => !n.ignored && roles.includes(n.role?.value)).map((n) => `${n.role.value}: ${n.name?.value ?? ''}`).sort();
}

/** missing(want, got) is each entry of the multiset want that got lacks. */
function missing(want, got) {
  const left = new Map();
  for (const g of got) left.set(g, (left.get(g) || 0) + 1);
  return want.filter((w) => (left.get(w) || 0) > 0 ? (left.set(w, left.get(w) - 1), false) : true);
}

/**
 * beforeEngine(page, f, where) reads the accessibility tree of a page whose
 * engine is held back, checks it, and returns a function that, once the
 * engine has come and every widget is live, checks that no control was
 * missing at load but from a widget that says it is loading.
 */
async function beforeEngine(page, context, f, where) {
  const cdp = await context.newCDPSession(page);
  f.ok(!(await page.evaluate(() => document.body.classList.contains('engine-ready'))), `${where}: the engine arrived while held`);
  const atLoad = await axControls(cdp);
  // Nothing on the page is hidden from the tree by inert (the old lazy mount's way).
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const inert = nodes.filter((x) => x.ignored && (x.ignoredReasons || []).some((r) => /inert/i.test(r.name)));
  f.ok(inert.length === 0, `${where}: ${inert.length} nodes left out of the accessibility tree as inert`);
  // A widget the build could not draw (SmallDB: its first call opens a run
  // in the engine) shows that it is loading until it mounts.
  const loading = await page.evaluate(() => [...document.querySelectorAll('#lesson figure.widget')]
    .filter((fig) => fig.querySelector(':scope > .widget-body[aria-busy] > .widget-loading')).map((fig) => fig.id));
  const said = [];
  for (const id of loading) said.push(...await axControls(cdp, `#${id}`, ['StaticText']));
  // The drawings' controls are exposed now: axe checks them as they are at load.
  f.none(await violations(page, { include: ['#lesson'] }), `${where}: axe at load, before the engine`);
  return async () => {
    const later = await axControls(cdp);
    const excused = [];
    for (const id of loading) {
      f.ok(said.some((t) => /Loading the interactive part/.test(t)), `${where} #${id}: its controls are missing at load and it does not say it is loading`);
      excused.push(...await axControls(cdp, `#${id}`));
    }
    f.none(missing(missing(later, atLoad), excused), `${where}: controls missing from the accessibility tree at load`);
    const sliders = await page.locator('#lesson figure.widget:not(:is(' + (loading.map((id) => `#${id}`).join(',') || '#none') + ')) input[type=range]')
      .evaluateAll((xs) => xs.filter((x) => x.checkVisibility()).length);
    const n = (list, role) => list.filter((x) => x.startsWith(`${role}:`)).length;
    f.ok(n(atLoad, 'slider') === sliders, `${where}: ${sliders} sliders on screen, ${n(atLoad, 'slider')} in the tree at load`);
    return `${atLoad.length} of ${later.length} controls at load (${n(atLoad, 'slider')} of ${n(later, 'slider')} sliders)${loading.length ? `; loading: ${loading.join(' ')}` : ''}`;
  };
}

// ---- The focus ring ----------------------------------------------------------

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

/** rings(page, f, where) notes every control whose focus ring fails, and too few controls checked; it returns how many it checked. */
async function rings(page, f, where) {
  await page.keyboard.press('Tab');
  const { checked, bad } = await page.evaluate(ringContrast);
  f.none(bad, `${where}: focus rings`);
  f.ok(checked > 10, `${where}: only ${checked} controls had their focus ring checked`);
  return checked;
}

// ---- Widgets on a phone --------------------------------------------------------

/** shownControls(page) counts each mounted widget's controls in view: its labelled boxes, sliders, selects, choices and fieldsets. */
const shownControls = (page) => page.locator('#lesson figure.widget').evaluateAll((fs) => fs.map((f) => {
  const seen = (e) => e.getClientRects().length > 0 && !e.closest('details:not([open])');
  const cs = [...f.querySelectorAll('.widget-body :is(.control, .neighbour-days fieldset)')].filter(seen);
  return { id: f.id, name: f.dataset.widget, n: cs.length, more: !!f.querySelector('.widget-body details.more-settings') };
}));

/** fewControls(page, f, where) notes a widget with more than four controls in view, and a "More settings" open on the lesson's own values. */
async function fewControls(page, f, where) {
  for (const w of await shownControls(page)) {
    // The auditor is another lesson's widget with its own layout.
    if (w.name !== 'audit') f.ok(w.n <= 4, `${where} ${w.id}: ${w.n} controls in view`);
  }
  const open = await page.locator('details.more-settings').evaluateAll((ds) => ds.filter((d) => d.open).length);
  f.ok(open === 0, `${where}: ${open} "More settings" open with the lesson's values`);
}

/** noKeyHints(page, f, where) notes a Keys button or key hints on a touch-only phone. */
async function noKeyHints(page, f, where) {
  f.ok(!(await page.locator('#keys-button').isVisible()), `${where}: Keys button shown on a touch-only phone`);
  const hints = await page.locator('figure.widget button kbd').evaluateAll((ks) => ks.filter((k) => k.offsetParent).length);
  f.ok(hints === 0, `${where}: ${hints} key hints on buttons`);
}

/**
 * sliderWithChart(page, f, where) scrolls as a student does, to each
 * widget's slider and then down to its chart, and notes a slider off screen
 * or covered, or a chart not on screen with it. It returns what it measured.
 */
async function sliderWithChart(page, f, where) {
  const measured = [];
  const ids = await page.locator('figure.widget').evaluateAll((fs) => fs
    .filter((fig) => fig.querySelector('.control-slider') && fig.querySelector('.chart-svg svg, .machine-host'))
    .map((fig) => fig.id));
  for (const id of ids) {
    await live(page, `#${id}`);
    await page.locator(`#${id} .control-slider input[type=range]`).first().scrollIntoViewIfNeeded();
    await page.locator(`#${id} :is(.chart-svg svg, .machine-host)`).first().evaluate((c) => c.scrollIntoView({ block: 'end' }));
    const r = await page.evaluate(async (id) => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const fig = document.getElementById(id);
      const slider = fig.querySelector('.control-slider input[type=range]');
      const chart = fig.querySelector('.chart-svg svg, .machine-host');
      const s = slider.getBoundingClientRect(), c = chart.getBoundingClientRect();
      const hit = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
      return { sTop: s.top, sBottom: s.bottom, cTop: c.top, cBottom: c.bottom, h: innerHeight, uncovered: hit === slider };
    }, id);
    const at = `${where} #${id}`;
    f.ok(r.sTop >= 0 && r.sBottom <= r.h, `${at}: slider off screen (${Math.round(r.sTop)}..${Math.round(r.sBottom)})`);
    f.ok(r.uncovered, `${at}: slider covered`);
    f.ok(r.cTop >= r.sBottom - 1 && r.cBottom <= r.h + 1, `${at}: chart ${Math.round(r.cTop)}..${Math.round(r.cBottom)} not on screen with the slider`);
    measured.push(`#${id}: slider ${Math.round(r.sTop)}, chart ${Math.round(r.cTop)}..${Math.round(r.cBottom)}`);
  }
  return measured;
}

/** dropDowns(page, f, where, width) notes a drop-down whose chosen text is cut off, or that lies past its widget or the screen. */
async function dropDowns(page, f, where, width) {
  f.none(await page.locator('figure.widget .controls select, figure.widget .slider-dock select').evaluateAll((ss) => {
    const ctx = document.createElement('canvas').getContext('2d');
    return ss.filter((s) => s.offsetParent).flatMap((s) => {
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const text = s.options[s.selectedIndex]?.textContent || '';
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      return ctx.measureText(text).width > room ? [`${s.id}: “${text}”`] : [];
    });
  }), `${where}: cut-off drop-downs`);
  // A mobile viewport widens to fit what overflows it, so the phone's width bounds them too.
  f.none(await page.locator('figure.widget select').evaluateAll((ss, w) => ss
    .filter((s) => s.offsetParent)
    .flatMap((s) => {
      const b = s.getBoundingClientRect(), fig = s.closest('figure').getBoundingClientRect();
      return b.left < Math.max(fig.left, 0) || b.right > Math.min(fig.right, w) ? [`${s.id}: ${Math.round(b.left)}..${Math.round(b.right)}`] : [];
    }), width), `${where}: drop-downs past the widget's edge`);
}

/**
 * primaryWithChart(page, f, where) scrolls each widget to the top of the
 * screen and notes one whose primary control and main chart do not fit on
 * one screen below the top bar, and an action-row label broken from its
 * control. It returns each widget's height and span in screens.
 */
async function primaryWithChart(page, f, where) {
  const rows = [];
  const ids = await page.locator('#lesson figure.widget').evaluateAll((fs) => fs.map((fig) => fig.id));
  for (const id of ids) {
    const r = await page.evaluate(async (id) => {
      const fig = document.getElementById(id);
      fig.scrollIntoView({ block: 'start' });
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const first = fig.querySelector('.widget-body :is(.slider-dock .control, .control)');
      const main = fig.querySelector('.widget-body .widget-main :is(.chart-svg svg, table), .widget-body .widget-main.machine-host, .widget-body .widget-main.budget-meter, .widget-body .widget-main.fp-stat');
      const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
      const a = first?.getBoundingClientRect(), c = main?.getBoundingClientRect();
      return { name: fig.dataset.widget, h: fig.getBoundingClientRect().height, top, screen: innerHeight, span: a && c ? Math.max(a.bottom, c.bottom) - Math.min(a.top, c.top) : null, main: !!main, first: !!first };
    }, id);
    if (r.name === 'classrun') continue;
    rows.push(`#${id} (${r.name}): ${(r.h / r.screen).toFixed(2)} screens tall; primary control to chart ${r.span === null ? '–' : (r.span / r.screen).toFixed(2)}`);
    // The auditor keeps its own layout; SmallDB's chart comes at stage 5; a
    // challenge has no chart, its answer is the student's own output.
    if (r.name === 'audit' || r.name === 'smalldb' || r.name === 'challenge') continue;
    f.ok(r.main, `${where} #${id}: no main chart or readout marked`);
    if (r.first) f.ok(r.span <= r.screen - r.top, `${where} #${id}: primary control and chart span ${Math.round(r.span)}px, more than a ${r.screen - Math.round(r.top)}px screen`);
  }
  // The action row: every label on one line, on the line of its control.
  f.none(await page.locator('.export-figure label').evaluateAll((ls) => ls.filter((l) => l.getClientRects().length).flatMap((l) => {
    const b = l.getBoundingClientRect(), c = document.getElementById(l.htmlFor).getBoundingClientRect();
    const lh = parseFloat(getComputedStyle(l).lineHeight) || 1.55 * parseFloat(getComputedStyle(l).fontSize);
    return b.height > lh * 1.2 || b.bottom < c.top || b.top > c.bottom ? [`${l.textContent}: label ${Math.round(b.top)}–${Math.round(b.bottom)}, control ${Math.round(c.top)}–${Math.round(c.bottom)}`] : [];
  })), `${where}: the action row breaks a label from its control`);
  return rows;
}

// ---- The settings --------------------------------------------------------------

// What the sweep measured, printed at its end.
const report = { controls: [], rings: [], sliders: [], widgets: [] };

/** desktop(slug) is the page at 1280 × 900, light then dark, then at 1920 × 1080. */
async function desktop(slug) {
  const where = `${name(slug)} at 1280 px`;
  const f = findings();
  const opened = await open(slug, { width: 1280, height: 900, held: ['**/app.js', '**/*.wasm'] });
  const { page, context } = opened;
  const pre = isLesson(slug) ? await built(page) : [];
  opened.release('**/app.js');
  await page.waitForFunction((s) => document.body.dataset.lessonReady === s, slug || 'home');
  const afterEngine = await beforeEngine(page, context, f, where);
  opened.release('**/*.wasm');
  await shown(page, slug);
  report.controls.push(`${name(slug)}: ${await afterEngine()}`);
  if (isLesson(slug)) {
    samePictures(f, pre, await drawn(page), where);
    const figures = await page.locator('figure.widget').count();
    f.ok(figures > 0, `${where}: no widgets`);
    f.ok(await page.locator('figure.widget .widget-error:not(:empty)').count() === 0, `${where}: widget errors shown`);
    await fewControls(page, f, where);
  }
  await audit(page, f, `${where} (light)`);
  const by = await sideways(page);
  f.ok(by <= 0, `${where} scrolls sideways by ${by}px`);
  const lit = await rings(page, f, `${where} (light)`);
  if (slug === 'exponential-mechanism') {
    await page.locator('#w-meet input[type=range]').focus();
    await shoot(page, 'a11y-focus-light.png');
  }
  await widgetShots(page, slug, 1280);
  if (isLesson(slug)) await page.evaluate(() => document.querySelector('figure.widget').scrollIntoView());
  await shoot(page, `${name(slug)}-1280.png`);
  await dark(page, f, where);
  const darkRings = await rings(page, f, `${where} (dark)`);
  report.rings.push(`${name(slug)}: ${lit} light, ${darkRings} dark`);
  if (slug === 'exponential-mechanism') {
    await page.locator('#w-meet input[type=range]').focus();
    await shoot(page, 'a11y-focus-dark.png');
  }
  if (!slug) await shoot(page, 'landing-1280-dark.png');
  // The projector's width.
  await page.emulateMedia({ colorScheme: 'light' });
  await resize(page, { width: 1920, height: 1080 });
  const wide = `${name(slug)} at 1920 px`;
  const by1920 = await sideways(page);
  f.ok(by1920 <= 0, `${wide} scrolls sideways by ${by1920}px`);
  await audit(page, f, `${wide} (light)`);
  if (!slug || ['laplace-from-exponential', 'report-noisy-max', 'exponential-mechanism', 'private-pricing'].includes(slug)) {
    await page.evaluate(() => {
      document.querySelectorAll('details:not(.notes)').forEach((d) => { d.open = false; });
      document.querySelector('figure.widget')?.scrollIntoView({ block: 'start' });
    });
    await shoot(page, slug ? `widgets-${slug}-1920.png` : 'landing-1920-light.png');
  }
  await finish(opened, f, where);
}

/**
 * phone(slug) is the page on a touch phone: loaded 390 × 800 px, turned to
 * 360 × 800 and to 390 × 844, then audited at 390 and at 360 (a fresh load at
 * a narrow width is narrow's, at 320 px). Sliders and drop-downs are
 * measured before any audit opens the disclosures.
 */
async function phone(slug) {
  const where = `${name(slug)} at 390 px`;
  const narrower = `${name(slug)} at 360 px`;
  const f = findings();
  const lesson = isLesson(slug);
  const opened = await open(slug, { width: 390, height: 800, hasTouch: true, isMobile: true, held: lesson ? ['**/app.js'] : [] });
  const { page } = opened;
  const pre = lesson ? await built(page) : [];
  if (lesson) opened.release('**/app.js');
  await ready(page, slug || 'home');
  await noKeyHints(page, f, where);
  if (lesson) {
    report.sliders.push(...(await sliderWithChart(page, f, where)).map((m) => `${name(slug)}@390 ${m}`));
    await everyLive(page, 60000);
    await dropDowns(page, f, where, 390);
    samePictures(f, pre, await drawn(page), where);
    await resize(page, { width: 360, height: 800 });
    report.sliders.push(...(await sliderWithChart(page, f, narrower)).map((m) => `${name(slug)}@360 ${m}`));
    await dropDowns(page, f, narrower, 360);
  }
  await resize(page, { width: 390, height: 844 });
  if (lesson) {
    await fewControls(page, f, where);
    report.widgets.push(...(await primaryWithChart(page, f, where)).map((r) => `${slug}${r}`));
  }
  await audit(page, f, `${where} (light)`);
  const by = await sideways(page);
  f.ok(by <= 0, `${where} scrolls sideways by ${by}px`);
  await page.evaluate(() => {
    document.querySelectorAll('details:not(.notes)').forEach((d) => { d.open = false; });
    document.querySelector('figure.widget')?.scrollIntoView({ block: 'start' });
  });
  if (!slug) await shoot(page, 'landing-390-light.png', { fullPage: true });
  await widgetShots(page, slug, 390);
  if (slug === 'exponential-mechanism') await shoot(page, 'ux-phone-390.png');
  if (['laplace-from-exponential', 'report-noisy-max', 'exponential-mechanism', 'private-pricing'].includes(slug)) await shoot(page, `widgets-${slug}-390.png`);
  await dark(page, f, where);
  if (!slug) await shoot(page, 'landing-390-dark.png', { fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await resize(page, { width: 360, height: 800 });
  await audit(page, f, `${narrower} (light)`);
  const by360 = await sideways(page);
  f.ok(by360 <= 0, `${narrower} scrolls sideways by ${by360}px`);
  await dark(page, f, narrower);
  await finish(opened, f, where);
}

/** narrow(slug) is the page in a 320 × 640 window, then 390 × 844, without touch. */
async function narrow(slug) {
  const where = `${name(slug)} at 320 px`;
  const f = findings();
  const opened = await open(slug, { width: 320, height: 640 });
  const { page } = opened;
  await ready(page, slug || 'home');
  if (await page.locator('#lesson figure.widget').count()) await everyLive(page, 60000);
  const r = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: innerWidth,
    cut: [...document.querySelectorAll('.topbar a, .topbar button')].filter((e) => e.checkVisibility())
      .map((e) => ({ e: e.id || e.className, b: e.getBoundingClientRect() }))
      .filter(({ b }) => b.left < 0 || b.right > innerWidth).map(({ e, b }) => `${e}: ${Math.round(b.left)}..${Math.round(b.right)}`),
    // Radio buttons keep their size when their label wraps.
    shrunk: [...document.querySelectorAll('input[type=radio]')].filter((x) => x.checkVisibility())
      .map((x) => x.getBoundingClientRect()).filter((b) => Math.abs(b.width - b.height) > 0.5).length,
  }));
  f.ok(r.scroll <= r.width, `${where}: ${r.scroll} px wide at ${r.width}`);
  f.none(r.cut, `${where}: top bar cut off`);
  f.ok(r.shrunk === 0, `${where}: ${r.shrunk} radio buttons squeezed`);
  if (slug === '' || slug === 'exponential-mechanism') await shoot(page, `a11y-320-${name(slug)}.png`);
  // A window 390 px wide without touch, every disclosure open.
  await resize(page, { width: 390, height: 844 });
  await openDetails(page);
  const by = await sideways(page);
  f.ok(by <= 0, `${name(slug)} at 390 px without touch scrolls sideways by ${by}px`);
  await page.evaluate(() => document.querySelector('figure.widget')?.scrollIntoView());
  await shoot(page, `${name(slug)}-390.png`);
  await finish(opened, f, where);
}

/**
 * noScript(slug) reads the lesson with JavaScript off, loaded at 390 px and
 * widened to 1280: what needs layout (e2e/dist checks the markup).
 */
async function noScript(slug) {
  const f = findings();
  const context = await web.browser.newContext({ viewport: { width: 390, height: 900 }, javaScriptEnabled: false });
  const page = await context.newPage();
  const res = await page.goto(`${web.server.url}${slug}/`);
  f.ok(res.status() === 200, `${slug} without JavaScript: status ${res.status()}`);
  for (const width of [390, 1280]) {
    const where = `${slug} at ${width} px without JavaScript`;
    await page.setViewportSize({ width, height: 900 });
    const seen = await page.evaluate(() => {
      const visible = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      const figs = [...document.querySelectorAll('#lesson figure.widget')];
      return {
        figures: figs.length,
        noted: figs.filter((fig) => visible(fig.querySelector('.widget-noscript'))).length,
        charts: [...document.querySelectorAll('#lesson .chart-svg svg')].filter(visible).length,
        cards: [...document.querySelectorAll('#lesson figure.widget img.widget-card')].filter((i) => visible(i) && i.complete && i.naturalWidth === 1200).length,
        maths: [...document.querySelectorAll('#lesson math')].filter(visible).length,
        allMaths: document.querySelectorAll('#lesson math').length,
        exercises: [...document.querySelectorAll('#lesson section.exercise')].filter((s) => visible(s) && s.innerText.length > 40 && visible(s.querySelector('.exercise-noscript'))).length,
        allExercises: document.querySelectorAll('#lesson section.exercise').length,
        reveals: [...document.querySelectorAll('#lesson .reveal')].filter(visible).length,
        allReveals: document.querySelectorAll('#lesson .reveal').length,
        loading: visible(document.querySelector('.engine')) || [...document.querySelectorAll('.widget-loading')].some(visible),
        // The page scrolls sideways, apart from the predictions'
        // explanations, which a reader with JavaScript sees after Reveal
        // (one long inline formula in a small database's is wider than a
        // phone).
        sideways: (() => {
          for (const r of document.querySelectorAll('.reveal')) r.style.display = 'none';
          const by = document.documentElement.scrollWidth - document.documentElement.clientWidth;
          for (const r of document.querySelectorAll('.reveal')) r.style.display = '';
          return by;
        })(),
      };
    });
    f.ok(seen.noted === seen.figures, `${where}: ${seen.figures - seen.noted} widgets do not say their controls need JavaScript`);
    f.ok(seen.charts >= 1 || seen.cards >= 1, `${where}: no pre-rendered chart (or, for a widget the build cannot pre-render, its figure) on show`);
    f.ok(seen.maths === seen.allMaths && seen.maths > 0, `${where}: ${seen.maths} of ${seen.allMaths} formulas on show`);
    f.ok(seen.exercises === seen.allExercises, `${where}: ${seen.exercises} of ${seen.allExercises} exercises show their question and note`);
    f.ok(seen.reveals === seen.allReveals, `${where}: ${seen.reveals} of ${seen.allReveals} predictions' explanations on show`);
    f.ok(!seen.loading, `${where}: something says it is loading`);
    f.ok(seen.sideways <= 0, `${where}: scrolls sideways by ${seen.sideways} px`);
    if (slug === 'exponential-mechanism') await shoot(page, `nojs-${slug}-${width}.png`, { fullPage: width < 500 });
  }
  await context.close();
  assert.deepEqual(f.list, [], slug);
}

// Heavier settings first within each page, the pages in course order: two
// pages at a time (PAGES), each in its own context of the run's one browser.
describe('every page, once per setting', { concurrency: Number(process.env.PAGES || 2) }, () => {
  for (const slug of pages) {
    test(`${name(slug)}: desktop, light and dark, 1280 and 1920 px`, () => desktop(slug));
    test(`${name(slug)}: a phone 390 then 360 px wide`, () => phone(slug));
    test(`${name(slug)}: a window 320 then 390 px wide`, () => narrow(slug));
    if (isLesson(slug)) test(`${name(slug)}: without JavaScript, 390 and 1280 px`, () => noScript(slug));
  }
  // The site's other pages at 320 px: the lecture's join form (a phone's
  // first view), the handout, the machine and the 404 page.
  for (const [url, sel] of [['lecture.html', '#lecture-status'], ['lecture.html?join=ABCD-1234', '#lecture-status'], ['handout/', 'article.lesson'],
    ['machine.html', 'canvas'], ['404.html', 'h1']]) {
    test(`${url} at 320 px`, async () => {
      const context = await web.browser.newContext({ viewport: { width: 320, height: 640 }, serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(web.server.url + url);
      await page.locator(sel).first().waitFor({ state: 'attached' });
      const r = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
      await context.close();
      assert.ok(r.scroll <= r.width, `${url}: ${r.scroll} px wide at ${r.width}`);
    });
  }
});

test('the sweep measured every widget it should', () => {
  assert.ok(report.sliders.length >= 2 * 12, `too few sliders measured with their charts: ${report.sliders.length}`);
  console.log(`controls in the accessibility tree at load:\n${report.controls.join('\n')}`);
  console.log(`focus rings checked: ${report.rings.join(', ')}`);
  console.log(`sliders with their charts:\n${report.sliders.join('\n')}`);
  console.log(`widgets at 390×844:\n${report.widgets.join('\n')}`);
});
