// Times one exact SmallDB draw in Chromium, in the real page and worker:
// k = 4 attributes of the medical table (16 points), m = 8 (490,314
// candidates), all 24 two-way marginals. The synth module is loaded by the
// page's bridge exactly as the small-database lesson loads it; each run is a
// start (no time probe) followed by one advance call that scores every
// candidate and draws. Prints plain lines: the module's size, the cold first run, and the
// median of the warm runs with candidates per second. A figure, not a test.
//
//   node scripts/bench-synth-web.mjs [dist] [runs]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve } from '../e2e/web/server.mjs';
import { launch, ready } from '../e2e/web/browser.mjs';

const dist = path.resolve(process.argv[2] || 'dist');
const runs = Number(process.argv[3] || 9);
const wasm = path.join(dist, 'wasm', 'synth.wasm');
if (!fs.existsSync(wasm)) {
  console.error(`${wasm} is missing: run make site`);
  process.exit(1);
}
const raw = fs.readFileSync(wasm);
console.log(`synth.wasm (on demand): ${raw.length} bytes, ${zlib.gzipSync(raw, { level: 9 }).length} gzipped`);

const server = await serve(dist, '/dpplay/');
const browser = await launch();
try {
  const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  await page.goto(server.url + 'exponential-mechanism/');
  await ready(page, 'exponential-mechanism');
  const out = await page.evaluate(async (n) => {
    const { engineClient } = await import('./engine.js');
    const bridge = engineClient();
    const t0 = performance.now();
    await bridge.load('synth');
    const loadMs = performance.now() - t0;
    const one = async () => {
      const s = performance.now();
      const p = await bridge.call('synth', 'start', { k: 4, queries: 'marginals:2', m: 8, epsilon: 1, seed: 1, probe: 0 });
      const v = await bridge.call('synth', 'advance', { handle: p.handle, stage: 5, chunk: 0, maxMs: 1e9 });
      const ms = performance.now() - s;
      await bridge.call('synth', 'close', { handle: p.handle });
      const sum = Array.from(v.levelProbs).reduce((a, b) => a + b, 0);
      if (v.stage !== 5 || v.scored !== 490314 || Math.abs(sum - 1) > 1e-9) throw new Error(`bad run: stage ${v.stage}, ${v.scored} scored, P sums to ${sum}`);
      return { ms, scoringMs: v.scoringMs, candidates: v.scored };
    };
    const cold = await one();
    const warm = [];
    for (let i = 0; i < n; i++) warm.push(await one());
    return { loadMs, cold, warm };
  }, runs);
  const ms = out.warm.map((r) => r.ms).sort((a, b) => a - b);
  const med = ms[Math.floor(ms.length / 2)];
  const scoring = out.warm.map((r) => r.scoringMs).sort((a, b) => a - b)[Math.floor(ms.length / 2)];
  const n = out.cold.candidates;
  console.log(`synth module load and compile: ${out.loadMs.toFixed(0)} ms`);
  console.log(`smalldb k=4 m=8 two-way marginals, ${n} candidates, first (cold) run: ${out.cold.ms.toFixed(1)} ms`);
  console.log(`smalldb k=4 m=8 two-way marginals: median ${med.toFixed(1)} ms per exact draw over ${ms.length} warm runs (min ${ms[0].toFixed(1)}, max ${ms[ms.length - 1].toFixed(1)}; target <= 100)`);
  console.log(`smalldb k=4 m=8 two-way marginals: ${(n / (med / 1000) / 1e6).toFixed(2)} million candidates/s end to end, ${(n / (scoring / 1000) / 1e6).toFixed(2)} million/s while scoring`);
} finally {
  await browser.close();
  await server.close();
}
