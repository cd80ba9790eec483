// The reader's progress, kept on this device only.
//
// The reader's progress, kept on this device only (localStorage): for each
// lesson, the predictions revealed (with the choice made), the exercises
// answered (the answer typed, whether it was right, the message shown) and
// the "break it" challenges solved, and the last lesson open, for "continue
// where you left off". What storage holds is read back as untrusted: every
// field is checked, and text goes into the page through textContent only.

const KEY = 'dpplay-progress-v1';
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const BLOCK = /^(predict|ex)-\d{1,4}$/;
const CHALLENGE = /^[a-z0-9]+(-[a-z0-9]+){0,6}$/;
const MAX_TEXT = 600;

function read() {
  let raw;
  try { raw = JSON.parse(localStorage.getItem(KEY) || '{}'); } catch { raw = {}; }
  const out = { lessons: {}, last: null };
  if (!raw || typeof raw !== 'object') return out;
  for (const [slug, l] of Object.entries(raw.lessons || {})) {
    if (!SLUG.test(slug) || !l || typeof l !== 'object') continue;
    const lesson = { predicts: {}, exercises: {}, challenges: {} };
    for (const [id, v] of Object.entries(l.predicts || {})) {
      if (BLOCK.test(id) && Number.isInteger(v) && v >= -1 && v < 100) lesson.predicts[id] = v;
    }
    for (const [id, v] of Object.entries(l.exercises || {})) {
      if (BLOCK.test(id) && v && typeof v.value === 'string' && typeof v.ok === 'boolean' && typeof v.message === 'string') {
        lesson.exercises[id] = { value: v.value.slice(0, 100), ok: v.ok, message: v.message.slice(0, MAX_TEXT) };
      }
    }
    for (const [id, v] of Object.entries(l.challenges || {})) {
      if (CHALLENGE.test(id) && v === true) lesson.challenges[id] = true;
    }
    out.lessons[slug] = lesson;
  }
  // The last lesson's fragment, its state (#id.key=value…); one stored in
  // the site's first form, #/slug?state, is turned into it.
  const last = raw.last;
  if (last && typeof last.slug === 'string' && SLUG.test(last.slug) && typeof last.hash === 'string' && last.hash.length <= 16000) {
    const old = last.hash.startsWith(`#/${last.slug}`) && /^#\/[a-z0-9-]+(\?(.*))?$/s.exec(last.hash);
    if (old) out.last = { slug: last.slug, hash: old[2] ? `#${old[2]}` : '' };
    else if (last.hash === '' || (last.hash.startsWith('#') && !last.hash.startsWith('#/'))) out.last = { slug: last.slug, hash: last.hash };
  }
  return out;
}

function write(p) {
  try { localStorage.setItem(KEY, JSON.stringify(p)); } catch { /* storage full or disabled: progress is a convenience */ }
}

function lesson(p, slug) {
  return (p.lessons[slug] ||= { predicts: {}, exercises: {}, challenges: {} });
}

/** savePrediction records that prediction id of lesson slug was revealed with choice (-1: none chosen). */
export function savePrediction(slug, id, choice) {
  const p = read();
  lesson(p, slug).predicts[id] = choice;
  write(p);
}

/** saveExercise records the last answer to exercise id of lesson slug. */
export function saveExercise(slug, id, value, ok, message) {
  const p = read();
  lesson(p, slug).exercises[id] = { value: String(value).slice(0, 100), ok, message: String(message).slice(0, MAX_TEXT) };
  write(p);
}

/** saveChallenge records that challenge id of lesson slug was solved. */
export function saveChallenge(slug, id) {
  const p = read();
  lesson(p, slug).challenges[id] = true;
  write(p);
}

/** saveLast remembers the lesson open now and its address's fragment (its state). */
export function saveLast(slug, hash) {
  const p = read();
  p.last = { slug, hash };
  write(p);
}

/** lessonProgress returns what is stored for one lesson. */
export function lessonProgress(slug) {
  return read().lessons[slug] || { predicts: {}, exercises: {}, challenges: {} };
}

/** lastLesson returns {slug, hash} of the lesson last open and its fragment, or null. */
export function lastLesson() { return read().last; }

/** clearProgress forgets everything stored. */
export function clearProgress() {
  try { localStorage.removeItem(KEY); } catch { /* nothing stored */ }
}

/**
 * score returns {done, total} for a lesson of the site index: predictions
 * revealed plus exercises answered right, out of all of them.
 */
export function score(l, stored = lessonProgress(l.slug)) {
  const total = (l.predicts || 0) + (l.exercises || 0);
  const done = Math.min(Object.keys(stored.predicts).length, l.predicts || 0) +
    Math.min(Object.values(stored.exercises).filter((e) => e.ok).length, l.exercises || 0);
  return { done, total };
}
