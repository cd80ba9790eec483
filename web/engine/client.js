// The page's client of the engine: calls into the Go modules in the worker.
//
// The page's client of the engine: the Web Worker (web/worker.js) that loads
// the Go WebAssembly modules (core, and synth, market, audit… when a widget
// first calls them) and runs their methods off the main thread.
// engineClient(index).call('core', 'probabilities', {...}) returns a promise
// of the Go method's result object; a result with an `error` field rejects
// with an EngineError whose message is core's validation message.

export class EngineError extends Error {}

class EngineClient {
  constructor(index) {
    this.index = index;
    this.pending = new Map();
    this.nextId = 1;
    this.modules = new Map(); // name → promise that resolves when the module is ready
    this.listeners = new Set();
    // index.html starts the worker (and the core module) after the first
    // paint, or at once when read here first.
    const early = globalThis.dpplayEarlyWorker;
    this.worker = early ? early.worker : new Worker(new URL('../worker.js', import.meta.url));
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.onerror = (e) => this.fail(e.message || 'the engine stopped');
    if (early) {
      this.track(early.loading);
      const buffered = early.buffered;
      early.buffered = [];
      queueMicrotask(() => { for (const m of buffered) this.onMessage(m); });
    }
  }

  track(name) {
    let resolve, reject;
    const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
    this.modules.set(name, { promise, resolve, reject });
    return this.modules.get(name);
  }

  onMessage(msg) {
    if (msg.type === 'result') {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (!p) return;
      if (msg.result && msg.result.error) p.reject(new EngineError(msg.result.error));
      else p.resolve(msg.result);
      return;
    }
    const m = this.modules.get(msg.name);
    if (m && msg.type === 'ready') m.resolve();
    if (m && msg.type === 'failed') m.reject(new Error(msg.message));
    this.emit(msg);
  }

  /**
   * fail(message) is an error in the worker itself, outside any call: every
   * call waiting for an answer rejects, and so does every module still
   * loading (a module that failed is loaded again on its next call).
   */
  fail(message) {
    const err = new Error(`The engine stopped: ${message}`);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    for (const m of this.modules.values()) m.reject(err);
    this.emit({ type: 'failed', name: '*', message });
  }

  emit(msg) { for (const f of this.listeners) f(msg); }

  /** onStatus(f) calls f with every progress, ready and failed message. */
  onStatus(f) { this.listeners.add(f); }

  /** offStatus(f) stops calling f. */
  offStatus(f) { this.listeners.delete(f); }

  /** load(name) starts loading a module once and returns its readiness promise. */
  load(name) {
    if (!this.modules.has(name)) {
      const info = this.index.wasm[name];
      const m = this.track(name);
      // A module that failed to load (a network error) is loaded again on the next call.
      m.promise.catch(() => { if (this.modules.get(name) === m) this.modules.delete(name); });
      if (!info) {
        m.reject(new Error(`no WebAssembly module named ${name}`));
      } else {
        this.worker.postMessage({ type: 'load', name, url: info.file, bytes: info.bytes });
      }
    }
    return this.modules.get(name).promise;
  }

  /** call(name, fn, args) runs module name's method fn in the worker. */
  async call(name, fn, args) {
    await this.load(name);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'call', id, name, fn, args });
    });
  }
}

let client;
/** engineClient(index) returns the page's one client of the engine, creating it on first use. */
export function engineClient(index) {
  if (!client) client = new EngineClient(index);
  return client;
}
