// The reader's stored progress shown on the page: the lesson list's marks and a lesson's answers.
//
// What is shown comes from state/progress.js, which reads this device's
// storage as untrusted; it enters the page by textContent only.
import { score, lessonProgress } from '../state/progress.js';
import { el } from '../base/dom.js';
import { $ } from './current.js';

/** progressText({done, total}) says how many of a lesson's questions are answered, '' for none. */
export function progressText({ done, total }) {
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
    if (!mark) { mark = el('span', { class: 'visually-hidden nav-progress' }); a.append(mark); }
    mark.textContent = s.done ? ` (${progressText(s).toLowerCase()})` : '';
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
