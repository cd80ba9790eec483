// Facts about the built site that need no layout, read from dist/'s files
// in Node (linkedom parses the pages): every lesson's parts, its page's
// title, description, canonical address and link preview, the sitemap,
// what a reader without JavaScript gets in the markup, links
// that lead somewhere, the landing page's lesson map, the handout, the
// manifest and icons, the search index, recordings that hold no engine
// state, and colour schemes that change colours only. The formulas are
// e2e/dist/mathml.test.mjs's. What needs a browser's layout is e2e/web/sweep.test.mjs's.
// Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { dist, siteIndex } from '../web/harness.mjs';
import { serve } from '../web/server.mjs';

const index = siteIndex();
const lessons = index.lessons;
const all = lessons.concat(index.pages || []);
const read = (file) => fs.readFileSync(path.join(dist, file), 'utf8');
const docs = new Map();
/** doc(file) is the parsed document of dist/file. */
const doc = (file) => {
  if (!docs.has(file)) docs.set(file, parseHTML(read(file)).document);
  return docs.get(file);
};
const pageOf = (slug) => (slug ? `${slug}/index.html` : 'index.html');
const count = (d, sel) => d.querySelectorAll(sel).length;
const meta = (d, sel) => d.querySelector(sel)?.getAttribute('content');
/** pngSize(bytes) is [width, height] from a PNG's header, or null. */
const pngSize = (b) => (b.subarray(1, 4).toString() === 'PNG' ? [b.readUInt32BE(16), b.readUInt32BE(20)] : null);
const base = doc('index.html').querySelector('link[rel=canonical]').getAttribute('href');

test('every lesson has widgets, a prediction, a checked exercise, instructor notes, objectives, MathML and references', () => {
  for (const l of lessons) {
    const d = doc(pageOf(l.slug));
    const f = (sel) => count(d, sel);
    assert.ok(f('#lesson figure.widget') > 0, `${l.slug} has widgets`);
    assert.ok(f('section.predict') >= 1, `${l.slug} has a predict-then-reveal question`);
    assert.ok(f('section.exercise') >= 1, `${l.slug} has a checked exercise`);
    assert.equal(f('details.notes'), 1, `${l.slug} has instructor notes`);
    assert.ok(f('.objectives li') >= 2, `${l.slug} has learning objectives`);
    assert.ok(f('math') > 0, `${l.slug} has MathML`);
    assert.equal(f('section.predict'), l.predicts, `${l.slug}: the index counts its predictions`);
    assert.equal(f('section.exercise'), l.exercises, `${l.slug}: the index counts its exercises`);
    assert.ok(d.querySelector('h2#references')?.textContent === 'References', `${l.slug} ends with references`);
    assert.doesNotMatch(read(pageOf(l.slug)), /textbook notebook makes|The encyclopedia article gives/, `${l.slug} names its sources`);
  }
});

