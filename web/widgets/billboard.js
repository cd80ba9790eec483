// Widget: allocation by billboard prices under joint differential privacy.
//
// Allocation by billboard prices under joint differential
// privacy (core/market.Allocate on the 300-buyer tea market). The student
// steps through the rounds: posted prices, the true demand (private, shown
// for teaching), the noisy demand the billboard implies, and one buyer's own
// choices; at the end, the allocation with welfare against the optimum,
// over-demand, and the ε charged.
import { fmtInt } from '../base/format.js';
import { LineChart } from '../charts/line.js';
import { logSlider, select, button, fmt, errorLine, redrawer, settings, keyInput, keySelect, stepper, actionsRow } from './controls.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.billboard;

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  let stale = true; // a setting changed: run the market again
  const rerun = (key) => (x) => { ctx.set(key, x); stale = true; refresh(); };
  const eps = logSlider({
    id: ctx.uid('eps'), key: 'eps', label: 'ε for the whole price sequence', min: schema.eps.min, max: schema.eps.max, value: v.eps,
    spec: { ...schema.eps, label: 'ε for the whole price sequence' },
    describe: (x) => `ε = ${x}`, onInput: rerun('eps'),
  });
  const rounds = keySelect(ctx, schema, 'rounds', 'Rounds T', (r) => r, () => { stale = true; refresh(); });
  const supply = keyInput(ctx, schema, 'supply', 'Copies of each good', () => { stale = true; refresh(); });
  const counter = select({
    id: ctx.uid('counter'), key: 'counter', label: 'Demand counter', value: v.counter, wide: true,
    options: [['auto', 'Whichever is less noisy for T'], ['tree', 'Binary tree'], ['per-round', 'One release per round']],
    onChange: rerun('counter'),
  });
  const buyer = keyInput(ctx, schema, 'buyer', 'Your buyer (1–300)', () => refresh());
  const seed = keyInput(ctx, schema, 'seed', 'Seed', () => { stale = true; refresh(); });
  const { els } = settings(ctx, [eps, rounds, supply, buyer], [counter, seed]);
  const last = () => +v.rounds + 1;
  const ctl = stepper(ctx, 't', 1, last, () => refresh());
  const { actions, status } = actionsRow(
    button('Next round', () => ctl.draw(), { kbd: 'Space', primary: true }),
    button('Previous round', () => ctl.step(-1), { kbd: '←' }),
    button('Go to the allocation', () => { ctx.set('t', last()); refresh(); }),
    button('Back to round 1', () => ctl.reset(), { kbd: 'r' }),
  );
  const roundBox = document.createElement('div');
  roundBox.className = 'billboard-round widget-main';
  const finalBox = document.createElement('div');
  finalBox.className = 'loss-line laplace-readout widget-main';
  const error = errorLine();
  const host = document.createElement('div');
  host.className = 'widget-main';
  const chart = new LineChart(host, { title: `${ctx.title}: posted prices in each round`, xLabel: 'round', yLabel: 'price (value units)' });
  body.append(...els, actions, error, finalBox, roundBox, host);

  let run = null;
  const refresh = redrawer(ctx, error, async () => {
    if (stale || !run) {
      run = await bridge.call('market', 'billboard', {
        supply: Float64Array.from([v.supply, v.supply, v.supply]), rounds: +v.rounds, epsilon: v.eps, counter: v.counter, seed: v.seed,
      });
      stale = false;
    }
    error.textContent = '';
    show(run);
  });

  function show(r) {
    const k = r.goods.length, T = r.rounds;
    const t = Math.min(v.t, T + 1);
    const price = (round, j) => r.prices[(round - 1) * k + j];
    const xs = Array.from({ length: T + 1 }, (_, i) => i + 1);
    chart.update({
      x: xs, series: r.goods.map((g, j) => ({ label: g, values: xs.map((x) => price(x, j)) })),
      marker: t, markerLabel: t > T ? 'final prices' : `round ${t}`
    });
    const b = Math.min(v.buyer, r.buyers) - 1;
    const choice = (round) => r.choices[(round - 1) * r.buyers + b];
    const goodName = (c) => (c < 0 ? 'nothing' : r.goods[c]);
    if (t <= T) {
      const rows = r.goods.map((g, j) => `<tr><th scope="row">${g}</th><td class="num">${fmt(price(t, j), 3)}</td><td class="num">${fmtInt(r.demand[(t - 1) * k + j])}</td><td class="num">${fmt(r.noisyDemand[(t - 1) * k + j], 4)}</td><td class="num">${fmtInt(v.supply)}</td></tr>`).join('');
      roundBox.innerHTML = `<h4>Round ${t} of ${T}</h4><div class="table-wrap" tabindex="0" role="region" aria-label="Round ${t}: prices and demand"><table><thead><tr><th scope="col">Good</th><th scope="col" class="num">Price</th><th scope="col" class="num">True demand (private)</th><th scope="col" class="num">Noisy demand (public)</th><th scope="col" class="num">Supply</th></tr></thead><tbody>${rows}</tbody></table></div>`
        + `<p class="hint">Your buyer ${b + 1} sees only these prices and their own values, and demands <strong>${goodName(choice(t))}</strong> this round.</p>`;
      finalBox.hidden = true;
    } else {
      const rows = r.goods.map((g, j) => `<tr><th scope="row">${g}</th><td class="num">${fmtInt(r.allocated[j])}</td><td class="num">${fmtInt(r.overAllocation[j])}</td><td class="num">${r.expectedAllocated[j].toFixed(1)}</td><td class="num">${(100 * r.overSupplyProbability[j]).toFixed(0)}%</td></tr>`).join('');
      roundBox.innerHTML = `<h4>The allocation</h4><div class="table-wrap" tabindex="0" role="region" aria-label="Final allocation per good"><table><caption>Totals over every buyer's demand, yours included: not a jointly private release</caption><thead><tr><th scope="col">Good</th><th scope="col" class="num">Handed out</th><th scope="col" class="num">Over</th><th scope="col" class="num">Mean</th><th scope="col" class="num">P(over)</th></tr></thead><tbody>${rows}</tbody></table></div>`
        + `<p class="hint">Each buyer takes their demand in a round they draw at random and pays that round's price: this allocation is jointly private, and it can exceed the supply of ${fmtInt(v.supply)} copies of each good. The totals above add up every buyer's demand, so like the welfare they are shown for teaching, not released; "Mean" and "P(over)" are exact over the buyers' draws, given the prices. Your buyer ${b + 1} receives <strong>${goodName(r.allocation[b])}</strong>.</p>`;
      finalBox.hidden = false;
      const share = r.feasibleWelfare / r.optimalWelfare;
      let ones = 0;
      for (let x = T; x > 0; x >>= 1) ones += x & 1;
      // Per round: T releases; tree: one node per binary digit 1 of T.
      const terms = r.counter === 'tree' ? ones : T;
      const countSD = Math.sqrt(2 * terms) * r.noiseScale;
      finalBox.innerHTML = `<p>Jointly private allocation: welfare (sum of the values of the goods handed out) <strong>${fmt(r.welfare, 4)}</strong>, counting copies beyond the supply. Not private: after turning away random excess holders, <strong>${fmt(r.feasibleWelfare, 4)}</strong>, which is ${(100 * share).toFixed(0)}% of the best possible ${fmt(r.optimalWelfare, 4)}. (Welfare and optimum use every buyer's values: shown for teaching only.)</p>`
        + `<p>Privacy, for neighbours that change one buyer’s report (jointly private for what the other buyers receive; the prices alone ε-differentially private): ε spent <strong>${fmt(r.epsilonSpent, 4)}</strong> in ${r.charges} release${r.charges === 1 ? '' : 's'} of ε/${r.charges} = ${fmt(r.epsilonSpent / r.charges, 4)} each (${r.counter} counter), Laplace noise of scale ${fmt(r.noiseScale, 4)} on every count.</p>`
        // The last prices are η times the noisy running count of all T rounds:
        // its noise is a sum of T draws per round (or popcount(T) tree nodes),
        // which grows with T rather than averaging out.
        + `<p>Noise in the final prices: the running count behind them adds up ${terms} noisy release${terms === 1 ? '' : 's'}, so it is off by <strong>${fmtInt(countSD)}</strong> buyers (standard deviation √(2·${terms}) × ${fmt(r.noiseScale, 4)}). Times the step η = ${fmt(r.step, 3)}, each price is off by about <strong>${fmt(r.step * countSD, 2)}</strong>, on values between 0 and 1.</p>`;
    }
    status.textContent = t <= T ? `round ${t} of ${T} · seed ${v.seed}` : `allocation after ${T} rounds · seed ${v.seed}`;
    ctx.announce(t <= T ? `Round ${t}.` : `Welfare ${fmt(r.feasibleWelfare, 3)} of ${fmt(r.optimalWelfare, 3)}.`);
  }

  await refresh();
  return ctl;
}
