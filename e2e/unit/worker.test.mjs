// web/worker.js in a real thread (node:worker_threads) with Go's
// wasm_exec.js and real Go modules built from testdata/wasm: a module that
// panics at start is reported as failed with its panic, instead of leaving
// the page waiting for ever; each load reports its own timing, even when two
// overlap; a started module answers calls.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dpplay-worker-'));
const files = {};

/** build compiles testdata/wasm/pkg to tmp/name.wasm, with main.name set to name. */
function build(pkg, name) {
  const out = path.join(tmp, `${name}.wasm`);
  execFileSync('go', ['build', '-trimpath', '-ldflags', `-X main.name=${name}`, '-o', out, `./e2e/unit/testdata/wasm/${pkg}`],
    { cwd: root, env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' }, stdio: 'inherit' });
  files[`${name}.wasm`] = out;
}

// The worker's globals as a browser gives them: self, postMessage,
// importScripts (from web/ and Go's lib/wasm) and a fetch that serves the
// built modules, the one named slow after 300 ms. Its names stay inside a
// function: a global fs would be the one wasm_exec.js writes Go's output to.
const boot = `(() => {
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
globalThis.self = globalThis;
globalThis.postMessage = (m) => parentPort.postMessage(m);
globalThis.importScripts = (...names) => {
  for (const n of names) vm.runInThisContext(fs.readFileSync(n === 'wasm_exec.js' ? workerData.wasmExec : path.join(workerData.web, n), 'utf8'), { filename: n });
};
globalThis.fetch = async (url) => {
  if (url.startsWith('slow')) await new Promise((r) => setTimeout(r, 300));
  return new Response(fs.readFileSync(workerData.files[url]), { headers: { 'content-type': 'application/wasm' } });
};
parentPort.on('message', (data) => self.onmessage({ data }));
vm.runInThisContext(fs.readFileSync(path.join(workerData.web, 'worker.js'), 'utf8'), { filename: 'worker.js' });
})();`;

let worker;
const messages = [];
let waiting = [];
function next(pred, what, ms = 30000) {
  const found = messages.find(pred);
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms / 1000} s; got ${JSON.stringify(messages.filter((m) => m.type !== 'progress'))}`)), ms);
    waiting.push({ pred, resolve: (m) => { clearTimeout(timer); resolve(m); } });
  });
}

before(() => {
  build('ready', 'ready');
  build('ready', 'slow');
  build('panics', 'panics');
  const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  worker = new Worker(boot, { eval: true, workerData: { web: path.join(root, 'web'), wasmExec: path.join(goroot, 'lib', 'wasm', 'wasm_exec.js'), files } });
  worker.on('message', (m) => {
    messages.push(m);
    waiting = waiting.filter((w) => !(w.pred(m) && (w.resolve(m), true)));
  });
});
after(async () => {
  await worker?.terminate();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a module that panics at start is reported as failed, with its panic', async () => {
  worker.postMessage({ type: 'load', name: 'panics', url: 'panics.wasm', bytes: fs.statSync(files['panics.wasm']).size });
  const m = await next((m) => m.name === 'panics' && (m.type === 'failed' || m.type === 'ready'), 'answer to loading panics');
  assert.equal(m.type, 'failed');
  assert.match(m.message, /^panics stopped before it was ready \(exit code 2\): panic: jsio: method twice registered twice/);
});

test('two loads at once each report their own timing, and a started module answers', async () => {
  worker.postMessage({ type: 'load', name: 'slow', url: 'slow.wasm', bytes: fs.statSync(files['slow.wasm']).size });
  await new Promise((r) => setTimeout(r, 100));
  worker.postMessage({ type: 'load', name: 'ready', url: 'ready.wasm', bytes: fs.statSync(files['ready.wasm']).size });
  const slow = await next((m) => m.name === 'slow' && m.type !== 'progress', 'slow ready');
  const ready = await next((m) => m.name === 'ready' && m.type !== 'progress', 'ready ready');
  assert.equal(slow.type, 'ready', slow.message);
  assert.equal(ready.type, 'ready', ready.message);
  for (const t of [slow.timing, ready.timing]) {
    assert.ok(t.start <= t.response && t.response <= t.compiled && t.compiled <= t.ready, JSON.stringify(t));
  }
  // slow was asked for first and answered 300 ms late: its start is its own.
  assert.ok(slow.timing.start < ready.timing.start, `slow started at ${slow.timing.start}, ready at ${ready.timing.start}`);
  assert.ok(slow.timing.response - slow.timing.start >= 250, `slow's response came ${slow.timing.response - slow.timing.start} ms after its start`);
  worker.postMessage({ type: 'call', id: 1, name: 'ready', fn: 'double', args: { x: 21 } });
  const r = await next((m) => m.type === 'result' && m.id === 1, 'result');
  assert.deepEqual(r.result, { y: 42 });
});
