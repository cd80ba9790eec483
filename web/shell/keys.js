// The lesson page's keyboard shortcuts and their Keys dialog.
//
// The keyboard shortcuts (listed in the Keys dialog, opened by ? or the Keys
// button): draw, reset and step a widget, move between widgets and lessons,
// nudge ε, present. They act only while focus is in a widget (Tab to it, or
// click it) or in presentation mode, on that widget, so that with nothing
// focused Space scrolls the page as everywhere else (WCAG 2.1.4); the Keys
// dialog turns them off altogether. None acts while the reader types in a
// field or holds Ctrl, Meta or Alt, and Space and the arrows stay with the
// control or scrolling region that has focus.
import { $, state } from '../lesson/current.js';
import { presenting, setPresenting } from './present.js';
import { goLesson } from './route.js';
import { typing, widgetKey } from '../page/widgetkeys.js';

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
    if (typing(t)) return;
    if (e.key === 'Escape' && presenting()) { setPresenting(false); return; }
    if (e.key === 'Escape' && document.body.classList.contains('nav-open')) { navToggle.click(); navToggle.focus(); return; }
    if (!keysOn()) return;
    // The widget the keys act on: the presented one, else the one with focus.
    const fig = presenting() ? document.querySelector('figure.widget.is-presented') : t.closest?.('#lesson figure.widget');
    const slot = fig && state.widgets.find((w) => w.fig === fig);
    if (!slot) return;
    state.active = slot;
    state.picked = true;
    switch (e.key) {
      case '?': e.preventDefault(); keysDialog.showModal(); break;
      case 'f': e.preventDefault(); setPresenting(!presenting()); break;
      case 'n': e.preventDefault(); moveActive(1); break;
      case 'p': e.preventDefault(); moveActive(-1); break;
      case ']': e.preventDefault(); goLesson(1); break;
      case '[': e.preventDefault(); goLesson(-1); break;
      default: widgetKey(e, slot, presenting());
    }
  });
}
