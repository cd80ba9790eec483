// Speed of the exact privacy auditor in Chromium (the lazily loaded audit
// module, as the lesson "Check a mechanism yourself" runs it): neighbouring
// pairs per second for the 5-candidate exponential mechanism under change-one
// neighbours, and the largest universe it checks in one second; and the
// exact audit of each of Lyu, Su and Li's sparse vector variants on a
// 10-query pair (the svt module, as the lesson "The sparse vector
// technique" runs it), the fastest and slowest of three runs each (the fastest
// is the one least disturbed by other work on the machine). Prints JSON.
// Usage: node scripts/audit-bench.mjs dist
import path from 'node:path';
import { serve } from '../e2e/web/server.mjs';
import { launch } from '../e2e/web/browser.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const server = await serve(dist, '/dpplay/');
const browser = await launch();
try {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${server.url}check-a-mechanism/`);
  await page.waitForFunction(() => document.body.dataset.lessonReady, null, { timeout: 60000 });
  const runs = await page.evaluate(async () => {
    const { engineClient } = await import('../engine.js');
    const b = engineClient();
    const cfg = { mechanism: 'exponential', score: 'count[r] - count[(r+1)%k]', sensitivity: '1', epsilon: 1, candidates: 5, maxCount: 9, neighbours: 'change-one' };
    await b.call('audit', 'gallery', {}); // the module is loaded and warm
    const out = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      let from = 0, r;
      do { r = await b.call('audit', 'run', { ...cfg, from, count: 20000 }); from = r.next; } while (from < r.total);
      out.push({ ms: performance.now() - t0, pairs: r.pairs });
    }
    return out;
  });
  const best = runs.reduce((a, b) => (a.ms < b.ms ? a : b));
  const rate = best.pairs / (best.ms / 1000);
  // Change-one pairs of k = 5 candidates with counts 0..m: C(5,2)·m²·(m+1)³.
  const pairsAt = (m) => 10 * m * m * (m + 1) ** 3;
  let m = 1;
  while (pairsAt(m + 1) <= rate) m++;
  console.log(JSON.stringify({
    audit_chromium: { mechanism: 'exponential, 5 candidates, change-one', pairs: best.pairs, ms: Math.round(best.ms), pairs_per_second: Math.round(rate),
      one_second_universe: { max_count: m, data_sets: (m + 1) ** 5, pairs: pairsAt(m) }, runs_ms: runs.map((r) => Math.round(r.ms)) },
  }));
  // The variants widget's opening pair: ten queries, ε = 1, c = 1, T = 1.
  const svt = await page.evaluate(async () => {
    const { engineClient } = await import('../engine.js');
    const b = engineClient();
    const x = Float64Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]), y = Float64Array.from([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    await b.call('svt', 'variants', { eps: 1, c: 1 }); // loaded and warm
    const out = {};
    for (let k = 1; k <= 6; k++) {
      const ms = [];
      let loss = 0;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const r = await b.call('svt', 'audit', { algorithm: k, eps: 1, c: 1, t: 1, x, y });
        ms.push(Math.round(performance.now() - t0));
        loss = r.unbounded ? null : r.loss;
      }
      out[`algorithm_${k}`] = { ms_best: Math.min(...ms), ms_worst: Math.max(...ms), loss };
    }
    return out;
  });
  console.log(JSON.stringify({ svt_audit_chromium: { pair: '10 queries, ε = 1, c = 1, T = 1', ...svt } }));
} finally {
  await browser.close();
  await server.close();
}
