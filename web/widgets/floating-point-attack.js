// Widget: Mironov's attack on the floating-point Laplace sampler.
//
// Mironov's attack on the textbook floating-point Laplace sampler.
// The page runs mech.Laplace (q + b·S·(−ln U) in doubles) at the true count
// q, seeded, and asks core of every output whether the neighbouring count
// q + 1 could ever have produced that exact double.
import { fmtInt, pct } from '../base/format.js';
import { fmt, tableRegion, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas['floating-point-attack'];

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { els } = keyControls(ctx, schema, () => refresh(), [
    ['eps', 'ε (epsilon)'], ['q', 'True count q (neighbour q + 1)'], ['draws', 'Outputs to examine', { text: (d) => fmtInt(+d) }]],
  [['seed', 'Seed']]);
  const error = errorLine();
  const stat = document.createElement('p');
  stat.className = 'fp-stat widget-main';
  const out = tableRegion('The first outputs and what each one proves');
  body.append(...els, error, stat, out);

  const refresh = redrawer(ctx, error, async () => {
    const n = Number(v.draws);
    const r = await bridge.call('core', 'floatAttack', { q: v.q, neighbour: v.q + 1, sensitivity: 1, epsilon: v.eps, draws: n, seed: v.seed });
    error.textContent = '';
    stat.innerHTML = `Of ${fmtInt(n)} outputs at true count ${v.q}, <strong>${fmtInt(r.count)} (${pct(r.count / n)})</strong> could never have come from count ${v.q + 1}. ` +
      `Run the other way, from count ${v.q + 1}, ${fmtInt(r.neighbourCount)} of ${fmtInt(n)} outputs (${pct(r.neighbourCount / n)}) rule out ${v.q}.`;
    const outputs = Array.from(r.outputs), ruled = Array.from(r.ruledOut);
    out.innerHTML = `<table><caption>The first ${outputs.length} outputs, written with all 17 significant digits</caption>
      <thead><tr><th scope="col">Output</th><th scope="col">Could count ${v.q + 1} produce it?</th></tr></thead>
      <tbody>${outputs.map((x, i) => `<tr><td class="num"><code>${x.toPrecision(17)}</code></td><td>${ruled[i] ? '<strong>No</strong>: the answer was ' + v.q : 'Yes'}</td></tr>`).join('')}</tbody></table>`;
    ctx.announce(`${pct(r.count / n)} of outputs rule out count ${v.q + 1}.`);
  });
  await refresh();
  return {};
}
