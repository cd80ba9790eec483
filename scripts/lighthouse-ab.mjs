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
// observed_fcp_ms shows the hold).
// Usage: node scripts/lighthouse-ab.mjs distA distB runs slug…  ('' is the root)
// Prints one JSON line per run, then the medians per build and page.
import path from 'node:path';
import { serve } from '../e2e/web/server.mjs';
import { lighthouseScores, median } from './perf-bench.mjs';

const [a, b, runsArg, ...slugs] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const builds = [a, b].filter(Boolean).map((d) => path.resolve(d));

const renderDocument = process.env.RENDER_DOCUMENT === '1';

/** audit(url) runs Lighthouse mobile on url in a fresh Chromium and returns the figures above. */
async function audit(url) {
  const { performance: score, ...figures } = await lighthouseScores(url, { renderDocument }, ['performance']);
  return { render_document: renderDocument, score, ...figures };
}

const servers = await Promise.all(builds.map((d) => serve(d, '/dpplay/', { pages: true })));
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
}
for (const slug of slugs.length ? slugs : ['']) {
  for (const k of 'AB'.slice(0, servers.length)) {
    const rs = all.filter((r) => r.build === k && r.page === (slug || 'root'));
    const m = {};
    for (const f of ['load', 'score', 'tbt_ms', 'observed_fcp_ms', 'main_thread_ms', 'long_tasks', 'long_sum_ms', 'longest_task_ms']) m[f] = median(rs.map((r) => r[f]));
    console.log(JSON.stringify({ median: k, page: slug || 'root', ...m }));
  }
}