test('every page has its title, description, canonical address and link preview; the sitemap lists them all', async () => {
  assert.ok(base, 'the build names the site\'s address (make site passes BASE_URL)');
  assert.equal(new URL(base).pathname, '/dpplay/', 'make site builds for a site at /dpplay/ (BASE_URL)');
  const pages = [['', 'dpplay — a differential privacy playground'], ...all.map((l) => [`${l.slug}/`, `${l.title} — dpplay`]), ['handout/', null]];
  for (const [p, title] of pages) {
    const d = doc(`${p}index.html`);
    if (title) assert.equal(d.querySelector('title').textContent, title);
    const l = all.find((x) => `${x.slug}/` === p);
    if (l) assert.equal(meta(d, 'meta[name=description]'), l.summary);
    assert.ok(meta(d, 'meta[name=description]')?.length >= 40, `${p}: a description`);
    assert.equal(d.querySelector('link[rel=canonical]').getAttribute('href'), base + p);
    assert.equal(meta(d, 'meta[property="og:url"]'), base + p);
    for (const k of ['og:title', 'og:description', 'og:image:alt', 'og:type']) assert.ok(meta(d, `meta[property="${k}"]`), `${p}: ${k}`);
    assert.equal(meta(d, 'meta[name="twitter:card"]'), 'summary_large_image');
    const image = meta(d, 'meta[property="og:image"]');
    assert.ok(image.startsWith(base), `${p}: the image's address is absolute`);
    // A lesson's card is its first figure; a page without one shows the site's.
    if (l && l.widgets?.length && l.slug !== 'about') assert.equal(image, `${base}og/${l.slug}.png`);
    assert.deepEqual(pngSize(fs.readFileSync(path.join(dist, image.slice(base.length)))), [1200, 630], `${image} is 1200 × 630`);
  }
  assert.deepEqual([...read('sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]).sort(), pages.map(([p]) => base + p).sort());
  assert.match(read('robots.txt'), new RegExp(`^User-agent: \\*\\nAllow: /\\nSitemap: ${base}sitemap.xml\\n$`));
});

test('the tests\' server answers as GitHub Pages does: a directory\'s address without its / redirects, a missing page is the 404 page', async () => {
  const site = await serve(dist, '/dpplay/');
  try {
    const bare = await fetch(`${site.url}${lessons[0].slug}`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), `/dpplay/${lessons[0].slug}/`);
    const missing = await fetch(`${site.url}nothing-here/`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /not here/);
  } finally {
    await site.close();
  }
});

test('without JavaScript every lesson\'s markup holds its text, drawings, questions and a note that the controls need JavaScript', () => {
  for (const l of lessons) {
    const d = doc(pageOf(l.slug));
    const article = d.querySelector('#lesson article');
    assert.equal(d.querySelector('h1').textContent, l.title);
    for (const s of article.querySelectorAll('script, style')) s.remove();
    const words = article.textContent.split(/\s+/).filter(Boolean).length;
    assert.ok(words > 400, `${l.slug}: ${words} words`);
    const figs = [...d.querySelectorAll('#lesson figure.widget')];
    assert.deepEqual(figs.filter((f) => !f.querySelector('.widget-noscript')).map((f) => f.id), [], `${l.slug}: widgets without a note that they need JavaScript`);
    assert.ok(figs.some((f) => f.querySelector('.chart-svg svg, img.widget-card')), `${l.slug}: no pre-rendered chart or figure card`);
    for (const ex of d.querySelectorAll('#lesson section.exercise')) {
      assert.ok(ex.textContent.trim().length > 40, `${l.slug} #${ex.id}: the question`);
      assert.ok(ex.querySelector('.exercise-noscript'), `${l.slug} #${ex.id}: a note that checking needs JavaScript`);
    }
    for (const p of d.querySelectorAll('#lesson section.predict')) assert.ok(p.querySelector('.reveal')?.textContent.trim(), `${l.slug} #${p.id}: its explanation`);
    const pager = [...d.querySelectorAll('.pager a')].map((a) => a.getAttribute('href'));
    assert.ok(pager.length >= 1 && pager.every((h) => /^\.\.\/[a-z0-9-]+\/$/.test(h)), `${l.slug}: links to its neighbours ${pager}`);
  }
});

test('every link and resource address in every page leads to a file of the site', () => {
  const files = ['index.html', '404.html', 'handout/index.html', 'embed.html', 'lecture.html', 'machine.html', ...all.map((l) => pageOf(l.slug))];
  const broken = [];
  let checked = 0;
  for (const file of files) {
    const d = doc(file);
    // Addresses are read as the published site reads them: below its address (BASE_URL).
    const at = new URL(file, base);
    for (const el of d.querySelectorAll('a[href], link[href], script[src], img[src], iframe[src]')) {
      const raw = el.getAttribute('href') ?? el.getAttribute('src');
      const u = new URL(raw, at);
      if (u.origin !== at.origin || !u.pathname.startsWith(new URL(base).pathname)) continue;
      let p = decodeURIComponent(u.pathname.slice(new URL(base).pathname.length));
      if (p === '' || p.endsWith('/')) p += 'index.html';
      checked++;
      if (!fs.existsSync(path.join(dist, p))) broken.push(`${file}: ${raw}`);
      else if (u.hash.length > 1 && !u.hash.includes('=') && !u.hash.startsWith('#/') && p.endsWith('.html') && !doc(p).getElementById(decodeURIComponent(u.hash.slice(1)))) broken.push(`${file}: ${raw} (no such id)`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 500, `only ${checked} addresses checked`);
});

test('the landing page lists every lesson with its summary, length and prerequisites', () => {
  const d = doc('index.html');
  assert.match(d.querySelector('h1').textContent, /Learn differential privacy/);
  const items = [...d.querySelectorAll('.lesson-map .map-item')];
  assert.equal(items.length, lessons.length, 'one map entry per lesson');
  for (const [i, l] of lessons.entries()) {
    const item = items[i];
    assert.equal(item.querySelector('.map-title a').getAttribute('href'), `${l.slug}/`);
    assert.equal(item.querySelector('.map-summary').textContent.trim(), l.summary);
    if (l.minutes) assert.match(item.querySelector('.map-meta').textContent, new RegExp(`About ${l.minutes} minutes`));
    assert.equal(item.querySelectorAll('.map-requires a').length, (l.requires || []).length, `${l.slug}: prerequisites`);
  }
});

test('the about page names the sources and licences', () => {
  const text = doc('about/index.html').querySelector('#lesson').textContent.replace(/\s+/g, ' ');
  for (const want of ['Near and Chiké Abuah', 'Steven Wu', 'Katrina Ligett', 'McSherry and Kunal Talwar', 'Becker and Ronny Kohavi', 'Apache License 2.0', 'Creative Commons Attribution 4.0']) {
    assert.ok(text.includes(want), `the about page names ${want}`);
  }
});

test('the course handout has every lesson and every answer shown, and no script', () => {
  const d = doc('handout/index.html');
  assert.equal(count(d, 'article.lesson'), lessons.length);
  assert.equal(count(d, '.reveal-button, script'), 0, 'reveal buttons or scripts in the handout');
  // Each widget points to its lesson; the build's drawings stay in the lessons.
  assert.equal(count(d, '.handout-widget'), count(d, 'figure.widget'));
  assert.equal(count(d, '[data-prerendered], script.widget-calls'), 0, 'pre-rendered widgets in the handout');
  assert.equal(count(d, '.reveal[hidden]'), 0, 'every explanation shown');
  assert.equal(count(d, '.choice.is-correct'), lessons.reduce((s, l) => s + (l.predicts || 0), 0), 'each prediction marks its answer');
});

test('the manifest and its icons', () => {
  const d = doc('index.html');
  const manifest = JSON.parse(read(d.querySelector('link[rel=manifest]').getAttribute('href')));
  assert.equal(manifest.start_url, './');
  assert.equal(manifest.display, 'standalone');
  assert.ok(manifest.icons.length >= 3);
  for (const icon of manifest.icons) {
    const bytes = fs.readFileSync(path.join(dist, icon.src));
    const size = icon.src.endsWith('.svg') ? (/^<svg|^<\?xml/.test(bytes.toString().trimStart()) && 'any') : pngSize(bytes)?.join('x');
    assert.equal(size, icon.sizes, `${icon.src} is ${icon.sizes}`);
  }
});

test('the search index holds text, not data', () => {
  const search = read('search.json');
  assert.doesNotMatch(search, /Float64Array|widget-calls|Loading the interactive/);
  assert.ok(search.length < 200000, `search.json is ${search.length} bytes`);
});

test('there are pre-rendered lessons, the first among them, and no recording holds engine state', () => {
  const pre = lessons.filter((l) => read(pageOf(l.slug)).includes('pre-wide')).map((l) => l.slug);
  assert.ok(pre.includes(lessons[0].slug), `pre-rendered: ${pre.join(', ')}`);
  // SmallDB's first call opens a run in the engine: it keeps its placeholder.
  const sdb = doc(pageOf('small-database')).getElementById('w-sdb');
  assert.ok(sdb, 'SmallDB is on its lesson');
  assert.equal(sdb.querySelectorAll('script.widget-calls').length, 0);
  for (const l of lessons) {
    for (const s of doc(pageOf(l.slug)).querySelectorAll('script.widget-calls')) {
      for (const [key, result] of JSON.parse(s.textContent)) assert.ok(!(result && typeof result === 'object' && 'handle' in result), `${l.slug}: ${key} returns a handle`);
    }
  }
});

// The sweep audits a page's dark scheme with the colour rules only
// (e2e/web/harness.mjs COLOUR_RULES): that holds while a scheme changes
// colours and nothing else. Every rule under a prefers-color-scheme query,
// in every style sheet, sets custom properties only (the colours the rest
// of the sheet uses), and no script reads the query but the theme switch.
test('a colour scheme changes colours only: its rules set custom properties', () => {
  const sheets = fs.readdirSync(dist).filter((f) => f.endsWith('.css'));
  assert.ok(sheets.includes('styles.css'), `style sheets: ${sheets}`);
  let blocks = 0;
  for (const file of sheets) {
    const css = read(file).replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of css.matchAll(/@media[^{]*prefers-color-scheme[^{]*\{/g)) {
      // The block's body, to its matching brace.
      let depth = 1, i = m.index + m[0].length;
      const start = i;
      for (; depth > 0 && i < css.length; i++) depth += css[i] === '{' ? 1 : css[i] === '}' ? -1 : 0;
      const body = css.slice(start, i - 1);
      for (const [, selector, decls] of body.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
        for (const decl of decls.split(';').map((d) => d.trim()).filter(Boolean)) {
          assert.match(decl, /^--[\w-]+\s*:/, `${file}: under ${m[0].trim()} ${selector.trim()} sets ${decl}, not a custom property`);
        }
      }
      blocks++;
    }
  }
  assert.ok(blocks >= 3, `${blocks} prefers-color-scheme blocks found`);
  const web = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
  const scripts = fs.readdirSync(web, { recursive: true }).filter((f) => f.endsWith('.js') && fs.readFileSync(path.join(web, f), 'utf8').includes('prefers-color-scheme'));
  assert.deepEqual(scripts, ['page/theme.js'], 'the page\'s modules that read prefers-color-scheme');
});
