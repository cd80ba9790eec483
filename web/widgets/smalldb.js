// Widget: SmallDB on the medical table, one stage at a time.
//
// SmallDB (Blum, Ligett and Roth; the notes' Algorithm 4) on the
// medical table, one stage at a time. The Go stepper in the lazily loaded
// synth module does the work; this page asks it to score for about 40 ms a
// call, so a progress bar moves and Cancel simply stops calling. Before
// scoring, the page predicts the time from a trial run of the same instance
// and, above ASK_MS, asks first and offers MWEM instead.
import { fmtInt } from '../base/format.js';
import { escapeHTML } from '../base/dom.js';
import { LineChart } from '../charts/line.js';
import { logSlider, linearSlider, select, button, fmt, panel, tableRegion, errorLine, settings, keyInput } from './controls.js';
import { schemas } from '../gen/widgets.js';
import { dataPanel } from './datapanel.js';
import { formatState } from '../state/address.js';

export const STAGES = ['data', 'queries', 'count', 'scoring', 'levels', 'draw', 'compare'];
const STAGE_TITLES = ['The data', 'The queries', 'Count the candidates', 'Score every candidate', 'Error levels', 'The draw', 'Synthetic against true'];

export const schema = schemas.smalldb;

/** Runs predicted to score for longer than this ask first. */
export const ASK_MS = 2000;
/** Each advance call scores for about this long, so progress and Cancel stay responsive. */
const SLICE_MS = 40;

export const QUERY_SETS = [
  ['marginals:1', '1-way marginals (each attribute alone)'],
  ['marginals:2', '2-way marginals (every pair)'],
  ['marginals:3', '3-way marginals (every triple)'],
  ['halfspaces', 'Halfspaces (the article’s classifiers)'],
];
export const ATTRIBUTES = [
  ['3', '3: smoker, lung cancer, over 50'],
  ['4', '4: sex, smoker, lung cancer, over 50'],
  ['5', '5: all, with over 150 lb'],
];

/**
 * shapeSelects(ctx, onChange) is the pair of selects SmallDB and MWEM start
 * with: the built-in table's attributes (key k) and the query set (key q).
 * A choice is stored with ctx.set, then onChange runs.
 */
export function shapeSelects(ctx, onChange) {
  return [['k', 'Attributes (columns)', ATTRIBUTES], ['q', 'Query set Q', QUERY_SETS]].map(([key, label, options]) =>
    select({ id: ctx.uid(key), key, label, value: ctx.values[key], options, wide: true, onChange: (x) => { ctx.set(key, x); onChange(); } }));
}
const NICE = { sex: 'male', smoker: 'smoker', lung_cancer: 'lung cancer', over_150lb: 'over 150 lb', over_50: 'over 50' };
export const niceColumn = (c) => NICE[c] || c;
export const niceQuery = (s) => s.replace(/lung_cancer/g, 'lung cancer').replace(/over_150lb/g, 'over 150 lb').replace(/over_50/g, 'over 50').replace(/\bsex=1/g, 'male').replace(/\bsex=0/g, 'female');

/** bits(x, k) lists point x's k bits, the first column most significant. */
export const bits = (x, k) => Array.from({ length: k }, (_, j) => (x >> (k - 1 - j)) & 1);

