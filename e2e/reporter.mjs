// A node:test reporter for the browser suites: one line per test as it ends,
// named by its file, a failure's whole message under it, and at the end the
// time each file took, also written to $DPPLAY_TIMES (tab-separated: file,
// seconds, tests, failed) for the table `make test` prints, and each failure
// again, in full, to failures.txt beside it, which that table ends with (a
// CI log is often read from its end).
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const short = (file) => (file ? path.relative(root, file) : '?');
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** failure(err) is what a failed test threw, with its cause, as one block of text. */
function failure(err) {
  const cause = err?.cause ?? err;
  if (cause instanceof Error) return cause.stack || cause.message;
  return inspect(cause, { depth: 6 });
}

export default async function* reporter(source) {
  const files = new Map(); // file → {ms, tests, failed}
  const failed = [];
  const row = (file) => {
    if (!files.has(file)) files.set(file, { ms: 0, tests: 0, failed: 0 });
    return files.get(file);
  };
  for await (const { type, data } of source) {
    if (type === 'test:complete' && data.name === data.file) {
      row(data.file).ms = data.details.duration_ms;
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') {
      if (type === 'test:stderr' || type === 'test:stdout') yield data.message.replace(/^(?=.)/gm, `  ${short(data.file)}: `);
      continue;
    }
    // The file itself is reported as a test when it fails outside any test.
    const own = data.name === data.file;
    if (data.details?.type === 'suite' && !own) continue;
    const name = own ? '(the file, outside its tests)' : data.name;
    const where = `${short(data.file)} › ${name}`;
    const r = row(data.file);
    if (!own) r.tests++;
    if (type === 'test:pass') {
      // A test left out by a name pattern is not worth a line.
      if (data.skip === true || data.skip === 'test name does not match pattern') r.tests--;
      else yield `${data.skip ? `skip (${data.skip})` : 'ok  '} ${where} (${secs(data.details.duration_ms)})\n`;
      continue;
    }
    r.failed++;
    const text = failure(data.details.error);
    failed.push(`${where}\n${text}`);
    yield `FAIL ${where} (${secs(data.details.duration_ms)})\n${text.replace(/^/gm, '     ')}\n`;
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  const width = Math.max(4, ...rows.map(([f]) => short(f).length));
  yield `\n${'file'.padEnd(width)}  tests  time\n`;
  for (const [f, r] of rows) yield `${short(f).padEnd(width)}  ${String(r.tests).padStart(5)}  ${secs(r.ms).padStart(8)}${r.failed ? `  ${r.failed} failed` : ''}\n`;
  if (failed.length) yield `\n${failed.length} failed:\n${failed.map((f) => `  ${f.split('\n')[0]}`).join('\n')}\n`;
  if (process.env.DPPLAY_TIMES) {
    fs.mkdirSync(path.dirname(process.env.DPPLAY_TIMES), { recursive: true });
    fs.appendFileSync(process.env.DPPLAY_TIMES, rows.map(([f, r]) => `${short(f)}\t${(r.ms / 1000).toFixed(1)}\t${r.tests}\t${r.failed}\n`).join(''));
    if (failed.length) fs.appendFileSync(path.join(path.dirname(process.env.DPPLAY_TIMES), 'failures.txt'), failed.map((f) => `FAIL ${f}\n\n`).join(''));
  }
}
