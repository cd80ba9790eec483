// The lecture worker's entry module (docs/lecture.md, "Go on Workers").
//
// Each request runs in a fresh instance of the Go program (cmd/worker), as
// in the entry module that syumai/workers generates, but at most POOL
// instances run at once in an isolate; the other requests wait for a turn.
// Without the bound, a burst of requests multiplies the instances' linear
// memory (5.5 MB each; 203 MB in 37 instances measured) past the isolate's
// 128 MB limit. An instance is never reused for a second
// request: the runtime ties every promise and timer to the request that made
// it, so a shared Go instance strands one request's work in another's
// context (docs/lecture.md has the measurements). wasm_exec.js is the
// generator's copy of Go's.
import "./build/wasm_exec.js";
import mod from "./build/app.wasm";

// POOL is the most Go instances running at once in an isolate.
const POOL = 8;
// WAIT_MS is how often a waiting request looks for a free turn; HOLD_MS is
// how long a request may hold a turn before the turn is taken for lost.
const WAIT_MS = 20;
const HOLD_MS = 60_000;
// MAX_BODY bounds the bytes read of a request body. The handler refuses
// bodies over lecture.MaxBody (8 KB) with 413; a body cut at MAX_BODY is
// still longer than that.
const MAX_BODY = 64 * 1024;

const turns = new Set(); // the start times of the turns being held

// acquire resolves to a turn, once fewer than POOL are held. A waiting
// request looks again every WAIT_MS on a timer of its own: the runtime ties
// each promise to the request that made it, so a turn handed over through a
// promise by another request would strand the waiter (measured: requests
// cancelled as hung, "Cannot perform I/O on behalf of a different request").
async function acquire() {
  for (;;) {
    const now = Date.now();
    for (const t of turns) {
      // A request cancelled while it held a turn never releases it.
      if (now - t.since > HOLD_MS) turns.delete(t);
    }
    if (turns.size < POOL) {
      const t = { since: now };
      turns.add(t);
      return t;
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
}

function release(turn) {
  turns.delete(turn);
}

let peak = 0; // the most linear memory in use at once, as last logged

// memoryInUse is the linear memory of the running instances.
const running = new Set();
function memoryInUse() {
  let n = 0;
  for (const m of running) n += m.buffer.byteLength;
  return n;
}

// serve runs the Go program on one request and resolves to its reply,
// {status, headers: [[name, value], …], body}. The program's runtime
// context (the `context` global that syumai/workers reads) holds this
// request's env and ctx.
function serve(req, env, ctx) {
  return new Promise((resolve, reject) => {
    const go = new Go();
    const wasm = new WebAssembly.Instance(mod, go.importObject);
    const memory = wasm.exports.mem;
    const runtime = { binding: {}, env, ctx };
    const finish = () => running.delete(memory);
    running.add(memory);
    // run() returns once main waits for the request; its promise settles
    // only if the program ends, which it must not do before replying.
    const fail = (e) => {
      finish();
      reject(e);
    };
    go.run(wasm, runtime).then(() => fail(new Error("the Go program exited")), fail);
    if (typeof runtime.binding.serve !== "function") {
      fail(new Error("the Go program did not register serve"));
      return;
    }
    try {
      runtime.binding.serve(req, (reply) => {
        const size = memoryInUse();
        if (size > peak) {
          peak = size;
          console.log(`dpplay worker: Go memory ${(size / 2 ** 20).toFixed(0)} MB in ${running.size} instances`);
        }
        finish();
        resolve(reply);
      });
    } catch (e) {
      fail(e);
    }
  });
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

async function fetch(request, env, ctx) {
  let reply;
  try {
    const body = await readBody(request, MAX_BODY);
    const req = { method: request.method, url: request.url, headers: [...request.headers], body };
    const turn = await acquire();
    try {
      reply = await serve(req, env, ctx);
    } finally {
      release(turn);
    }
  } catch (e) {
    console.error(`dpplay worker: ${e}`);
    return Response.json(
      { error: "internal error" },
      { status: 500, headers: { "Cache-Control": "no-store", "Access-Control-Allow-Origin": env.ALLOWED_ORIGIN || "*" } },
    );
  }
  return new Response(nullBody.has(reply.status) ? null : reply.body, { status: reply.status, headers: reply.headers });
}

export default { fetch };
