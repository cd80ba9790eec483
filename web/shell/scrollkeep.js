// The reader's place on the page: held when a widget above them changes height, restored on Back.
//
// A widget above the reader can change height (it mounts, or draws a longer
// result). A browser that anchors the scroll (overflow-anchor: auto) has
// kept the place already; one that does not (Safari) would move what the
// reader is reading, so the page scrolls by as much (keepAbove). Each
// history entry also keeps the place, so that Back, Forward and a reload
// return to it (saveScroll, restoreScroll).
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
function pin(el, top) {
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

// ---- The place on Back -------------------------------------------------------
// Each history entry keeps its scroll position in history.state; a lesson
// shown from an entry that has one (Back, Forward, reload) returns there. The
// place is kept as the block of the lesson at the top of the screen and how
// far it was from the top, since the blocks above it need not have the
// heights they had when the reader left (a widget mounted or not, drawn at
// other settings, a lesson built again).

/** setupScrollMemory(settled) stores the place in the history entry as the reader scrolls, once settled() says the page has loaded. */
export function setupScrollMemory(settled) {
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  let timer = 0;
  addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // While a lesson loads, its height and so scrollY are not yet its own.
      if (settled()) saveScroll();
    }, 150);
  }, { passive: true });
}

/** topBlock() is [i, top]: the index of the lesson's first block still on screen, and its distance from the top (px, ≤ 0). */
function topBlock() {
  const blocks = document.querySelector('#lesson article')?.children || [];
  for (let i = 0; i < blocks.length; i++) {
    const r = blocks[i].getBoundingClientRect();
    if (r.bottom > 0) return [i, Math.round(r.top)];
  }
  return null;
}

/** saveScroll keeps the scroll position in this history entry. */
export function saveScroll() {
  history.replaceState({ ...(history.state || {}), scroll: Math.round(scrollY), at: topBlock() }, '');
}

/** restoreScroll scrolls to the place stored for this history entry; it returns whether there was one. */
export function restoreScroll() {
  const { scroll: y, at } = history.state || {};
  if (!Number.isFinite(y)) return false;
  const block = Array.isArray(at) && Number.isInteger(at[0]) && document.querySelector('#lesson article')?.children[at[0]];
  if (block && Number.isFinite(at[1])) pin(block, at[1]);
  else scrollTo(0, y);
  return true;
}
