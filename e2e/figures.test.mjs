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
import { serve } from './web/server.mjs';
import { launch, watch, ready } from './web/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.DIST || path.join(root, 'dist');

let server, browser;
before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'wasm', 'figures.wasm')),
    `${dist}/wasm/figures.wasm is missing: build the site with the figures module (docs/figures.md)`);
  server = await serve(dist, '/dpplay/');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('Export figure renders the widget state as SVG, PNG and PDF, identical to the CLI', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', acceptDownloads: true });
  const page = await context.newPage();
  const errors = watch(page);
  await page.goto(server.url + '#/exponential-mechanism?meet.eps=0.7&meet.seed=42&meet.step=3');
  await ready(page, 'exponential-mechanism');
  // The shell attaches "Export figure" to every widget.
  const fig = page.locator('figure.widget[data-id="meet"]');
  await fig.locator('.export-figure button').waitFor({ timeout: 10000 });
  const spec = await page.evaluate(async () => (await import('./export.js')).pageSpec(location.hash, 'meet'));
  assert.match(spec, /lesson=1/);
  assert.match(spec, /eps=0.7/);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-fig-'));
  const cli = JSON.parse(execFileSync('go', ['run', './cmd/dpplay', 'figures', '-out', tmp, '-format', 'svg,png,pdf', '-state', spec], { cwd: root, encoding: 'utf8' }));
  assert.equal(cli.files.length, 3);

  const timings = {};
  for (const format of ['svg', 'png', 'pdf']) {
    await fig.locator('.export-figure select').selectOption(format);
    const t0 = Date.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60000 }),
      fig.locator('.export-figure button').click(),
    ]);
    timings[format] = Date.now() - t0;
    assert.equal(download.suggestedFilename(), `lesson1-histogram.${format}`);
    const got = fs.readFileSync(await download.path());
    const want = fs.readFileSync(path.join(tmp, `lesson1-histogram.${format}`));
    assert.ok(got.equals(want), `${format}: the page's export differs from dpplay figures -state '${spec}'`);
    await page.waitForFunction(() => /Saved/.test(document.querySelector('figure.widget[data-id="meet"] .export-status').textContent));
  }
  console.log(`figures export: first (download + start + svg) ${timings.svg} ms, png ${timings.png} ms, pdf ${timings.pdf} ms`);
  assert.deepEqual(errors, []);
  await context.close();
});
