#!/usr/bin/env node
// Finds what blocks the main thread: loads a page of dist/ in Debian's
// Chromium under a Chromium trace (CDP Tracing), optionally with a slower CPU,
// moves the first widget's slider five times, and prints every main-thread
// task over 50 ms with the scripts it ran (self time per URL) and every
// forced layout or style recalculation (one a script asked for) with its
// stack. Usage: node scripts/perf-trace.mjs [dist] [hash] [cpu-rate]
import path from 'node:path';
import { serve } from '../e2e/web/server.mjs';
import { launch } from '../e2e/web/browser.mjs';
import { firstWidgetLive } from './perf-bench.mjs';

const dir = path.resolve(process.argv[2] || 'dist');
const hash = process.argv[3] ?? 'what-dp-promises/';
const rate = Number(process.argv[4] || 4);
const server = await serve(dir, '/dpplay/', { pages: true });
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'v8.execute', 'blink.user_timing', 'loading'] },
  });
  await page.goto(server.url + hash);
  await page.waitForFunction(() => document.body.dataset.lessonReady && document.body.classList.contains('engine-ready'), null, { timeout: 120000 });
  await page.evaluate(firstWidgetLive);
  await page.evaluate(() => performance.mark('bench-slider'));
  await page.evaluate(async () => {
    const fig = document.querySelector('#lesson figure.widget');
    const slider = fig?.querySelector('input[type=range]');
    for (let i = 0; slider && i < 5; i++) {
      const before = fig.dataset.renders;
      slider.value = String(Math.max(0, +slider.max - 3 - 2 * i));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      const t0 = performance.now();
      while (fig.dataset.renders === before && performance.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 300));
  });
  await cdp.send('Tracing.end');
  await done;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' &&
    events.some((x) => x.pid === e.pid && x.name === 'TracingStartedInBrowser' || x.pid === e.pid && x.name === 'FunctionCall'));
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const nav = onMain.find((e) => e.name === 'navigationStart' || e.name === 'markDOMContent')?.ts ?? Math.min(...onMain.map((e) => e.ts));
  const sliderMark = events.find((e) => e.name === 'bench-slider')?.ts ?? Infinity;
  const ms = (us) => Math.round(us / 1000);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur > 50000);
  for (const t of tasks) {
    const inside = onMain.filter((e) => e.ts >= t.ts && e.ts < t.ts + t.dur && e.ph === 'X' && e !== t);
    const by = new Map();
    for (const e of inside) {
      const key = `${e.name}${e.args?.data?.url ? ' ' + e.args.data.url.replace(server.url, '') : ''}${e.args?.data?.functionName ? ' ' + e.args.data.functionName : ''}`;
      by.set(key, (by.get(key) || 0) + e.dur);
    }
    const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, d]) => `    ${ms(d)} ms ${k}`).join('\n');
    console.log(`task at ${ms(t.ts - nav)} ms${t.ts > sliderMark ? ' (slider)' : ''}: ${ms(t.dur)} ms\n${top}`);
  }
  for (const e of onMain) {
    if ((e.name === 'Layout' || e.name === 'UpdateLayoutTree') && e.args?.beginData?.stackTrace) {
      const st = e.args.beginData.stackTrace.slice(0, 4).map((f) => `${f.functionName || '(anon)'} ${f.url.replace(server.url, '')}:${f.lineNumber}`).join(' < ');
      console.log(`forced ${e.name} at ${ms(e.ts - nav)} ms: ${(e.dur / 1000).toFixed(1)} ms  ${st}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
