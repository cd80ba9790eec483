// The keys that act on one widget: draw, reset, step, nudge ε.
//
// The keys that act on one widget (listed in the lesson's Keys dialog): Space
// draws, r resets, ← and → step back and on, + and − nudge its first slider
// (its ε). The lesson (web/shell/keys.js) and the embed page (web/embed/embedpage.js)
// both call widgetKey, with focus in the widget. None acts while the reader
// types in a field, and Space and the arrows stay with the control or
// scrolling region that has focus.

/** typing(t) reports whether element t is a field the reader types in, where no key is a shortcut. */
export const typing = (t) => !!t.closest?.('input:not([type=range]):not([type=radio]):not([type=checkbox]), textarea, select, [contenteditable=""], [contenteditable=true]');

/** nudge(fig, d) moves widget fig's first slider (its ε) d positions, as its arrow keys would, unless it is locked (fixing.js). */
export function nudge(fig, d) {
  const input = fig.querySelector('.control-slider input[type=range]');
  if (!input || input.disabled) return false;
  const next = Math.min(Math.max(+input.value + d, 0), +input.max);
  if (next !== +input.value) {
    input.value = String(next);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return true;
}

/**
 * widgetKey(e, slot, presenting) does what key event e asks of the widget of
 * slot ({fig, controller}) and reports whether it acted (then the event's
 * default is prevented). presenting: the widget is presented, where ↑ and ↓
 * nudge too.
 */
export function widgetKey(e, slot, presenting = false) {
  const t = e.target;
  const onControl = t.closest?.('button, a, summary, input, [role=button]');
  // A focusable region (a data table, a readout) scrolls with the arrow keys
  // and Space; leave those keys to it.
  const inRegion = t.closest?.('[role=region], .table-wrap');
  const c = slot.controller;
  const live = !!c;
  let acted = false;
  switch (e.key) {
    case ' ':
      if (onControl || inRegion || !c?.draw) return false;
      c.draw(); acted = true; break;
    case 'r': if (c?.reset) { c.reset(); acted = true; } break;
    case '+': case '=': case '-':
      acted = live && nudge(slot.fig, e.key === '-' ? -1 : 1);
      break;
    case 'ArrowUp': case 'ArrowDown':
      if (!presenting || onControl || inRegion) return false;
      acted = live && nudge(slot.fig, e.key === 'ArrowUp' ? 1 : -1);
      break;
    case 'ArrowRight': case 'ArrowLeft':
      if (t.matches?.('input[type=range], input[type=radio]') || inRegion || !c?.step) return false;
      c.step(e.key === 'ArrowRight' ? 1 : -1); acted = true; break;
  }
  if (acted) e.preventDefault();
  return acted;
}
