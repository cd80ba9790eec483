// Search across the lessons: search.json, built with the site, ranked with typos forgiven.
//
// Every word of the query must occur in a section's heading or text, as
// written or, for a word of five letters or more, a typo or two away.
// The results are links built by textContent from the index's text.
import { pageAddress } from '../state/address.js';
import { el } from '../base/dom.js';
import { $, root as site } from '../lesson/current.js';

let entries = null;
const fold = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const wordsOf = (s) => s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);

async function loadIndex() {
  if (!entries) {
    entries = fetch(new URL('search.json', site)).then((r) => {
      if (!r.ok) throw new Error(`search.json: HTTP ${r.status}`);
      return r.json();
    }).then((list) => list.map((e) => {
      const hf = fold(e.h), tf = fold(e.t);
      return { ...e, hf, tf, words: new Set(wordsOf(`${hf} ${tf}`)) };
    }));
  }
  return entries;
}

/**
 * near(a, b, k) reports whether a and b are at most k edits apart, an edit
 * being a letter inserted, deleted, changed or two neighbours swapped
 * (Damerau–Levenshtein, restricted).
 */
export function near(a, b, k) {
  if (Math.abs(a.length - b.length) > k) return false;
  let prev2 = null, prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > k) return false;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length] <= k;
}

/** typos(w) is how many edits a query word of w's length may be away from a word of the text: none under 5 letters, one, two from 9. */
const typos = (w) => (w.length < 5 ? 0 : w.length < 9 ? 1 : 2);

/**
 * rank returns the best entries for query, each {e, s, w}: every word must
 * occur in the entry's heading or text, as written or, for a word of five
 * letters or more, as a word a typo or two away ("sensitivty"); a heading
 * counts more than the text, and a word as written more than a near one. w
 * lists what matched each query word, for the snippet.
 */
export function rank(list, query, max = 8) {
  const words = wordsOf(fold(query));
  if (!words.length) return [];
  // The text's words near each query word, looked up once for all entries.
  const vocabulary = new Set();
  for (const e of list) for (const x of e.words) vocabulary.add(x);
  const close = words.map((w) => [...vocabulary].filter((x) => typos(w) && x !== w && near(w, x, typos(w))));
  const hits = [];
  for (const e of list) {
    let s = 0;
    const found = [];
    for (const [k, w] of words.entries()) {
      const inH = e.hf.includes(w);
      const inT = e.tf.includes(w);
      if (inH || inT) {
        s += (inH ? 5 : 0) + (inT ? 1 : 0) + (e.i ? 0 : 1);
        found.push(w);
        continue;
      }
      const x = close[k].find((c) => e.words.has(c));
      if (x === undefined) { s = -1; break; }
      s += (e.hf.includes(x) ? 3 : 0) + 0.5;
      found.push(x);
    }
    if (s > 0) hits.push({ e, s, w: found });
  }
  hits.sort((a, b) => b.s - a.s);
  return hits.slice(0, max);
}

function snippet(e, words) {
  const at = Math.max(0, ...words.map((w) => e.tf.indexOf(w)).filter((i) => i >= 0).slice(0, 1));
  const start = Math.max(0, at - 40);
  return (start ? '… ' : '') + e.t.slice(start, start + 150) + (start + 150 < e.t.length ? ' …' : '');
}

/** setupSearch wires the search box: its results are links to the section found. */
export function setupSearch(form, index) {
  const input = $('input', form);
  const out = $('.search-results', form);
  const status = $('.search-status', form);
  const titles = new Map(index.lessons.concat(index.pages || []).map((l) => [l.slug, l.title]));
  let seq = 0;
  const run = async () => {
    const call = ++seq;
    const q = input.value.trim();
    if (q.length < 2) { out.replaceChildren(); status.textContent = ''; return; }
    let list;
    try { list = await loadIndex(); } catch (err) { status.textContent = `Search is unavailable (${err.message}).`; return; }
    if (call !== seq) return;
    const hits = rank(list, q);
    out.replaceChildren(...hits.map(({ e, w }) => {
      const li = el('li');
      const a = el('a');
      a.href = new URL(pageAddress(e.s, e.i ? `#${e.i}` : ''), site).href;
      a.append(el('span', { class: 'search-lesson' }, titles.get(e.s) || e.s));
      if (e.i) a.append(el('span', { class: 'search-heading' }, e.h));
      a.append(el('span', { class: 'search-snippet' }, snippet(e, w)));
      a.addEventListener('click', () => { input.value = ''; out.replaceChildren(); status.textContent = ''; });
      li.append(a);
      return li;
    }));
    status.textContent = hits.length ? `${hits.length} result${hits.length > 1 ? 's' : ''}` : 'Nothing found.';
  };
  input.addEventListener('input', run);
  input.addEventListener('focus', () => { loadIndex().catch(() => {}); }, { once: true });
  form.addEventListener('submit', (e) => { e.preventDefault(); $('a', out)?.click(); });
}
