// The controls a link hides or locks, applied to a mounted widget.
//
// Controls a link fixes (state/values.js FIXING): a hidden control is taken out of
// the widget, so it is neither drawn nor in the accessibility tree; a locked
// one stays in view with its value, disabled, its label followed by a
// visible "fixed by the link" that its accessible name includes. Every
// control a widget builds with controls.js carries its schema key
// (data-key), so this one pass serves every widget. What stops a locked
// value changing is mount.js's ctx.set, which refuses it whatever asks
// (a key, a button, a parent page's message).

/** FIXED_MARK is the text shown after a locked control's label. */
export const FIXED_MARK = 'fixed by the link';

/**
 * fixControls(root, {hide, lock}) removes the controls under root whose key
 * is in hide, locks those whose key is in lock, and removes a "More
 * settings" disclosure left empty.
 */
export function fixControls(root, { hide = [], lock = [] }) {
  for (const el of root.querySelectorAll('[data-key]')) {
    const key = el.dataset.key;
    if (hide.includes(key)) el.remove();
    else if (lock.includes(key)) lockControl(el);
  }
  for (const box of root.querySelectorAll('details.more-settings')) {
    if (!box.querySelector('.control')) box.remove();
  }
}

/** lockControl(el) disables the fields of control el and marks its summary, label or legend, the first there is, as fixed by the link. */
function lockControl(el) {
  if (el.classList.contains('is-locked')) return;
  el.classList.add('is-locked');
  for (const f of el.querySelectorAll('input, select, textarea, button')) f.disabled = true;
  const label = el.querySelector('summary, label, legend');
  if (!label) return;
  const mark = document.createElement('span');
  mark.className = 'fixed-mark';
  // The space is inside the mark, so the accessible name reads "ε (epsilon) fixed by the link".
  mark.textContent = ` ${FIXED_MARK}`;
  label.append(mark);
}
