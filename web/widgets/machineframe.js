// The sampling machine's iframe (machine.html), driven from the lesson page.
//
// Host-side helper for the sampling machine (the machine widget). The
// machine is a separate 2.6 MB (gzipped) WebAssembly module on its own page,
// machine.html; nothing of it loads until the student presses "Start the
// machine". Then this helper inserts the iframe, drives it with postMessage
// and shows the counts in a live region on the lesson page.
//
//   import { startMachine } from './machineframe.js';
//   const m = startMachine(container, { mechanisms: ['exponential', 'report-noisy-max-laplace'], factors: [1, 0.5],
//     titles: ['Exponential mechanism', 'Report noisy max (Laplace 2Δ/ε)'],
//     scores: [21, 27, 25, 12, 18], labels: ['Mon', …], epsilon: 1, sensitivity: 1, seed: 1, speed: 60 });
//   m.update({ epsilon: 2 });   // after start: reconfigure (restarts the counts)
//   m.destroy();
//
// container.dataset.firstBallMs holds the time from the press to the first
// ball (for the e2e test's timing report).

import { el } from '../base/dom.js';

const NAMES = {
  'exponential': 'Exponential mechanism',
  'report-noisy-max-laplace': 'Report noisy max (Laplace)',
  'report-noisy-max-gumbel': 'Report noisy max (Gumbel)',
  'permute-and-flip': 'Permute-and-flip',
};

const pageURL = new URL('../machine.html', import.meta.url);

function hashFor(p) {
  const q = new URLSearchParams();
  q.set('controls', '0');
  if (p.mechanisms) q.set('mech', p.mechanisms.join(','));
  if (p.factors) q.set('factor', p.factors.join(','));
  if (p.titles) q.set('titles', p.titles.join(','));
  if (p.scores) q.set('u', p.scores.join(','));
  if (p.labels) q.set('labels', p.labels.join(','));
  for (const [k, key] of [['epsilon', 'eps'], ['sensitivity', 'delta'], ['seed', 'seed'], ['speed', 'speed']]) {
    if (p[k] !== undefined) q.set(key, String(p[k]));
  }
  // The module's size as built: where the server compresses it, the
  // response's Content-Length counts compressed bytes, while the page can
  // only count decompressed ones.
  const size = moduleBytes();
  if (size) q.set('bytes', String(size));
  return '#' + q.toString();
}

function moduleBytes() {
  try {
    const index = JSON.parse(document.getElementById('site-index').textContent);
    return index.wasm.machine.bytes;
  } catch {
    return 0;
  }
}

/**
 * startMachine(container, params) shows a "Start the machine" button in
 * container and returns a controller {update(params), send(msg), destroy(),
 * started: Promise}. params: mechanisms (one or two names), factors (each
 * lane's ε is its factor times epsilon; 1 when absent), titles (the lanes'
 * names), scores, labels, epsilon, sensitivity, seed, speed (balls per second
 * per lane).
 */
