// What a widget shows while the reader waits for it.
//
// What a widget shows while the reader waits for it: a widget whose engine
// call is under way, or which is mounting because the reader used its
// pre-rendered drawing, dims what it will redraw and says, in a note that
// stays on screen at the bottom of the widget, "Computing…" or, before the
// engine has arrived, "Waiting for the engine (42%)…". A short computation
// shows nothing: the note appears after DELAY ms (at once while the engine
// loads, since then nothing the reader does can answer before it arrives).
// The note is a status region, so a screen reader hears it once, when it
// appears; the percentage beside it is not read at every step.

const DELAY = 400;
const engine = { ready: false, failed: '', pct: 0 };
const waiting = new Map(); // fig → {n, timer, note}

/** watchEngine(bridge) follows the engine's progress, for the notes. */
export function watchEngine(bridge) {
  bridge.onStatus((msg) => {
    if (msg.name && msg.name !== 'core' && msg.name !== '*') return;
    if (msg.type === 'progress' && msg.total) engine.pct = Math.min(99, Math.floor((100 * msg.loaded) / msg.total));
    else if (msg.type === 'ready') engine.ready = true;
    else if (msg.type === 'failed') engine.failed = msg.message || 'failed';
    for (const [fig, p] of waiting) if (p.shown) show(fig, p);
  });
}

/** noteOf(fig) is the figure's note, made on first use, after its body. */
function noteOf(fig) {
  let note = fig.querySelector(':scope > .widget-pending');
  if (!note) {
    note = document.createElement('p');
    note.className = 'widget-pending';
    note.setAttribute('role', 'status');
    note.innerHTML = '<span class="pending-pill"><span class="pending-text"></span><span class="pending-pct" aria-hidden="true"></span></span>';
    (fig.querySelector(':scope > .widget-body') || fig.lastChild).after(note);
  }
  return note;
}

function show(fig, p) {
  p.shown = true;
  const [text, pct] = noteOf(fig).firstChild.children;
  let say = 'Computing…', num = '';
  if (p.mounts) say = 'Loading this widget…';
  else if (engine.failed) say = `The engine could not start: ${engine.failed}`;
  else if (!engine.ready) { say = 'Waiting for the engine to load…'; num = ` ${engine.pct}%`; }
  if (text.textContent !== say) text.textContent = say;
  pct.textContent = num;
  fig.dataset.pending = '';
}

/**
 * start(fig, mounting) counts one more thing the widget in fig waits for: an
 * engine call, or (mounting) its own mount; stop(fig, mounting) one less.
 */
export function start(fig, mounting = false) {
  let p = waiting.get(fig);
  if (!p) waiting.set(fig, p = { calls: 0, mounts: 0, timer: 0, shown: false });
  if (mounting) p.mounts++; else p.calls++;
  if (p.shown) show(fig, p);
  else if (!p.timer) p.timer = setTimeout(() => { p.timer = 0; show(fig, p); }, engine.ready ? DELAY : 0);
}

export function stop(fig, mounting = false) {
  const p = waiting.get(fig);
  if (!p) return;
  if (mounting) p.mounts--; else p.calls--;
  if (p.calls + p.mounts > 0) { if (p.shown) show(fig, p); return; }
  clearTimeout(p.timer);
  waiting.delete(fig);
  if (!p.shown) return;
  delete fig.dataset.pending;
  const note = fig.querySelector(':scope > .widget-pending');
  if (note) for (const s of note.firstChild.children) s.textContent = '';
}

/**
 * tracked(bridge, fig) is bridge whose calls count as pending for fig's
 * widget while they run. The page wraps it in the build's recording
 * (prerendered.js replaying), so a call the recording answers never counts.
 */
export function tracked(bridge, fig) {
  return {
    call(module, fn, args) {
      const p = bridge.call(module, fn, args);
      start(fig);
      const done = () => stop(fig);
      p.then(done, done);
      return p;
    },
    load: (name) => bridge.load(name),
    onStatus: (f) => bridge.onStatus(f),
    offStatus: (f) => bridge.offStatus(f),
  };
}
