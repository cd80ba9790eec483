// Checked exercises: the reader types a number, and the page checks it
// against the lesson's answer within its tolerance, or with a widget's own
// check (```exercise check: NAME.fn, web/widgets/NAME.js's checks.fn), and
// keeps the answer in the reader's progress.
import { saveExercise } from './progress.js';
import { markProgress } from './site.js';
import { $, bridge, index, state } from './current.js';

/** parseNumber(s) reads a typed answer: digits with optional grouping commas, a sign, an exponent or a trailing %; NaN otherwise. */
function parseNumber(s) {
  const t = String(s).trim().replace(/,/g, '').replace(/%$/, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return NaN;
  return Number(t) / (String(s).trim().endsWith('%') ? 100 : 1);
}

/** wireExercises wires the form of every exercise in the lesson on screen. */
export function wireExercises() {
  for (const sec of document.querySelectorAll('#lesson section.exercise')) {
    const params = JSON.parse(sec.dataset.params || '{}');
    const out = $('.exercise-result', sec);
    $('form', sec).addEventListener('submit', async (e) => {
      e.preventDefault();
      const value = parseNumber($('input', sec).value);
      let res;
      if (!Number.isFinite(value)) {
        res = { ok: false, message: 'Please enter a number, such as 0.5.' };
      } else if (params.check) {
        const [modName, fn] = String(params.check).split('.');
        try {
          const mod = await import(`./widgets/${modName}.js`);
          res = await mod.checks[fn]({ value, params, bridge });
        } catch (err) {
          res = { ok: false, message: `The check failed: ${err.message}` };
        }
      } else {
        const tol = Number(params.tolerance ?? 1e-9);
        const ok = Math.abs(value - Number(params.answer)) <= tol * Math.max(1, Math.abs(Number(params.answer)));
        res = { ok, message: ok ? (params.right || 'Correct.') : (params.wrong || 'Not yet: look again at the widget above.') };
      }
      out.textContent = (res.ok ? '✓ ' : '✗ ') + res.message;
      out.className = 'exercise-result ' + (res.ok ? 'ok' : 'bad');
      if (Number.isFinite(value)) {
        saveExercise(state.slug, sec.id, $('input', sec).value, res.ok, res.message);
        markProgress(index);
      }
    });
  }
}
