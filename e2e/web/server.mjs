// A tiny static file server for the e2e tests and the bundle-size script:
// it serves dist/ under a sub-path (as GitHub Pages serves a project site at
// /<repo>/), with the content types the site relies on, and can be pointed at
// any directory. As GitHub Pages does, a directory serves its index.html (and
// its address without the closing / redirects to the one with it), and a
// missing page gets the site's 404.html with status 404.
// Usage as a module: const s = await serve('dist', '/dpplay/').
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

/**
 * serve(dir, prefix, opts) serves dir under prefix on a free port. opts.pages
 * serves as GitHub Pages does (gzip when asked for, Cache-Control max-age=600)
 * for the benchmarks; the tests use no-cache and no compression.
 */
export async function serve(dir, prefix = '/', { pages = false } = {}) {
  const root = path.resolve(dir);
  const gzipped = new Map(); // file → its gzip, computed once (the benchmarks time the page, not the server)
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    let p = decodeURIComponent(url.pathname);
    if (p === prefix.replace(/\/$/, '') && prefix !== '/') {
      res.writeHead(301, { Location: prefix });
      return res.end();
    }
    if (!p.startsWith(prefix)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('not under ' + prefix);
    }
    p = p.slice(prefix.length);
    if (p === '' || p.endsWith('/')) p += 'index.html';
    const file = path.resolve(root, p);
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403);
      return res.end();
    }
    if (await fs.stat(file).then((s) => s.isDirectory(), () => false)) {
      res.writeHead(301, { Location: `${url.pathname}/${url.search}` });
      return res.end();
    }
    try {
      let body = await fs.readFile(file);
      const headers = {
        'Content-Type': types[path.extname(file)] || 'application/octet-stream',
        'Cache-Control': pages ? 'max-age=600' : 'no-cache',
      };
      if (pages && /\bgzip\b/.test(req.headers['accept-encoding'] || '') && !/\.(png)$/.test(file)) {
        if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(body, { level: 6 }));
        body = gzipped.get(file);
        headers['Content-Encoding'] = 'gzip';
        headers.Vary = 'Accept-Encoding';
      }
      headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      const page = !path.extname(file) || file.endsWith('.html');
      const body = page ? await fs.readFile(path.join(root, '404.html')).catch(() => null) : null;
      res.writeHead(404, { 'Content-Type': body ? types['.html'] : 'text/plain' });
      res.end(body ?? 'not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => server.close(r)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await serve(process.argv[2] || 'dist', process.argv[3] || '/dpplay/');
  console.log(s.url);
}
