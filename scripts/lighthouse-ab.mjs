#!/usr/bin/env node
// Lighthouse mobile (simulated throttling) on two builds of the site, run
// alternately (A, B, A, B, …) so that both see the same load on a shared
// machine: for each page and run it prints the performance score, total
// blocking time, the main thread's total work and its largest categories
// (Lighthouse's mainthread-work-breakdown), and the long tasks (count, sum and
// longest, from its long-tasks audit, in the unthrottled time it observed),
// each with the one-minute load average when it ran (Lighthouse lists at most
// 20 long tasks, in its simulated time). Scores move with the
// load; the work totals and long tasks move much less, so compare those.
// Chromium starts as Lighthouse's command line starts it; RENDER_DOCUMENT=1
// leaves its RenderDocument feature at the build's default instead, which
// removes a hold on the first frame that moves the score between runs
// (lighthouseChrome in perf-bench.mjs; observed_fcp_ms shows it).
// Usage: node scripts/lighthouse-ab.mjs distA distB runs slug…  ('' is the root)
// Prints one JSON line per run, then the medians per build and page.
import path from 'node:path';
import os from 'node:os';
import { serve } from '../e2e/web/server.mjs';
import { lighthouseChrome } from './perf-bench.mjs';

const [a, b, runsArg, ...slugs] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const builds = [a, b].filter(Boolean).map((d) => path.resolve(d));
const { default: lighthouse } = await import('lighthouse');

/** audit(url) runs Lighthouse mobile on url in a fresh Chromium and returns the figures above. */
async function audit(url) {
  const chrome = await lighthouseChrome({ renderDocument: !!process.env.RENDER_DOCUMENT });
  try {
    const load = +os.loadavg()[0].toFixed(1);
    const { lhr } = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] });
    const au = lhr.audits;
    const work = au['mainthread-work-breakdown'];
    const tasks = au['long-tasks']?.details?.items || []; // at most 20, the longest
    const cats = Object.fromEntries((work?.details?.items || []).slice(0, 4).map((i) => [i.group, Math.round(i.duration)]));
    return {
      load, score: Math.round(100 * lhr.categories.performance.score), tbt_ms: Math.round(au['total-blocking-time'].numericValue),
      fcp_ms: Math.round(au['first-contentful-paint'].numericValue),
      observed_fcp_ms: Math.round(au.metrics?.details?.items?.[0]?.observedFirstContentfulPaint ?? NaN), lcp_ms: Math.round(au['largest-contentful-paint'].numericValue),
      main_ms: Math.round(work?.numericValue ?? NaN), top: cats,
      long_tasks: tasks.length, long_sum_ms: Math.round(tasks.reduce((s, t) => s + t.duration, 0)),
      longest_ms: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
    };
  } finally {
    await chrome.kill();
  }
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
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const slug of slugs.length ? slugs : ['']) {
  for (const k of 'AB'.slice(0, servers.length)) {
    const rs = all.filter((r) => r.build === k && r.page === (slug || 'root'));
    const m = {};
    for (const f of ['load', 'score', 'tbt_ms', 'observed_fcp_ms', 'main_ms', 'long_tasks', 'long_sum_ms', 'longest_ms']) m[f] = median(rs.map((r) => r[f]));
    console.log(JSON.stringify({ median: k, page: slug || 'root', ...m }));
  }
}
