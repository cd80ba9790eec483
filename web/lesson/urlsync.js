// The address kept in step with the lesson's widgets.
//
// Keeps the address in step with the lesson's widgets: every mounted widget's
// values, written into its fragment as the link that reopens them
// (slug/#id.key=value…), with replaceState so that moving a slider adds no
// history entry.
import { parseState, formatState } from '../state/address.js';
import { encode } from '../state/values.js';
import { saveLast } from '../state/progress.js';
import { state } from './current.js';

let timer = 0;

/** scheduleWrite writes the address 120 ms after the last change, so a dragged slider writes it once. */
export function scheduleWrite() {
  clearTimeout(timer);
  timer = setTimeout(writeURL, 120);
}

/** cancelWrite drops a scheduled write (the page leaves the lesson). */
export function cancelWrite() {
  clearTimeout(timer);
}

/** writeURL writes the widgets' values into the address now, and remembers it as the last lesson read. */
export function writeURL() {
  // A fragment or page set since the one shown or written (a link, the user,
  // Back) waits to be shown: writing now would replace it with the old state.
  if (location.hash !== state.hash || location.pathname !== state.path || !state.slug) return;
  const params = new Map();
  const linked = parseState(location.hash).params;
  for (const w of state.widgets) {
    // A widget not mounted yet keeps what the link said of it.
    if (!w.controller) for (const [k, v] of linked) if (k.startsWith(`${w.id}.`)) params.set(k, v);
    for (const [key, spec] of Object.entries(w.schema)) {
      const v = encode(spec, w.values[key]);
      if (v !== null) params.set(`${w.id}.${key}`, v);
    }
    // The controls the link hid or locked stay so (mount.js readFixing).
    for (const [f, keys] of Object.entries(w.fixed || {})) if (keys.length) params.set(`${w.id}.${f}`, keys.join(','));
  }
  // A page without widgets keeps its fragment (an element it names).
  const hash = formatState(params);
  if (hash && location.hash !== hash) history.replaceState(history.state, '', hash);
  state.hash = location.hash;
  saveLast(state.slug, hash);
}
