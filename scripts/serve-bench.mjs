#!/usr/bin/env node
// How long a slow phone waits for the engine from `dpplay serve`: Chromium
// with Lighthouse's slow-4G network (CDP throttling, no CPU slow-down)
// fetches the core module (wasm/core.wasm) and the first page's script and
// stylesheet from a real `dpplay serve` of dist/, and prints, per file, the
// time to its last byte, the bytes on the wire and the encoding served.
// Usage: node scripts/serve-bench.mjs [dist] [runs]  (prints JSON lines)
// Timings are figures, never pass/fail.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch } from '../e2e/web/browser.mjs';
import { SLOW4G } from './perf-bench.mjs';

const dist = process.argv[2] || 'dist';
const runs = Number(process.argv[3] || 3);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dpplay-serve-bench-'));
const bin = path.join(tmp, 'dpplay');
execFileSync('go', ['build', '-o', bin, './cmd/dpplay'], { stdio: 'inherit' });
const proc = spawn(bin, ['serve', '-dir', dist, '-db', path.join(tmp, 'l.db'), '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise((resolve, reject) => {
  proc.stdout.once('data', (b) => resolve(String(b)));
  proc.once('exit', (c) => reject(new Error(`dpplay serve exited ${c}`)));
});
proc.stdout.resume();
const base = JSON.parse(line).url;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const browser = await launch();
try {
  for (const file of ['wasm/core.wasm', 'app.js', 'styles.css']) {
    const times = [];
    let wire = 0;
    let encoding = '';
    for (let i = 0; i < runs; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(base + 'lecture.html'); // a light page whose CSP lets it fetch its own origin
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', SLOW4G);
      const sizes = new Map();
      cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
      const got = new Promise((resolve) => cdp.on('Network.responseReceived', (e) => {
        if (e.response.url.endsWith(file)) resolve(e);
      }));
      const ms = await page.evaluate(async (u) => {
        const t0 = performance.now();
        const r = await fetch(u, { cache: 'no-store' });
        await r.arrayBuffer();
        return performance.now() - t0;
      }, base + file);
      const resp = await got;
      await new Promise((r) => setTimeout(r, 100));
      wire = sizes.get(resp.requestId) || 0;
      encoding = resp.response.headers['content-encoding'] || resp.response.headers['Content-Encoding'] || 'identity';
      times.push(Math.round(ms));
      await ctx.close();
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ file, network: 'slow 4G', encoding, wire_bytes: wire, ms: times, median_ms: times[Math.floor(times.length / 2)], load: load() }));
  }
} finally {
  await browser.close();
  proc.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
