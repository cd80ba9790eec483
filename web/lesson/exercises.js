// Checked exercises: a typed answer read as a number and checked.
//
// Checked exercises: the reader types a number, read with the page's one
// rule for typed numbers (number.js readTyped: "0,75", "3/4", "75%" and
// "2/e" are all numbers), and the page checks it against the lesson's answer
// at the precision its question asks for (widgets/answer.js, which also
// names the listed mistakes), or with a widget's own check (```exercise check: NAME.fn,
// web/widgets/NAME.js's checks.fn), and keeps the answer in the reader's
// progress. What it read is shown whenever that is not the text as typed;
// text it cannot read is said to be unreadable, never marked wrong.
import { saveExercise } from '../state/progress.js';
import { markProgress } from './progressview.js';
import { $, bridge, index, state } from './current.js';
import { readTyped } from '../base/number.js';
import { checks as answer } from '../widgets/answer.js';

/**
 * readLine(sec) is the exercise's line that says how the answer was read,
 * made on first use just above its result: a status of its own, so a
 * screen reader hears the reading as well as the verdict.
 */
function readLine(sec) {
  let p = $('.exercise-read', sec);
  if (!p) {
    p = document.createElement('p');
    p.className = 'exercise-read hint';
    p.setAttribute('role', 'status');
    $('.exercise-result', sec).before(p);
  }
  return p;
}

/**
 * check(value, params) is the verdict {ok, message} on a number read from
 * the reader's answer: the widget's own check when the exercise names one,
 * else answer.near (the answer at the exercise's decimals, number.js givesAnswer).
 */
async function check(value, params) {
  if (!params.check) {
    return answer.near({ value, params: { wrong: 'Not yet: look again at the widget above.', ...params } });
  }
  const [modName, fn] = String(params.check).split('.');
  try {
    const mod = await import(`../widgets/${modName}.js`);
    return await mod.checks[fn]({ value, params, bridge });
  } catch (err) {
    return { ok: false, message: `The check failed: ${err.message}` };
  }
}

/** wireExercises wires the form of every exercise in the lesson on screen. */
export function wireExercises() {
  for (const sec of document.querySelectorAll('#lesson section.exercise')) {
    const params = JSON.parse(sec.dataset.params || '{}');
    const out = $('.exercise-result', sec);
    $('form', sec).addEventListener('submit', async (e) => {
      e.preventDefault();
      const typed = $('input', sec).value;
      const r = readTyped(typed);
      const read = readLine(sec);
      if (!r.ok) {
        read.textContent = '';
        out.textContent = `${r.message} An answer can be a decimal (0.25 or 0,25), a fraction (1/4), a percentage (25%) or a formula such as 2/e.`;
        out.className = 'exercise-result';
        return;
      }
      read.textContent = typed.trim() === r.read ? '' : `Read as ${r.read}.${r.note ? ` ${r.note}` : ''}`;
      const res = await check(r.value, params);
      out.textContent = (res.ok ? '✓ ' : '✗ ') + res.message;
      out.className = 'exercise-result ' + (res.ok ? 'ok' : 'bad');
      saveExercise(state.slug, sec.id, typed, res.ok, res.message);
      markProgress(index);
    });
  }
}
