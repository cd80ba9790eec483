// Showing the page the address names, and moving between pages in one document.
//
// Showing the page the address names: the landing page at the site's root,
// or a lesson or page at slug/, its state in the fragment (#id.key=value…),
// with its widgets mounted, its questions wired and the link's values
// applied; a newer address wins over one still loading. Every page arrives
// whole in its first response; moving to another one stays in this document:
// go() fetches the next page, puts its lesson in place of this one and
// pushes its address (history.pushState), and Back and Forward show the
// pages of their entries the same way. The marks dpplay-interactive and
// dpplay-live time it.
import { oldLink, pageAddress, pageSlug, parseState } from '../state/address.js';
import { markProgress, restoreLesson } from '../lesson/progressview.js';
import { decorateLanding } from './landing.js';
import { $, index, lessonsBySlug, root, state, pickActive } from '../lesson/current.js';
import { mountNear, stopMounting } from '../lesson/lazymount.js';
import { keepAbove, restoreScroll, saveScroll } from './scrollkeep.js';
import { cancelWrite, writeURL } from '../lesson/urlsync.js';
import { showNotes, reportError } from '../page/urlnotes.js';
import { wirePredictions, reveal } from '../lesson/predict.js';
import { wireExercises } from '../lesson/exercises.js';
import { watchFormulas } from '../lesson/mathscroll.js';
import { presenting, setPresenting, stopWatchingPresented } from './present.js';
import { afterFrame, yieldTask } from '../base/tasks.js';

// The pages fetched so far, parsed (slug → promise of a Document): showing
// one takes a copy of its article, so that showing it again mounts its
// widgets on fresh markup rather than on the previous mount's. The page the
// document was loaded at shows its own article the first time.
const pages = new Map();
let inline = $('#lesson > article')?.dataset.slug ?? null;

/** page(slug) is the parsed page at slug's address (fetched once; a failed fetch is tried again next time). */
function page(slug) {
  if (!pages.has(slug)) {
    const url = new URL(pageAddress(slug), root);
    const p = fetch(url).then((res) => {
      if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
      return res.text();
    }).then((html) => new DOMParser().parseFromString(html, 'text/html'));
    p.catch(() => pages.delete(slug));
    pages.set(slug, p);
  }
  return pages.get(slug);
}

/**
 * take(doc) puts the page doc's article and the links below it in place of
 * the ones shown, with its title and description. What only a reader without
 * JavaScript sees (<noscript>) is left out: the parser of another document
 * reads it as markup.
 */
function take(doc) {
  // Removed before the import: an image inside it would start loading.
  for (const n of doc.querySelectorAll('#lesson > article noscript')) n.remove();
  const article = document.importNode(doc.querySelector('#lesson > article'), true);
  $('#lesson').replaceChildren(article);
  $('.pager').replaceChildren(...[...doc.querySelector('.pager').childNodes].map((n) => document.importNode(n, true)));
  document.title = doc.title;
  for (const sel of ['meta[name="description"]', 'link[rel="canonical"]']) {
    const here = $(sel), there = doc.querySelector(sel);
    if (here && there) here.replaceWith(document.importNode(there, true));
  }
}

/** isPage(url) reports whether url is a page this document can show: the site's root, or a lesson's or page's address. */
function isPage(url) {
  const slug = pageSlug(url, root);
  return slug === '' || (slug !== null && lessonsBySlug.has(slug));
}

/**
 * go(url, focus) shows the page at url (a URL) in this document, as a new
 * history entry; focus (default: true) moves focus to its title. The entry
 * left keeps its scroll position, for Back.
 */
export function go(url, focus = true) {
  saveScroll();
  history.pushState(null, '', url);
  return showPage(focus);
}

/** goLesson(d) opens the lesson d places on in the navigation order (the [ and ] keys). */
export function goLesson(d) {
  const i = index.lessons.findIndex((l) => l.slug === state.slug);
  const l = index.lessons[i + d];
  if (l) go(new URL(pageAddress(l.slug), root)).catch(reportError);
}

/**
 * followLinks() makes a click on a link to another page of the site (or to
 * the page shown, without a fragment) show it with go. A link to an element
 * or a state of the page shown is a fragment, which the browser follows
 * (hashchange); any other link, and a click asking for a new tab or window,
 * is left to the browser.
 */
export function followLinks() {
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest?.('a[href]');
    if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
    const url = new URL(a.href);
    if (!isPage(url) || (url.pathname === location.pathname && url.hash)) return;
    e.preventDefault();
    go(url).catch(reportError);
  });
}

/**
 * showPage(focus) shows what the address names; focus (a new page) moves
 * focus to its title and scrolls to its top unless the entry has a place
 * to return to. A link of the first form (#/slug?state) that the head's
 * script left, for a lesson that does not exist, shows the first lesson with
 * a note; one set on a page already open goes to its page's address.
 */
