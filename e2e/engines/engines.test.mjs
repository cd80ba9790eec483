// The site in the two engines besides Chromium that students read in:
// Firefox ESR and WebKit (drivers.mjs). In each, one browser for the run:
// every page loads and its engine starts; a slider moves its chart; an
// exercise says ✗ and ✓; a widget framed by another site draws and answers
// the parent's dpplay:set; a phone joins a live lecture and sends an answer.
// Any console error or uncaught exception fails the check it happened in.
// The site is a copy of dist/ with the error probe in its pages
// (stage.mjs), served by `dpplay serve`. The two engines run side by side.
// Needs `make site` and, for the engines, scripts/setup.sh.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dist, dpplayBin, shoot, siteIndex } from '../web/harness.mjs';
import { embedAddress, iframeSnippet } from '../../web/embed/embedlink.js';
import { ENGINES } from './drivers.mjs';
import { dpplayServe, otherSite, probeCopy } from './stage.mjs';

const LESSON = 'exponential-mechanism';
const WIDGET = { slug: LESSON, id: 'meet', title: 'Choosing a meeting day' };

let tmp, site, other;
before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `${dist}/index.html is missing: run make site`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-engines-'));
  const copy = path.join(tmp, 'site');
  probeCopy(dist, copy);
  site = await dpplayServe(dpplayBin(), copy, path.join(tmp, 'lecture.db'));
  other = await otherSite();
});
after(async () => {
  site?.stop();
  await other?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// ---- What the page shows, read in the page ------------------------------
// Each runs in the browser: self-contained, and never throws. Those that
// tell a page has started are true once it has, {failed: why} once the page
// says it cannot, and false until then.

/** lessonStarted(slug) is whether lesson (or landing page) slug is shown and the engine is ready (as e2e/web/browser.mjs ready()). */
function lessonStarted(slug) {
  const b = document.body;
  if (b?.classList.contains('engine-failed')) return { failed: 'the engine failed to start (body.engine-failed)' };
  return !!b && b.dataset.lessonReady === slug && b.classList.contains('engine-ready');
}

/** embedStarted(id) is whether the embed page has mounted widget id, drawn it, and its engine is ready. */
function embedStarted(id) {
  const b = document.body;
  if (b?.classList.contains('engine-failed')) return { failed: 'the engine failed to start (body.engine-failed)' };
  return !!b && b.dataset.embedReady === id && b.classList.contains('engine-ready') && !!document.querySelector('figure.widget svg');
}

/** joinFormShown() is whether the lecture page shows a student's form for the join code. */
function joinFormShown() {
  return document.body?.dataset.view === 'student' && !!document.getElementById('code');
}

/**
 * machineRunning() is whether the sampling machine's WebAssembly module has
 * started; when the machine reports a problem instead, {failed, webgl2}
 * says whether this browser can make the WebGL2 context the machine draws in.
 */
function machineRunning() {
  if (document.body?.classList.contains('running')) return true;
  const said = document.getElementById('live')?.textContent || '';
  if (!/reported a problem/.test(said)) return false;
  return { failed: said, webgl2: !!document.createElement('canvas').getContext('webgl2') };
}

/** handoutShown() is whether the handout (a page without scripts) has loaded its text. */
function handoutShown() {
  return document.readyState === 'complete' && !!document.querySelector('main h1, h1');
}

/** notFoundShown() is whether the 404 page has loaded and its script has pointed its link at this server's root. */
function notFoundShown() {
  return document.readyState === 'complete' && document.getElementById('home')?.getAttribute('href') === '/';
}

/** widgetErrors() is the text of every widget's error box that is not empty. */
function widgetErrors() {
  return [...document.querySelectorAll('figure.widget .widget-error')].map((e) => e.textContent.trim()).filter(Boolean);
}

/**
 * widgetDrawn(sel) is whether widget sel has mounted (not its pre-rendered
 * drawing), has no pending work and has drawn its chart: a chart is drawn
 * at its container's width, once that is known, after the widget's first
 * render.
 */
function widgetDrawn(sel) {
  const fig = document.querySelector(sel);
  const body = fig?.querySelector('.widget-body');
  return !!body && !body.hasAttribute('aria-busy') && !body.hasAttribute('data-prerendered') && !!fig.dataset.renders && !fig.dataset.busy &&
    !!fig.querySelector('svg desc')?.textContent;
}

/** chart(sel) is what widget sel shows: its redraws, its slider's value, its chart's description and its data table's text. */
function chart(sel) {
  const fig = document.querySelector(sel);
  return {
    renders: +(fig?.dataset.renders || 0),
    value: fig?.querySelector('input[type=range]')?.getAttribute('aria-valuetext') || '',
    desc: fig?.querySelector('svg desc')?.textContent || '',
    table: fig?.querySelector('.data-table table')?.textContent || '',
  };
}

/** redrawn(sel, was) is what widget sel shows once it has redrawn since `was` (chart()) with a new description or table, else false. */
function redrawn(sel, was) {
  const fig = document.querySelector(sel);
  if (!fig || +fig.dataset.renders <= was.renders || fig.dataset.busy) return false;
  const desc = fig.querySelector('svg desc')?.textContent || '';
  const table = fig.querySelector('.data-table table')?.textContent || '';
  return desc !== was.desc || table !== was.table ? { value: fig.querySelector('input[type=range]')?.getAttribute('aria-valuetext') } : false;
}

/** exercises() is every exercise of the lesson shown: its id and its data-params. */
function exercises() {
  return [...document.querySelectorAll('#lesson section.exercise')].map((s) => ({ id: s.id, params: JSON.parse(s.dataset.params), result: s.querySelector('.exercise-result').textContent }));
}

/** verdict(id, mark) is whether exercise id's result starts with mark. */
function verdict(id, mark) {
  return document.getElementById(id)?.querySelector('.exercise-result').textContent.startsWith(mark);
}

// ---- Checks, each written once for every engine ---------------------------

/**
 * within(d, page, check, body) runs body, and names the engine, the page
 * and the check in any failure of it; then it fails on the errors the page
 * reported meanwhile.
 */
async function within(d, page, check, body) {
  try {
    await body();
  } catch (err) {
    const errors = await d.errors().catch(() => []);
    err.message = `${d.name} ${page}: ${check}: ${err.message}${errors.length ? `\n  errors reported: ${errors.join('\n  ')}` : ''}`;
    throw err;
  }
  assert.deepEqual(await d.errors(), [], `${d.name} ${page}: ${check}: errors reported`);
}

/** pages() is every page of the site: its address below the root, how to tell it has started, and whether it runs the probe. */
function pages() {
  const index = siteIndex();
  const embed = new URL(embedAddress('http://x/', WIDGET.slug, WIDGET.id, {}));
  return [
    ...index.lessons.map((l) => ({ url: `${l.slug}/`, started: lessonStarted, args: [l.slug], lesson: true })),
    { url: '', started: lessonStarted, args: ['home'] },
    ...(index.pages || []).map((p) => ({ url: `${p.slug}/`, started: lessonStarted, args: [p.slug] })),
    // The handout's policy allows no script at all: no probe either.
    { url: 'handout/', started: handoutShown, probe: false },
    { url: 'lecture.html', started: joinFormShown },
    { url: 'machine.html', started: machineRunning },
    { url: embed.pathname.slice(1) + embed.hash, started: embedStarted, args: [WIDGET.id] },
    { url: 'no-such-page/', started: notFoundShown },
  ];
}

/**
 * everyPage(d, t) opens each page of the site and waits until it has
 * started; it fails on every page that did not, after trying them all, and
 * notes in t how long each page took.
 */
async function everyPage(d, t) {
  const failed = [];
  const took = [];
  for (const p of pages()) {
    const start = Date.now();
    await within(d, `/${p.url}`, 'loads and starts', async () => {
      await d.open(site.url + p.url, { probe: p.probe !== false });
      const started = await d.waitFor(p.started, p.args, { what: `${p.started.name}(${(p.args || []).join(', ')})` });
      // Headless Firefox has no WebGL here (no GPU, no software GL): a
      // machine that says so has not crashed, but it has not started either.
      if (started.webgl2 === false) t.diagnostic(`${d.name} /${p.url}: not started, this browser has no WebGL2; the page says “${started.failed}”`);
      else assert.equal(started, true, `the page says it failed: ${started.failed}`);
      if (p.lesson) assert.deepEqual(await d.evaluate(widgetErrors), [], 'widget errors shown');
    }).catch((err) => failed.push(err.message));
    took.push(`/${p.url.split('#')[0]} ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
  t.diagnostic(`${d.name}: ${took.join(', ')}`);
  assert.equal(failed.length, 0, failed.join('\n'));
}

/** slider(d) moves the meeting-day widget's ε one step with ArrowRight and sees its chart change. */
async function slider(d) {
  const w = `#w-${WIDGET.id}`;
  await within(d, `/${LESSON}/`, 'a slider moves its chart', async () => {
    await d.open(`${site.url}${LESSON}/`, { width: 1280, height: 900 });
    assert.equal(await d.waitFor(lessonStarted, [LESSON], { what: 'the lesson to start' }), true, 'the lesson started');
    await shoot(d, `engines-${d.name}-${LESSON}-1280-top.png`);
    await d.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'center' }), w);
    await d.waitFor(widgetDrawn, [w], { what: `${w} to mount and draw its chart` });
    const was = await d.evaluate(chart, w);
    assert.ok(was.desc && was.table && was.value, `${w} shows a chart, a table and a value: ${JSON.stringify(was)}`);
    await d.press(`${w} input[type=range]`, 'ArrowRight');
    const now = await d.waitFor(redrawn, [w, was], { what: `${w} to redraw with a new description or table after ArrowRight` });
    assert.notEqual(now.value, was.value, 'the slider\'s value moved');
    await shoot(d, `engines-${d.name}-${LESSON}-1280-widget.png`);
  });
}

/** exercise(d) answers each exercise of the lesson, on a phone, with its wrong example (✗) and then its right one (✓). */
async function exercise(d) {
  await within(d, `/${LESSON}/`, 'an exercise is checked', async () => {
    await d.open(`${site.url}${LESSON}/`, { width: 390, height: 844 });
    assert.equal(await d.waitFor(lessonStarted, [LESSON], { what: 'the lesson to start' }), true, 'the lesson started');
    await shoot(d, `engines-${d.name}-${LESSON}-390-top.png`);
    const all = await d.evaluate(exercises);
    assert.ok(all.length > 0, 'the lesson has exercises');
    for (const ex of all) {
      // A fresh browser has no answer kept: each verdict below is the answer's own.
      assert.equal(ex.result, '', `${ex.id} shows no verdict before an answer`);
      for (const [value, mark] of [[ex.params['example-wrong'], '✗'], [ex.params['example-right'], '✓']]) {
        await d.fill(`#${ex.id} input`, String(value));
        await d.click(`#${ex.id} button[type=submit]`);
        await d.waitFor(verdict, [ex.id, mark], { what: `${ex.id} to say ${mark} to ${value}` });
      }
    }
    await d.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'center' }), all.at(-1).id);
    await shoot(d, `engines-${d.name}-${LESSON}-390-exercise.png`);
  });
}

