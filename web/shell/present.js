// Presentation mode: the active widget alone, scaled to fit the screen.
//
// Presentation mode: the active widget alone, full screen where the browser
// allows it, its text and charts scaled down until it fits the screen.
import { $, state } from '../lesson/current.js';

const presentButton = $('#present-button');

/** presenting reports whether the page is in presentation mode. */
export const presenting = () => document.body.classList.contains('presenting');

// A widget can grow after it was fitted (a result with more rows, as the
// auditor's with more candidates; a widget mounts on its pre-rendered
// drawing), so the presented widget's parts are watched, and one that still
// does not fit a moment later (a progress bar comes and goes) is fitted again
// from the full size.
let regrow = 0;
const grown = new ResizeObserver(() => {
  clearTimeout(regrow);
  regrow = setTimeout(() => {
    const fig = document.querySelector('figure.widget.is-presented');
    if (fig?.dataset.fitted && fig.scrollHeight > fig.clientHeight + 1) {
      document.documentElement.style.removeProperty('font-size');
      fitToScreen(fig);
    }
  }, 250);
});

/** stopWatchingPresented stops refitting the presented widget as it grows (the page leaves the lesson). */
export function stopWatchingPresented() {
  grown.disconnect();
}

/** setPresenting(on) enters or leaves presentation mode, presenting the active widget. */
export function setPresenting(on) {
  const w = state.active || state.widgets[0];
  document.body.classList.toggle('presenting', on);
  // Full screen too, where the browser allows it; leaving full screen (the
  // browser's own Esc) leaves presentation mode.
  if (on && document.fullscreenEnabled && !document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => {});
  if (!on && document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
  for (const f of document.querySelectorAll('figure.widget.is-presented')) f.classList.remove('is-presented');
  grown.disconnect();
  presentButton.setAttribute('aria-pressed', String(on));
  document.documentElement.style.removeProperty('font-size');
  if (on && w) {
    state.picked = true;
    w.fig.classList.add('is-presented');
    w.fig.scrollTop = 0;
    w.fig.setAttribute('tabindex', '-1');
    w.fig.focus({ preventScroll: true });
    fitToScreen(w.fig);
    for (const part of w.fig.children) grown.observe(part);
  } else if (w) {
    w.fig.scrollIntoView({ block: 'start' });
  }
}

/**
 * fitToScreen(fig) shrinks the page's root font size, and with it everything
 * sized in rem or em (text, controls, charts), until the presented widget fits
 * the screen without scrolling, or the root size reaches 10 px. Charts redraw at their new width
 * between steps, so it measures again after two frames.
 */
async function fitToScreen(fig) {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  delete fig.dataset.fitted;
  for (let i = 0; i < 12 && fig.classList.contains('is-presented'); i++) {
    await frame();
    const over = fig.scrollHeight / fig.clientHeight;
    const root = document.documentElement;
    const fs = parseFloat(getComputedStyle(root).fontSize);
    if (fig.scrollHeight <= fig.clientHeight || fs <= 10) break;
    root.style.fontSize = `${Math.max(10, fs * Math.max(0.8, 0.985 / Math.sqrt(over)))}px`;
  }
  fig.dataset.fitted = '1'; // the tests wait for it
}

/** setupPresenting wires the Present button, refits the presented widget on resize, and leaves with full screen. */
export function setupPresenting() {
  presentButton.addEventListener('click', () => setPresenting(!presenting()));
  window.addEventListener('resize', () => {
    const fig = document.querySelector('figure.widget.is-presented');
    if (fig) { document.documentElement.style.removeProperty('font-size'); fitToScreen(fig); }
  });
  document.addEventListener('fullscreenchange', () => {
    if (!document.fullscreenElement && presenting()) setPresenting(false);
  });
}
