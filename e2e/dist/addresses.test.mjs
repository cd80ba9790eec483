// Links of the site's first form, #/slug?state, read in Node as a browser
// reads them: every one the lessons, README and docs hold, and a few with
// state. The script at the top of every page (run here in a vm, with the
// page's own meta tags) sends each to the page's own address with the same
// state, slug/#state, before anything else runs; on a page already open the
// page itself (web/state/address.js oldLink, on hashchange) reads it the same way.
// Landing there is then a visit to that address: e2e/web/pages.test.mjs
// follows a few in Chromium. The build (internal/site/address.go oldLink)
// writes the lessons' own links of that form as page addresses: each must
// name the same address. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { parseHTML } from 'linkedom';
import { dist, root, siteIndex } from '../web/harness.mjs';
import { oldLink, pageAddress } from '../../web/state/address.js';

const index = siteIndex();
const site = new URL('https://dpplay.github.io/dpplay/');

/**
 * oldLinks are links of the site's first form: every one the lessons hold
 * (their Markdown links to each other that way), those the README and docs
 * held (a figure's state, the about page), and a few with state.
 */
const oldLinks = [...new Set([
  ...fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md'))
    .flatMap((f) => [...fs.readFileSync(path.join(root, 'lessons', f), 'utf8').matchAll(/\]\((#\/[^)\s]*)\)/g)].map((m) => m[1])),
  ...['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
    .flatMap((f) => [...fs.readFileSync(path.join(root, f), 'utf8').matchAll(/'(#\/[a-z0-9-]+\?[^'\s]*)'/g)].map((m) => m[1])),
  '#/what-epsilon-promises?band.eps=2&band.scale=broken', '#/about', '#/', '#/exponential-mechanism?meet.eps=0.5&meet.seed=7&meet.step=3',
  '#/report-noisy-max?rnm.eps=2&budget.log=hh',
])].filter((h) => h !== '#/slug');

/**
 * headScript(page, url) runs the inline script at the top of dist/page (an
 * HTML file) as a browser would at address url, and returns where it sent
 * the browser: {replace} for a new page load, {pushed} for the same page
 * with a new address, or {} for neither.
 */
function headScript(page, url) {
  const { document } = parseHTML(fs.readFileSync(path.join(dist, page), 'utf8'));
  const code = [...document.querySelectorAll('head script:not([src])')].find((s) => !s.type)?.textContent;
  assert.ok(code, `${page} has its inline head script`);
  const where = new URL(url);
  const out = {};
  const window = {};
  vm.runInNewContext(code, {
    URL,
    window,
    Object,
    document: { querySelector: (sel) => document.querySelector(sel) },
    location: { href: where.href, hash: where.hash, pathname: where.pathname, replace: (to) => { out.replace = to; } },
    history: { replaceState: (_, __, to) => { out.pushed = to; } },
    Worker: class { constructor() { throw new Error('no worker here'); } },
    requestAnimationFrame: () => {},
    setTimeout: () => {},
  });
  return out;
}

/** target(old) is the page's own address that old names: slug/#state, below the site. */
function target(old) {
  const [, slug, state = ''] = /^#\/([a-z0-9-]*)\/?(?:\?(.*))?$/.exec(old);
  return new URL((slug ? `${slug}/` : '') + (state ? `#${state}` : ''), site).href;
}

test(`old links (${oldLinks.length} of them, from the lessons, README and docs) go to the page's own address with the same state`, () => {
  assert.ok(oldLinks.length >= 12, `${oldLinks.length} old links`);
  for (const old of oldLinks) {
    const want = target(old);
    // Opened at the site's root: a new page load, unless it names the root itself.
    const atRoot = headScript('index.html', new URL(old, site).href);
    if (new URL(want).pathname === site.pathname) assert.equal(atRoot.pushed, want, `${old} at the root`);
    else assert.equal(atRoot.replace, want, `${old} at the root`);
    // Opened on a lesson's page.
    const onLesson = headScript(`${index.lessons[0].slug}/index.html`, new URL(`${index.lessons[0].slug}/${old}`, site).href);
    const same = new URL(want).pathname === new URL(`${index.lessons[0].slug}/`, site).pathname;
    assert.equal(same ? onLesson.pushed : onLesson.replace, want, `${old} on ${index.lessons[0].slug}/`);
    // Set on a page already open, the page reads it the same way.
    const read = oldLink(old);
    assert.deepEqual(read.notes, [], `${old}: notes`);
    assert.equal(new URL(pageAddress(read.slug, read.hash), site).href, want, `${old}, read by the page`);
  }
});

test('an old link to a lesson that does not exist is left to the page, which says so', () => {
  assert.deepEqual(headScript('index.html', new URL('#/no-such-lesson?x=1', site).href), {});
  assert.deepEqual(headScript('index.html', new URL('#/exponential-mechanism', site).href), { replace: new URL('exponential-mechanism/', site).href });
});

test('the build writes every old link a lesson holds as the address the head script and the page send it to', () => {
  let n = 0;
  for (const f of fs.readdirSync(path.join(root, 'lessons')).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    const md = fs.readFileSync(path.join(root, 'lessons', f), 'utf8');
    const slug = /^slug:\s*(\S+)/m.exec(md)[1];
    const at = new URL(`${slug}/`, site);
    const { document } = parseHTML(fs.readFileSync(path.join(dist, slug, 'index.html'), 'utf8'));
    const hrefs = new Set([...document.querySelectorAll('main a[href]')].map((a) => new URL(a.getAttribute('href'), at).href));
    assert.ok(![...hrefs].some((h) => h.includes('#/')), `${slug}/ still holds a link of the first form`);
    for (const [, old] of md.matchAll(/\]\((#\/[^)\s]*)\)/g)) {
      assert.ok(hrefs.has(target(old)), `${f}: ${old} is not written as ${target(old)}`);
      n++;
    }
  }
  assert.ok(n >= 12, `${n} old links in the lessons`);
});
