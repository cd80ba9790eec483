// Exercise checks for numbers derived by hand, with feedback for the usual mistakes.
//
// A checker for exercises whose answer is a number derived by hand, with
// targeted feedback for the wrong answers students are most likely to give.
// Used as ```exercise check: answer.near with the keys
//   answer, decimals (the precision the question asks for; absent for a whole
//   number or an exact value), right, wrong, and
//   mistakes: [[value, "what this answer got wrong"], …].
// A typed value is right when it gives the answer at that precision
// (number.js givesAnswer: it rounds to the answer's rounding, or is the
// answer), and meets a listed mistake by the same rule.
// It has no widget of its own: only the checks export.
import { givesAnswer } from '../base/number.js';

export const checks = {
  async near({ value, params }) {
    const decimals = params.decimals === undefined ? 0 : Number(params.decimals);
    if (givesAnswer(value, Number(params.answer), decimals)) return { ok: true, message: params.right || 'Correct.' };
    for (const [v, message] of Array.isArray(params.mistakes) ? params.mistakes : []) {
      if (givesAnswer(value, Number(v), decimals)) return { ok: false, message: String(message) };
    }
    return { ok: false, message: params.wrong || 'Not yet.' };
  },
};
