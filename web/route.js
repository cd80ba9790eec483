// Showing what the address names: the landing page (no hash, or #/), or a
// lesson or page (#/slug?id.key=value…) with its widgets mounted, its
// questions wired and the link's values applied; a newer address wins over
// one still loading. The marks dpplay-interactive and dpplay-live time it.
import { parseHash } from './state.js';
import { markProgress, decorateLanding, restoreLesson, restoreScroll } from './site.js';
import { $, index, lessonsBySlug, state, pickActive } from './current.js';
import { mountNear, stopMounting } from './lazymount.js';
import { keepAbove } from './scrollkeep.js';
import { cancelWrite, writeURL } from './urlsync.js';
import { showNotes } from './urlnotes.js';
import { renderPager } from './pager.js';
import { wirePredictions, reveal } from './predict.js';
import { wireExercises } from './exercises.js';
import { presenting, setPresenting, stopWatchingPresented } from './present.js';

// Lesson articles as first rendered, so that showing a lesson again (a new
// hash for the same lesson) mounts its widgets on fresh markup rather than on
// the previous mount's.
const articles = new Map();
// The page's head fetches the lesson its link names and shows it as soon as
// it arrives (index.html), keeping the landing page's HTML; the first
// showLesson for that lesson takes it over.
let early = window.dpplayEarlyLesson || null;
{
  // The root's article is the landing page, kept under the slug ''. The head
  // may be putting the early lesson in its place, block by block.
  const inline = $('#lesson article.lesson');
  if (inline && inline.dataset.slug !== early?.slug) articles.set(inline.dataset.slug, inline.outerHTML);
  if (early?.landing) articles.set('', early.landing);
}

async function lessonHTML(slug) {
  if (early && early.slug === slug && !articles.has(slug)) {
    const html = await early.html;
    if (html !== null && !articles.has(slug)) articles.set(slug, html);
  }
  if (!articles.has(slug)) {
    const res = await fetch(`lessons/${slug}.html`);
    if (!res.ok) throw new Error(`lessons/${slug}.html: HTTP ${res.status}`);
    articles.set(slug, await res.text());
  }
  return articles.get(slug);
}

/** dropEarly stops the head's early lesson, if still going: the page shows something else or has taken it over. */
function dropEarly() {
  if (early) early.taken = true;
  early = null;
}

/** showLesson(hash, focus) shows what hash names; focus (a new lesson) moves focus to its title and scrolls to its top. */
export async function showLesson(hash, focus) {
  // A newer call (the hash changed again while this one waited) wins: this
  // one stops at its next await rather than overwrite the newer lesson.
  const call = ++state.shown;
  stopMounting();
  state.hash = location.hash;
  state.loading = true;
  let { slug, params, notes } = parseHash(hash);
  state.notes = notes;
  // The root (no hash, or "#/") is the landing page; it keeps the address
  // as it is.
  if (!slug && !notes.length && !params.size && articles.has('')) return showHome(call, focus);
  if (!lessonsBySlug.has(slug)) {
    if (slug) state.notes.push(`There is no lesson called “${slug}”, so the first lesson is shown.`);
    slug = index.lessons[0].slug;
    params = new Map();
  }
  const html = await lessonHTML(slug);
  if (call !== state.shown) return;
  const shown = early?.slug === slug && await early.shown;
  if (call !== state.shown) return;
  dropEarly();
  if (!shown) $('#lesson').innerHTML = html;
  document.documentElement.classList.remove('lesson-route');
  for (const w of state.widgets) w.controller?.destroy?.();
  state.slug = slug;
  state.widgets = [];
  state.active = null;
  const lesson = lessonsBySlug.get(slug);
  document.title = `${lesson.title} — dpplay`;
  for (const a of document.querySelectorAll('#lesson-nav a')) {
    if (a.dataset.slug === slug) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  renderPager(slug);
  wirePredictions();
  wireExercises();
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
  if (call !== state.shown) return;
  pickActive();
  showNotes();
  writeURL();
  if (focus) $('#lesson-title')?.focus?.({ preventScroll: true });
  placeScroll(focus);
  state.section = '';
  state.loading = false;
  document.body.dataset.lessonReady = slug;
  if (presenting()) setPresenting(true);
  if (!performance.getEntriesByName('dpplay-interactive').length) performance.mark('dpplay-interactive');
  markLive();
}

/** placeScroll(focus) scrolls to where the reader left the lesson, else to the section the link names, else (focus: a new lesson) to the top. */
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

function showHome(call, focus) {
  cancelWrite();
  for (const w of state.widgets) w.controller?.destroy?.();
  stopWatchingPresented();
  keepAbove.disconnect();
  state.slug = '';
  state.widgets = [];
  state.active = null;
  dropEarly();
  $('#lesson').innerHTML = articles.get('');
  document.documentElement.classList.remove('lesson-route');
  document.title = 'dpplay — a differential privacy playground';
  for (const a of document.querySelectorAll('#lesson-nav a')) a.removeAttribute('aria-current');
  $('.pager').replaceChildren();
  $('#url-notes').hidden = true;
  decorateLanding($('#lesson'), index);
  markProgress(index);
  if (focus) $('#lesson-title')?.focus?.({ preventScroll: true });
  if (!restoreScroll()) scrollTo(0, 0);
  state.loading = false;
  document.body.dataset.lessonReady = 'home';
  if (!performance.getEntriesByName('dpplay-interactive').length) performance.mark('dpplay-interactive');
}
