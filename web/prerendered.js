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
