// The keyboard shortcuts (listed in the Keys dialog, opened by ? or the Keys
// button): draw, reset and step the active widget, move between widgets and
// lessons, nudge ε, present. None acts while the reader types in a field or
// holds Ctrl, Meta or Alt, and Space and the arrows stay with the control
// or scrolling region that has focus.
import { $, state } from './current.js';
import { presenting, setPresenting } from './present.js';
import { goLesson } from './pager.js';

const keysDialog = $('#keys-dialog');

/** moveActive(dir) makes the widget dir places on the active one, and presents it or scrolls to it. */
function moveActive(dir) {
  if (!state.widgets.length) return;
  const i = Math.max(0, state.widgets.indexOf(state.active));
  state.active = state.widgets[(i + dir + state.widgets.length) % state.widgets.length];
  state.picked = true;
  if (presenting()) setPresenting(true);
  else state.active.fig.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
}

/** nudge(d) moves the active widget's first slider (its ε) d positions, as its arrow keys would. */
function nudge(d) {
  const input = state.active?.controller && state.active.fig.querySelector('.control-slider input[type=range]');
  if (!input) return false;
  const next = Math.min(Math.max(+input.value + d, 0), +input.max);
  if (next !== +input.value) {
    input.value = String(next);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return true;
}

/** setupKeys wires the Keys button and the shortcuts; Escape closes the open lesson list with navToggle. */
export function setupKeys(navToggle) {
  $('#keys-button').addEventListener('click', () => keysDialog.showModal());
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || keysDialog.open) return;
    const t = e.target;
    const typing = t.closest?.('input:not([type=range]):not([type=radio]):not([type=checkbox]), textarea, select, [contenteditable=""], [contenteditable=true]');
    if (typing) return;
    if (e.key === '?') { e.preventDefault(); keysDialog.showModal(); return; }
    if (e.key === 'Escape' && presenting()) { setPresenting(false); return; }
    if (e.key === 'Escape' && document.body.classList.contains('nav-open')) { navToggle.click(); navToggle.focus(); return; }
    const onControl = t.closest?.('button, a, summary, input, [role=button]');
    // A focusable region (a data table, a readout) scrolls with the arrow keys
    // and Space; leave those keys to it.
    const inRegion = t.closest?.('[role=region], .table-wrap');
    const c = state.active?.controller;
    switch (e.key) {
      case 'f': e.preventDefault(); setPresenting(!presenting()); break;
      case ' ':
        if (onControl || inRegion || !c?.draw) return;
        e.preventDefault(); c.draw(); break;
      case 'r': if (c?.reset) { e.preventDefault(); c.reset(); } break;
      case 'n': e.preventDefault(); moveActive(1); break;
      case ']': e.preventDefault(); goLesson(1); break;
      case '[': e.preventDefault(); goLesson(-1); break;
      case '+': case '=': case '-':
        if (nudge(e.key === '-' ? -1 : 1)) e.preventDefault();
        break;
      case 'ArrowUp': case 'ArrowDown':
        if (!presenting() || onControl || inRegion) return;
        if (nudge(e.key === 'ArrowUp' ? 1 : -1)) e.preventDefault();
        break;
      case 'p': e.preventDefault(); moveActive(-1); break;
      case 'ArrowRight': case 'ArrowLeft':
        if (t.matches?.('input[type=range], input[type=radio]') || inRegion || !c?.step) return;
        e.preventDefault(); c.step(e.key === 'ArrowRight' ? 1 : -1); break;
    }
  });
}
