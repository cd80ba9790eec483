// Widget: how little lying helps a buyer under the private price.
//
// How little lying helps. One buyer's report is dragged from $0
// (below every price: as if they left) across the price grid; the chart is
// their exact expected utility E[(v − p)·1[v ≥ p]] for every report, with the
// truthful one marked, and the readout puts the largest gain next to the
// bounds ε-differential privacy gives, each named by where it comes from, and
// next to the deterministic best price, where one lie pays a lot.
import { LineChart } from '../charts/line.js';
import { linearSlider, numberInput, fmt, errorLine, redrawer } from './controls.js';
import { keyControls } from './keycontrols.js';
import { GRID, money, valuesInput } from './pricing.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.truthful;

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  // The liar is one of the market's buyers: the box's range is 1 … the
  // number of buyers, and a buyer past it (from a link, or after values were
  // removed) is the last one, with the page's note.
  const fitBuyer = () => {
    const n = v.values.length;
    if (v.buyer <= n) return '';
    const text = `${ctx.title}: ${schema.buyer.label} = ${v.buyer} is outside 1 … ${n}, so ${n} is used.`;
    ctx.set('buyer', n);
    buyer.set(n);
    buyer.say(text);
    return text;
  };
  const values = valuesInput(ctx, (xs) => { ctx.set('values', xs); fitBuyer(); refresh(); });
  const buyer = numberInput({
    id: ctx.uid('buyer'), key: 'buyer', label: 'Which buyer lies (1 = first)', value: v.buyer,
    spec: () => ({ ...schema.buyer, max: v.values.length }),
    onChange: (x) => { ctx.set('buyer', x); refresh(); },
  });
  const report = linearSlider({
    id: ctx.uid('report'), key: 'report', label: 'Their report', min: 0, max: GRID.maxPrice, value: v.report, digits: 3, step: GRID.step,
    describe: (x) => money(x), onInput: (x) => { ctx.set('report', +x.toFixed(2)); refresh(); },
  });
  const { els } = keyControls(ctx, schema, () => refresh(), [['eps', 'ε (epsilon)'], report, values, buyer]);
  const linked = fitBuyer();
  if (linked) ctx.note(linked);
  const readout = document.createElement('div');
  readout.className = 'loss-line laplace-readout';
  const error = errorLine();
  const host = document.createElement('div');
  host.className = 'widget-main';
  const chart = new LineChart(host, { title: `${ctx.title}: the buyer's exact expected utility for every report`, xLabel: 'report ($)', yLabel: 'expected utility ($)' });
  body.append(...els, error, host, readout);

  const refresh = redrawer(ctx, error, async () => {
    const b = v.buyer;
    const t = await bridge.call('market', 'truth', { values: Float64Array.from(v.values), ...GRID, epsilon: v.eps, buyer: b - 1 });
    error.textContent = '';
    const reports = Array.from(t.reports), util = Array.from(t.utilities);
    // reports[0] is $0, reports[j] the j-th grid price.
    const k = Math.min(Math.max(Math.round(v.report / GRID.step), 0), reports.length - 1);
    const gain = util[k] - t.truthfulUtility;
    chart.update({
      x: reports,
      series: [
        { label: 'Expected utility when reporting x', short: 'E[utility]', values: util },
        { label: 'Telling the truth', short: 'Truthful', values: reports.map(() => t.truthfulUtility) },
      ],
      marker: reports[k], markerLabel: `report ${money(reports[k])}`,
    });
    readout.innerHTML = `<p>Buyer ${b} values the good at <strong>${money(t.value)}</strong>. Truthful: expected utility <strong>${fmt(t.truthfulUtility, 4)}</strong>. Reporting ${money(reports[k])}: <strong>${fmt(util[k], 4)}</strong> (${gain > 1e-12 ? `a gain of ${fmt(gain, 3)}` : gain < -1e-12 ? `a loss of ${fmt(-gain, 3)}` : 'no change'}).</p>`
      + `<p>The best lie, ${money(t.bestReport)}, gains <strong>${fmt(t.maxGain, 3)}</strong>. ε-differential privacy for change-one-answer neighbours, where a lie is one buyer's report changed, caps every lie's gain at <strong>${fmt(t.tightBound, 3)}</strong>, the smaller of (e<sup>ε</sup> − 1)·E[u] and B·tanh(ε/2), with B = ${money(t.maxUtility)}, the most this buyer can get from any price. The slides' theorem gives ε·B = ${fmt(t.slidesBound, 3)}${t.slidesBound >= t.maxUtility ? ', at least B, so it says nothing here' : ''}; its proof, done exactly, gives (1 − e<sup>−ε</sup>)·B = ${fmt(t.proofBound, 3)}.</p>`
      + `<p>Without privacy, posting the best price: truthful price ${money(t.detTruthfulPrice)}, utility ${fmt(t.detTruthfulUtility, 3)}; reporting ${money(t.detBestReport)} moves the price to ${money(t.detBestPrice)} and gains <strong>${fmt(t.detGain, 3)}</strong>.</p>`;
    ctx.announce(`Report ${money(reports[k])}: expected utility ${fmt(util[k], 3)}; truthful ${fmt(t.truthfulUtility, 3)}.`);
  });
  await refresh();
  return {};
}
