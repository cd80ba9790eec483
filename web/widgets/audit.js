// Widget: the exact privacy auditor on a mechanism the reader writes.
//
// "Check a mechanism yourself": the exact privacy auditor (core/audit, in
// the lazily loaded audit module). The student writes a score, picks the
// mechanism, the universe and the neighbour notion; Go enumerates every pair
// of neighbouring data sets in chunks (a progress bar on large universes) and
// returns the worst pair, its two output distributions and the verdict. The
// gallery of mistakes loads a broken mechanism, or its fix, in one click.
// The score and any error are the student's text: they reach the page only
// through textContent.
import { LineChart } from '../charts/line.js';
import { frame } from '../charts/frame.js';
import { logSlider, select, radios, button, refresher, fmt, tableRegion, keyInput } from './controls.js';
import { textBox } from './typedbox.js';
import { schemas, auditMechanisms } from '../gen/widgets.js';

export const schema = schemas.audit;

const config = (v) => ({ mechanism: v.mech, score: v.score, sensitivity: v.sens, epsilon: v.eps, candidates: v.k, maxCount: v.m, neighbours: v.nb });
const vec = (xs) => `(${Array.from(xs).join(', ')})`;
const lossText = (l) => (Number.isFinite(l) ? fmt(l, 4) : '∞ (unbounded)');

/**
 * verdicts are the verdict's sentences, one for each neighbour notion and
 * outcome, each written out in full: the notion is the one the audit
 * enumerated, named as the Neighbours control names it.
 */
const verdicts = {
  'change-one': {
    true: (n) => `Holds for neighbours that change one person’s choice: the worst loss over ${n.pairs} neighbouring pairs of ${n.total} data sets is ${n.loss}, within the claimed ε = ${n.eps}.`,
    false: (n) => `Fails for neighbours that change one person’s choice: the worst loss over ${n.pairs} neighbouring pairs of ${n.total} data sets is ${n.loss}, above the claimed ε = ${n.eps}.`,
  },
  'add-remove': {
    true: (n) => `Holds for neighbours that add or remove one person: the worst loss over ${n.pairs} neighbouring pairs of ${n.total} data sets is ${n.loss}, within the claimed ε = ${n.eps}.`,
    false: (n) => `Fails for neighbours that add or remove one person: the worst loss over ${n.pairs} neighbouring pairs of ${n.total} data sets is ${n.loss}, above the claimed ε = ${n.eps}.`,
  },
};

/** verdictText(nb, holds, numbers) is the verdict for notion nb, with its numbers already written. */
export const verdictText = (nb, holds, numbers) => verdicts[nb][holds](numbers);

/** audit runs a whole audit in chunks of about 60 ms, calling onChunk after each. */
async function audit(bridge, cfg, onChunk) {
  let from = 0, count = 500, res;
  do {
    const t0 = performance.now();
    res = await bridge.call('audit', 'run', { ...cfg, from, count });
    from = res.next;
    const ms = performance.now() - t0;
    count = Math.max(50, Math.min(200000, Math.round(count * (ms > 1 ? 60 / ms : 4))));
    if (onChunk && from < res.total) onChunk(res);
  } while (from < res.total);
  return res;
}

function textInput(ctx, key, label, value, hint, onChange) {
  const { wrap, input } = textBox({ id: ctx.uid(key), label, value, hint, wide: true });
  wrap.dataset.key = key;
  input.style.fontFamily = 'var(--mono, monospace)';
  input.addEventListener('change', () => onChange(input.value.trim()));
  return { el: wrap, input, set(x) { input.value = x; } };
}

/**
 * PairChart draws the worst pair's two output distributions side by side
 * (a bar for P(o | x), a hatched bar for P(o | x′)) above their log-ratios
 * ln P(o | x) − ln P(o | x′) against the band ±ε. Its sizes are in units of
 * the box's font size, so presentation mode's smaller root font shortens it.
 * The numbers are in the pair table, which is the chart's text alternative.
 */
class PairChart {
  constructor(host) { frame(this, host, '', 'band-chart'); }

  /** update({p, q, ratios, eps, worst}) draws a pair. */
  update(data) { this.data = data; this.render(); }

