#!/usr/bin/env node
// Lighthouse mobile (simulated throttling) on two builds of the site, run
// alternately (A, B, A, B, …) so that both see the same load on a shared
// machine: for each page and run it prints the performance score and the
// other figures of lighthouseFigures (perf-bench.mjs), with the one-minute
// load average when it ran. Scores move with the load; the main thread's work
// and the long tasks move much less, so compare those. Chromium starts as
// Lighthouse's command line starts it; with RENDER_DOCUMENT=1 its
// RenderDocument feature stays at the build's default, which removes a hold
// on the first frame that moves the score between runs (lighthouseChrome;
// observed_fcp_ms shows the hold). With NO_SCRIPTS=1 it audits copies of the
// builds whose pages have no scripts (withoutScripts): what the page's own
// markup costs before the app does anything.
// Usage: node scripts/lighthouse-ab.mjs distA distB runs slug…  ('' is the root)
// Prints one JSON line per run, then the medians per build and page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../e2e/web/server.mjs';
import { lighthouseScores, median } from './perf-bench.mjs';

const [a, b, runsArg, ...slugs] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const builds = [a, b].filter(Boolean).map((d) => path.resolve(d));

const renderDocument = process.env.RENDER_DOCUMENT === '1';
const noScripts = process.env.NO_SCRIPTS === '1';

/**
 * withoutScripts(dir) copies the build dir into a temporary directory and
 * removes from every HTML page its script elements, its module preloads and
 * its render-blocking link rel=expect, and returns the copy's path.
 */
function withoutScripts(dir) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-noscripts-'));
  fs.cpSync(dir, out, { recursive: true });
  for (const f of fs.readdirSync(out, { recursive: true })) {
    if (!f.endsWith('.html')) continue;
    const file = path.join(out, f);
    const html = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, html.replace(/<script\b[\s\S]*?<\/script>/g, '').replace(/<link rel="(modulepreload|expect)"[^>]*>/g, ''));
  }
  return out;
}

/** audit(url) runs Lighthouse mobile on url in a fresh Chromium and returns the figures above. */
async function audit(url) {
  const { performance: score, ...figures } = await lighthouseScores(url, { renderDocument }, ['performance']);
  return { render_document: renderDocument, no_scripts: noScripts, score, ...figures };
}

const dirs = noScripts ? builds.map(withoutScripts) : builds;
const servers = await Promise.all(dirs.map((d) => serve(d, '/dpplay/', { pages: true })));
const all = [];
try {
  for (const slug of slugs.length ? slugs : ['']) {
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < servers.length; k++) {
        const r = { build: 'AB'[k], page: slug || 'root', ...(await audit(`${servers[k].url}${slug ? slug + '/' : ''}`)) };
        all.push(r);
        console.log(JSON.stringify(r));
      }
    }
  }
} finally {
  await Promise.all(servers.map((s) => s.close()));
  if (noScripts) for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}
for (const slug of slugs.length ? slugs : ['']) {
  for (const k of 'AB'.slice(0, servers.length)) {
    const rs = all.filter((r) => r.build === k && r.page === (slug || 'root'));
    const m = {};
    for (const f of ['load', 'score', 'tbt_ms', 'observed_fcp_ms', 'main_thread_ms', 'long_tasks', 'long_sum_ms', 'longest_task_ms']) m[f] = median(rs.map((r) => r[f]));
    console.log(JSON.stringify({ median: k, page: slug || 'root', ...m }));
  }
}