export const seconds = (ms) => (ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${fmt(ms / 1000, 2)} s`);
const rate = (r) => (r >= 1e6 ? `${fmt(r / 1e6, 3)} million` : fmtInt(r));

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge, fig } = ctx;

  // ---- Controls ----
  const [kSel, qSel] = shapeSelects(ctx, () => restart());
  const mSl = linearSlider({
    id: ctx.uid('m'), key: 'm', label: 'm, rows in the synthetic database', min: 1, max: 12, value: v.m, digits: 3, step: 1,
    describe: (x) => `m = ${Math.round(x)}`,
    onInput: (x) => { const r = Math.round(x); if (r !== v.m) { ctx.set('m', r); restart(); } },
  });
  const epsSl = logSlider({
    id: ctx.uid('eps'), key: 'eps', label: 'ε (epsilon)', min: schema.eps.min, max: schema.eps.max, value: v.eps,
    spec: { ...schema.eps, label: 'ε (epsilon)' },
    describe: (x) => `ε = ${x}`, onInput: (x) => { ctx.set('eps', x); changeEps(); },
  });
  const seed = keyInput(ctx, schema, 'seed', 'Seed', () => restart());
  const { els } = settings(ctx, [mSl, epsSl, kSel, qSel], [seed]);

  // ---- Stepper ----
  const stages = document.createElement('ol');
  stages.className = 'synth-stages widget-main';
  stages.setAttribute('aria-label', 'Stages of SmallDB');
  stages.innerHTML = STAGE_TITLES.map((t, i) => `<li data-stage="${STAGES[i]}"><span class="synth-stage-num" aria-hidden="true">${i + 1}</span> ${t}</li>`).join('');
  const actions = document.createElement('div');
  actions.className = 'actions widget-main';
  const nextBtn = button('Next stage', () => ctl.step(1), { kbd: '→', primary: true });
  const runBtn = button('Run to the end', () => ctl.draw(), { kbd: 'Space' });
  const backBtn = button('Back', () => ctl.step(-1), { kbd: '←' });
  const resetBtn = button('Start over', () => ctl.reset(), { kbd: 'r' });
  actions.append(nextBtn, runBtn, backBtn, resetBtn);

  const error = errorLine();

  // ---- Panels, one per stage ----
  const stagePanel = (title, cls = '') => {
    const { el, host } = panel(ctx, title, `synth-panel ${cls}`);
    el.hidden = true;
    return { el, inner: host };
  };
  const pData = stagePanel('1 · The data: 120 patients as a histogram');
  const pQueries = stagePanel('2 · The queries and their true answers');
  const pCount = stagePanel('3 · Candidates: every multiset of m rows');
  const pScore = stagePanel('4 · Scoring: the max-error of every candidate');
  const pLevels = stagePanel('5 · The exact distribution over error levels', 'synth-wide');
  const pCurve = stagePanel('Proposition 4.4 at this m against the exact error, over ε', 'synth-wide');
  const pDraw = stagePanel('6 · The draw: one synthetic database');
  const pCompare = stagePanel('7 · Synthetic against true, query by query');

  const scrollTable = (label) => tableRegion(label, 'synth-scroll');
  const dataTable = scrollTable('The data as a histogram, with the synthetic rows');
  const dataNote = document.createElement('p');
  dataNote.className = 'panel-stat';
  pData.inner.append(dataNote, dataTable);
  const queriesNote = document.createElement('p');
  queriesNote.className = 'panel-stat';
  const queriesTable = scrollTable('Every query with its true answer');
  pQueries.inner.append(queriesNote, queriesTable);
  const countText = document.createElement('div');
  const ask = document.createElement('div');
  ask.className = 'synth-ask';
  ask.setAttribute('role', 'group');
  ask.hidden = true;
  pCount.inner.append(countText, ask);
  const progressId = ctx.uid('progress');
  pScore.inner.innerHTML = `<label for="${progressId}" class="synth-progress-label">Scored</label><progress id="${progressId}" max="1" value="0"></progress><p class="panel-stat synth-progress-text" aria-live="polite"></p>`;
  const progress = pScore.inner.querySelector('progress');
  const progressText = pScore.inner.querySelector('.synth-progress-text');
  const cancelBtn = button('Cancel', () => { cancelRequested = true; });
  cancelBtn.className = 'synth-cancel';
  cancelBtn.disabled = true;
  pScore.inner.append(cancelBtn);
  // plot(p, text, opts) fills panel p with text over a new line chart, and returns the chart.
  const plot = (p, text, opts) => {
    const host = document.createElement('div');
    p.inner.append(text, host);
    return new LineChart(host, opts);
  };
  const levelsText = document.createElement('div');
  levelsText.className = 'loss-line';
  const levelsChart = plot(pLevels, levelsText, {
    title: 'SmallDB: probability that the max-error is at most x, against the share of all candidates',
    xLabel: 'max-error x over the queries', yLabel: 'probability', steps: true, yCap: 1, describe: (d) => d.note,
  });
  const curveText = document.createElement('p');
  curveText.className = 'panel-stat';
  const curveChart = plot(pCurve, curveText, {
    title: 'Proposition 4.4’s bound on the max-error at this run’s m against SmallDB’s exact error, for ε from 0.05 to 50',
    xLabel: 'ε (log scale)', yLabel: 'max-error', logX: true, describe: (d) => d.note,
  });
  const drawText = document.createElement('div');
  pDraw.inner.append(drawText);
  const compareText = document.createElement('div');
  const compareTable = scrollTable('Every query: true answer, synthetic answer and difference');
  pCompare.inner.append(compareText, compareTable);

  const grid1 = document.createElement('div');
  grid1.className = 'small-multiples synth-grid widget-main';
  grid1.append(pData.el, pQueries.el, pCount.el, pScore.el);
  const grid2 = document.createElement('div');
  grid2.className = 'synth-grid synth-grid-wide widget-main';
  grid2.append(pLevels.el, pDraw.el, pCompare.el, pCurve.el);
  // Own data: up to five yes/no columns replace the medical table (the URL keeps only the file's fingerprint).
  let own = null;
  const ownData = dataPanel(ctx, {
    mode: 'bits', max: 5,
    onData: (d) => {
      own = d;
      kSel.el.style.display = d ? 'none' : '';
      pData.el.querySelector('h3, h4, .panel-title')?.replaceChildren(d ? `1 · The data: your ${fmtInt(d.counts.reduce((a, b) => a + b, 0))} rows as a histogram` : '1 · The data: 120 patients as a histogram');
      return restart();
    },
  });
  body.append(...els, ownData.el, stages, actions, error, grid1, grid2);

  // ---- State ----
  let plan = null; // from start: data, queries, count, prediction, bounds
  let handle = 0;
  let view = null; // from advance / reweight
  let curve = null;
  let generation = 0; // a newer request makes older loops stop
  let confirmed = false; // the student agreed to a long run of this handle
  let cancelRequested = false;
  let renders = 0;
  let note = ''; // a one-off message (cancelled)
  let scoringNow = false;
  const stageIndex = () => (view ? view.stage : 0);
  const busy = (on) => { if (on) fig.dataset.busy = '1'; else delete fig.dataset.busy; };

  async function closeRun() {
    if (handle) {
      const h = handle;
      handle = 0;
      await bridge.call('synth', 'close', { handle: h }).catch(() => {});
    }
  }

  /** restart opens a new run for the current parameters and goes to the URL's stage. */
  async function restart({ keepNote = false } = {}) {
    const my = ++generation;
    if (!keepNote) note = '';
    busy(true);
    try {
      await closeRun();
      const req = { k: +v.k, queries: v.q, m: v.m, epsilon: v.eps, seed: v.seed, probe: 16384 };
      if (own) Object.assign(req, { columns: own.columns, counts: Float64Array.from(own.counts) });
      const p = await bridge.call('synth', 'start', req);
      if (my !== generation) return;
      plan = p; handle = p.handle; view = null; curve = null; confirmed = false; cancelRequested = false;
      error.textContent = '';
      view = { stage: 0 };
      if (handle) view = await bridge.call('synth', 'advance', { handle, stage: 0, chunk: 1, maxMs: 1 });
      render();
      const want = STAGES.indexOf(v.stage);
      if (want > 0) await goTo(want);
    } catch (err) {
      if (my === generation) { error.textContent = err.message; render(); }
    } finally {
      if (my === generation) busy(false);
    }
  }

  /** goTo advances the run to stage index target, scoring in slices with progress. */
  async function goTo(target) {
    const my = generation;
    if (!handle) {
      // A refused instance stops at the count.
      target = Math.min(target, 2);
      view = { stage: target };
      ctx.set('stage', STAGES[target]);
      render();
      return;
    }
    if (target >= 3 && stageIndex() < 4 && plan.predictedMs > ASK_MS && !confirmed) {
      // Stop at the count and ask before a long run.
      if (stageIndex() < 2) view = await bridge.call('synth', 'advance', { handle, stage: 2, chunk: 1, maxMs: 1 });
      if (my !== generation) return;
      ctx.set('stage', 'count');
      showAsk(target);
      render();
      return;
    }
    ask.hidden = true;
    cancelRequested = false;
    try {
      for (;;) {
        const vw = await bridge.call('synth', 'advance', { handle, stage: target, chunk: 8192, maxMs: SLICE_MS });
        if (my !== generation || !fig.isConnected) return;
        const first = vw.stage === 3 && !scoringNow;
        view = vw;
        if (view.stage >= target) break;
        if (view.stage === 3) {
          scoringNow = true;
          cancelBtn.disabled = false;
          if (first) render(); else renderProgress();
        }
        if (cancelRequested) break;
      }
    } finally {
      scoringNow = false;
      cancelBtn.disabled = true;
    }
    if (cancelRequested && view.stage < 4) {
      const pct = (100 * view.scored) / view.candidates;
      note = `Cancelled after scoring ${fmtInt(view.scored)} of ${fmtInt(view.candidates)} candidates (${pct.toFixed(0)}%). Nothing was drawn: the mechanism needs every candidate's score. Lower m or use fewer attributes, or try MWEM, which has a lesson of its own.`;
      ctx.announce('Scoring cancelled.');
      ctx.set('stage', 'count');
      cancelRequested = false;
      await restart({ keepNote: true });
      return;
    }
    ctx.set('stage', STAGES[Math.max(view.stage, 0)]);
    if (view.stage >= 4 && !curve) {
      curve = await bridge.call('synth', 'curve', { handle });
      if (my !== generation) return;
    }
    render();
  }

  function showAsk(target) {
    ask.hidden = false;
    const id = ctx.uid('ask');
    ask.setAttribute('aria-labelledby', id);
    ask.innerHTML = `<p id="${id}"><strong>This run would take about ${seconds(plan.predictedMs)}.</strong> The worker stays free in the meantime, and you can cancel at any point.</p>`;
    const go = button('Score them anyway', async () => {
      confirmed = true; ask.hidden = true;
      const my = ++generation;
      busy(true);
      try { await goTo(target); } catch (err) { error.textContent = err.message; } finally { if (my === generation) busy(false); }
    }, { primary: true });
    const mw = button('Try MWEM instead', () => {
      const other = document.querySelector('figure.widget[data-widget="mwem"]');
      if (other) { other.scrollIntoView({ block: 'start' }); other.querySelector('button, select, input')?.focus({ preventScroll: true }); return; }
      // Otherwise open the MWEM lesson's page (its widget's id is mw) on the same attributes, queries and ε.
      location.assign(new URL(`../mwem/${formatState(new Map([['mw.k', String(v.k)], ['mw.q', String(v.q)], ['mw.eps', String(v.eps)]]))}`, import.meta.url));
    });
    const row = document.createElement('div');
    row.className = 'actions';
    row.append(go, mw);
    ask.append(row);
    go.focus({ preventScroll: true });
  }

  async function changeEps() {
    if (view && view.stage >= 4 && handle) {
      const my = ++generation;
      busy(true);
      try {
        const vw = await bridge.call('synth', 'reweight', { handle, epsilon: v.eps });
        if (my !== generation) return;
        view = vw;
        render();
      } catch (err) {
        error.textContent = err.message;
      } finally {
        if (my === generation) busy(false);
      }
      return;
    }
    await restart();
  }

  async function stepTo(target) {
    target = Math.max(0, Math.min(6, target));
    if (target === 3) target = stageIndex() < 3 ? 4 : 2; // scoring is passed through
    note = '';
    const cur = stageIndex();
    if (target === cur) return;
    if (target > cur) {
      const my = ++generation;
      busy(true);
      try { await goTo(target); } catch (err) { error.textContent = err.message; } finally { if (my === generation) busy(false); }
      return;
    }
    // Going back: levels and later keep their scores (reweighting returns
    // to the levels stage); earlier stages start a fresh run.
    ctx.set('stage', STAGES[target]);
    if (target >= 4) {
      const my = ++generation;
      busy(true);
      try {
        const vw = await bridge.call('synth', 'reweight', { handle, epsilon: v.eps, stage: target });
        if (my === generation) { view = vw; render(); }
      } catch (err) { error.textContent = err.message; } finally { if (my === generation) busy(false); }
      return;
    }
    await restart();
  }

  const ctl = {
    step(d) { const cur = stageIndex(); return stepTo(d > 0 ? (cur === 2 ? 4 : cur + 1) : (cur === 4 ? 2 : cur - 1)); },
    draw() { note = ''; return stepTo(6); },
    reset() { note = ''; ctx.set('stage', 'data'); return restart(); },
  };

  // ---- Drawing ----
  function renderProgress() {
    const f = view.candidates ? view.scored / view.candidates : 0;
    progress.value = f;
    progress.setAttribute('aria-valuetext', `${(100 * f).toFixed(0)}%`);
    progressText.textContent = `${fmtInt(view.scored)} of ${fmtInt(view.candidates)} candidates (${(100 * f).toFixed(0)}%) in ${seconds(view.scoringMs)}.`;
    fig.dataset.progress = f.toFixed(4);
  }

  function render() {
    const s = stageIndex();
    fig.dataset.stage = STAGES[s];
    stages.querySelectorAll('li').forEach((li, i) => {
      li.classList.toggle('done', i < s);
      li.classList.toggle('current', i === s);
      if (i === s) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    });
    nextBtn.disabled = s >= 6 || (!handle && s >= 2);
    runBtn.disabled = s >= 6 || (!handle && s >= 2);
    backBtn.disabled = s <= 0;
    if (!plan) return;
    const k = plan.columns.length;
    const drawn = s >= 5 && view.synthetic ? Array.from(view.synthetic) : [];
    const synCount = new Array(plan.universe).fill(0);
    drawn.forEach((p) => { synCount[p]++; });

    // 1. Data.
    pData.el.hidden = false;
    const present = plan.counts.length;
    const rows = [];
    for (let x = 0; x < present; x++) if (plan.counts[x] > 0 || synCount[x] > 0) rows.push(x);
    dataNote.textContent = `${plan.n} ${own ? 'rows' : 'patients'} over ${k} yes/no attributes: ${plan.universe} possible rows, ${rows.filter((x) => plan.counts[x] > 0).length} of which occur.`;
    dataTable.innerHTML = `<table><caption>${own ? 'Rows' : 'Patients'} per combination of attributes${drawn.length ? ', with the synthetic database' : ''}</caption><thead><tr>${
      plan.columns.map((c) => `<th scope="col" class="num">${escapeHTML(niceColumn(c))}</th>`).join('')}<th scope="col" class="num">${own ? 'rows' : 'patients'}</th>${drawn.length ? '<th scope="col" class="num">synthetic</th>' : ''}</tr></thead><tbody>${
      rows.map((x) => `<tr${synCount[x] ? ' class="synth-picked"' : ''}>${bits(x, k).map((b) => `<td class="num">${b}</td>`).join('')}<td class="num">${plan.counts[x]}</td>${drawn.length ? `<td class="num">${synCount[x] || ''}</td>` : ''}</tr>`).join('')}</tbody></table>`;

    // 2. Queries.
    pQueries.el.hidden = s < 1;
    const nq = plan.queryNames.length;
    queriesNote.textContent = `|Q| = ${nq} counting queries, each answered as a fraction of the ${plan.n} ${own ? 'rows' : 'patients'}; one ${own ? 'row' : 'patient'} moves any answer by at most 1/${plan.n}.`;
    {
      queriesTable.innerHTML = `<table><caption>True answers f(x)</caption><thead><tr><th scope="col">Query</th><th scope="col" class="num">f(x)</th></tr></thead><tbody>${
        plan.queryNames.map((q, i) => `<tr><th scope="row">${escapeHTML(niceQuery(q))}</th><td class="num">${plan.trueAnswers[i].toFixed(3)}</td></tr>`).join('')}</tbody></table>`;
    }

    // 3. Count.
    pCount.el.hidden = s < 2;
    const m = v.m;
    const pred = plan.predictedMs;
    countText.innerHTML = `<p class="synth-big"><span>C(|X| + m − 1, m) = C(${plan.universe} + ${m} − 1, ${m}) =</span> <strong>${fmtInt(plan.candidates)}</strong> candidates</p>`
      + (plan.refused
        ? `<p class="synth-refused">That is more than this page will score (${fmtInt(2e8)}): ${escapeHTML(plan.refused)}.</p>`
        : `<p class="panel-stat">Predicted scoring time: <strong>${seconds(pred)}</strong>. Estimated by scoring the first ${fmtInt(plan.probeCandidates)} candidates of this same instance in a trial run in this browser (${rate(plan.probeRate)} candidates per second), then dividing the count by that rate.${pred > ASK_MS ? ` Above ${ASK_MS / 1000} s the page asks before it starts.` : ''}</p>`);

    // 4. Scoring.
    pScore.el.hidden = s < 3 && !note;
    if (s >= 3 && view.candidates) {
      renderProgress();
      if (s >= 4) progressText.textContent = `All ${fmtInt(view.candidates)} candidates scored in ${seconds(view.scoringMs)}: ${rate(view.rate)} per second (predicted ${seconds(plan.predictedMs)}). Nothing about any candidate was stored except its error level and one reservoir member per level.`;
    }
    if (note && s < 3) progressText.textContent = note;

    // 5. Levels, and the bound curve.
    pLevels.el.hidden = s < 4;
    pCurve.el.hidden = s < 4 || !curve;
    if (s >= 4 && view.levelErrors) {
      const own = view.thm45Size === m; // this run has Theorem 4.5's m
      // The charts' numbers are Go's (app/synth View), as in dpplay figures.
      const errs = Array.from(view.levelErrors), cdf = Array.from(view.levelCDF), share = Array.from(view.levelShare);
      const b = { edges: Array.from(view.bandEdges), heights: Array.from(view.bandHeights), width: view.bandWidth };
      // Exact, from Go; the e2e test checks the levels sum to 1.
      fig.dataset.probSum = String(cdf[cdf.length - 1]);
      const drawnErr = s >= 5 ? view.maxError : null;
      levelsChart.update({
        x: errs, xMin: 0, xMax: b.edges[b.edges.length - 1],
        series: [
          { label: `SmallDB, ε = ${view.epsilon}: P(max-error ≤ x)`, short: `SmallDB, ε = ${view.epsilon}`, values: cdf },
          { label: 'A uniformly random candidate (ε → 0)', short: 'random candidate', values: share },
        ],
        bars: { label: `SmallDB: probability per band of ${fmt(b.width)}`, edges: b.edges, heights: b.heights },
        yMax: 1,
        marker: drawnErr, markerLabel: drawnErr === null ? '' : `drawn: ${fmt(drawnErr)}`,
        note: `${errs.length} error levels. At ε = ${view.epsilon} the expected max-error is ${fmt(view.expected)}; the best candidate has ${fmt(errs[0])} and the median candidate about ${fmt(errs[share.findIndex((x) => x >= 0.5)])}.`,
      });
      levelsText.innerHTML = `<p>Expected max-error <strong>${fmt(view.expected)}</strong>; with probability ${1 - plan.beta} at most <strong>${fmt(view.quantile)}</strong> (exact, from ${errs.length} levels). Best candidate: ${fmt(errs[0])}; the typical candidate: ${fmt(errs[share.findIndex((x) => x >= 0.5)])}.</p>`
        // Proposition 4.4 holds at any m, so it is the bound this run is
        // measured against; Theorem 4.5 is about SmallDB with its own m and
        // is shown as that, never as a bound on a run with another m.
        + `<p>Proposition 4.4 for this run (m = ${m}, α = √(ln|Q|/m) = ${fmt(plan.alpha)}, β = ${plan.beta}): the max-error is at most <strong>${fmt(view.prop44)}</strong> with probability at least ${1 - plan.beta}${view.prop44 >= 1 ? ', which says nothing: every error is at most 1' : ''}. Exact probability that this run exceeds it: ${fmt(view.tailProp44)}.</p>`
        + (own
          // The theorem takes m = 4·ln|Q|/α² as it is; rounded up to whole
          // rows, the promise that holds is Proposition 4.4 at that m, which
          // can be a little above α (more rows, more candidates).
          ? `<p>Theorem 4.5 for α = ${fmt(view.thm45)} asks for m = 4·ln|Q|/α² rows, rounded up here to ⌈4·ln|Q|/α²⌉ = <strong>${fmtInt(view.thm45Size)}</strong>, this run's m. At this whole m what holds is Proposition 4.4 above: max-error at most <strong>${fmt(view.prop44)}</strong> with probability at least ${1 - plan.beta}${view.prop44 > view.thm45 ? ', a little more than α, since rounding m up adds candidates' : ', within α'}${view.prop44 >= 1 ? ', which says nothing' : ''}.</p>`
          : `<p>Theorem 4.5 is about a different run: SmallDB with its own m = ⌈4·ln|Q|/α²⌉ = <strong>${fmtInt(view.thm45Size)}</strong> rows, for which it bounds the max-error by about α = ${fmt(view.thm45)} with probability at least ${1 - plan.beta}${view.thm45 >= 1 ? ', which says nothing' : ''}. It says nothing about this run, whose m is ${m}.</p>`);
    }
    if (s >= 4 && curve) {
      const eps = Array.from(curve.epsilons);
      const p44 = Array.from(curve.prop44), q = Array.from(curve.quantile), ex = Array.from(curve.expected);
      const sizes = Array.from(curve.thm45Size);
      const useful = eps.find((e, i) => p44[i] < 1);
      curveChart.update({
        x: eps,
        series: [
          { label: `Proposition 4.4 at m = ${v.m}, β = ${plan.beta} (cut at 1)`, short: 'Proposition 4.4', values: p44.map((t) => Math.min(t, 1)) },
          { label: `SmallDB, exact ${100 * (1 - plan.beta)}% quantile`, short: `${100 * (1 - plan.beta)}% quantile`, values: q },
          { label: 'SmallDB, exact expected max-error', short: 'expected', values: ex },
        ],
        yMax: 1, marker: v.eps, markerLabel: `ε = ${v.eps}`,
        note: `At m = ${v.m} the bound falls below 1 only from ε = ${useful ?? 'beyond 50'} and never below √(ln|Q|/m) = ${fmt(plan.alpha)}; the exact ${100 * (1 - plan.beta)}% quantile at ε = 1 is ${fmt(q[eps.indexOf(1)])}.`,
      });
      curveText.textContent = `Proposition 4.4 holds for SmallDB with any m and any data of ${plan.n} rows; here it is worked out at this run's m = ${v.m}. The curves below it are this data at the same m, computed exactly from one scoring (the counts per level do not depend on ε). Theorem 4.5 has no line here: it chooses its own m for each ε (${fmtInt(sizes[0])} rows at ε = ${eps[0]}, ${fmtInt(sizes[sizes.length - 1])} at ε = ${eps[eps.length - 1]}), so at every ε it is about a different run.`;
    }

    // 6. Draw.
    pDraw.el.hidden = s < 5;
    if (s >= 5 && drawn.length) {
      const lv = view.level;
      drawText.innerHTML = `<p class="synth-big"><span>Drawn max-error</span> <strong>${fmt(view.maxError)}</strong></p>`
        + `<p class="panel-stat">Level ${lv + 1} of ${view.levelErrors.length}, shared by ${fmtInt(view.levelCounts[lv])} candidates; its probability was ${fmt(view.levelProbs[lv])}. The draw picked this level, then its reservoir member, which is uniform among them.</p>`
        + `<div class="table-wrap"><table><caption>The ${drawn.length} synthetic rows</caption><thead><tr>${plan.columns.map((c) => `<th scope="col" class="num">${escapeHTML(niceColumn(c))}</th>`).join('')}</tr></thead><tbody>${
          drawn.map((p) => `<tr>${bits(p, k).map((bt) => `<td class="num">${bt}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
    }

    // 7. Compare.
    pCompare.el.hidden = s < 6;
    if (s >= 6 && view.syntheticAnswers) {
      const syn = Array.from(view.syntheticAnswers);
      let worst = 0;
      syn.forEach((a, i) => { if (Math.abs(a - plan.trueAnswers[i]) > Math.abs(syn[worst] - plan.trueAnswers[worst])) worst = i; });
      compareText.innerHTML = `<p>Worst query: <strong>${escapeHTML(niceQuery(plan.queryNames[worst]))}</strong>, true ${plan.trueAnswers[worst].toFixed(3)}, synthetic ${syn[worst].toFixed(3)}: the max-error ${fmt(view.maxError)}.</p>`
        + (view.learned ? `<p>The article’s use: a classifier learned from the ${v.m} synthetic rows, <strong>${escapeHTML(niceQuery(view.learned))}</strong>, is right on ${(100 * view.learnedReal).toFixed(1)}% of the real patients; the best halfspace on the real data, ${escapeHTML(niceQuery(view.best))}, on ${(100 * view.bestReal).toFixed(1)}%.</p>` : '');
      compareTable.innerHTML = `<table><caption>f(x) on the data, f(y) on the synthetic database</caption><thead><tr><th scope="col">Query</th><th scope="col" class="num">true f(x)</th><th scope="col" class="num">synthetic f(y)</th><th scope="col" class="num">difference</th></tr></thead><tbody>${
        plan.queryNames.map((q, i) => `<tr${i === worst ? ' class="synth-worst"' : ''}><th scope="row">${escapeHTML(niceQuery(q))}</th><td class="num">${plan.trueAnswers[i].toFixed(3)}</td><td class="num">${syn[i].toFixed(3)}</td><td class="num">${(syn[i] - plan.trueAnswers[i] >= 0 ? '+' : '−') + Math.abs(syn[i] - plan.trueAnswers[i]).toFixed(3)}</td></tr>`).join('')}</tbody></table>`;
    }
    if (s >= 5) ctx.announce(`Stage ${s + 1}: drawn max-error ${fmt(view.maxError)}.`);
    else ctx.announce(`Stage ${s + 1}: ${STAGE_TITLES[s]}.`);
    fig.dataset.renders = String(++renders);
  }

  await ownData.restore();
  if (!own) await restart();
  return ctl;
}
