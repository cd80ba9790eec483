// Runs browser test files (node:test's run) against one static server of
// dist/ (under /dpplay/, as GitHub Pages serves a project site) and one
// Chromium, which every file connects to (DPPLAY_SITE, DPPLAY_CHROMIUM; see
// e2e/web/harness.mjs), FILES at a time (default 2, one per core), in the
// order given.
//
//   node e2e/run.mjs [--test-name-pattern=RE] file ...
//
// Each test is printed as it ends, named by its file (e2e/reporter.mjs), and
// the time per file at the end. It exits 1 if a test failed.
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import reporter from './reporter.mjs';
import { serve } from './web/server.mjs';
import { chromiumOptions } from './web/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.env.DIST || path.join(root, 'dist'));
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`${dist}/index.html is missing: run make site`);
  process.exit(2);
}
const args = process.argv.slice(2);
const patterns = args.filter((a) => a.startsWith('--test-name-pattern=')).map((a) => new RegExp(a.slice(a.indexOf('=') + 1)));
// Each file once, where it first appears: `sweep.test.mjs *.test.mjs` puts the sweep first.
const files = [...new Set(args.filter((a) => !a.startsWith('--')).map((f) => path.resolve(f)))];
if (!files.length) {
  console.error('usage: node e2e/run.mjs [--test-name-pattern=RE] file ...');
  process.exit(2);
}

const site = await serve(dist, '/dpplay/');
const browser = await chromium.launchServer(chromiumOptions());
// The files run as child processes, which inherit these.
Object.assign(process.env, { DIST: dist, DPPLAY_SITE: site.url, DPPLAY_CHROMIUM: browser.wsEndpoint() });
// In the order given, so that the longest file, first, starts first; a file
// that hangs fails after fifteen minutes (FILE_TIMEOUT_MS).
const stream = run({ files, concurrency: Number(process.env.FILES || 2), timeout: Number(process.env.FILE_TIMEOUT_MS || 900000), ...(patterns.length && { testNamePatterns: patterns }) });
let failed = false;
stream.on('test:fail', () => { failed = true; });
await new Promise((resolve) => {
  stream.compose(reporter).on('end', resolve).pipe(process.stdout);
});
await browser.close();
await site.close();
process.exit(failed ? 1 : 0);
