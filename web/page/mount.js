// Mounting one widget: its values, its ctx and its mount(ctx).
//
// Mounting one widget: its values (lesson block, then URL, validated against
// its schema), its ctx, and its mount(ctx). The page (web/lesson/lazymount.js) and
// the build's pre-render (scripts/prerender.mjs, under Node) both mount
// through here, so the HTML the build writes is what the page draws.
//
// A widget is an ES module web/widgets/NAME.js that exports
//   schema: {key: {type, min, max, default, label, …}}   (see state/values.js: coerce)
//   mount(ctx) → controller {draw(), reset(), step(±1)} (all optional)
//   checks: {name({value, params, bridge}) → {ok, message}} (optional, for ```exercise check: NAME.name)
// ctx.title is the widget's title from the lesson; use it in chart names so
// two widgets of one kind on a page stay distinguishable to screen readers.
// ctx gives the widget its validated values (ctx.values; its schema,
// ctx.schema, and its lesson block's, ctx.params), ctx.set(key, value)
// to change one (the URL follows), ctx.bridge.call(module, fn, args) to run Go
// core functions in the worker, ctx.body to render into, ctx.uid(name) for
// unique ids, ctx.announce(text) for screen readers, and ctx.note(text) to
// say what of the link it could not show as asked (web/page/urlnotes.js).
// A link may also hide or lock some of a widget's controls (id.hide=eps,
// id.lock=seed; state/values.js FIXING): ctx.fixed says which, fixing.js applies it
// once the widget is built, and ctx.set refuses to change a locked key.
import { coerce, encode, readKeys, opening, FIXING } from '../state/values.js';
import { fixControls } from './fixing.js';

const NUMBER = /[−-]?\d[\d,]*(?:\.\d+)?%?/g;

/**
 * changes(before, now) is the widget's new status sentence now, saying what
 * changed: when before (the last one, with its notes) has the same words,
 * each number that differs is followed by "(was …)": "Privacy loss 1.2 (was
 * 0.9279) against ε = 5 (was 1)."
 */
export function changes(before, now) {
  const old = before.replace(/ \(was [^)]*\)/g, '');
  const words = (s) => s.replace(NUMBER, '#');
  if (!old || words(old) !== words(now)) return now;
  const was = old.match(NUMBER);
  let i = 0;
  return now.replace(NUMBER, (m) => {
    const o = was[i++];
    return o === m ? m : `${m} (was ${o})`;
  });
}

/** lessonParams(fig) is the parameters the lesson's widget block gives figure fig. */
const lessonParams = (fig) => JSON.parse(fig.dataset.params || '{}');

/**
 * linkChanges(fig, schema, params) says whether the link (params, the URL's
 * Map "id.key" → raw value) sets any of the widget's values to other than its
 * opening one, or says of it what the page must correct or drop with a note
 * (an unknown key, a value out of range or not in the URL's own form): such a
 * widget is not what its pre-rendered drawing shows.
 */
export function linkChanges(fig, schema, params) {
  const base = opening(schema, lessonParams(fig));
  const prefix = `${fig.dataset.id}.`;
  for (const [k, raw] of params) {
    if (!k.startsWith(prefix)) continue;
    const key = k.slice(prefix.length);
    const spec = schema[key];
    if (!spec) return true;
    const refused = [];
    const v = encode(spec, coerce({ ...spec, default: base[key] }, raw, key, refused));
    if (refused.length || v !== raw || v !== encode(spec, base[key])) return true;
  }
  return false;
}

/**
 * readFixing(id, schema, params, label, notes) is {hide, lock}: the schema
 * keys the link (params, the URL's Map "id.key" → raw value) hides and locks
 * for widget id. A name that is not one of its keys, there or as a setting
 * of its own (id.foo=1), gets a note starting with label.
 */
export function readFixing(id, schema, params, label, notes) {
  const fixed = { hide: [], lock: [] };
  const prefix = `${id}.`;
  for (const [k, raw] of params) {
    if (!k.startsWith(prefix)) continue;
    const key = k.slice(prefix.length);
    if (FIXING.includes(key)) fixed[key] = readKeys(schema, raw, `${label} (${k})`, notes);
    else if (!Object.hasOwn(schema, key)) notes.push(`${label}: the link’s “${key.slice(0, 40)}” is not a setting of this widget, so it was ignored.`);
  }
  return fixed;
}

/**
 * mountWidget(fig, mod, opts) mounts widget module mod into figure fig and
 * returns {id, name, fig, schema, values, fixed, controller}. opts: params (the
 * URL's Map "id.key" → raw value), notes (where clamping notes go), bridge,
 * uid(name) → a unique id, onSet() (a value changed: the URL should follow).
 */
export async function mountWidget(fig, mod, { params, notes, bridge, uid, onSet }) {
  const name = fig.dataset.widget;
  const id = fig.dataset.id;
  const body = fig.querySelector('.widget-body');
  const given = lessonParams(fig);
  const schema = mod.schema || {};
  const values = opening(schema, given);
  const title = fig.querySelector('.widget-title')?.textContent || name;
  for (const [key, spec] of Object.entries(schema)) {
    const raw = params.get(`${id}.${key}`);
    const label = `${title}: ${spec.label || key}`;
    if (raw !== undefined) values[key] = coerce({ ...spec, default: values[key], label }, raw, label, notes);
  }
  const fixed = readFixing(id, schema, params, title, notes);
  const locked = new Set([...fixed.lock, ...fixed.hide]);
  const live = document.createElement('p');
  live.className = 'visually-hidden';
  live.setAttribute('role', 'status');
  fig.append(live);
  const w = { id, name, fig, schema, values, fixed, controller: null };
  const ctx = {
    id, fig, body, values, schema, bridge, params: given, fixed,
    title,
    // What is in memory is what the URL says: a valid value is stored as a
    // reload of the URL written from it would read it (encoded, then
    // coerced, so rounded to the schema's digits). A value the schema
    // refuses (a typed expression that does not parse) is kept as typed, so
    // the widget can say what is wrong with it.
    set(key, value) {
      // A key the link fixed keeps its value, whatever asks to change it.
      if (locked.has(key)) return values[key];
      const spec = schema[key];
      const refused = [];
      const read = spec ? coerce(spec, encode(spec, value) ?? '', key, refused) : value;
      values[key] = refused.length ? value : read;
      onSet();
      return values[key];
    },
    uid: (s) => `${id}-${s}-${uid()}`,
    // A change the widget had to make to what the link asked, beyond the
    // schema's own rule, said with the page's other notes.
    note(text) { notes.push(text); },
    announce(text) { live.textContent = changes(live.textContent, text); },
  };
  // The build's drawing of the opening state (scripts/prerender.mjs) gives
  // way to the live widget, which draws the same in the same frame.
  body.replaceChildren();
  delete body.dataset.prerendered;
  body.setAttribute('aria-busy', 'true');
  try {
    w.controller = (await mod.mount(ctx)) || {};
  } catch (err) {
    body.textContent = `This widget failed to start: ${err.message}`;
    w.controller = {};
  }
  fixControls(fig, fixed);
  body.removeAttribute('aria-busy');
  return w;
}
