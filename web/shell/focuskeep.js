// Focus kept where the reader was when a control removes or disables itself.
//
// Focus that would fall to the page's body stays where the reader was. A
// control that has done its job disables, hides or removes itself ("Next
// round" at the last round, "Run" once run); Chromium then moves focus to
// <body>, and a keyboard or screen reader user would start again from the
// top of the page (WCAG 2.4.3). Focus goes instead to the control Tab would
// reach next in the same widget, question or section, else the one before,
// else that part itself. A control that moves focus itself (predict.js's
// Reveal) does so before this looks.

const PARTS = 'figure.widget, section, dialog, .export-figure, main';
const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])';

let part = null; // the part the focused element is in, for one that is removed

const usable = (el) => el.isConnected && !el.disabled && !el.closest('[inert]') && el.checkVisibility?.() !== false;

/** keepFocus starts watching for focus falling to the body. */
export function keepFocus() {
  document.addEventListener('focusin', (e) => { part = e.target.closest?.(PARTS) || null; });
  document.addEventListener('focusout', (e) => {
    if (e.relatedTarget) return;
    const lost = e.target;
    const box = (lost.isConnected && lost.closest(PARTS)) || (part?.isConnected && part);
    setTimeout(() => {
      // Focus went somewhere, or the reader clicked outside any control.
      if (document.activeElement && document.activeElement !== document.body) return;
      if (usable(lost) || !box) return;
      const all = [...box.querySelectorAll(FOCUSABLE)].filter(usable);
      const after = lost.isConnected ? all.find((el) => lost.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) : null;
      const before = lost.isConnected ? all.findLast((el) => lost.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) : null;
      let to = after || before;
      if (!to) {
        to = box;
        if (!to.hasAttribute('tabindex')) to.tabIndex = -1;
      }
      to.focus({ preventScroll: true });
    }, 0);
  });
}
