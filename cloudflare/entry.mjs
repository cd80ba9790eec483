// The lecture worker's entry module (docs/lecture.md, "Go on Workers").
//
// One instance of the Go program (cmd/cloudflare) serves every request of an
// isolate; a new one starts if it exits. workerd ties every promise, timer
// and I/O call to the request that made it, while Go's one event loop runs
// on behalf of whichever request resumed it, so Go never does I/O and sets
// no timers: its D1 driver enqueues each operation here, and the request's
// own loop below performs it on that request's env.DB and hands the
// outcome back. A request always waits on something of its own (its D1
// call or a short timer), so the runtime never takes it for hung.
// wasm_exec.js is the syumai/workers generator's copy of Go's.
import "./build/wasm_exec.js";
import mod from "./build/app.wasm";

// A request loop that finds neither an operation nor its reply sleeps
// IDLE_MS, doubling up to MAX_IDLE_MS while it keeps finding nothing.
// Usually it finds one at once: each call into Go runs every goroutine it
// wakes until they all wait again.
const IDLE_MS = 1;
const MAX_IDLE_MS = 16;
// A request that has not finished after HOLD_MS is taken for lost: workerd
// cancels a request whose client went away and runs no more of its code, so
// the next request to start drops its entries here and tells Go to fail its
// pending D1 operations (binding.abandon).
const HOLD_MS = 60_000;
// MAX_BODY bounds the bytes read of a request body. The handler refuses
// bodies over lecture.MaxBody (8 KB) with 413; a body cut at MAX_BODY is
// still longer than that.
const MAX_BODY = 64 * 1024;

const queues = new Map(); // request id → {ops: the D1 operations Go enqueued for it, since}
const replies = new Map(); // request id → Go's reply
let lastID = 0;
let current = null; // the running instance: {go, binding, memory}
let peak = 0; // the most linear memory seen, as last logged

// instance returns the running Go instance, starting one if there is none
// or the last one exited.
function instance() {
  if (current !== null && !current.go.exited) return current;
  const go = new Go();
  driveTimers(go);
  const wasm = new WebAssembly.Instance(mod, go.importObject);
  const binding = {
    bridge: {
      // enqueue says whether the request is still here to perform op;
      // nothing else may use its binding.
      enqueue(op) {
        const q = queues.get(op.req);
        if (q === undefined) return false;
        q.ops.push(op);
        return true;
      },
      reply(req, reply) {
        if (queues.has(req)) replies.set(req, reply);
      },
    },
  };
  // run() returns once main waits for requests; go.exited says whether
  // the program ended since (its promise belongs to this request).
  go.run(wasm, { binding, env: {}, ctx: {} }).catch((e) => console.error(`dpplay worker: ${e}`));
  if (typeof binding.serve !== "function") throw new Error("the Go program did not register serve");
  current = { go, binding, memory: wasm.exports.mem };
  console.log(`dpplay worker: Go instance started, ${(current.memory.buffer.byteLength / 2 ** 20).toFixed(0)} MB`);
  return current;
}

// driveTimers replaces the Go runtime's timers (time.Sleep, deadlines, the
// runtime's scavenger), which wasm_exec.js sets with setTimeout in
// whichever request is running Go, by deadlines that the request loops
// check (fireTimers): a timer of a request that has ended would never fire,
// and clearing it from another request is I/O on that request's behalf.
function driveTimers(go) {
  const timers = new Map(); // id → deadline (ms since the epoch)
  let last = 0;
  go.timers = timers;
  go.importObject.gojs["runtime.scheduleTimeoutEvent"] = (sp) => {
    sp >>>= 0;
    const delay = go.mem.getUint32(sp + 8, true) + go.mem.getInt32(sp + 12, true) * 4294967296;
    const id = ++last;
    if (id === 1) console.log(`dpplay worker: Go set its first timer (${delay} ms)`);
    timers.set(id, Date.now() + delay);
    go.mem.setInt32(sp + 16, id, true);
  };
  go.importObject.gojs["runtime.clearTimeoutEvent"] = (sp) => {
    sp >>>= 0;
    timers.delete(go.mem.getInt32(sp + 8, true));
  };
}

