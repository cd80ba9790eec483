// The embed page's address (web/embed/embedlink.js) in Node: what embedAddress and
// lessonAddress write, readEmbed and parseState read back, for random values
// and settings; malformed fragments give notes, never an exception; the
// iframe snippet carries no markup from its inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embedAddress, lessonAddress, readEmbed, iframeSnippet, VIEW } from '../../web/embed/embedlink.js';
import { parseState } from '../../web/state/address.js';
import { seeded } from './seeded.mjs';

const root = new URL('https://example.github.io/dpplay/');

const PIECES = ['0.5', '1e-3', '-2', '7', 'a', ',', '&', '=', '#', '?', '/', '%', '%zz', ' ', 'ε', '"', '<b>', '+', '|', '😀'];

test('the examples of the contract', () => {
  const url = embedAddress(root, 'exponential-mechanism', 'meet', { eps: 0.5, seed: 7 }, { hide: ['eps', 'seed'], lock: ['n'], caption: false, table: false, theme: 'dark' });
  assert.equal(url, 'https://example.github.io/dpplay/embed.html#/exponential-mechanism/meet?eps=0.5&seed=7&hide=eps,seed&lock=n&caption=0&table=0&theme=dark');
  assert.equal(embedAddress(root, 'a-b', 'w', {}, {}), 'https://example.github.io/dpplay/embed.html#/a-b/w');
  assert.equal(lessonAddress(root, 'exponential-mechanism', 'meet', new Map([['eps', '0.5']]), { lock: ['eps'] }),
    'https://example.github.io/dpplay/exponential-mechanism/#meet.eps=0.5&meet.lock=eps');
});

test('readEmbed reads back what embedAddress writes, and lessonAddress what parseState reads', () => {
  const random = seeded(32);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  for (let i = 0; i < 2000; i++) {
    const values = new Map();
    for (let n = Math.floor(random() * 5); n > 0; n--) {
      let v = '';
      for (let m = 1 + Math.floor(random() * 3); m > 0; m--) v += pick(PIECES);
      values.set(pick(['eps', 'seed', 'n', 'data', 'k']), v);
    }
    const opts = { hide: random() < 0.5 ? ['eps'] : [], lock: random() < 0.5 ? ['seed', 'n'] : [], caption: random() < 0.5, table: random() < 0.5, theme: pick(VIEW.theme) };
    const r = readEmbed(new URL(embedAddress(root, 'some-lesson', 'w1', values, opts)).hash);
    const want = new Map(values);
    if (opts.hide.length) want.set('hide', opts.hide.join(','));
    if (opts.lock.length) want.set('lock', opts.lock.join(','));
    assert.deepEqual(r.notes, []);
    assert.equal(r.slug, 'some-lesson');
    assert.equal(r.id, 'w1');
    assert.deepEqual([...r.params], [...want]);
    assert.deepEqual(r.view, { caption: opts.caption, table: opts.table, theme: opts.theme });
    const lesson = parseState(new URL(lessonAddress(root, 'some-lesson', 'w1', values, opts)).hash);
    assert.deepEqual([...lesson.params], [...want].map(([k, v]) => [`w1.${k}`, v]));
  }
});

test('a fragment readEmbed cannot read gives notes, never an exception', () => {
  const random = seeded(7);
  const bits = ['#', '/', '?', '&', '=', '%', '%E2%82', 'a', 'B', '-', '..', 'caption', 'theme', 'hide', '0', '1', 'dark', '\u0000', '😀'];
  for (let i = 0; i < 5000; i++) {
    let h = '';
    for (let n = Math.floor(random() * 12); n > 0; n--) h += bits[Math.floor(random() * bits.length)];
    const r = readEmbed(h);
    assert.ok(typeof r.slug === 'string' && typeof r.id === 'string' && Array.isArray(r.notes));
    if (r.slug) assert.match(r.slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    if (r.id) assert.match(r.id, /^[A-Za-z0-9_-]{1,64}$/);
    assert.ok(VIEW.theme.includes(r.view.theme));
  }
  assert.equal(readEmbed('#/../x').slug, '');
  assert.match(readEmbed('#/a/b?theme=pink').notes[0], /theme: “pink” is not one of system, light, dark/);
  assert.equal(readEmbed('#/a/b?theme=pink').view.theme, 'system');
});

test('iframeSnippet escapes its inputs and asks for nothing', () => {
  const s = iframeSnippet('https://x.test/embed.html#/a/b?x="><script>', 'A "title" <b>', 99999);
  assert.doesNotMatch(s, /<script|<b>|"><s|sandbox|allow=/);
  assert.match(s, /^<iframe src="[^"]*" title="A &quot;title&quot; &lt;b&gt;" width="100%" height="4000" [^>]*loading="lazy"><\/iframe>$/);
});
