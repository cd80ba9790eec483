// Widget: the exponential mechanism's exact probabilities and draws.
//
// The exponential mechanism on a finite candidate set. The page
// shows the exact probabilities computed by core/mech next to a histogram of
// seeded draws; ε, Δ, the data set, the scores and the parametrisation are
// all controls, and the URL holds every one of them plus the seed and the
// number of batches drawn, so a link reproduces the histogram bit for bit.
import { BarChart } from '../charts/bars.js';
import { fmtInt, pct } from '../base/format.js';
import { logSlider, radios, button, fmt, errorLine, redrawer, settings, keyInput, keySelect, batchControls, reseed, readBox } from './controls.js';
import { schemas, datasets, formulas } from '../gen/widgets.js';
import { dataPanel } from './datapanel.js';
import { emGuarantee } from './guarantee.js';

export const schema = schemas['exponential-mechanism'];

/** mechanismEpsilon returns the ε of the ε/(2Δ) form for the widget's values, converting the article's ε in core. */
async function mechanismEpsilon(bridge, v) {
  if (v.form === 'dp') return v.eps;
  const r = await bridge.call('core', 'fromArticle', { epsilonArticle: v.eps, sensitivity: v.delta });
  return r.epsilon;
}

/**
 * articleEpsilon(e, delta) is the article's ε_a for the notebook's ε = e,
 * chosen so that flipping the formula switch runs the same mechanism: among
 * e/(2Δ) and the doubles next to it, one whose conversion back, 2·ε_a·Δ as
 * core/mech.FromArticle computes it, gives e exactly. For some Δ no double
 * does (multiplying by Δ steps over e); then e/(2Δ) is used and ε comes back
 * one unit in the last place off (about 1e-16 relative), which moves the
 * probabilities by as little and, in practice, no draw.
 */
