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
  if (by && !anchors()) scrollBy(0, by);
});
