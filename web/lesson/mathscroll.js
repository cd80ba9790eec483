// Formulas wider than their column: scrollable and reachable by keyboard.
//
// A display formula wider than its column scrolls sideways in its box
// (styles.css .math-display). One that does is made a named, focusable
// group, so that the keyboard reaches it and scrolls it as a pointer does
// (WCAG 2.1.1); one that fits stays out of the tab order. A group, not a
// region: a page may have several such formulas, and landmarks need names
// of their own. On a narrow screen a formula in a sentence scrolls in its
// own box too (styles.css, 22.5rem): one that does is made focusable, and
// keeps its role and name as a formula. A formula's width changes with the
// screen and as its fonts load, so each box and its formula are watched.

/** FORMULA_SCROLLS names a formula the reader scrolls sideways. */
const FORMULA_SCROLLS = 'Formula, scrolls sideways';

/** INLINE is the formulas in sentences, which scroll in their own box on a narrow screen. */
const INLINE = ':is(p, li) math:not([display="block"])';

const watcher = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (target.matches(INLINE) && !target.closest('.math-display')) markInline(target);
    else mark(target.closest('.math-display'));
  }
});

/** scrolls(box) is whether box's content is wider than box. */
const scrolls = (box) => box.scrollWidth > box.clientWidth + 1;

/** markInline(math) puts a formula in a sentence in the tab order while it scrolls, and takes it out when it fits. */
function markInline(math) {
  if (scrolls(math)) math.tabIndex = 0;
  else math.removeAttribute('tabindex');
}

/** mark(box) makes box a focusable region when its formula is wider than it, and an ordinary box when not. */
function mark(box) {
  if (!box) return;
  const wide = scrolls(box);
  if (wide === box.hasAttribute('tabindex')) return;
  if (wide) {
    box.tabIndex = 0;
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', FORMULA_SCROLLS);
  } else {
    for (const a of ['tabindex', 'role', 'aria-label']) box.removeAttribute(a);
  }
}

/** watchFormulas(root) watches the display formulas in root, and only those: the page's previous ones are let go. */
export function watchFormulas(root) {
  watcher.disconnect();
  for (const box of root.querySelectorAll('.math-display')) {
    watcher.observe(box);
    const math = box.querySelector('math');
    if (math) watcher.observe(math);
  }
  for (const math of root.querySelectorAll(INLINE)) if (!math.closest('.math-display')) watcher.observe(math);
}
