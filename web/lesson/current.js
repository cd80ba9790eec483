// What the page shows now: the site's root and index, the engine's bridge, the lesson on screen.
//
// What the page shows now, shared by the modules that change it: the site's
// root and index (lessons, pages, wasm modules) from the shell, the one
// bridge to the engine, and the state of the lesson on screen: its widget
// slots in reading order, the one the keys act on, and the notes the link
// earned.
import { engineClient } from '../engine/client.js';

/** root is the site's root: the modules sit there, and every page's address is relative to it. */
export const root = new URL('../', import.meta.url);
export const index = JSON.parse(document.getElementById('site-index').textContent);
export const bridge = engineClient(index);
export const lessonsBySlug = new Map(index.lessons.concat(index.pages || []).map((l) => [l.slug, l]));
export const $ = (sel, root = document) => root.querySelector(sel);

/**
 * state is the lesson on screen. slug: its slug ('' on the landing page);
 * widgets: one slot per widget figure, {id, fig, schema, values, controller,
 * mounting}; active: the slot the keys act on; picked: whether the reader
 * chose it; notes: what the link asked for that the page corrected; shown:
 * counts calls of showPage, so that an older one stops; path and hash: the
 * page's path and the fragment last shown or written; section: the element
 * the address names, to scroll to; loading: a page is being shown.
 */
export const state = { slug: '', widgets: [], active: null, notes: [], shown: 0, path: '', hash: '', section: '', loading: false, picked: false };

/**
 * pickActive makes the first widget with a draw action the one the keys
 * act on, until the reader picks one (focus, a click, n or p).
 */
export function pickActive() {
  if (!state.picked) state.active = state.widgets.find((w) => w.controller?.draw) || state.widgets[0] || null;
}
