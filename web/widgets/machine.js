// Widget: the sampling machine, balls dropping into the candidates' bins.
//
// The sampling machine: balls drop one draw at a time into the
// candidates' bins, with the exact probability drawn across each bin. It is
// a separate ebiten module on its own page (machine.html), loaded into an
// iframe only when the student presses "Start the machine"; this widget only
// holds its settings and hands them over, with each lane run at the ε it is
// ε-private at under the page's neighbours (schema key nb) and named with
// what that ε guarantees.
import { startMachine } from './machineframe.js';
import { logSlider, controlsBox } from './controls.js';
import { schemas, datasets, selections } from '../gen/widgets.js';

export const schema = schemas.machine;

/**
 * lanes(second, nb) is the machine's lanes, [{mechanism, factor, title,
 * guarantee}]: the exponential mechanism and the second mechanism, report
 * noisy max with Laplace noise at scale 2Δ/ε (factor ½) under
 * change-one-answer neighbours, where scale Δ/ε is only 2ε-private.
 */
export function lanes(second, nb) {
  const names = second === 'none' ? ['exponential'] : ['exponential', second];
  return names.map((m) => {
    const factor = m === 'report-noisy-max-laplace' && nb === 'change-one' ? 0.5 : 1;
    const s = selections.find((x) => x.mechanism === m && x.factor === factor);
    return { mechanism: m, factor, title: s.short, guarantee: s.guarantee };
  });
}

export function mount(ctx) {
  const v = ctx.values;
  const d = datasets[v.data];
  const eps = logSlider({
    id: ctx.uid('eps'), key: 'eps', label: 'ε (epsilon)', min: schema.eps.min, max: schema.eps.max, value: v.eps,
    spec: { ...schema.eps, label: 'ε (epsilon)' },
    describe: (x) => `ε = ${x}`,
    onInput: (x) => { ctx.set('eps', x); machine.update({ epsilon: x }); },
  });
  const controls = controlsBox();
  controls.append(eps.el);
  const ls = lanes(v.second, v.nb);
  const said = document.createElement('ul');
  said.className = 'lane-guarantees hint';
  for (const l of ls) {
    const li = document.createElement('li');
    li.textContent = `${l.title}: ${l.guarantee}.`;
    said.append(li);
  }
  const host = document.createElement('div');
  host.className = 'machine-host widget-main';
  ctx.body.append(controls, host, said);
  const machine = startMachine(host, {
    mechanisms: ls.map((l) => l.mechanism), factors: ls.map((l) => l.factor), titles: ls.map((l) => l.title),
    scores: d.scores, labels: d.candidates, epsilon: v.eps, sensitivity: d.delta, seed: v.seed,
  });
  host.machine = machine; // the controller, for scripts and tests
  return { destroy() { machine.destroy(); } };
}