export async function showPage(focus) {
  // A newer call (the address changed again while this one waited) wins:
  // this one stops at its next await rather than overwrite the newer page.
  const call = ++state.shown;
  stopMounting();
  state.loading = true;
  let notes = [];
  let slug = pageSlug(location.href, root) ?? '';
  const old = oldLink(location.hash);
  if (old) {
    notes = old.notes;
    slug = old.slug;
    if (slug && !lessonsBySlug.has(slug)) {
      notes.push(`There is no lesson called “${slug}”, so the first lesson is shown.`);
      slug = index.lessons[0].slug;
    } else if (!slug && notes.length) slug = index.lessons[0].slug;
    history.replaceState(history.state, '', new URL(pageAddress(slug, lessonsBySlug.has(old.slug) ? old.hash : ''), root));
  }
  state.path = location.pathname;
  state.hash = location.hash;
  if (!slug) return showHome(call, focus);
  const { params, notes: more, section } = parseState(location.hash);
  state.notes = notes.concat(more);
  state.section = section;
  if (inline !== slug) {
    const doc = await page(slug);
    if (call !== state.shown) return;
    take(doc);
  }
  inline = null;
  for (const w of state.widgets) w.controller?.destroy?.();
  state.slug = slug;
  state.widgets = [];
  state.active = null;
  for (const a of document.querySelectorAll('#lesson-nav a')) {
    if (a.dataset.slug === slug) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  wirePredictions();
  wireExercises();
  watchFormulas($('#lesson'));
  // Each group of steps below runs in a task of its own (tasks.js).
  await yieldTask();
  if (call !== state.shown) return;
  restoreLesson(slug, reveal);
  markProgress(index);
  // One slot per widget, in reading order, so that "active", n and p do not
  // depend on which mount finished first; a slot gets its schema, values and
  // controller when its widget mounts.
  state.widgets = [...document.querySelectorAll('#lesson figure.widget')]
    .map((fig) => ({ id: fig.dataset.id, fig, schema: {}, values: {}, controller: null, mounting: null }));
  keepAbove.disconnect();
  for (const w of state.widgets) keepAbove.observe(w.fig);
  state.picked = false;
  // Scrolled where the reader will be before choosing the widgets near the
  // screen; again after, as a widget without a pre-rendered drawing changes
  // height when it mounts.
  placeScroll(focus);
  await mountNear(state.widgets, params, call);
  await yieldTask();
  if (call !== state.shown) return;
  pickActive();
  showNotes(state.notes);
  writeURL();
  if (focus) $('#lesson-title')?.focus?.({ preventScroll: true });
  placeScroll(focus);
  // The entry keeps its place from the start: a page left before the reader
  // scrolls (Forward to it later) opens where it was shown, not where the
  // page before it was. Read once the page is laid out: the widgets just
  // mounted would otherwise make the reading a layout of the whole page.
  await afterFrame();
  if (call !== state.shown) return;
  saveScroll();
  state.loading = false;
  document.body.dataset.lessonReady = slug;
  if (presenting()) setPresenting(true);
  if (!performance.getEntriesByName('dpplay-interactive').length) performance.mark('dpplay-interactive');
  markLive();
}

/** placeScroll(focus) scrolls to where the reader left the page, else to the element the address names, else (focus: a new page) to the top. */
function placeScroll(focus) {
  if (restoreScroll()) return;
  const target = state.section && document.getElementById(state.section);
  if (target) target.scrollIntoView({ block: 'start' });
  else if (focus) scrollTo(0, 0);
}

/**
 * markLive marks dpplay-live the first moment the lesson's controls answer:
 * the widgets on or near the screen are mounted (from the build's recording,
 * before the engine) and the engine is ready.
 */
export function markLive() {
  if (document.body.classList.contains('engine-ready') && document.body.dataset.lessonReady &&
    !performance.getEntriesByName('dpplay-live').length) performance.mark('dpplay-live');
}

async function showHome(call, focus) {
  cancelWrite();
  for (const w of state.widgets) w.controller?.destroy?.();
  stopWatchingPresented();
  keepAbove.disconnect();
  state.slug = '';
  state.widgets = [];
  state.active = null;
  if (inline !== '') {
    const doc = await page('');
    if (call !== state.shown) return;
    take(doc);
  }
  inline = null;
  for (const a of document.querySelectorAll('#lesson-nav a')) a.removeAttribute('aria-current');
  $('#url-notes').hidden = true;
  decorateLanding($('#lesson'), index);
  markProgress(index);
  if (focus) $('#lesson-title')?.focus?.({ preventScroll: true });
  if (!restoreScroll() && call > 1) scrollTo(0, 0);
  await afterFrame();
  if (call !== state.shown) return;
  saveScroll();
  state.loading = false;
  document.body.dataset.lessonReady = 'home';
  if (!performance.getEntriesByName('dpplay-interactive').length) performance.mark('dpplay-interactive');
}
