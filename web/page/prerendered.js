// A widget's opening state from the build: its recorded engine calls and its drawing's hand-over.
//
// A widget's opening state, computed at build time. The site build
// (scripts/prerender.mjs, run by `dpplay site -prerender`) mounts each widget
// under Node with the same modules and the same core.wasm the page runs, and
// keeps every bridge call the mount made with its result, in a
// <script type="application/json" class="widget-calls"> inside the figure.
// The page answers those calls from the recording (replaying), so a widget
// mounts and paints its real charts before the engine has started; any other
// call waits for the engine as usual. Results are the engine's own, so the
// page paints what the engine would, number for number.

/**
 * pack(v) turns a bridge value (args or result: plain objects, arrays,
 * numbers, strings, booleans, typed arrays) into JSON-able form; typed arrays
 * become {$t: constructor name, v: [numbers]}. JSON keeps every double
 * exactly (shortest round-trip form).
 */
export function pack(v) {
  if (ArrayBuffer.isView(v)) return { $t: v.constructor.name, v: Array.from(v) };
  if (Array.isArray(v)) return v.map(pack);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = pack(x);
    return o;
  }
  return v;
}

const typed = { Float64Array, Float32Array, Int32Array, Uint32Array, Uint8Array, Int8Array, Uint16Array, Int16Array };

/** unpack(v) is pack's inverse: it builds fresh typed arrays each time. */
export function unpack(v) {
  if (Array.isArray(v)) return v.map(unpack);
  if (v && typeof v === 'object') {
    if (typeof v.$t === 'string' && Array.isArray(v.v) && typed[v.$t]) return typed[v.$t].from(v.v);
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = unpack(x);
    return o;
  }
  return v;
}

/** callKey(module, fn, args) names one bridge call: equal keys, equal results. */
export const callKey = (module, fn, args) => `${module}.${fn} ${JSON.stringify(pack(args ?? null))}`;

/** recorded(fig) is the script element holding a figure's recorded calls, or null: the build pre-rendered it. */
export const recorded = (fig) => fig.querySelector(':scope > script.widget-calls');

/** recording(fig) reads a figure's recorded calls as a Map key → packed result, or null. */
export function recording(fig) {
  const el = recorded(fig);
  if (!el) return null;
  try {
    return new Map(JSON.parse(el.textContent));
  } catch {
    return null;
  }
}

/**
 * replaying(bridge, calls) is bridge whose call() answers a recorded call at
 * once (from calls, a Map from recording) and passes every other call on.
 */
export function replaying(bridge, calls) {
  if (!calls || !calls.size) return bridge;
  return {
    call(module, fn, args) {
      const hit = calls.get(callKey(module, fn, args));
      return hit === undefined ? bridge.call(module, fn, args) : Promise.resolve(unpack(hit));
    },
    load: (name) => bridge.load(name),
    onStatus: (f) => bridge.onStatus(f),
    offStatus: (f) => bridge.offStatus(f),
  };
}

// A pre-rendered widget's controls are real controls, in the accessibility
// tree and the tab order from the first paint; the page mounts the widget
// as soon as one is focused or used (web/lesson/lazymount.js), and the live widget
// takes over what the reader did to the drawing meanwhile.

const CONTROLS = 'button, input, select, textarea, summary, details, a[href], [tabindex]';

/**
 * signature(el) names a control the same way in the build's drawing and in
 * the live widget: its tag and type and its id without the mount's counters
 * (meet-eps-3-box → meet-eps-box), else its radio group and value, else its
 * text.
 */
function signature(el) {
  const id = el.id ? el.id.replace(/-\d+(?=-|$)/g, '') : '';
  const name = el.name ? `${el.name.replace(/-\d+(?=-|$)/g, '')}=${el.value}` : '';
  const text = id || name ? '' : (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 80);
  return `${el.localName}:${el.type || ''}:${id}:${name}:${text}`;
}

/** controls(nodes) is a Map from each control's signature, numbered by occurrence (sig#n), to the control. */
function controls(nodes) {
  const out = new Map();
  const seen = new Map();
  for (const n of nodes) {
    if (n.nodeType !== 1) continue;
    for (const el of [n, ...n.querySelectorAll(CONTROLS)]) {
      if (!el.matches(CONTROLS)) continue;
      const s = signature(el);
      const k = (seen.get(s) || 0) + 1;
      seen.set(s, k);
      out.set(`${s}#${k}`, el);
    }
  }
  return out;
}

/** changed(el) says whether the reader changed a control's value from the markup's. */
function changed(el) {
  if (el.localName === 'details') return el.open !== el.hasAttribute('open');
  if (el.localName === 'select') return [...el.options].some((o) => o.selected !== o.defaultSelected);
  if (el.type === 'checkbox' || el.type === 'radio') return el.checked !== el.defaultChecked;
  if (el.type === 'file') return el.files?.length > 0;
  if ('value' in el && 'defaultValue' in el) return el.value !== el.defaultValue;
  return false;
}

/**
 * handOver(drawing, live, focused, clicks) gives the live widget's part in
 * the element live what the reader did to its pre-rendered drawing (drawing:
 * the drawing's nodes, now detached): each value they changed (a slider moved, a choice made, a
 * table opened) is set on the live control with the events the widget
 * listens to, each button they pressed (clicks, in order) is pressed again,
 * and focus, if it was in the drawing (focused), goes to the live control.
 */
export function handOver(drawing, live, focused, clicks = []) {
  const old = controls(drawing);
  const now = controls([live]);
  const twin = new Map();
  for (const [k, el] of old) if (now.has(k)) twin.set(el, now.get(k));
  for (const [el, to] of twin) {
    if (!changed(el)) continue;
    if (el.localName === 'details') { to.open = el.open; continue; }
    if (el.type === 'checkbox' || el.type === 'radio') {
      if (to.checked !== el.checked) to.click();
      continue;
    }
    if (el.type === 'file') to.files = el.files;
    else if (el.localName === 'select') to.value = el.value;
    else to.value = el.value;
    to.dispatchEvent(new Event('input', { bubbles: true }));
    to.dispatchEvent(new Event('change', { bubbles: true }));
  }
  for (const b of clicks) twin.get(b)?.click();
  if (!focused) return;
  let to = twin.get(focused);
  if (!to) {
    to = live.closest('figure');
    if (!to.hasAttribute('tabindex')) to.tabIndex = -1;
  }
  to.focus({ preventScroll: true });
}