/**
 * hostPage(name, snippet, origin) is a course page of the other site with
 * the embed snippet and a script that keeps every message of the frame
 * (dpplay:state, the probe's reports) in window.host, with host.ask() to
 * ask the frame's probe and host.set(params) to send dpplay:set.
 */
function hostPage(name, snippet, origin) {
  return other.page(name, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>A course page</title></head>
<body><main><h1>Week 3: choosing privately</h1>${snippet}</main>
<script>
const origin = ${JSON.stringify(origin)};
const frame = () => document.querySelector('iframe').contentWindow;
window.host = { states: [], reports: [] };
addEventListener('message', (e) => {
  if (e.origin !== origin || e.source !== frame() || !e.data) return;
  if (e.data.type === 'dpplay:state') host.states.push(e.data);
  if (e.data.type === '__probe:report') host.reports.push(e.data);
});
// Until the frame has loaded the embed page it holds a blank document of
// this page's origin, to which a message for the site's origin cannot go.
const loaded = () => { try { return !frame().document; } catch { return true; } };
host.ask = () => { if (loaded()) frame().postMessage({ type: '__probe:ask' }, origin); };
host.set = (params) => frame().postMessage({ type: 'dpplay:set', params }, origin);
</script></body></html>`);
}

/** frameShows(want) asks the frame's probe again and is its newest report once that matches want (embedReady, eps), else false. */
function frameShows(want) {
  window.host.ask();
  const r = window.host.reports.at(-1);
  const s = r?.seen;
  return !!s && s.embedReady === want.embedReady && s.engineReady && s.renders > 0 && s.charts > 0 && (!want.eps || s.eps === want.eps) && r;
}

/** stateSaid(id, params) is whether the frame has sent a dpplay:state of widget id with each of params at its value. */
function stateSaid(id, params) {
  return window.host.states.some((s) => s.widget === id && Object.entries(params).every(([k, v]) => s.params?.[k] === v));
}

/** embed(d) frames a widget from another origin with the snippet embedlink.js writes; it draws and answers dpplay:set with dpplay:state. */
async function embed(d) {
  const origin = new URL(site.url).origin;
  const url = hostPage(`${d.name}.html`, iframeSnippet(embedAddress(site.url, WIDGET.slug, WIDGET.id, {}), WIDGET.title, 400), origin);
  await within(d, `${url} (framing /embed.html)`, 'an embed frame answers', async () => {
    await d.open(url, { width: 1280, height: 900, probe: false });
    await d.waitFor(frameShows, [{ embedReady: WIDGET.id }], { what: 'the frame\'s widget to mount, draw and start its engine' });
    await d.waitFor(stateSaid, [WIDGET.id, {}], { what: 'the frame\'s first dpplay:state' });
    await d.evaluate(() => window.host.set({ eps: 2 }));
    await d.waitFor(stateSaid, [WIDGET.id, { eps: '2' }], { what: 'a dpplay:state with eps=2 after dpplay:set' });
    const last = await d.waitFor(frameShows, [{ embedReady: WIDGET.id, eps: 'ε = 2' }], { what: 'the frame to show ε = 2' });
    assert.deepEqual(last.errors, [], 'errors in the frame');
  });
}

/**
 * session() starts a lecture session with a meeting-day activity through
 * the API, as the instructor's page does: {code, id, token}.
 */
async function session() {
  const post = async (p, body, token) => {
    const res = await fetch(`${site.url}api/${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
    assert.ok(res.ok, `POST /api/${p}: HTTP ${res.status} ${await res.clone().text()}`);
    return res.json();
  };
  const { code, instructor_token: token } = await post('sessions', {});
  const { id } = await post(`sessions/${code}/activities`, { kind: 'meeting-day', options: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], prompt: 'Which days could you come?' }, token);
  return { code, id, token };
}

