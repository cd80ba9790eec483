// What the engine tests run against: a copy of the built site in which every
// page that may load the site's own scripts loads the error probe first
// (probe.js), served by a real `dpplay serve` with a fresh SQLite file; and
// a tiny server on another port, the other site that frames a widget.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export const PROBE = '/__probe.js';

const CSP = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/;

/**
 * probeCopy(dist, dir) fills dir with dist: each HTML page whose
 * Content-Security-Policy lets it run the site's own scripts gets the probe
 * right after that meta tag, before any script of its own, and loses its
 * precompressed copies (dpplay serve would send those instead); every other
 * file is a hard link. The probe itself is dir/__probe.js.
 */
export function probeCopy(dist, dir) {
  const probed = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dist, rel), { withFileTypes: true })) {
      const name = path.join(rel, e.name);
      if (e.isDirectory()) {
        fs.mkdirSync(path.join(dir, name));
        walk(name);
      } else if (!e.name.endsWith('.html') || !probe(name)) {
        link(path.join(dist, name), path.join(dir, name));
      }
    }
  };
  const probe = (name) => {
    const html = fs.readFileSync(path.join(dist, name), 'utf8');
    const csp = html.match(CSP);
    const scripts = csp?.[1].split(';').map((d) => d.trim().split(/\s+/)).find(([d]) => d === 'script-src');
    if (!scripts?.includes("'self'")) return false;
    fs.writeFileSync(path.join(dir, name), html.replace(csp[0], `${csp[0]}<script src="${PROBE}"></script>`));
    probed.push(name);
    return true;
  };
  fs.mkdirSync(dir, { recursive: true });
  walk('');
  for (const name of probed) for (const ext of ['.br', '.gz']) fs.rmSync(path.join(dir, name + ext), { force: true });
  fs.copyFileSync(new URL('./probe.js', import.meta.url), path.join(dir, PROBE));
}

/** link(from, to) hard-links from at to, or copies it where a link cannot be made (another file system). */
function link(from, to) {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    if (err.code !== 'EXDEV' && err.code !== 'EPERM') throw err;
    fs.copyFileSync(from, to);
  }
}

/**
 * dpplayServe(bin, dir, db) starts `dpplay serve` on dir with the SQLite
 * file db on a free port and resolves, once it listens, to {url, stop}.
 */
export async function dpplayServe(bin, dir, db) {
  const proc = spawn(bin, ['serve', '-dir', dir, '-db', db, '-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (b) => {
      out += b;
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))).url);
    });
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`dpplay serve exited with ${code} before it listened`)));
  });
  proc.removeAllListeners('exit');
  return { url, stop: () => { proc.kill('SIGKILL'); } };
}

/**
 * otherSite() starts the other site, whose pages the tests set: {url,
 * page(name, html) → the page's address, close}. Its pages come from fixed
 * strings of the tests, never from what a browser sent.
 */
export async function otherSite() {
  const pages = new Map();
  const server = http.createServer((req, res) => {
    const page = pages.get(new URL(req.url, 'http://x').pathname);
    res.writeHead(page ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page || 'not here');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    page: (name, html) => { pages.set(`/${name}`, html); return url + name; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
