// Widget: "Break it", a broken mechanism and the pair that disproves its ε.
//
// "Break it": a broken mechanism and its claimed ε; the reader gives a pair
// of neighbouring inputs and one output, and Go computes that output's
// exact probabilities under both and its privacy loss. A loss above the
// claim breaks it. After two tries that do not, a hint appears; a solved
// challenge is remembered on this device (progress.js). The sparse vector
// challenges run in the svt module (app/audit/sparse), the gallery's in the
// audit module (app/audit).
import { fmt } from '../base/format.js';
import { button, errorLine, refresher } from './controls.js';
import { typedList } from './typedbox.js';
import { lessonProgress, saveChallenge } from '../state/progress.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.challenge;

const lossText = (l) => (Number.isFinite(l) ? fmt(l, 4) : '∞');
const prob = (l) => (l === -Infinity ? '0' : Math.exp(l) < 1e-4 ? Math.exp(l).toExponential(2) : fmt(Math.exp(l), 4));

/** details(bridge, which) is the challenge's {kind, title, task, hint, eps, n, x, y, cutoff, candidates}. */
async function details(bridge, which) {
  if (which.startsWith('svt-')) {
    const r = await bridge.call('svt', 'challenges', {});
    const i = Array.from(r.ids).indexOf(which);
    const n = r.n;
    return { kind: 'svt', title: r.titles[i], task: r.tasks[i], hint: r.hints[i], eps: r.epsilons[i], cutoff: r.cutoffs[i], n,
      x: Array.from(r.x).slice(i * n, (i + 1) * n), y: Array.from(r.y).slice(i * n, (i + 1) * n), min: -100, max: 100 };
  }
  const { challenges } = await bridge.call('audit', 'challenges', {});
  const c = challenges.find((e) => e.id === which);
  return { kind: 'gallery', title: c.title, task: c.task, hint: c.hint, eps: c.config.epsilon, n: c.config.candidates,
    candidates: c.config.candidates, x: Array.from(c.x), y: Array.from(c.y), min: 0, max: c.config.maxCount, neighbours: c.config.neighbours };
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge, fig } = ctx;
  const ch = await details(bridge, v.which);
  const slug = fig.closest('article[data-slug]')?.dataset.slug || '';
  const svt = ch.kind === 'svt';
  if (!(v.x?.length === ch.n && v.y?.length === ch.n)) { ctx.set('x', ch.x); ctx.set('y', ch.y); }
  const defaultOut = svt ? 'F'.repeat(ch.n) : '0';
  if (!v.out || (svt ? /[^TF]/.test(v.out) : !/^\d$/.test(v.out))) ctx.set('out', defaultOut);

  const head = document.createElement('p');
  head.className = 'challenge-task';
  const strong = document.createElement('strong');
  strong.textContent = `${ch.title}. `;
  head.append(strong, document.createTextNode(ch.task));
  const unit = svt ? 'answers' : 'counts';
  const hint = svt ? `${ch.n} query answers; x′ may differ by at most 1 in each.` : `${ch.n} counts from ${ch.min} to ${ch.max}; one person moves between x and x′.`;
  const list = (key, label) => typedList({ id: ctx.uid(key), label, value: v[key], min: ch.min, max: ch.max, minLen: ch.n, maxLen: ch.n,
    int: !svt, hint, onChange: (xs) => { ctx.set(key, xs); } });
  const x = list('x', `Your x (${unit})`);
  const y = list('y', `Your x′ (${unit})`);
  const pairBox = document.createElement('div');
  pairBox.className = 'controls';
  pairBox.append(x.el, y.el);

  // The output: a ⊤/⊥ toggle per query (the technique halts after c ⊤), or
  // a candidate.
  const outBox = document.createElement('fieldset');
  outBox.className = 'control control-wide challenge-output';
  const legend = document.createElement('legend');
  legend.textContent = svt ? 'Your output: press a query to switch it between ⊥ and ⊤' : 'Your output: the candidate chosen';
  outBox.append(legend);
  const toggles = [];
  const drawOut = () => {
    if (!svt) return;
    let tops = 0;
    toggles.forEach((b, i) => {
      const halted = ch.cutoff > 0 && tops >= ch.cutoff;
      const top = !halted && v.out[i] === 'T';
      b.disabled = halted;
      b.setAttribute('aria-pressed', String(top));
      // The accessible name starts with the visible text (WCAG 2.5.3), so
      // that a speech user can say what they see.
      b.textContent = halted ? `${i + 1}: –` : `${i + 1}: ${top ? '⊤' : '⊥'}`;
      b.setAttribute('aria-label', `${b.textContent} (query ${i + 1} ${halted ? 'not reached, the technique has halted' : top ? 'above' : 'below'})`);
      if (top) tops++;
    });
  };
  // The output as the technique publishes it: the pattern up to the c-th ⊤.
  const published = () => {
    if (!svt) return v.out;
    let tops = 0, s = '';
    for (const ch2 of v.out) {
      s += ch2;
      if (ch2 === 'T' && ++tops === ch.cutoff) break;
    }
    return s;
  };
  if (svt) {
    for (let i = 0; i < ch.n; i++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'toggle';
      b.addEventListener('click', () => {
        const o = v.out.padEnd(ch.n, 'F').split('');
        o[i] = o[i] === 'T' ? 'F' : 'T';
        ctx.set('out', o.join(''));
        drawOut();
      });
      toggles.push(b);
    }
    const row = document.createElement('div');
    row.className = 'toggle-row';
    row.append(...toggles);
    outBox.append(row);
    drawOut();
  } else {
    const sel = document.createElement('select');
    sel.id = ctx.uid('out');
    sel.setAttribute('aria-label', 'Candidate');
    for (let r = 0; r < ch.candidates; r++) {
      const o = document.createElement('option');
      o.value = String(r);
      o.textContent = `candidate ${r}`;
      sel.append(o);
    }
    sel.value = v.out;
    sel.addEventListener('change', () => ctx.set('out', sel.value));
    outBox.append(sel);
  }

  const result = document.createElement('p');
  result.className = 'challenge-result';
  result.setAttribute('role', 'status');
  const hintLine = document.createElement('p');
  hintLine.className = 'challenge-hint';
  hintLine.hidden = true;
  const error = errorLine();
  let tries = 0;
  const solvedBefore = Boolean(slug && lessonProgress(slug).challenges?.[v.which]);
  const badge = document.createElement('p');
  badge.className = 'challenge-solved';
  badge.hidden = !solvedBefore;
  badge.textContent = 'Solved: this device remembers it.';
  let renders = 0;
  const check = refresher(async () => {
    try {
      // A box edited but not yet left is read first.
      for (const b of [x, y]) b.input.dispatchEvent(new Event('change'));
      if (x.input.getAttribute('aria-invalid') || y.input.getAttribute('aria-invalid')) throw new Error('Fix the pair first: see the note under the box.');
      const args = { id: v.which, x: Float64Array.from(v.x), y: Float64Array.from(v.y), output: svt ? published() : +v.out };
      const r = await bridge.call(svt ? 'svt' : 'audit', 'try', args);
      error.textContent = '';
      const out = svt ? r.output : `candidate ${v.out}`;
      const loss = r.unbounded ? Infinity : r.loss;
      if (r.breaks) {
        result.className = 'challenge-result ok';
        result.textContent = `Broken. ${out} has probability ${prob(r.logP)} under x and ${prob(r.logQ)} under x′: a privacy loss of ${lossText(loss)} > ε = ${fmt(ch.eps)}.`;
        badge.hidden = false;
        if (slug) saveChallenge(slug, v.which);
      } else {
        tries++;
        result.className = 'challenge-result bad';
        result.textContent = `Not yet. ${out} has probability ${prob(r.logP)} under x and ${prob(r.logQ)} under x′: a privacy loss of ${lossText(loss)} ≤ ε = ${fmt(ch.eps)}.`;
        if (tries >= 2) { hintLine.hidden = false; hintLine.textContent = `Hint: ${ch.hint}`; }
      }
      ctx.announce(result.textContent);
    } catch (err) {
      error.textContent = err.message;
    }
    fig.dataset.renders = String(++renders);
  }, fig);
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(button('Check my output', () => check(), { primary: true }));
  body.append(head, badge, pairBox, outBox, actions, error, result, hintLine);
  fig.dataset.renders = String(++renders);
  return {
    reset() {
      ctx.set('x', ch.x); ctx.set('y', ch.y); ctx.set('out', defaultOut);
      x.set(ch.x); y.set(ch.y); drawOut();
      result.textContent = '';
      tries = 0;
      hintLine.hidden = true;
    },
  };
}