  /**
   * sound() is what "Listen" plays (web/charts/listen.js): P(o | x) and P(o | x′)
   * on the probability axis, then the log-ratios on ±(their span), 0 in the
   * middle, as the chart draws them.
   */
  sound() {
    const { p, q, ratios, eps } = this.data;
    const top = Math.max(...p, ...q);
    const span = Math.max(eps, ...ratios.filter(Number.isFinite).map(Math.abs));
    const series = (name, values, range, say) => ({ name, range, points: values.map((v, i) => ({ label: `option ${i}`, value: v, say: say(v) })) });
    return {
      series: [
        series('P(o | x)', p, [0, top], (v) => fmt(v, 4)),
        series('P(o | x′)', q, [0, top], (v) => fmt(v, 4)),
        series(`Log-ratio, band ±${fmt(eps)}`, ratios, [-span, span], (v) => fmt(v, 3)),
      ],
    };
  }

  render() {
    if (!this.data || !this.width) return;
    const { p, q, ratios, eps, worst } = this.data;
    const W = this.width, fs = this.fs, sm = fs * 0.85, left = fs * 3, right = W - fs * 0.7;
    const top1 = fs * 2.7, h1 = fs * 8, top2 = top1 + h1 + fs * 2.9, h2 = fs * 8.7, H = top2 + h2 + fs * 1.9;
    const slot = (right - left) / p.length, bw = Math.min(slot * 0.34, fs * 3), d = fs * 0.47;
    const span = Math.max(eps, ...ratios.map(Math.abs)) * 1.2;
    const py = (v) => top2 + h2 * (0.5 - v / (2 * span));
    const key = fs * 0.93;
    // A slot too narrow for "option 3" is labelled "3".
    const name = (i) => (slot >= fs * 4.5 ? `option ${i}` : String(i));
    const parts = [
      '<defs><pattern id="audit-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="var(--surface)"/><rect width="3" height="6" fill="var(--mark)"/></pattern></defs>',
      `<rect x="${left}" y="${fs * 0.4}" width="${key}" height="${key}" fill="var(--bar)"/><text x="${left + fs * 1.3}" y="${fs * 1.2}" font-size="${sm}">P(o | x)</text>`,
      `<rect x="${left + fs * 7.3}" y="${fs * 0.4}" width="${key}" height="${key}" fill="url(#audit-hatch)" stroke="var(--mark)"/><text x="${left + fs * 8.7}" y="${fs * 1.2}" font-size="${sm}">P(o | x′)</text>`,
      `<line x1="${left}" x2="${right}" y1="${top1 + h1}" y2="${top1 + h1}" stroke="currentColor" stroke-opacity="0.4"/>`,
      `<rect class="band" x="${left}" y="${py(eps)}" width="${right - left}" height="${py(-eps) - py(eps)}"/>`,
      `<text class="axis-label" x="${left}" y="${top2 - fs * 0.8}" font-size="${sm}">ln P(o | x) − ln P(o | x′); shaded: ±ε</text>`,
    ];
    for (const v of [-eps, 0, eps]) {
      parts.push(`<line x1="${left}" x2="${right}" y1="${py(v)}" y2="${py(v)}" class="${v ? 'band-edge' : ''}" stroke="currentColor" stroke-opacity="${v ? 1 : 0.4}"/>`,
        `<text x="${left - fs * 0.4}" y="${py(v) + fs * 0.33}" text-anchor="end" font-size="${sm}">${v ? (v > 0 ? '+ε' : '−ε') : '0'}</text>`);
    }
    ratios.forEach((r, i) => {
      const X = left + slot * (i + 0.5), out = Math.abs(r) > eps * (1 + 1e-9);
      const hp = h1 * p[i], hq = h1 * q[i];
      parts.push(`<rect x="${X - bw - 1}" y="${top1 + h1 - hp}" width="${bw}" height="${hp}" fill="var(--bar)"/>`,
        `<rect x="${X + 1}" y="${top1 + h1 - hq}" width="${bw}" height="${hq}" fill="url(#audit-hatch)" stroke="var(--mark)"/>`,
        `<text x="${X}" y="${top1 + h1 + fs * 1.07}" text-anchor="middle" font-size="${sm}"${i === worst ? ' font-weight="700"' : ''}>${name(i)}</text>`,
        `<path class="exact${out ? ' out' : ''}" d="M${X} ${py(r) - d}l${d} ${d}l${-d} ${d}l${-d} ${-d}Z"/>`);
      if (out) parts.push(`<text class="breach-label" x="${X + fs * 0.67}" y="${py(r) + fs * 0.33}" font-size="${sm}">${fmt(r, 3)}</text>`);
    });
    this.svgBox.innerHTML = `<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="The worst pair's two output distributions and their log-ratios against the band plus or minus ε">${parts.join('')}</svg>`;
  }
}

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const gallery = document.createElement('div');
  gallery.className = 'controls';
  const galleryNote = document.createElement('p');
  galleryNote.className = 'panel-stat';
  galleryNote.setAttribute('aria-live', 'polite');
  const controls = document.createElement('div');
  controls.className = 'controls';
  const set = (key, x) => { ctx.set(key, x); refresh(); };
  const mech = select({ id: ctx.uid('mech'), key: 'mech', label: 'Mechanism', value: v.mech, wide: true, options: auditMechanisms, onChange: (x) => set('mech', x) });
  const score = textInput(ctx, 'score', 'Score u(x, r)', v.score, 'Over count[r], r, n (the total) and k; press Enter to audit.', (x) => set('score', x));
  const sens = textInput(ctx, 'sens', 'Claimed sensitivity Δ', v.sens, 'A number, or an expression over count, n and k.', (x) => set('sens', x));
  const eps = logSlider({ id: ctx.uid('eps'), key: 'eps', label: 'ε (epsilon) claimed', min: schema.eps.min, max: schema.eps.max, value: v.eps, spec: { ...schema.eps, label: 'ε (epsilon) claimed' }, describe: (x) => `ε = ${x}`, onInput: (x) => set('eps', x) });
  const k = keyInput(ctx, schema, 'k', 'Candidates k', () => refresh());
  const m = keyInput(ctx, schema, 'm', 'Largest count m', () => refresh());
  const nb = radios({ name: ctx.uid('nb'), key: 'nb', legend: 'Neighbours', value: v.nb, options: [['change-one', 'change one person’s choice'], ['add-remove', 'add or remove one person']], onChange: (x) => set('nb', x) });
  controls.append(mech.el, score.el, sens.el, eps.el, k.el, m.el, nb.el);

  const verdict = document.createElement('p');
  verdict.className = 'loss-line';
  verdict.setAttribute('role', 'status');
  const progress = document.createElement('progress');
  progress.max = 1;
  progress.hidden = true;
  progress.setAttribute('aria-label', 'Pairs audited');
  progress.style.width = '100%';
  const error = document.createElement('p');
  error.className = 'widget-error';
  error.setAttribute('role', 'alert');
  const pair = tableRegion('The worst pair of neighbouring data sets');
  const band = document.createElement('div');
  const pairChart = new PairChart(band);
  const growthHost = document.createElement('div');
  const growth = new LineChart(growthHost, { title: 'Worst loss against the largest count m of the universe', xLabel: 'largest count m', yLabel: 'worst loss', describe: (d) => d.note });
  // Presented on a screen wide enough, the two charts stand side by side.
  const charts = document.createElement('div');
  charts.className = 'present-pair';
  charts.append(band, growthHost);
  body.append(gallery, galleryNote, controls, progress, verdict, error, pair, charts);

  const load = (cfg) => {
    const next = { mech: cfg.mechanism, score: cfg.score, sens: cfg.sensitivity, eps: cfg.epsilon, k: cfg.candidates, m: cfg.maxCount, nb: cfg.neighbours };
    for (const [key, x] of Object.entries(next)) ctx.set(key, x);
    mech.set(v.mech); score.set(v.score); sens.set(v.sens); eps.set(v.eps); k.set(v.k); m.set(v.m); nb.set(v.nb);
    refresh();
  };
  // The first audit is the build's (scripts/prerender.mjs waits for it), so
  // the page draws it from the recording and the audit module (about 1.8 MB
  // gzipped) loads only when the reader reaches for the controls.
  const warm = () => bridge.load('audit').catch(() => {});
  for (const type of ['pointerover', 'focusin']) body.addEventListener(type, warm, { once: true });
  (async () => {
    const { examples } = await bridge.call('audit', 'gallery', {});
    let pick = examples[0];
    const which = select({
      id: ctx.uid('ex'), label: 'Gallery of mistakes', value: pick.id, wide: true, options: examples.map((e) => [e.id, e.title]),
      onChange: (id) => { pick = examples.find((e) => e.id === id); },
    });
    gallery.append(which.el,
      button('Load the example', () => { galleryNote.textContent = pick.mistake; load(pick.claim); }),
      button('Load the fix', () => { galleryNote.textContent = pick.fix; load(pick.other); }));
    await refresh();
  })().catch((err) => { error.textContent = err.message; ctx.fig.dataset.renders = '0'; });

  let renders = 0;
  const refresh = refresher(async () => {
    const cfg = config(v);
    try {
      progress.hidden = true;
      const res = await audit(bridge, cfg, (r) => { progress.hidden = false; progress.value = r.next / r.total; });
      progress.hidden = true;
      error.textContent = '';
      const loss = res.unbounded ? Infinity : res.loss;
      verdict.textContent = verdictText(v.nb, res.holds, { pairs: res.pairs.toLocaleString('en-US'), total: res.total.toLocaleString('en-US'), loss: lossText(loss), eps: String(v.eps) });
      verdict.dataset.holds = String(res.holds);
      const x = Array.from(res.data), y = Array.from(res.neighbour);
      const rows = x.map((c, i) => `<tr${i === res.output ? ' class="best"' : ''}><th scope="row">${i}${i === res.output ? ' (worst output)' : ''}</th><td class="num">${c !== y[i] ? `<mark>${c}</mark>` : c}</td><td class="num">${c !== y[i] ? `<mark>${y[i]}</mark>` : y[i]}</td>${res.p.length ? `<td class="num">${fmt(res.p[i], 4)}</td><td class="num">${fmt(res.q[i], 4)}</td>` : ''}</tr>`);
      pair.innerHTML = `<table><caption>Worst pair: x = ${vec(x)} and x′ = ${vec(y)}; the counts that differ are marked</caption><thead><tr><th scope="col">Option</th><th scope="col" class="num">count in x</th><th scope="col" class="num">count in x′</th>${res.p.length ? '<th scope="col" class="num">P(o | x)</th><th scope="col" class="num">P(o | x′)</th>' : ''}</tr></thead><tbody>${rows.join('')}</tbody></table><p class="panel-stat"></p>`;
      pair.querySelector('p').textContent = `Worst output: ${res.description}.`;
      band.hidden = !res.p.length;
      if (res.p.length) {
        pairChart.update({ p: Array.from(res.p), q: Array.from(res.q), ratios: Array.from(res.logRatio), eps: v.eps, worst: res.output });
      }
      const g = await bridge.call('audit', 'growth', { ...cfg, maxCount: Math.max(v.m, 8) });
      const xs = Array.from(g.counts);
      growth.update({
        x: xs, marker: v.m, markerLabel: `m = ${v.m}`,
        series: [{ label: 'worst loss', values: Array.from(g.losses, (l) => (Number.isFinite(l) ? l : NaN)) }, { label: 'claimed ε', values: xs.map(() => v.eps) }],
        note: `Worst loss for universes with counts up to m = 1 … ${xs[xs.length - 1]}: ${Array.from(g.losses, (l) => lossText(l)).join(', ')}.`,
      });
      ctx.announce(verdict.textContent);
    } catch (err) {
      progress.hidden = true;
      verdict.textContent = '';
      error.textContent = err.message;
    }
    ctx.fig.dataset.renders = String(++renders);
  }, ctx.fig);
  return { reset() { load(config(Object.fromEntries(Object.entries(schema).map(([key, s]) => [key, s.default])))); } };
}

/**
 * Exercise check: the student's Δ for a gallery example must make it private
 * (the audit holds) and be the smallest that does (0.99·Δ fails).
 */
export const checks = {
  async smallestDelta({ value, params, bridge }) {
    const { examples } = await bridge.call('audit', 'gallery', {});
    const ex = examples.find((e) => e.id === params.example);
    if (!ex || !(value > 0)) return { ok: false, message: 'Enter a positive Δ.' };
    const run = async (d) => audit(bridge, { ...ex.claim, sensitivity: String(d) });
    const at = await run(value);
    if (!at.holds) return { ok: false, message: `With Δ = ${value} the auditor finds a loss of ${lossText(at.unbounded ? Infinity : at.loss)} > ε: still not private.` };
    const below = await run(value * 0.99);
    if (below.holds) return { ok: false, message: `Δ = ${value} is private, but so is a smaller Δ: you are adding more noise than needed.` };
    return { ok: true, message: `Right: with Δ = ${value} the worst loss is ${fmt(at.loss, 4)} ≤ ε, and any smaller Δ fails.` };
  },
};
