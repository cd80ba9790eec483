// web/engine/client.js, the page's client of the engine's Web Worker, in Node with a
// stand-in Worker that records what it is sent: an error in the worker
// itself rejects every call waiting for an answer and every module still
// loading, and a module that failed is loaded again on its next call.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const workers = [];
globalThis.Worker = class {
  constructor(url) { this.url = url; this.sent = []; workers.push(this); }
  postMessage(m) { this.sent.push(m); }
};
const { engineClient, EngineError } = await import('../../web/engine/client.js');
const index = { wasm: { core: { file: 'wasm/core.wasm', bytes: 10 }, synth: { file: 'wasm/synth.wasm', bytes: 20 } } };

test('an error in the worker rejects the calls waiting and the modules loading', async () => {
  const bridge = engineClient(index);
  const w = workers[0];
  const statuses = [];
  bridge.onStatus((m) => statuses.push(m));
  const core = bridge.call('core', 'probabilities', { eps: 1 });
  w.onmessage({ data: { type: 'ready', name: 'core' } });
  await new Promise((r) => setTimeout(r, 0));
  const call = w.sent.find((m) => m.type === 'call');
  assert.equal(call.fn, 'probabilities');
  const synth = bridge.call('synth', 'start', {});
  await new Promise((r) => setTimeout(r, 0));
  assert.ok(w.sent.some((m) => m.type === 'load' && m.name === 'synth'));

  w.onerror({ message: 'out of memory' });
  await assert.rejects(core, /The engine stopped: out of memory/);
  await assert.rejects(synth, /The engine stopped: out of memory/);
  assert.deepEqual(statuses.at(-1), { type: 'failed', name: '*', message: 'out of memory' });

  // A result that arrives afterwards for the rejected call is dropped.
  w.onmessage({ data: { type: 'result', id: call.id, result: { p: [1] } } });
  // core was ready and stays loaded; synth is loaded again on its next call.
  const loads = w.sent.filter((m) => m.type === 'load').length;
  const again = bridge.call('synth', 'start', {});
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(w.sent.filter((m) => m.type === 'load' && m.name === 'synth').length, 2);
  assert.equal(w.sent.filter((m) => m.type === 'load').length, loads + 1);
  w.onmessage({ data: { type: 'ready', name: 'synth' } });
  await new Promise((r) => setTimeout(r, 0));
  const id = w.sent.at(-1).id;
  w.onmessage({ data: { type: 'result', id, result: { error: 'k: must be at least 1' } } });
  await assert.rejects(again, (e) => e instanceof EngineError && e.message === 'k: must be at least 1');
});
