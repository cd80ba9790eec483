// Keeps the reader's place when a widget above them changes height (it
// mounts, or draws a longer result). A browser that anchors the scroll
// (overflow-anchor: auto) has done so already; one that does not (Safari)
// would move what the reader is reading, so the page scrolls by as much.
const heights = new WeakMap();
const anchors = () => [document.documentElement, document.body].every((e) => getComputedStyle(e).overflowAnchor === 'auto');

/** keepAbove watches the lesson's widget figures (observe each; disconnect on leaving the lesson). */
export const keepAbove = new ResizeObserver((entries) => {
  let by = 0;
  for (const { target } of entries) {
    const h = target.offsetHeight, before = heights.get(target);
    heights.set(target, h);
    if (before !== undefined && h !== before && target.getBoundingClientRect().bottom - (h - before) <= 0) by += h - before;
  }
  if (by && !anchors() && !held) scrollBy(0, by);
});

let held = null; // the place pin holds: {el, top, until}
const letGo = () => {
  if (!held) return;
  held = null;
  for (const e of [document.documentElement, document.body]) e.style.removeProperty('overflow-anchor');
};
for (const type of ['wheel', 'touchstart', 'pointerdown', 'keydown']) addEventListener(type, letGo, { capture: true, passive: true });

/**
 * pin(el, top) scrolls so that element el's top is top px from the top of
 * the screen, and holds it there for a few seconds while the blocks above
 * it settle (pre-rendered widgets mount, charts draw, the document grows
 * past a height that clamped the first scroll). Meanwhile the browser's own
 * scroll anchoring is off: it keeps some node on screen in place, which may
 * be one inside a widget being replaced. The pin lets go when anything else
 * scrolls the page (the reader, a link to a heading), on a touch or key, or
 * when el leaves the page.
 */
export function pin(el, top) {
  letGo();
  const p = held = { el, top, until: performance.now() + 4000 };
  for (const e of [document.documentElement, document.body]) e.style.overflowAnchor = 'none';
  let y = NaN; // scrollY after the last frame
  const hold = () => {
    if (held !== p) return;
    if (!el.isConnected || performance.now() > p.until || Math.abs(scrollY - y) > 0.5) return letGo();
    const by = Math.round(el.getBoundingClientRect().top - top);
    if (by) scrollBy(0, by);
    y = scrollY;
    requestAnimationFrame(hold);
  };
  hold();
}
