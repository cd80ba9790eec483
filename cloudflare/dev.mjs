// dev.mjs runs the lecture worker locally in workerd through Miniflare,
// which wrangler installs, with the bindings of wrangler.toml and a local D1
// in the directory that `wrangler d1 migrations apply DB --local` writes
// (docs/lecture.md, "Running the worker locally").
//
// It replaces `wrangler dev`, which puts a second workerd process, its
// proxy, in front of the worker and forwards each request over a pooled
// keep-alive connection; on a loaded machine that hop loses requests
// (503 "Your worker restarted mid-request", GETs left unanswered), and
// Cloudflare has no such hop. Here the client's connection goes to the
// workerd process that runs the worker.
//
//	node dev.mjs [--ip 127.0.0.1] [--port 8787] [--persist-to .wrangler/state] [--var NAME:VALUE]…
//
// It prints "Ready on http://IP:PORT" once the worker answers, runs the
// worker's scheduled handler on SIGUSR2 (as the cron of wrangler.toml
// would), and stops on SIGINT or SIGTERM.
import path from "node:path";
import { parseArgs } from "node:util";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const here = path.dirname(new URL(import.meta.url).pathname);
const { values } = parseArgs({
  options: {
    ip: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "8787" },
    "persist-to": { type: "string", default: path.join(here, ".wrangler/state") },
    var: { type: "string", multiple: true, default: [] },
  },
});

const vars = {};
for (const v of values.var) {
  const i = v.indexOf(":");
  if (i < 1) throw new Error(`--var ${v}: want NAME:VALUE`);
  vars[v.slice(0, i)] = v.slice(i + 1);
}

// The same options wrangler dev gives Miniflare for this configuration:
// compatibility date, module rules (app.wasm as a compiled module), vars and
// the D1 binding under its database_id.
const { workerOptions, main } = unstable_getMiniflareWorkerOptions(path.join(here, "wrangler.toml"));
const persist = path.resolve(values["persist-to"], "v3");
const mf = new Miniflare({
  host: values.ip,
  port: Number(values.port),
  log: new Log(LogLevel.INFO),
  cf: false, // the placeholder Request.cf: there is no network to fetch it from
  d1Persist: path.join(persist, "d1"),
  cachePersist: path.join(persist, "cache"),
  workers: [
    {
      ...workerOptions,
      name: "dpplay-lecture",
      modules: true,
      scriptPath: main,
      bindings: { ...workerOptions.bindings, ...vars },
    },
  ],
});

const url = await mf.ready;
console.log(`Ready on ${url.origin}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await mf.dispose();
  process.exit(0);
}
process.on("SIGUSR2", async () => {
  const worker = await mf.getWorker();
  await worker.scheduled({ cron: "17 3 * * *" });
  console.log("dpplay dev: scheduled handler ran");
});
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
