// The landing page's progress: each lesson's bar, the course total, "continue", the offline offer.
//
// Text from storage or the index enters the page by textContent.
import { score, lastLesson, clearProgress } from '../state/progress.js';
import { pageAddress } from '../state/address.js';
import { el } from '../base/dom.js';
import { $, root as site } from '../lesson/current.js';
import { progressText } from '../lesson/progressview.js';

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
    p.append(bar, el('span', {}, progressText(s)));
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
  if (/^https?:$/.test(location.protocol)) import('../offline/offline.js').then((m) => m.offerOffline(root, index)).catch(() => {});
  const last = lastLesson();
  const link = $('#continue-link', root);
  const lesson = last && index.lessons.concat(index.pages || []).find((l) => l.slug === last.slug);
  if (link && lesson) {
    link.href = new URL(pageAddress(last.slug, last.hash), site).href;
    $('.continue-title', link).textContent = lesson.title;
    link.hidden = false;
  }
}
