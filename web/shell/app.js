// The lesson page's start: engine progress, the top bar, the keys, the page the address names.
//
// The page's start: it shows the engine's loading progress, wires the top
// bar, the lesson list, search, the theme, presentation mode and the keys,
// shows the lesson the address names (web/shell/route.js) and follows the address
// as it changes, and registers the service worker once the page has loaded.
import { oldLink, parseState } from '../state/address.js';
import { setupTheme, setupShare } from './topbar.js';
import { setupScrollMemory } from './scrollkeep.js';
import { setupSearch } from './search.js';
import { $, bridge, index, state } from '../lesson/current.js';
import { showPage, followLinks, markLive } from './route.js';
import { mountRest } from '../lesson/lazymount.js';
import { reportError } from '../page/urlnotes.js';
import { setupPresenting } from './present.js';
import { setupKeys } from './keys.js';
import { watchEngine } from '../page/pending.js';
import { keepFocus } from './focuskeep.js';
import { yieldTask } from '../base/tasks.js';

// ---- Engine loading indicator -------------------------------------------
const progress = $('#engine-progress');
const engineStatus = $('#engine-status');
bridge.onStatus((msg) => {
  if (msg.type === 'progress' && msg.total) {
    progress.value = Math.min(100, Math.round((100 * msg.loaded) / msg.total));
    engineStatus.textContent = `Loading the engine… ${progress.value}%`;
  } else if (msg.type === 'ready') {
    progress.value = 100;
    performance.mark('dpplay-engine-ready', { detail: msg.timing });
    document.body.classList.add('engine-ready');
    engineStatus.textContent = 'Engine ready: the controls are live';
    markLive();
  } else if (msg.type === 'failed') {
    document.body.classList.add('engine-failed');
    engineStatus.textContent = `The engine could not start: ${msg.message}`;
  }
});
watchEngine(bridge);
bridge.load('core');

// ---- Navigation, presentation and keys --------------------------------------
// A key pressed first mounts the widgets still showing their pre-rendered
// drawing, one per idle period, so that Tab reaches live ones.
document.addEventListener('keydown', mountRest, { capture: true });
start().catch(reportError);

/**
 * start wires the page and shows what the address names, each group of
 * steps in a task of its own: together they would be one long task right
 * after the first paint, while the reader may already tap or scroll.
 */
async function start() {
  await yieldTask();
  const navToggle = $('.nav-toggle');
  keepFocus();
  setupPresenting();
  setupKeys(navToggle);
  navToggle.addEventListener('click', () => {
    const open = navToggle.getAttribute('aria-expanded') !== 'true';
    navToggle.setAttribute('aria-expanded', String(open));
    document.body.classList.toggle('nav-open', open);
  });
  $('#lesson-nav').addEventListener('click', (e) => {
    if (e.target.closest('a')) { navToggle.setAttribute('aria-expanded', 'false'); document.body.classList.remove('nav-open'); }
  });
  // The links of the top bar and the lesson list, and the icons', are written
  // for the page this document was loaded at; moving to a page at another depth
  // (go) would break them, so they are made absolute.
  for (const a of document.querySelectorAll('a[href], link[rel~="icon"], link[rel="manifest"], link[rel="apple-touch-icon"]')) {
    if (!a.closest('#lesson, .pager') && !a.getAttribute('href').startsWith('#')) a.setAttribute('href', a.href);
  }
  followLinks();
  // Back and Forward to another page's entry show it; between entries of the
  // same page only the fragment differs, which hashchange follows.
  window.addEventListener('popstate', () => {
    if (location.pathname !== state.path) showPage(false).catch(reportError);
  });
  window.addEventListener('hashchange', () => {
    // Our own replaceState never fires hashchange: this is a link, the user or
    // Back. A fragment that names an element is the browser's to scroll to.
    if (location.pathname !== state.path || location.hash === state.hash) return;
    const old = oldLink(location.hash);
    if (!old && parseState(location.hash).section) state.hash = location.hash;
    else showPage(!!old && old.slug !== state.slug).catch(reportError);
  });
  await yieldTask();
  setupTheme($('#theme-button'));
  setupShare($('#share-button'), $('#share-status'));
  setupScrollMemory(() => !state.loading);
  setupSearch($('#search'), index);
  await yieldTask();
  await showPage(false);
}

// Register the service worker after the first load, so precaching the site
// for offline use never competes with the first lesson's download, and in
// a task of its own once the page is idle (the load event often comes in the
// task that runs the page's modules).
if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  const register = () => import('../offline/offline.js').then((m) => m.register()).catch(() => {});
  const later = () => (window.requestIdleCallback ? requestIdleCallback(register, { timeout: 2000 }) : setTimeout(register, 200));
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
