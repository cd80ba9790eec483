// The keyboard shortcuts (listed in the Keys dialog, opened by ? or the Keys
// button): draw, reset and step a widget, move between widgets and lessons,
// nudge ε, present. They act only while focus is in a widget (Tab to it, or
// click it) or in presentation mode, on that widget, so that with nothing
// focused Space scrolls the page as everywhere else (WCAG 2.1.4); the Keys
// dialog turns them off altogether. None acts while the reader types in a
// field or holds Ctrl, Meta or Alt, and Space and the arrows stay with the
// control or scrolling region that has focus.
import { $, state } from './current.js';
import { presenting, setPresenting } from './present.js';
import { goLesson } from './pager.js';

const keysDialog = $('#keys-dialog');
const STORE = 'dpplay-keys';

/** keysOn reports whether the reader left the single-key shortcuts on. */
function keysOn() {
  try {
    return localStorage.getItem(STORE) !== 'off';
  } catch {
    return true;
  }
}

/** setKeysOn(on) keeps the reader's choice and shows or hides the key hints on buttons. */
function setKeysOn(on) {
  try {
    if (on) localStorage.removeItem(STORE); else localStorage.setItem(STORE, 'off');
  } catch { /* private mode: the choice lasts the page */ }
  document.documentElement.classList.toggle('keys-off', !on);
}

/** moveActive(dir) makes the widget dir places on the active one, and presents it or focuses it. */
function moveActive(dir) {
  if (!state.widgets.length) return;
  const i = Math.max(0, state.widgets.indexOf(state.active));
  state.active = state.widgets[(i + dir + state.widgets.length) % state.widgets.length];
  state.picked = true;
  if (presenting()) return setPresenting(true);
  const fig = state.active.fig;
  fig.focus({ preventScroll: true });
  fig.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
}

/** nudge(d) moves the active widget's first slider (its ε) d positions, as its arrow keys would, unless it is locked. */
function nudge(d) {
  const input = state.active?.controller && state.active.fig.querySelector('.control-slider input[type=range]');
  // A slider the link locked (fixing.js) is disabled: the key leaves it.
  if (!input || input.disabled) return false;
  const next = Math.min(Math.max(+input.value + d, 0), +input.max);
  if (next !== +input.value) {
    input.value = String(next);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return true;
}

/** setupKeys wires the Keys button, the shortcuts and their switch; Escape closes the open lesson list with navToggle. */
export function setupKeys(navToggle) {
  const on = $('#keys-on');
  on.checked = keysOn();
  setKeysOn(on.checked);
  on.addEventListener('change', () => setKeysOn(on.checked));
  $('#keys-button').addEventListener('click', () => keysDialog.showModal());
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || keysDialog.open) return;
    const t = e.target;
    const typing = t.closest?.('input:not([type=range]):not([type=radio]):not([type=checkbox]), textarea, select, [contenteditable=""], [contenteditable=true]');
    if (typing) return;
    if (e.key === 'Escape' && presenting()) { setPresenting(false); return; }
    if (e.key === 'Escape' && document.body.classList.contains('nav-open')) { navToggle.click(); navToggle.focus(); return; }
    if (!keysOn()) return;
    // The widget the keys act on: the presented one, else the one with focus.
    const fig = presenting() ? document.querySelector('figure.widget.is-presented') : t.closest?.('#lesson figure.widget');
    const slot = fig && state.widgets.find((w) => w.fig === fig);
    if (!slot) return;
    state.active = slot;
    state.picked = true;
    const onControl = t.closest?.('button, a, summary, input, [role=button]');
    // A focusable region (a data table, a readout) scrolls with the arrow keys
    // and Space; leave those keys to it.
    const inRegion = t.closest?.('[role=region], .table-wrap');
    const c = slot.controller;
    switch (e.key) {
      case '?': e.preventDefault(); keysDialog.showModal(); break;
      case 'f': e.preventDefault(); setPresenting(!presenting()); break;
      case ' ':
        if (onControl || inRegion || !c?.draw) return;
        e.preventDefault(); c.draw(); break;
      case 'r': if (c?.reset) { e.preventDefault(); c.reset(); } break;
      case 'n': e.preventDefault(); moveActive(1); break;
      case 'p': e.preventDefault(); moveActive(-1); break;
      case ']': e.preventDefault(); goLesson(1); break;
      case '[': e.preventDefault(); goLesson(-1); break;
      case '+': case '=': case '-':
        if (nudge(e.key === '-' ? -1 : 1)) e.preventDefault();
        break;
      case 'ArrowUp': case 'ArrowDown':
        if (!presenting() || onControl || inRegion) return;
        if (nudge(e.key === 'ArrowUp' ? 1 : -1)) e.preventDefault();
        break;
      case 'ArrowRight': case 'ArrowLeft':
        if (t.matches?.('input[type=range], input[type=radio]') || inRegion || !c?.step) return;
        e.preventDefault(); c.step(e.key === 'ArrowRight' ? 1 : -1); break;
    }
  });
}
