// The service worker: the site precached for offline use (a classic script).
//
// Service worker: precaches the site on the first visit, so every lesson
// works offline afterwards (lecture-hall Wi-Fi fails). The build fills in
// VERSION (a hash of all files), ASSETS (every page, by its address slug/,
// the shell's files and the core module) and EXTRAS (the other lessons'
// modules), relative to this script; the lazy extras (figure export, the
// sampling machine) and what only crawlers read (the sitemap, link preview
// images) are in neither. A new build replaces the cache in one step.
//
// The page registers this script as sw.js?lite on a metered or Save-Data
// connection (web/offline/offline.js). Then the install precaches ASSETS only, and
// EXTRAS wait until the reader asks for them (the message 'cache-all'),
// unless the reader asked for them before: that choice is kept in the cache
// KEEP, so that an update keeps every lesson offline.
const VERSION = '__DPPLAY_VERSION__';
const ASSETS = ["__DPPLAY_ASSETS__"];
const EXTRAS = ["__DPPLAY_EXTRAS__"];
const CACHE = `dpplay-${VERSION}`;
const KEEP = 'dpplay-keep-every-lesson';
importScripts('countbytes.js');

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const lite = new URL(self.location.href).searchParams.has('lite') && !(await caches.has(KEEP));
    await store(lite ? ASSETS : ASSETS.concat(EXTRAS));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('dpplay-') && key !== CACHE && key !== KEEP) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// missing(cache, files) lists the files of files that cache lacks.
async function missing(cache, files) {
  const out = [];
  for (const f of files) if (!(await cache.match(f))) out.push(f);
  return out;
}

// store(files) caches every file of files that the cache lacks, all or none.
async function store(files) {
  const cache = await caches.open(CACHE);
  await cache.addAll((await missing(cache, files)).map((f) => new Request(f, { cache: 'no-cache' })));
}

// storeEach(files, report) caches the files one by one (those already
// fetched stay cached if a later one fails) and calls report(loaded) with
// the decompressed bytes read so far, every 64 KB.
async function storeEach(files, report) {
  const cache = await caches.open(CACHE);
  let done = 0;
  for (const f of files) {
    const req = new Request(f, { cache: 'no-cache' });
    const res = await fetch(req);
    if (!res.ok) throw new Error(`${f}: HTTP ${res.status}`);
    const copy = res.clone();
    const putting = cache.put(req, res);
    let loaded = 0;
    await countBytes(copy.body, (n) => { loaded = n; report(done + n); }, 65536);
    await putting;
    done += loaded;
  }
}

// Messages from a page (web/offline/offline.js), each answered to its sender:
//   {type: 'status'} → {type: 'status', missing}: the EXTRAS not cached yet
//   {type: 'cache-all'} → {type: 'start', missing}, {type: 'progress', loaded}…,
//     then {type: 'cached'} or {type: 'failed', message}
self.addEventListener('message', (event) => {
  const tell = (msg) => event.source?.postMessage({ source: 'dpplay-sw', ...msg });
  const type = event.data?.type;
  if (type === 'status') {
    event.waitUntil((async () => tell({ type: 'status', missing: await missing(await caches.open(CACHE), EXTRAS) }))());
  } else if (type === 'cache-all') {
    event.waitUntil((async () => {
      try {
        const files = await missing(await caches.open(CACHE), EXTRAS);
        tell({ type: 'start', missing: files });
        await storeEach(files, (loaded) => tell({ type: 'progress', loaded }));
        await (await caches.open(KEEP)).put('every-lesson', new Response('yes'));
        tell({ type: 'cached' });
      } catch (err) {
        tell({ type: 'failed', message: String(err?.message || err) });
      }
    })());
  }
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  // The lecture API (if a server provides one) is live data: never cached.
  if (url.pathname.includes('/api/')) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A page is cached by its address, slug/, however it is asked for.
    const page = url.pathname.endsWith('/index.html') ? new URL('./', url).href : req;
    const hit = await cache.match(page, { ignoreSearch: true });
    if (hit) return hit;
    try {
      const res = await fetch(req);
      // Modules left out of the precache (figures, machine, and on a
      // metered connection the lessons' own) are kept after their first
      // use, so that they work offline too. The page gets the response at
      // once, so its progress bar and streaming compile start with the
      // download rather than after it.
      if (res.ok && url.pathname.endsWith('.wasm')) event.waitUntil(cache.put(req, res.clone()));
      return res;
    } catch (err) {
      if (req.mode === 'navigate') {
        const shell = await cache.match('./');
        if (shell) return shell;
      }
      throw err;
    }
  })());
});