// fireTimers resumes Go for each of its timers that is due.
function fireTimers(go) {
  const now = Date.now();
  for (const [id, at] of go.timers) {
    if (at > now) continue;
    // Go clears the timer it handles; a timer it failed to register is
    // tried again once, then dropped, as wasm_exec.js does.
    for (let i = 0; i < 2 && go.timers.has(id) && !go.exited; i++) go._resume();
    go.timers.delete(id);
  }
}

// perform runs one D1 operation on db: "query" resolves to raw rows with
// the column names first, "exec" to {changes, lastRowId}.
async function perform(db, op) {
  const s = db.prepare(op.sql).bind(...op.args);
  if (op.kind === "query") return await s.raw({ columnNames: true });
  const r = await s.run();
  return { changes: r.meta.changes, lastRowId: r.meta.last_row_id };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// serve hands req to Go and performs its D1 operations until the reply,
// {status, headers: [[name, value], …], body}, comes back.
async function serve(req, env) {
  const inst = instance();
  const id = ++lastID;
  const ops = [];
  const now = Date.now();
  for (const [old, q] of queues) {
    if (now - q.since > HOLD_MS) {
      queues.delete(old);
      replies.delete(old);
      inst.binding.abandon(old);
    }
  }
  queues.set(id, { ops, since: now });
  const exited = () => new Error("the Go program exited");
  try {
    const vars = {};
    for (const k of ["ALLOWED_ORIGIN", "GUESS_LIMIT", "JOIN_LIMIT", "WRITE_RATE", "CLIENT_SECRET", "INSTRUCTOR_KEY", "ALLOWED_HOSTS", "SESSION_TTL"]) vars[k] = String(env[k] ?? "");
    inst.binding.serve(id, req, vars);
    let idle = IDLE_MS;
    for (;;) {
      if (inst.go.exited) throw exited();
      if (!queues.has(id)) throw new Error("the request was taken for lost");
      const reply = replies.get(id);
      if (reply !== undefined) {
        const size = inst.memory.buffer.byteLength;
        if (size > peak) {
          peak = size;
          console.log(`dpplay worker: Go memory ${(size / 2 ** 20).toFixed(0)} MB`);
        }
        return reply;
      }
      const op = ops.shift();
      if (op === undefined) {
        fireTimers(inst.go);
        await sleep(idle);
        idle = Math.min(2 * idle, MAX_IDLE_MS);
        continue;
      }
      idle = IDLE_MS;
      let value = null;
      let error = "";
      try {
        value = await perform(env.DB, op);
      } catch (e) {
        error = String(e?.message ?? e) || "error";
      }
      if (inst.go.exited) throw exited();
      inst.binding.resolve(op.key, value, error);
    }
  } finally {
    queues.delete(id);
    replies.delete(id);
  }
}

// readBody reads at most limit bytes of the request body, so a huge body
// cannot fill the isolate's memory.
async function readBody(request, limit) {
  if (request.body === null) return null;
  const reader = request.body.getReader();
  const chunks = [];
  let n = 0;
  while (n < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    n += value.byteLength;
  }
  if (n >= limit) await reader.cancel();
  const body = new Uint8Array(Math.min(n, limit));
  let at = 0;
  for (const c of chunks) {
    if (at >= body.length) break;
    body.set(c.subarray(0, body.length - at), at);
    at += c.byteLength;
  }
  return body;
}

const nullBody = new Set([101, 204, 205, 304]);

async function fetch(request, env) {
  let reply;
  try {
    const body = await readBody(request, MAX_BODY);
    reply = await serve({ method: request.method, url: request.url, headers: [...request.headers], body, task: "" }, env);
  } catch (e) {
    console.error(`dpplay worker: ${e}`);
    const headers = { "Cache-Control": "no-store" };
    if (env.ALLOWED_ORIGIN) headers["Access-Control-Allow-Origin"] = env.ALLOWED_ORIGIN;
    return Response.json({ error: "internal error" }, { status: 500, headers });
  }
  return new Response(nullBody.has(reply.status) ? null : reply.body, { status: reply.status, headers: reply.headers });
}

// scheduled deletes the sessions that have seen nothing for SESSION_TTL
// (lecture.Handler.Expire), on the cron of wrangler.toml's [triggers].
async function scheduled(event, env) {
  const reply = await serve({ method: "POST", url: "https://expire.invalid/", headers: [], body: null, task: "expire" }, env);
  console.log(`dpplay worker: expire: ${reply.status} ${new TextDecoder().decode(reply.body).trim()}`);
}

export default { fetch, scheduled };
