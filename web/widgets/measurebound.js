// Widget: the article's base-measure accuracy lemma on two score profiles.
//
// The article's base-measure accuracy lemma for its mechanism
// exp(ε_a·q(r))·μ(r) over 101 candidates with uniform μ, on two score
// shapes: a gentle slope (much near-optimal mass) and a needle (one good
// candidate among poor ones). core/mech.MeasureTailBound computes the bound
// exp(−ε_a·t)/μ(S_t) and the exact probability it bounds.
import { fmt, tableRegion, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas, formulas } from '../gen/widgets.js';

export const schema = schemas.measurebound;

const N = 101;
/** shapes: scores on N points, optimum 0 at the centre (as in the Go tests). */
export const shapes = [
  { name: 'Slope: q(r) = −|r − 50|/101', scores: Array.from({ length: N }, (_, i) => -Math.abs(i - 50) / N) },
  { name: 'Needle: q = 0 at r = 50, −0.5 elsewhere', scores: Array.from({ length: N }, (_, i) => (i === 50 ? 0 : -0.5)) },
];

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { els } = keyControls(ctx, schema, () => refresh(), [['ea', 'ε_a (epsilon, article form exp(ε_a·q))'], ['t', 't']]);
  const error = errorLine();
  const out = tableRegion('Base-measure bound for a slope and a needle', 'pf-readout widget-main');
  body.append(...els, error, out);

  const refresh = redrawer(ctx, error, async () => {
    const rs = await Promise.all(shapes.map((s) => bridge.call('core', 'accuracyMeasureBound', {
      scores: Float64Array.from(s.scores), epsilonArticle: v.ea, t: v.t,
    })));
    error.textContent = '';
    // The caption's formulas are the build's MathML (app/widget); its plain
    // text (Unicode subscripts, no TeX) names the table in the CSV chooser.
    const f = formulas.measurebound;
    const plain = `Pr[q ≤ OPT − 2t] and its bound exp(−εₐt)/μ(Sₜ) at εₐ = ${v.ea}, t = ${v.t}`;
    out.innerHTML = `<table><caption data-text="${plain}">${f.event} and its bound ${f.bound} at ${f.ea} = ${v.ea}, ${f.t} = ${v.t}</caption>
      <thead><tr><th scope="col">Candidate set</th><th scope="col" class="num">μ(S<sub>t</sub>)</th><th scope="col" class="num">Bound</th><th scope="col" class="num">Exact</th></tr></thead>
      <tbody>${shapes.map((s, i) => `<tr><th scope="row">${s.name}</th><td class="num">${fmt(rs[i].near, 3)}</td><td class="num">${fmt(rs[i].bound, 3)}${rs[i].bound >= 1 ? ' (vacuous)' : ''}</td><td class="num">${fmt(rs[i].exact, 3)}</td></tr>`).join('')}</tbody></table>`;
    ctx.announce(`Slope: bound ${fmt(rs[0].bound)}, exact ${fmt(rs[0].exact)}. Needle: bound ${fmt(rs[1].bound)}, exact ${fmt(rs[1].exact)}.`);
  });
  await refresh();
  return {};
}