export function articleEpsilon(e, delta) {
  const q = e / (2 * delta);
  if (2 * q * delta === e) return q;
  const buf = new DataView(new ArrayBuffer(8));
  const near = (x, k) => { buf.setFloat64(0, x); buf.setBigInt64(0, buf.getBigInt64(0) + BigInt(k)); return buf.getFloat64(0); };
  for (let k = 1; k <= 16; k++) {
    for (const c of [near(q, k), near(q, -k)]) if (c > 0 && 2 * c * delta === e) return c;
  }
  return q;
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const data = keySelect(ctx, schema, 'data', 'Candidates and scores', (n) => datasets[n].label, (x) => {
    ctx.set('u', null); ctx.set('delta', datasets[x].delta); delta.set(datasets[x].delta); buildEditor(); refresh();
  }, { wide: true });
  const form = radios({
    name: ctx.uid('form'), key: 'form', legend: 'Formula on screen', value: v.form,
    options: [['dp', 'Notebook: exp(ε·u/(2Δ)), ε-DP'], ['article', 'Article: exp(ε·q), 2εΔ-DP']],
    onChange: async (x) => {
      // Keep the same mechanism: only the number on the slider changes. The
      // converted ε is kept exactly (not rounded for the slider), so the
      // histogram stays the same draw for draw, unless the number falls off
      // the slider's range and has to be clamped.
      const e = await mechanismEpsilon(bridge, v);
      const next = x === 'article' ? articleEpsilon(e, v.delta) : e;
      ctx.set('form', x);
      ctx.set('eps', Math.min(Math.max(next, schema.eps.min), schema.eps.max));
      eps.set(v.eps);
      refresh();
    },
  });
  const eps = logSlider({
    id: ctx.uid('eps'), key: 'eps', label: 'ε (epsilon)', min: schema.eps.min, max: schema.eps.max, value: v.eps,
    spec: { ...schema.eps, label: 'ε (epsilon)' },
    describe: (x) => `ε = ${fmt(x, 4)}`,
    onInput: (x) => { ctx.set('eps', x); refresh(); },
  });
  const delta = keyInput(ctx, schema, 'delta', 'Δ (sensitivity)', () => refresh());
  const { batch, seed, ctl, actions, status } = batchControls(ctx, schema, () => refresh());
  status.before(button('New seed', reseed(ctx, seed, () => refresh())));
  const { els } = settings(ctx, [eps, data, form, delta], [batch, seed]);

  const formula = document.createElement('p');
  formula.className = 'formula-line';

  const chartHost = document.createElement('div');
  chartHost.className = 'widget-main';
  const chart = new BarChart(chartHost, { title: `${ctx.title}: share of draws and exact probability per candidate` });
  const error = errorLine();

  const editor = document.createElement('details');
  editor.className = 'score-editor';
  function buildEditor() {
    const d = datasets[v.data];
    const scores = scoresFor(v.data, v.u);
    editor.innerHTML = `<summary>Edit the scores</summary><p class="hint">Change any score and watch the probabilities move. The edited scores are kept in the link.</p><div class="score-grid"></div>`;
    const grid = editor.querySelector('.score-grid');
    d.candidates.forEach((name, i) => {
      const id = ctx.uid('u' + i);
      const row = document.createElement('div');
      row.className = 'score-row';
      row.innerHTML = `<label for="${id}"></label><input type="text" id="${id}" inputmode="decimal" autocomplete="off" spellcheck="false" aria-describedby="${id}-note"><span class="hint box-note" id="${id}-note" role="status"></span>`;
      row.querySelector('label').textContent = `u(${name})`;
      const input = row.querySelector('input');
      const note = row.querySelector('.box-note');
      input.value = String(scores[i]);
      input.addEventListener('change', () => {
        const r = readBox(input.value, { type: 'number', min: schema.u.min, max: schema.u.max, digits: schema.u.digits }, `u(${name})`);
        if (!r.ok) { input.setAttribute('aria-invalid', 'true'); note.textContent = r.message; return; }
        input.removeAttribute('aria-invalid');
        note.textContent = r.note;
        input.value = String(r.value);
        const u = scoresFor(v.data, v.u).slice();
        u[i] = r.value;
        ctx.set('u', u);
        refresh();
      });
      grid.append(row);
    });
    const restore = button('Restore the data set’s scores', () => { ctx.set('u', null); buildEditor(); refresh(); });
    editor.append(restore);
  }
  buildEditor();

  // Own data (a CSV file) replaces the data set's candidates and scores; the URL keeps only its fingerprint.
  let own = null;
  const ownData = dataPanel(ctx, {
    mode: 'selection', max: schema.u.maxLength,
    onData: (d) => { own = d; data.el.style.display = d ? 'none' : ''; editor.hidden = !!d; return refresh(); },
  });

  body.append(...els, ownData.el, formula, actions, error, chartHost, editor);

  const refresh = redrawer(ctx, error, async () => {
    const d = own ? { candidates: own.candidates, unit: own.unit } : datasets[v.data];
    const scores = own ? own.scores : scoresFor(v.data, v.u);
    const n = v.step * Number(v.batch);
    const epsilon = await mechanismEpsilon(bridge, v);
    const mu = v.mu && v.mu.length === scores.length ? v.mu : null;
    const req = { mechanism: 'exponential', scores: Float64Array.from(scores), epsilon, sensitivity: v.delta };
    if (mu) req.measure = Float64Array.from(mu);
    const [{ p }, { counts }] = await Promise.all([
      bridge.call('core', 'probabilities', req),
      bridge.call('core', 'draws', { ...req, slot: ctx.id, seed: v.seed, n }),
    ]);
    error.textContent = '';
    formula.innerHTML = formulas['exponential-mechanism'][v.form] + ' <span class="formula-values"></span>';
    // The scores' sensitivity, where the widget knows their function: the
    // data set's, or a file's counts; not scores typed in.
    const edited = !own && scores.some((x, i) => x !== datasets[v.data].scores[i]);
    const sensitivity = own ? (own.sensitivity ?? null) : edited ? null : datasets[v.data].sensitivity;
    formula.lastChild.textContent = emGuarantee({ form: v.form, eps: v.eps, delta: v.delta, epsilon, sensitivity });
    if (mu) formula.lastChild.textContent += ' Each weight is multiplied by the base measure μ(r) in the table, fixed before the data are seen.';
    chart.update({
      categories: d.candidates,
      marks: Array.from(p),
      bars: n > 0 ? Array.from(counts, (c) => c / n) : null,
      counts: Array.from(counts),
      total: n,
      columns: [{ label: `Score u (${d.unit})`, values: scores, format: (x) => String(+x.toPrecision(6)) }]
        .concat(mu ? [{ label: 'Base measure μ', values: mu, format: (x) => String(+x.toPrecision(6)) }] : []),
    });
    status.textContent = `${fmtInt(v.step)} batch${v.step === 1 ? '' : 'es'} · ${fmtInt(n)} draws · seed ${v.seed}`;
    ctx.announce(n > 0 ? `${fmtInt(n)} draws. ${d.candidates[argmax(p)]} has exact probability ${pct(p[argmax(p)])}.` : 'No draws yet.');
  });
  await ownData.restore();
  await refresh();
  return ctl;
}

/** scoresFor(name, edited) returns the scores in use: the data set's, or the edited ones when they fit. */
function scoresFor(name, edited) {
  const d = datasets[name];
  if (edited && edited.length === d.scores.length) return edited;
  return d.scores;
}

function argmax(xs) {
  let b = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[b]) b = i;
  return b;
}