export function startMachine(container, params = {}) {
  let p = { mechanisms: ['exponential', 'report-noisy-max-laplace'], speed: 60, ...params };
  let frame = null;
  let pressedAt = 0;
  let onMessage = null;
  let resolveStarted;
  const started = new Promise((r) => { resolveStarted = r; });

  const box = el('div', { class: 'machine' });
  const start = el('button', { type: 'button', class: 'primary machine-start' }, 'Start the machine');
  const note = el('p', { class: 'hint' }, 'Drops one ball per draw into the candidates’ bins. Loads a 2.6 MB module the first time.');
  box.append(start, note);
  container.replaceChildren(box);

  const controls = el('div', { class: 'actions machine-controls', role: 'group', 'aria-label': 'Sampling machine controls' });
  const pause = el('button', { type: 'button', 'aria-pressed': 'false' }, 'Pause');
  const step = el('button', { type: 'button' }, 'Step');
  const reset = el('button', { type: 'button' }, 'Reset');
  const speedId = `machine-speed-${Math.random().toString(36).slice(2, 8)}`;
  const speedLabel = el('label', { for: speedId }, 'Speed');
  const speed = el('select', { id: speedId });
  for (const v of [5, 60, 250, 1000, 2500]) speed.append(el('option', { value: String(v) }, `${v.toLocaleString('en-US')} balls/s`));
  const status = el('p', { class: 'machine-status', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }, 'Loading the machine…');
  const hear = el('button', { type: 'button', class: 'listen-button', 'aria-pressed': 'false' }, 'Listen');
  controls.append(pause, step, reset, speedLabel, speed, hear);
  let last = null; // the newest state the machine reported

  function send(msg) {
    frame?.contentWindow?.postMessage(msg, location.origin);
  }

  const laneName = (l, i) => p.titles?.[i] || NAMES[l.mechanism] || l.mechanism;
  const candidate = (j) => p.labels?.[j] ?? `#${j + 1}`;
  const pct = (x) => `${(100 * x).toFixed(1)}%`;

  let lastStatus = 0;
  function showState(s) {
    last = s;
    pause.setAttribute('aria-pressed', String(s.paused));
    pause.textContent = s.paused ? 'Resume' : 'Pause';
    const now = performance.now();
    if (!s.paused && now - lastStatus < 2000) return; // do not flood screen readers
    lastStatus = now;
    status.textContent = s.lanes.map((l, i) => `${laneName(l, i)}: ${l.landed.toLocaleString('en-US')} balls. ` +
      l.counts.map((c, j) => `${candidate(j)} ${pct(l.landed ? c / l.landed : 0)} (exact ${pct(l.probs[j])})`).join(', ')).join('. ') + '.';
    container.dataset.landed = String(s.lanes[0].landed);
  }

  start.addEventListener('click', () => {
    pressedAt = performance.now();
    container.dataset.pressedAt = String(performance.timeOrigin + pressedAt);
    frame = el('iframe', {
      src: pageURL.href + hashFor(p),
      title: 'Sampling machine: balls drop into the candidates’ bins; the yellow line is the exact probability',
      class: 'machine-frame',
      loading: 'eager',
      allow: '',
    });
    frame.style.cssText = 'width:100%;aspect-ratio:16/10;min-height:260px;border:0;border-radius:6px;background:#161b22;display:block';
    speed.value = String(p.speed);
    box.replaceChildren(frame, controls, status);
    onMessage = (e) => {
      if (e.source !== frame.contentWindow || e.origin !== location.origin || e.data?.source !== 'dpplay-machine') return;
      const m = e.data;
      if (m.type === 'ready') { status.textContent = 'The machine is running.'; resolveStarted(); }
      else if (m.type === 'firstBall' && !container.dataset.firstBallMs) container.dataset.firstBallMs = String(Math.round(performance.now() - pressedAt));
      else if (m.type === 'state') showState(m);
      else if (m.type === 'fps') container.dataset.fps = String(Math.round(m.fps));
      else if (m.type === 'error') status.textContent = `The machine reported a problem: ${m.message}`;
    };
    window.addEventListener('message', onMessage);
    frame.focus?.();
  }, { once: true });

  // "Listen" (web/charts/listen.js) plays each lane's exact probabilities and then
  // its shares of the balls landed so far, one tone a candidate.
  const chart = {
    get data() { return last; },
    // One range for every series, listen.js's default: 0 to the largest value.
    sound() {
      const series = (name, values) => ({ name, points: values.map((v, j) => ({ label: candidate(j), value: v, say: pct(v) })) });
      const out = [];
      last.lanes.forEach((l, i) => {
        out.push(series(`${laneName(l, i)}, exact probability`, l.probs));
        if (l.landed) out.push(series(`${laneName(l, i)}, share of ${l.landed.toLocaleString('en-US')} balls`, l.counts.map((c) => c / l.landed)));
      });
      return { series: out };
    },
  };
  hear.addEventListener('click', () => import('../charts/listen.js').then((m) => m.listen(chart, hear)));

  pause.addEventListener('click', () => send({ type: 'pause' }));
  step.addEventListener('click', () => send({ type: 'step' }));
  reset.addEventListener('click', () => send({ type: 'reset' }));
  speed.addEventListener('change', () => send({ type: 'speed', speed: Number(speed.value) }));

  return {
    started,
    send,
    update(next) {
      p = { ...p, ...next };
      send({ type: 'config', ...p });
    },
    destroy() {
      if (onMessage) window.removeEventListener('message', onMessage);
      container.replaceChildren();
    },
  };
}
