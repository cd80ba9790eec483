// Widget: a link that runs the lesson's activity with the class in the live lecture.
//
// "Run this with the class": a link that opens the live lecture's
// instructor view (lecture.html) for the lesson's activity in a new tab. The
// students join from their phones; see docs/lecture.md.
import { escapeHTML } from '../base/dom.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.classrun;

// The instructor view beside the site's modules, whatever page shows this one.
const lectureURL = new URL('../lecture.html', import.meta.url).href;

const blurbs = {
  'meeting-day': 'Each student marks the days they can make on their phone; the projector shows only the day the exponential mechanism picks.',
  histogram: 'Each student privately enters a number on their phone; the projector shows only a histogram whose every count has discrete Laplace noise of scale 2/ε added (one changed answer moves two bins).',
  pricing: 'Each student privately enters what the good is worth to them; the projector shows only the price drawn by the exponential mechanism, and each phone shows its owner whether they bought.',
};

export function mount(ctx) {
  const a = ctx.values.activity;
  const p = document.createElement('p');
  p.className = 'classrun';
  p.innerHTML = `${escapeHTML(blurbs[a])}<br><a class="classrun-link" href="${escapeHTML(lectureURL)}?role=host&amp;activity=${encodeURIComponent(a)}" target="_blank" rel="noopener">Run this with the class<span class="visually-hidden"> (opens the instructor view in a new tab)</span></a>`;
  ctx.body.append(p);
  ctx.fig.dataset.renders = '1';
  return {};
}
