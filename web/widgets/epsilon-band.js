// Widget: what ε promises, the exponential mechanism on two neighbouring data sets.
//
// What ε promises, on neighbours. The exponential mechanism runs on two
// neighbouring data sets, x and x′, that differ only in Ana's answer to the
// meeting poll. Side by side: both output distributions (exact and drawn);
// below: each outcome's log-ratio ln(P[x]/P[x′]) against the ±ε band, exact
// and estimated from the draws with an interval. The "broken" switch weighs
// by exp(ε·u/Δ) while still claiming ε, and the band is breached.
import { BarChart } from '../charts/bars.js';
import { fmtInt } from '../base/format.js';
import { BandChart } from '../charts/band.js';
import { radios, fmt, panel, batchControls, errorLine, redrawer, epsSlider, settings } from './controls.js';
import { schemas, poll } from '../gen/widgets.js';

const { days: DAYS, others: OTHERS } = poll;

export const schema = schemas['epsilon-band'];

const scoresWith = (ana) => OTHERS.map((c, i) => c + (ana[i] ? 1 : 0));

function dayPicker(ctx, key, legend) {
  const fs = document.createElement('fieldset');
  fs.innerHTML = `<legend>${legend}</legend>` + DAYS.map((d, i) => {
    const id = ctx.uid(`${key}${i}`);
    return `<label for="${id}"><input type="checkbox" id="${id}" data-day="${i}"${ctx.values[key][i] ? ' checked' : ''}>${d.slice(0, 3)}<span class="visually-hidden">${d.slice(3)}</span></label>`;
  }).join('');
  return fs;
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const eps = epsSlider(ctx, schema, 'Claimed ε (epsilon)', () => refresh());
  const scale = radios({
    name: ctx.uid('scale'), key: 'scale', legend: 'Weights', value: v.scale,
    options: [['right', 'Right: exp(ε·u/(2Δ))'], ['broken', 'Broken: exp(ε·u/Δ), still claiming ε']],
    onChange: (x) => { ctx.set('scale', x); refresh(); },
  });
  const { batch, seed, ctl, actions, status } = batchControls(ctx, schema, () => refresh(), { batchLabel: 'Draws per batch (each side)' });
  const { controls, more } = settings(ctx, [eps, scale], [batch, seed]);

  const days = document.createElement('div');
  days.className = 'neighbour-days';
  const fx = dayPicker(ctx, 'ax', 'In data set x, Ana can make');
  const fy = dayPicker(ctx, 'ay', 'In data set x′, Ana can make');
  days.append(fx, fy);
  for (const [f, key] of [[fx, 'ax'], [fy, 'ay']]) {
    f.addEventListener('change', () => {
      ctx.set(key, [...f.querySelectorAll('input')].map((c) => (c.checked ? 1 : 0)));
      refresh();
    });
  }


  const verdict = document.createElement('p');
  verdict.className = 'loss-line widget-main';
  const error = errorLine();

  const grid = document.createElement('div');
  grid.className = 'small-multiples';
  const panels = ['x', 'x′'].map((name) => {
    const { el, host } = panel(ctx, `Data set ${name}<span class="panel-detail"></span>`);
    grid.append(el);
    return { detail: el.querySelector('.panel-detail'), chart: new BarChart(host, { title: `Output distribution on data set ${name}: share of draws and exact probability`, compact: true }) };
  });
  const bandHost = document.createElement('div');
  bandHost.className = 'widget-main';
  const band = new BandChart(bandHost, { title: `${ctx.title}: log-ratio of each day’s probability on x and on x′, against ±ε`, yLabel: 'ln(P[x] / P[x′])' });
  body.append(controls, days, more, actions, verdict, error, grid, bandHost);

  const refresh = redrawer(ctx, error, async () => {
    const n = v.step * Number(v.batch);
    const x = scoresWith(v.ax), y = scoresWith(v.ay);
    const r = await bridge.call('core', 'neighboursCompare', {
      slot: ctx.id, x: Float64Array.from(x), y: Float64Array.from(y), epsilon: v.eps, sensitivity: 1,
      broken: v.scale === 'broken', seed: v.seed, n,
    });
    error.textContent = '';
    [[r.px, r.countX, x], [r.py, r.countY, y]].forEach(([p, c, s], k) => {
      panels[k].detail.textContent = ` scores ${s.join(', ')}`;
      panels[k].chart.update({
        categories: DAYS, marks: Array.from(p), counts: Array.from(c), total: n,
        bars: n > 0 ? Array.from(c, (m) => m / n) : null,
        columns: [{ label: 'Students free', values: s, format: String }],
      });
    });
    band.update({
      categories: DAYS, epsilon: r.claimed, exact: Array.from(r.logRatio),
      estimate: Array.from(r.estimate), low: Array.from(r.low), high: Array.from(r.high), drawn: Array.from(r.drawn),
    });
    const over = r.loss > r.claimed * (1 + 1e-9);
    verdict.innerHTML = '';
    verdict.append(
      `Weights exp(${r.run === r.claimed ? 'ε·u/(2Δ)' : 'ε·u/Δ'}) with ε = ${fmt(r.claimed)}, Δ = 1. Privacy loss on this pair, max |ln(P[x]/P[x′])|: `,
      Object.assign(document.createElement('strong'), { className: over ? 'breach' : '', textContent: `${fmt(r.loss, 4)} ${over ? '> ε: the claim is false' : '≤ ε'}` }),
      n > 0 ? `. From the draws (intervals ±${r.z} standard errors): ${r.breaches ? `${r.breaches} day${r.breaches === 1 ? '' : 's'} clearly outside the band.` : 'no day clearly outside the band.'}` : '.',
    );
    status.textContent = `${fmtInt(v.step)} batch${v.step === 1 ? '' : 'es'} · ${fmtInt(n)} draws on each side · seed ${v.seed}`;
    ctx.announce(`Privacy loss ${fmt(r.loss, 3)} against ε = ${fmt(r.claimed)}${over ? ': breached' : ''}.`);
  });
  await refresh();
  return ctl;
}
