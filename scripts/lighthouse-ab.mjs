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
// builds with every page's scripts and module preloads removed
// (withoutScripts): what the page's own markup costs before the app does
// anything.
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
 * withoutScripts(dir, out) copies the build dir into out, leaving out the
 * precompressed copies (the server compresses by itself), and removes from
 * every HTML page its script elements and its module preloads.
 */
function withoutScripts(dir, out) {
  fs.cpSync(dir, out, { recursive: true, filter: (f) => !/\.(br|gz)$/.test(f) });
  for (const f of fs.readdirSync(out, { recursive: true })) {
    if (!f.endsWith('.html')) continue;
    const file = path.join(out, f);
    const html = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, html.replace(/<script\b[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, ''));
  }
}

/** audit(url) runs Lighthouse mobile on url in a fresh Chromium and returns the figures above. */
async function audit(url) {
  const { performance: score, ...figures } = await lighthouseScores(url, { renderDocument }, ['performance']);
  return { render_document: renderDocument, no_scripts: noScripts, score, ...figures };
}

const copies = noScripts ? fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-noscripts-')) : null;
if (copies) process.once('SIGINT', () => { fs.rmSync(copies, { recursive: true, force: true }); process.exit(130); });
const servers = [];
const all = [];
try {
  for (const [k, d] of builds.entries()) {
    const dir = copies ? path.join(copies, 'AB'[k]) : d;
    if (copies) withoutScripts(d, dir);
    servers.push(await serve(dir, '/dpplay/', { pages: true }));
  }
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
  if (copies) fs.rmSync(copies, { recursive: true, force: true });
}
for (const slug of slugs.length ? slugs : ['']) {
  for (const k of 'AB'.slice(0, servers.length)) {
    const rs = all.filter((r) => r.build === k && r.page === (slug || 'root'));
    const m = {};
    for (const f of ['load', 'score', 'tbt_ms', 'observed_fcp_ms', 'main_thread_ms', 'long_tasks', 'long_sum_ms', 'longest_task_ms']) m[f] = median(rs.map((r) => r[f]));
    console.log(JSON.stringify({ median: k, page: slug || 'root', ...m }));
  }
}
