// Widget: a privacy budget spent on selections or on publishing every score.
//
// The privacy budget. The student spends a fixed budget either on
// report-noisy-max selections (ε each) or on publishing all n noisy scores
// (n·ε each, by sequential composition). core/account keeps the ledger and
// refuses any charge that would overspend; the URL holds the sequence of
// charges, which is replayed through the accountant on every change.
import { escapeHTML } from '../base/dom.js';
import { button, refresher, fmt } from './controls.js';
import { keyControls } from './keycontrols.js';
import { schemas } from '../gen/widgets.js';

export const schema = schemas.budget;

export async function mount(ctx) {
  const v = ctx.values;
  const { body, bridge } = ctx;
  const { els } = keyControls(ctx, schema, () => refresh(), [
    ['eps', 'ε (epsilon) per selection'], ['budget', 'Total budget (ε)'], ['n', 'Candidates n']]);

  const add = (c) => { if (v.log.length < schema.log.maxLength) { ctx.set('log', v.log + c); refresh(); } };
  const ctl = {
    draw() { add('a'); },
    step(d) { if (d > 0) add('a'); else { ctx.set('log', v.log.slice(0, -1)); refresh(); } },
    reset() { ctx.set('log', ''); refresh(); },
  };
  const actions = document.createElement('div');
  actions.className = 'actions';
  const bSel = button('Report noisy max: publish only the winner', () => add('a'), { kbd: 'Space', primary: true });
  const bAll = button('Publish all n noisy scores', () => add('h'));
  actions.append(bSel, bAll, button('Undo', () => ctl.step(-1), { kbd: '←' }), button('Reset', () => ctl.reset(), { kbd: 'r' }));

  const meterWrap = document.createElement('div');
  meterWrap.className = 'budget-meter widget-main';
  const mid = ctx.uid('meter');
  meterWrap.innerHTML = `<label for="${mid}">Budget spent</label><meter id="${mid}" min="0" low="0.7" high="0.95" optimum="0"></meter><p class="budget-numbers"></p>`;
  const meter = meterWrap.querySelector('meter');
  const numbers = meterWrap.querySelector('.budget-numbers');
  const ledger = document.createElement('ol');
  ledger.className = 'ledger';
  ledger.setAttribute('aria-label', 'Ledger of charges');
  body.append(...els, actions, meterWrap, ledger);

  let renders = 0;
  const refresh = refresher(async () => {
    const kinds = [...v.log];
    const labels = kinds.map((k) => (k === 'a' ? 'report noisy max: the winner only' : `all ${v.n} noisy scores (${v.n} × ε)`));
    const epsilons = Float64Array.from(kinds.map((k) => (k === 'a' ? v.eps : v.n * v.eps)));
    bAll.firstChild.textContent = `Publish all ${v.n} noisy scores `;
    bAll.setAttribute('aria-label', `Publish all ${v.n} noisy scores, costing ${v.n} times ε`);
    const r = await bridge.call('core', 'account', {
      budget: v.budget, budgetDelta: 0, labels, epsilons, deltas: new Float64Array(kinds.length),
    });
    meter.max = v.budget;
    meter.value = r.spent[0];
    meter.low = 0.7 * v.budget;
    meter.high = 0.95 * v.budget;
    const fits = Math.floor((r.remaining[0] + 1e-9) / v.eps);
    numbers.innerHTML = `Spent <strong>ε = ${fmt(r.spent[0])}</strong> of ${fmt(v.budget)} · remaining ${fmt(r.remaining[0])} · room for <strong>${fits}</strong> more selection${fits === 1 ? '' : 's'} at ε = ${fmt(v.eps)}, or ${Math.floor((r.remaining[0] + 1e-9) / (v.n * v.eps))} more full releases. The charges add up for add-or-remove neighbours, under which a selection by report noisy max on counts is ε-private.`;
    ledger.innerHTML = kinds.length ? kinds.map((k, i) => {
      const ok = r.accepted[i] === 1;
      return `<li class="${ok ? 'ok' : 'refused'}"><span class="ledger-label">${escapeHTML(labels[i])}</span> <span class="ledger-cost">ε = ${fmt(epsilons[i])}</span>${ok ? '' : ` <span class="ledger-refused">refused: ${escapeHTML(r.errors[i].replace(/^privacy budget exceeded: /, ''))}</span>`}</li>`;
    }).join('') : '<li class="empty">No charges yet. Press a button above.</li>';
    ctx.announce(`Spent ${fmt(r.spent[0])} of ${fmt(v.budget)}.`);
    ctx.fig.dataset.renders = String(++renders);
  }, ctx.fig);
  await refresh();
  return ctl;
}
