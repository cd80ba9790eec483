// Offline copies of the lessons: the service worker's registration and the offer to keep them all.
//
// Offline copies of the lessons. register() registers the service worker
// (web/sw.js); on a metered or Save-Data connection it asks for the light
// precache, the shell and core only. offerOffline() then shows, on the
// landing page, a button that caches every lesson's module, with its
// download size (gzipped, from the build's index) and a progress bar.
// Loaded after the page's first load: nothing here is on the critical path.
import { el } from '../base/dom.js';

/**
 * metered(connection) reports whether the Network Information API says the
 * reader saves data: Save-Data is on, the link is cellular, or its
 * effective type is 3g or slower. Without the API (Firefox, Safari) it is false.
 */
export function metered(connection = navigator.connection) {
  if (!connection) return false;
  return connection.saveData === true || connection.type === 'cellular' ||
    ['slow-2g', '2g', '3g'].includes(connection.effectiveType);
}

/** register() registers the service worker, light on a metered connection. */
export function register() {
  return navigator.serviceWorker.register(new URL(metered() ? '../sw.js?lite' : '../sw.js', import.meta.url).href);
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

let view = null; // the offer on screen: {note, button, bar, status}
let job = null; // while the service worker caches: {total, loaded}
let listening = false;
const waiting = []; // resolve functions of status requests

function onMessage(event, index) {
  const m = event.data;
  if (!m || m.source !== 'dpplay-sw') return;
  if (m.type === 'status') {
    for (const resolve of waiting.splice(0)) resolve(m.missing);
  } else if (m.type === 'start') {
    job = { total: rawBytes(index, m.missing), loaded: 0 };
  } else if (m.type === 'progress' && job) {
    job.loaded = m.loaded;
  } else if (m.type === 'cached') {
    job = null;
    if (view) {
      // The button goes: focus, if it had it, goes to what it did.
      const had = document.activeElement === view.button;
      view.note.hidden = true;
      view.button.hidden = true;
      view.bar.hidden = true;
      view.status.textContent = 'Every lesson is now available offline on this device.';
      if (had) { view.status.tabIndex = -1; view.status.focus(); }
    }
    return;
  } else if (m.type === 'failed') {
    job = null;
    if (view) {
      view.button.removeAttribute('aria-disabled');
      view.bar.hidden = true;
      view.status.textContent = `Saving the lessons failed (${m.message}). Try again when you are online.`;
    }
    return;
  }
  showJob();
}

// The modules' sizes as built: the service worker counts decompressed bytes.
function rawBytes(index, files) {
  let n = 0;
  for (const w of Object.values(index.wasm)) if (files.includes(w.file)) n += w.bytes;
  return n;
}

function showJob() {
  if (!view || !job) return;
  // Not disabled, which would drop the focus: it says it is busy and ignores presses.
  view.button.setAttribute('aria-disabled', 'true');
  view.bar.hidden = false;
  view.bar.value = job.total ? Math.min(100, Math.round((100 * job.loaded) / job.total)) : 0;
}

/**
 * offerOffline(root, index) adds the offer to root's "Also here" section
 * where the service worker reports lesson modules it has not cached.
 */
export async function offerOffline(root, index) {
  if (!('serviceWorker' in navigator) || !index.offline?.length) return;
  const reg = await navigator.serviceWorker.ready;
  if (!listening) {
    listening = true;
    navigator.serviceWorker.addEventListener('message', (e) => onMessage(e, index));
    navigator.serviceWorker.startMessages();
  }
  const missing = await new Promise((resolve) => {
    waiting.push(resolve);
    reg.active.postMessage({ type: 'status' });
  });
  // How many lesson modules the service worker left out: 0 is nothing to offer.
  root.dataset.offlineMissing = String(missing.length);
  const section = root.querySelector('.more');
  if (!missing.length || !section || !root.isConnected) return;
  const gzip = index.offline.filter((f) => missing.includes(f.file)).reduce((n, f) => n + f.gzip, 0);
  const box = el('div', { class: 'offline-offer' });
  const note = el('p', { id: 'offline-note' }, missing.length === index.offline.length
    ? 'To save data, the lessons with larger engines download only when you open them.'
    : 'Some lessons download their engine only when you open them.');
  const button = el('button', { type: 'button', class: 'button', 'aria-describedby': 'offline-note' },
    `Make every lesson available offline (${mb(gzip)})`);
  const bar = el('progress', { max: '100', value: '0', 'aria-label': 'Saving every lesson for offline use' });
  bar.hidden = true;
  const status = el('p', { class: 'offline-status', role: 'status', 'aria-live': 'polite' });
  box.append(note, button, bar, status);
  section.append(box);
  view = { note, button, bar, status };
  button.addEventListener('click', () => {
    if (job) return;
    status.textContent = `Saving every lesson for offline use (${mb(gzip)})…`;
    job = { total: rawBytes(index, missing), loaded: 0 };
    showJob();
    reg.active.postMessage({ type: 'cache-all' });
  });
  showJob();
}
