// What the site offers around the lessons: the landing page's progress and
// "continue", progress marks in the lesson list, the colour theme (system,
// light or dark), the share button, the scroll position restored on Back,
// and search across the lessons (search.json, built with the site).
// Text from storage, the index or the URL enters the page by textContent.
import { score, lastLesson, lessonProgress, clearProgress } from './progress.js';

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
    link.href = last.hash;
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
// "system" follows prefers-color-scheme; "light" and "dark" override it by
// rewriting the condition of every prefers-color-scheme rule in the page's
// stylesheets, so the palette stays defined once, in styles.css.
const THEMES = ['system', 'light', 'dark'];
const original = new WeakMap();
// Whether a rule has been rewritten: until then "system" needs no walk over
// the stylesheets, whose CSSOM costs a long task to build at page load.
let rewritten = false;

function applyTheme(theme) {
  if (theme !== 'system') rewritten = true;
  for (const sheet of rewritten ? document.styleSheets : []) {
    let rules;
    try { rules = sheet.cssRules; } catch { continue; }
    for (const rule of rules) {
      if (!(rule instanceof CSSMediaRule)) continue;
      if (!original.has(rule)) original.set(rule, rule.media.mediaText);
      const text = original.get(rule);
      const m = /\(\s*prefers-color-scheme:\s*(light|dark)\s*\)/.exec(text);
      if (!m) continue;
      if (theme === 'system') rule.media.mediaText = text;
      else rule.media.mediaText = m[1] === theme ? text.replace(m[0], '(min-width: 0px)') : 'not all';
    }
  }
  document.documentElement.style.colorScheme = theme === 'system' ? '' : theme;
  document.documentElement.dataset.theme = theme;
}

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
// shown from an entry that has one (Back, Forward, reload) returns there.

export function setupScrollMemory(settled) {
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  let timer = 0;
  addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // While a lesson loads, its height and so scrollY are not yet its own.
      if (!settled()) return;
      history.replaceState({ ...(history.state || {}), scroll: Math.round(scrollY) }, '');
    }, 150);
  }, { passive: true });
}

/** restoreScroll scrolls to the position stored for this history entry; it returns whether there was one. */
export function restoreScroll() {
  const y = history.state?.scroll;
  if (!Number.isFinite(y)) return false;
  scrollTo(0, y);
  return true;
}

// ---- Search ------------------------------------------------------------------

let entries = null;
const fold = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

async function loadIndex() {
  if (!entries) {
    entries = fetch('search.json').then((r) => {
      if (!r.ok) throw new Error(`search.json: HTTP ${r.status}`);
      return r.json();
    }).then((list) => list.map((e) => ({ ...e, hf: fold(e.h), tf: fold(e.t) })));
  }
  return entries;
}

/** search returns the best entries for query: all words must occur; heading hits count more. */
export function rank(list, query, max = 8) {
  const words = fold(query).split(/\s+/).filter((w) => w.length > 1);
  if (!words.length) return [];
  const hits = [];
  for (const e of list) {
    let s = 0;
    for (const w of words) {
      const inH = e.hf.includes(w);
      const inT = e.tf.includes(w);
      if (!inH && !inT) { s = -1; break; }
      s += (inH ? 5 : 0) + (inT ? 1 : 0) + (e.i ? 0 : 1);
    }
    if (s > 0) hits.push({ e, s, w: words });
  }
  hits.sort((a, b) => b.s - a.s);
  return hits.slice(0, max);
}

function snippet(e, words) {
  const at = Math.max(0, ...words.map((w) => e.tf.indexOf(w)).filter((i) => i >= 0).slice(0, 1));
  const start = Math.max(0, at - 40);
  return (start ? '… ' : '') + e.t.slice(start, start + 150) + (start + 150 < e.t.length ? ' …' : '');
}

/** setupSearch wires the search box; go(slug, id) shows a lesson at a section. */
export function setupSearch(form, index, go) {
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
      a.href = `#/${e.s}`;
      a.append(el('span', 'search-lesson', titles.get(e.s) || e.s));
      if (e.i) a.append(el('span', 'search-heading', e.h));
      a.append(el('span', 'search-snippet', snippet(e, w)));
      a.addEventListener('click', (ev) => { ev.preventDefault(); go(e.s, e.i); input.value = ''; out.replaceChildren(); status.textContent = ''; });
      li.append(a);
      return li;
    }));
    status.textContent = hits.length ? `${hits.length} result${hits.length > 1 ? 's' : ''}` : 'Nothing found.';
  };
  input.addEventListener('input', run);
  input.addEventListener('focus', () => { loadIndex().catch(() => {}); }, { once: true });
  form.addEventListener('submit', (e) => { e.preventDefault(); $('a', out)?.click(); });
}
