// A checker for exercises whose answer is a number derived by hand, with
// targeted feedback for the wrong answers students are most likely to give.
// Used as ```exercise check: answer.near with the keys
//   answer, tolerance (relative, as for plain exercises), right, wrong, and
//   mistakes: [[value, "what this answer got wrong"], …] (matched with the same tolerance).
// It has no widget of its own: only the checks export.
const near = (x, y, tol) => Math.abs(x - y) <= tol * Math.max(1, Math.abs(y));

export const checks = {
  async near({ value, params }) {
    const tol = Number(params.tolerance ?? 1e-9);
    if (near(value, Number(params.answer), tol)) return { ok: true, message: params.right || 'Correct.' };
    for (const [v, message] of Array.isArray(params.mistakes) ? params.mistakes : []) {
      if (near(value, Number(v), tol)) return { ok: false, message: String(message) };
    }
    return { ok: false, message: params.wrong || 'Not yet.' };
  },
};
