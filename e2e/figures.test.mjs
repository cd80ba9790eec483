// Export a figure from the page: the lazily loaded figures module
// (wasm/figures, gonum/plot) renders the widget's current state, and the
// download has the same bytes as `dpplay figures -state` for that state.
// Uses the browser harness of e2e/web (not modified). Needs dist/ built with
// the figures module (dist/wasm/figures.wasm): see docs/figures.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launch, watch, ready } from './web/browser.mjs';
import { downloaded, dpplayBin, idle, site } from './web/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.DIST || path.join(root, 'dist');

let server, browser;
before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'wasm', 'figures.wasm')),
    `${dist}/wasm/figures.wasm is missing: build the site with the figures module (docs/figures.md)`);
  server = await site();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** exportOnce clicks a widget's Export button and returns the download's name and bytes. */
async function exportOnce(page, fig, format, figure) {
  const box = fig.locator('.export-figure:has(.export-button)');
  if (figure) await box.locator('select[id$="-figure"]').selectOption(figure);
  await box.locator('select[id$="-format"]').selectOption(format);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60000 }),
    box.locator('.export-button').click(),
  ]);
  return { name: download.suggestedFilename(), bytes: await downloaded(download) };
}

function cliFigures(args) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-fig-'));
  const out = JSON.parse(execFileSync(dpplayBin(), ['figures', '-out', tmp, ...args], { cwd: root, encoding: 'utf8' }));
  return { dir: tmp, ...out };
}

test('Export figure renders the widget state as SVG, PNG and PDF, identical to the CLI', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', acceptDownloads: true });
  const page = await context.newPage();
  const errors = watch(page);
  await page.goto(server.url + 'exponential-mechanism/#meet.eps=0.7&meet.seed=42&meet.step=3');
  await ready(page, 'exponential-mechanism');
  const fig = page.locator('figure.widget[data-id="meet"]');
  await fig.locator('.export-figure .export-button').waitFor({ timeout: 10000 });
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /meet\.eps=0\.7/);
  // The CLI takes the page's own link.
  const cli = cliFigures(['-format', 'svg,png,pdf', '-state', hash]);
  assert.equal(cli.links["lesson2-meet"].includes('meet.eps=0.7'), true);

  const timings = {};
  for (const format of ['svg', 'png', 'pdf']) {
    const t0 = Date.now();
    const got = await exportOnce(page, fig, format);
    timings[format] = Date.now() - t0;
    assert.equal(got.name, `lesson2-meet-histogram.${format}`);
    const want = fs.readFileSync(path.join(cli.dir, got.name));
    assert.ok(got.bytes.equals(want), `${format}: the page's export differs from dpplay figures -state '${hash}'`);
    await page.waitForFunction(() => /Saved/.test(document.querySelector('figure.widget[data-id="meet"] .export-status').textContent));
  }
  console.log(`figures export: first (download + start + svg) ${timings.svg} ms, png ${timings.png} ms, pdf ${timings.pdf} ms`);
  assert.deepEqual(errors, []);
  await context.close();
});

// Every chart in every lesson exports, at the lesson's opening state, the
// same SVG as `dpplay figures` draws from the lesson files: the Go charts'
// parameters and defaults agree with the widgets' schemas.
test('every chart of every lesson exports the same figure as dpplay figures', async () => {
  const cli = cliFigures(['-format', 'svg']);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', acceptDownloads: true });
  const page = await context.newPage();
  const errors = watch(page);
  await page.goto(server.url);
  const slugs = await page.evaluate(() => JSON.parse(document.getElementById('site-index').textContent).lessons.map((l) => l.slug));
  let exported = 0;
  const lessonsWithCharts = new Set();
  // From lesson to lesson as a reader goes, by the lesson list, in one
  // document: the figures module is loaded once, not once a lesson.
  await page.goto(server.url + slugs[0] + '/');
  for (const slug of slugs) {
    if (slug !== slugs[0]) await page.locator(`#lesson-nav a[data-slug="${slug}"]`).click();
    await ready(page, slug);
    const widgets = await page.locator('figure.widget[data-figures]:not([data-figures=""])').evaluateAll((els) => els.map((e) => ({ id: e.dataset.id, figures: e.dataset.figures.split(',') })));
    for (const w of widgets) {
      const fig = page.locator(`figure.widget[data-id="${w.id}"]`);
      await idle(page, `figure.widget[data-id="${w.id}"]`);
      await fig.locator('.export-figure .export-button').waitFor({ timeout: 10000 });
      for (const name of w.figures) {
        const got = await exportOnce(page, fig, 'svg', w.figures.length > 1 ? name : '');
        assert.match(got.name, new RegExp(`^lesson\\d+-${w.id}-${name}\\.svg$`));
        const file = path.join(cli.dir, got.name);
        assert.ok(fs.existsSync(file), `dpplay figures did not write ${got.name}`);
        assert.ok(got.bytes.equals(fs.readFileSync(file)), `${slug}: ${got.name} from the page differs from dpplay figures`);
        exported++;
        lessonsWithCharts.add(slug);
      }
    }
  }
  console.log(`figures export: ${exported} figures from ${lessonsWithCharts.size} lessons match the CLI`);
  assert.equal(lessonsWithCharts.size, slugs.length, 'every lesson has at least one exportable chart');
  assert.deepEqual(errors, []);
  await context.close();
});

// A link with more digits than a widget keeps (ε with 3 significant digits)
// draws the same figure in the page and on the command line: both round as
// the URL does, so 1.23456 is 1.23 on either side.
test('a figure equals the page when digits rounding matters', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', acceptDownloads: true });
  const page = await context.newPage();
  const errors = watch(page);
  const link = 'what-epsilon-promises/#band.eps=1.23456&band.seed=5&band.step=2';
  await page.goto(server.url + link);
  await ready(page, 'what-epsilon-promises');
  const fig = page.locator('figure.widget[data-id="band"]');
  await fig.locator('.export-figure .export-button').waitFor({ timeout: 10000 });
  const got = await exportOnce(page, fig, 'svg', 'logratio');
  const cli = cliFigures(['-format', 'svg', '-state', link]);
  // The CLI names a link lessonN-id, N the lesson's order.
  const band = Object.entries(cli.links).find(([k]) => k.endsWith('-band'))?.[1];
  assert.match(band, /band\.eps=1\.23(&|$)/);
  assert.ok(got.bytes.equals(fs.readFileSync(path.join(cli.dir, got.name))), `${got.name} from the page differs from dpplay figures -state '${link}'`);
  assert.deepEqual(errors, []);
  await context.close();
});
