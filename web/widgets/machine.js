// The sampling machine: balls drop one draw at a time into the
// candidates' bins, with the exact probability drawn across each bin. It is
// a separate ebiten module on its own page (machine.html), loaded into an
// iframe only when the student presses "Start the machine"; this widget only
// holds its settings and hands them over.
import { startMachine } from '../machine.js';
import { logSlider, controlsBox } from './controls.js';
import { schemas, datasets } from '../gen/widgets.js';

export const schema = schemas.machine;

export function mount(ctx) {
  const v = ctx.values;
  const d = datasets[v.data];
  const eps = logSlider({
    id: ctx.uid('eps'), label: 'ε (epsilon)', min: schema.eps.min, max: schema.eps.max, value: v.eps,
    describe: (x) => `ε = ${x}`,
    onInput: (x) => { ctx.set('eps', x); machine.update({ epsilon: x }); },
  });
  const controls = controlsBox();
  controls.append(eps.el);
  const host = document.createElement('div');
  host.className = 'machine-host';
  ctx.body.append(controls, host);
  const mechanisms = v.second === 'none' ? ['exponential'] : ['exponential', v.second];
  const machine = startMachine(host, {
    mechanisms, scores: d.scores, labels: d.candidates, epsilon: v.eps, sensitivity: d.delta, seed: v.seed,
  });
  host.machine = machine; // the controller, for scripts and tests
  return { destroy() { machine.destroy(); } };
}
