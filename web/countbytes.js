// Counting a download's bytes for a progress bar (a classic script).
//
// countBytes(body, report, step) reads the stream body to its end and
// calls report(loaded) with the bytes read so far each time step more have
// arrived, and once at the end. Callers count a response's clone while the
// response itself goes on whole (to a streaming compile, or to Cache
// Storage), so that it keeps its URL: Chromium keeps compiled wasm code (its
// code cache) only for a response with a URL from the HTTP cache or Cache
// Storage. Where the server compresses, the stream gives decompressed
// bytes: compare them with the file's size as built, never Content-Length.
// A classic script (the worker and the service worker import it with
// importScripts, machine.html with a script element).
self.countBytes = async function countBytes(body, report, step = 0) {
  const reader = body.getReader();
  let loaded = 0;
  let last = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    if (loaded - last > step) {
      last = loaded;
      report(loaded);
    }
  }
  if (last !== loaded) report(loaded);
};
