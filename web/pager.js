// Moving through the lessons in their order with the [ and ] keys; the build
// writes the previous and next links below each lesson.
import { index, root, state } from './current.js';
import { pageAddress } from './state.js';
import { go } from './route.js';
import { reportError } from './urlnotes.js';

/** goLesson(d) opens the lesson d places on in the navigation order. */
export function goLesson(d) {
  const i = index.lessons.findIndex((l) => l.slug === state.slug);
  const l = index.lessons[i + d];
  if (l) go(new URL(pageAddress(l.slug), root)).catch(reportError);
}
