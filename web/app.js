// The page's start: it shows the engine's loading progress, wires the top
// bar, the lesson list, search, the theme, presentation mode and the keys,
// shows the lesson the address names (web/route.js) and follows the address
// as it changes, and registers the service worker once the page has loaded.
import { parseHash } from './state.js';
import { setupTheme, setupShare, setupScrollMemory, setupSearch } from './site.js';
import { $, bridge, index, state } from './current.js';
import { showLesson, markLive } from './route.js';
import { mountRest } from './lazymount.js';
import { reportError } from './urlnotes.js';
import { setupPresenting } from './present.js';
import { setupKeys } from './keys.js';
import { watchEngine } from './pending.js';
import { keepFocus } from './focuskeep.js';

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
window.addEventListener('hashchange', () => {
  // Our own replaceState never fires hashchange: this is a link or the user.
  // parseHash never throws, whatever the hash holds.
  const { slug } = parseHash(location.hash);
  showLesson(location.hash, slug !== state.slug).catch(reportError);
});
setupTheme($('#theme-button'));
setupShare($('#share-button'), $('#share-status'));
setupScrollMemory(() => !state.loading);
setupSearch($('#search'), index, (slug, section) => {
  state.section = section || '';
  const target = `#/${slug}`;
  if (slug === state.slug) {
    const t = section && document.getElementById(section);
    if (t) t.scrollIntoView({ block: 'start' }); else scrollTo(0, 0);
  } else location.hash = target;
  navToggle.setAttribute('aria-expanded', 'false');
  document.body.classList.remove('nav-open');
});

showLesson(location.hash, false).catch(reportError);

// Register the service worker after the first load, so precaching the site
// for offline use never competes with the first lesson's download.
if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  const register = () => import('./offline.js').then((m) => m.register()).catch(() => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
