// Service worker: precaches the site on the first visit, so every lesson
// works offline afterwards (lecture-hall Wi-Fi fails). The build fills in
// VERSION (a hash of all files) and ASSETS (every file but the lazy wasm
// modules, relative to this script), so a new build replaces the cache in
// one step.
const VERSION = '__DPPLAY_VERSION__';
const ASSETS = ["__DPPLAY_ASSETS__"];
const CACHE = `dpplay-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(ASSETS.map((a) => new Request(a, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('dpplay-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  // The lecture API (if a server provides one) is live data: never cached.
  if (url.pathname.includes('/api/')) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    if (hit) return hit;
    try {
      const res = await fetch(req);
      // Lazy modules (figures, machine, heavy lessons) are left out of the
      // precache; keep each one after its first use so it works offline too.
      if (res.ok && url.pathname.endsWith('.wasm')) await cache.put(req, res.clone());
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
