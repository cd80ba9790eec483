// A display formula wider than its column scrolls sideways in its box
// (styles.css .math-display). One that does is made a named, focusable
// group, so that the keyboard reaches it and scrolls it as a pointer does
// (WCAG 2.1.1); one that fits stays out of the tab order. A group, not a
// region: a page may have several such formulas, and landmarks need names
// of their own. A formula's width
// changes with the screen and as its fonts load, so each box and its
// formula are watched.

/** FORMULA_SCROLLS names a formula the reader scrolls sideways. */
const FORMULA_SCROLLS = 'Formula, scrolls sideways';

const watcher = new ResizeObserver((entries) => {
  for (const { target } of entries) mark(target.closest('.math-display'));
});

/** mark(box) makes box a focusable region when its formula is wider than it, and an ordinary box when not. */
function mark(box) {
  if (!box) return;
  const scrolls = box.scrollWidth > box.clientWidth + 1;
  if (scrolls === box.hasAttribute('tabindex')) return;
  if (scrolls) {
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
}
