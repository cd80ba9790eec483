// Moving through the lessons in their order: the previous and next links
// below a lesson, and the move the [ and ] keys make.
import { $, index, state } from './current.js';

/** renderPager(slug) draws the links to the lessons before and after slug. */
export function renderPager(slug) {
  const i = index.lessons.findIndex((l) => l.slug === slug);
  const pager = $('.pager');
  pager.replaceChildren();
  const link = (l, rel, text) => {
    const a = document.createElement('a');
    a.href = `#/${l.slug}`;
    a.rel = rel;
    a.className = `pager-${rel}`;
    a.innerHTML = `<span class="pager-dir">${text}</span><span class="pager-title"></span>`;
    a.lastChild.textContent = l.title;
    pager.append(a);
  };
  if (i > 0) link(index.lessons[i - 1], 'prev', '← Previous lesson');
  if (i >= 0 && i < index.lessons.length - 1) link(index.lessons[i + 1], 'next', 'Next lesson →');
}

/** goLesson(d) opens the lesson d places on in the navigation order. */
export function goLesson(d) {
  const i = index.lessons.findIndex((l) => l.slug === state.slug);
  const l = index.lessons[i + d];
  if (l) location.hash = `#/${l.slug}`;
}
