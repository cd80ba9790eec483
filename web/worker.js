// The engine's worker: it loads the Go WebAssembly modules and runs their calls (a classic script).
//
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

// The lines the modules printed: Go's runtime prints (a panic, for one)
// with console.log, a line at a time.
const printed = [];
const log = console.log.bind(console);
console.log = (...args) => {
  printed.push(args.join(' '));
  if (printed.length > 1000) printed.splice(0, 500);
  log(...args);
};

/**
 * load fetches, compiles and starts one module and resolves, with its timing,
 * once the module has said it is ready (jsio.Serve calls dpplayReady). A
 * module that exits first, a panic at start for one, rejects with the last
 * thing it printed: the page says why instead of waiting for ever.
 */
async function load({ name, url, bytes }) {
  const timing = { start: performance.now() };
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
  let code = 0;
  go.exit = (c) => { code = c; };
  const started = new Promise((resolve) => ready.set(name, resolve));
  try {
    const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
    timing.compiled = performance.now();
    // The last progress message goes before the ready message.
    await counting;
    const from = printed.length;
    const exited = go.run(instance).then(() => {
      const said = printed.slice(from);
      const panic = said.find((l) => l.startsWith('panic: ')) || said[said.length - 1];
      throw new Error(`${name} stopped before it was ready (exit code ${code})${panic ? `: ${panic}` : ''}`);
    });
    await Promise.race([started, exited]);
  } finally {
    ready.delete(name);
  }
  timing.ready = performance.now();
  return timing;
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
      const timing = await load(msg);
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
