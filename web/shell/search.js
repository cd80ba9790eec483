// What the site offers around the lessons: the landing page's progress and
// "continue", progress marks in the lesson list, the colour theme (system,
// light or dark), the share button, the scroll position restored on Back,
// and search across the lessons (search.json, built with the site).
// Text from storage, the index or the URL enters the page by textContent.
import { score, lastLesson, lessonProgress, clearProgress } from './progress.js';
import { pageAddress } from './state.js';
import { root as site } from './current.js';
import { THEMES, applyTheme } from './theme.js';
import { pin } from './scrollkeep.js';

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- Progress on the landing page and in the lesson list -----------------

function progressText({ done, total }) {
  if (!total) return '';
  if (!done) return '';
  return done >= total ? `Done: all ${total} questions answered` : `${done} of ${total} questions answered`;
}

/** markProgress updates the lesson list's marks from stored progress. */
export function markProgress(index) {
  for (const l of index.lessons) {
    const a = document.querySelector(`#lesson-nav a[data-slug="${l.slug}"]`);
    if (!a) continue;
    const s = score(l);
    a.classList.toggle('is-started', s.done > 0 && s.done < s.total);
    a.classList.toggle('is-done', s.total > 0 && s.done >= s.total);
    let mark = $('.nav-progress', a);
    if (!mark) { mark = el('span', 'visually-hidden nav-progress'); a.append(mark); }
    mark.textContent = s.done ? ` (${progressText(s).toLowerCase()})` : '';
  }
}

/** decorateLanding fills in progress and "continue where you left off". */
export function decorateLanding(root, index) {
  let done = 0;
  let total = 0;
  for (const l of index.lessons) {
    const s = score(l);
    done += s.done;
    total += s.total;
    const p = root.querySelector(`[data-progress="${l.slug}"]`);
    if (!p) continue;
    p.replaceChildren();
    if (!s.done) continue;
    const bar = el('progress');
    bar.max = s.total;
    bar.value = s.done;
    bar.setAttribute('aria-hidden', 'true');
    p.append(bar, el('span', '', progressText(s)));
    p.closest('.map-item')?.classList.toggle('is-done', s.done >= s.total);
  }
  const all = $('#progress-all', root);
  if (all && done) {
    all.hidden = false;
    $('.progress-all-text', all).textContent = `On this device you have answered ${done} of the course's ${total} questions.`;
    $('#forget-progress', all).addEventListener('click', () => {
      clearProgress();
      location.reload();
    });
  }
  // The offer to keep every lesson offline, where the service worker left some out.
  if (/^https?:$/.test(location.protocol)) import('./offline.js').then((m) => m.offerOffline(root, index)).catch(() => {});
  const last = lastLesson();
  const link = $('#continue-link', root);
  const lesson = last && index.lessons.concat(index.pages || []).find((l) => l.slug === last.slug);
  if (link && lesson) {
    link.href = new URL(pageAddress(last.slug, last.hash), site).href;
    $('.continue-title', link).textContent = lesson.title;
    link.hidden = false;
  }
}

/** restoreLesson shows a lesson's stored predictions and exercise answers. reveal(section, choice) reveals one prediction. */
export function restoreLesson(slug, reveal) {
  const stored = lessonProgress(slug);
  for (const [id, choice] of Object.entries(stored.predicts)) {
    const sec = document.getElementById(id);
    if (!sec?.matches('section.predict')) continue;
    const input = sec.querySelector(`input[type=radio][value="${choice}"]`);
    if (input) input.checked = true;
    reveal(sec);
  }
  for (const [id, ex] of Object.entries(stored.exercises)) {
    const sec = document.getElementById(id);
    if (!sec?.matches('section.exercise')) continue;
    $('input', sec).value = ex.value;
    const out = $('.exercise-result', sec);
    out.textContent = (ex.ok ? '✓ ' : '✗ ') + ex.message;
    out.className = 'exercise-result ' + (ex.ok ? 'ok' : 'bad');
  }
}

// ---- Colour theme ----------------------------------------------------------
export function setupTheme(button) {
  let theme = 'system';
  try { theme = localStorage.getItem('dpplay-theme') || 'system'; } catch { /* no storage */ }
  if (!THEMES.includes(theme)) theme = 'system';
  const show = () => {
    applyTheme(theme);
    $('.label', button).textContent = `Theme: ${theme}`;
    button.title = `Colour theme: ${theme === 'system' ? 'as the system' : theme} (click to change)`;
  };
  button.addEventListener('click', () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
    try { localStorage.setItem('dpplay-theme', theme); } catch { /* no storage */ }
    show();
  });
  show();
}

// ---- Share ---------------------------------------------------------------

export function setupShare(button, status) {
  button.addEventListener('click', async () => {
    const url = location.href;
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: document.title, url }); return; } catch (err) { if (err.name === 'AbortError') return; }
    }
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = 'Link copied: it opens this page with every setting as it is now.';
    } catch {
      status.textContent = 'Copy the address from the address bar: it holds every setting.';
    }
    clearTimeout(status.timer);
    status.timer = setTimeout(() => { status.textContent = ''; }, 4000);
  });
}

// ---- Scroll position on Back ------------------------------------------------
// Each history entry keeps its scroll position in history.state; a lesson
// shown from an entry that has one (Back, Forward, reload) returns there. The
// place is kept as the block of the lesson at the top of the screen and how
// far it was from the top, since the blocks above it need not have the
// heights they had when the reader left (a widget mounted or not, drawn at
// other settings, a lesson built again).

export function setupScrollMemory(settled) {
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  let timer = 0;
  addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // While a lesson loads, its height and so scrollY are not yet its own.
      if (settled()) saveScroll();
    }, 150);
  }, { passive: true });
}

/** topBlock() is [i, top]: the index of the lesson's first block still on screen, and its distance from the top (px, ≤ 0). */
function topBlock() {
  const blocks = document.querySelector('#lesson article')?.children || [];
  for (let i = 0; i < blocks.length; i++) {
    const r = blocks[i].getBoundingClientRect();
    if (r.bottom > 0) return [i, Math.round(r.top)];
  }
  return null;
}

/** saveScroll keeps the scroll position in this history entry. */
export function saveScroll() {
  history.replaceState({ ...(history.state || {}), scroll: Math.round(scrollY), at: topBlock() }, '');
}

/** restoreScroll scrolls to the place stored for this history entry; it returns whether there was one. */
export function restoreScroll() {
  const { scroll: y, at } = history.state || {};
  if (!Number.isFinite(y)) return false;
  const block = Array.isArray(at) && Number.isInteger(at[0]) && document.querySelector('#lesson article')?.children[at[0]];
  if (block && Number.isFinite(at[1])) pin(block, at[1]);
  else scrollTo(0, y);
  return true;
}

// ---- Search ------------------------------------------------------------------

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
      a.append(el('span', 'search-lesson', titles.get(e.s) || e.s));
      if (e.i) a.append(el('span', 'search-heading', e.h));
      a.append(el('span', 'search-snippet', snippet(e, w)));
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