/** participants(s) is how many students have answered s's activity, by the API. */
async function participants(s) {
  const res = await fetch(`${site.url}api/sessions/${s.code}/activities/${s.id}`);
  return (await res.json()).participants;
}

/** lecture(d) joins a fresh session on a 390 px phone, ticks a day and sends the answer. */
async function lecture(d) {
  await within(d, '/lecture.html?join=…', 'the phone sends an answer', async () => {
    const s = await session();
    await d.open(`${site.url}lecture.html?join=${s.code}`, { width: 390, height: 844 });
    await d.waitFor(() => !!document.querySelector('.lec-answer input[name=day]'), [], { what: 'the activity\'s form' });
    await d.click('.lec-answer input[name=day]');
    await d.click('.lec-answer button[type=submit]');
    await d.waitFor(() => /Answer sent/.test(document.querySelector('[data-sent]')?.textContent || ''), [], { what: '“Answer sent”' });
    assert.equal(await participants(s), 1, 'the server has the answer');
  });
}

describe('the site in Firefox ESR and WebKit', { concurrency: true }, () => {
  for (const [name, launch] of Object.entries(ENGINES)) {
    // One tab per engine: its checks run one after another.
    describe(name, { concurrency: 1 }, () => {
      let d;
      before(async () => { d = await launch(); });
      after(() => d?.close());
      it(`${name}: every page loads without an error and its engine starts`, (t) => everyPage(d, t));
      it(`${name}: a slider moves its chart`, () => slider(d));
      it(`${name}: an exercise says ✗ to its wrong example and ✓ to its right one`, () => exercise(d));
      it(`${name}: a widget framed by another site draws and answers dpplay:set`, () => embed(d));
      it(`${name}: a phone joins a live lecture and sends an answer`, () => lecture(d));
    });
  }
});
