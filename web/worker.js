// The computation worker: it streams, compiles and runs the Go WebAssembly
// modules (wasm/core and any later ones) off the main thread, so a long
// computation never freezes the page. Messages:
//   page → worker {type: 'load', name, url, bytes}
//   worker → page {type: 'progress', name, loaded, total} … {type: 'ready', name} | {type: 'failed', name, message}
//   page → worker {type: 'call', id, name, fn, args}
//   worker → page {type: 'result', id, result}   (typed arrays are transferred, not copied)
/* global Go */

const ready = new Map(); // module name → resolve function of its readiness promise
self.dpplayReady = (name) => {
  const done = ready.get(name);
  if (done) done();
};

const timing = {};
async function load({ name, url, bytes }) {
  timing.start = performance.now();
  // Start the download first; loading Go's glue script overlaps with it.
  const pending = fetch(url);
  if (typeof Go === 'undefined') importScripts('wasm_exec.js', 'countbytes.js');
  const response = await pending;
  timing.response = performance.now();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  // Progress is counted on a clone while the compiler streams the response
  // itself (countbytes.js says why); bytes is the module's size as built.
  // A failed download rejects the compile as well.
  const counting = countBytes(response.clone().body, (loaded) => postMessage({ type: 'progress', name, loaded, total: bytes }), 65536)
    .catch(() => {});
  const go = new Go();
  const started = new Promise((resolve) => ready.set(name, resolve));
  const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
  timing.compiled = performance.now();
  // The last progress message goes before the ready message.
  await counting;
  go.run(instance);
  await started;
  timing.ready = performance.now();
}

function transferables(result) {
  const list = [];
  if (result && typeof result === 'object') {
    for (const v of Object.values(result)) {
      if (ArrayBuffer.isView(v)) list.push(v.buffer);
    }
  }
  return list;
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'load') {
    try {
      await load(msg);
      postMessage({ type: 'ready', name: msg.name, timing });
    } catch (err) {
      postMessage({ type: 'failed', name: msg.name, message: String(err && err.message || err) });
    }
    return;
  }
  if (msg.type === 'call') {
    let result;
    try {
      const api = self['dpplay_' + msg.name];
      if (!api || typeof api[msg.fn] !== 'function') throw new Error(`no function ${msg.name}.${msg.fn}`);
      result = api[msg.fn](msg.args);
    } catch (err) {
      result = { error: String(err && err.message || err) };
    }
    postMessage({ type: 'result', id: msg.id, result }, transferables(result));
  }
};
