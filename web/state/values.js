// A page's address: the lesson's page, slug/ below the site's root, with the
// state of its widgets in the fragment, so a link reproduces the exact view:
// slug/#widget.key=value&…  A fragment without "=" names an element (a
// heading) instead. Values are validated against each widget's schema;
// anything out of range is clamped (or replaced by the default) and a
// visible note says what was changed. Nothing in an address can crash the
// page. Links of the site's first form, #/slug?widget.key=value…, go to the
// same state at the page's address (oldLink; index.html's head does it on
// load). internal/site/address.go writes and reads the same form in Go.

import { readLink } from './number.js';

// A hash longer than this is cut (at the last "&" before the limit) with a
// note: no lesson link comes near it, and it bounds the work one link can ask for.
export const MAX_HASH = 16000;
const MAX_PARAMS = 200;
const MAX_NOTES = 8;

/** decode is decodeURIComponent that returns null instead of throwing. */
function decode(s) {
  try { return decodeURIComponent(s); } catch { return null; }
}

/** quote shows a piece of a link in a note: short, and never mistaken for markup (notes are text). */
const quote = (s) => `“${s.length > 40 ? s.slice(0, 40) + '…' : s}”`;

/** pageAddress(slug, hash) is the address of page slug ('' for the root) with fragment hash ('#…' or ''), relative to the site's root. */
export const pageAddress = (slug, hash = '') => (slug ? `${slug}/` : './') + hash;

/**
 * pageSlug(url, root) is the slug of the page url names below the site's root
 * (a URL), '' for the root itself, or null when url is not a page's address.
 */
export function pageSlug(url, root) {
  const u = new URL(url);
  if (u.origin !== root.origin || !u.pathname.startsWith(root.pathname)) return null;
  const rest = u.pathname.slice(root.pathname.length).replace(/(^|\/)index\.html$/, '$1');
  if (rest === '') return '';
  const m = /^([a-z0-9]+(?:-[a-z0-9]+)*)\/$/.exec(rest);
  return m ? m[1] : null;
}

/**
 * oldLink(hash) reads a link of the site's first form, #/slug?state: it
 * returns {slug, hash, notes}, the page's slug ('' for the root, #/) and the
 * fragment of its address ('#state' or ''), or null for any other fragment.
 * A slug it cannot read is '' with a note.
 */
export function oldLink(hash) {
  const h = String(hash ?? '');
  if (!h.startsWith('#/')) return null;
  const q = h.indexOf('?');
  let slug = (q < 0 ? h.slice(2) : h.slice(2, q)).replace(/\/+$/, '');
  const notes = [];
  if (!/^[a-z0-9-]{0,80}$/.test(slug)) {
    notes.push(`The lesson name ${quote(decode(slug) ?? slug)} in the link cannot be read, so the first lesson is shown.`);
    slug = '';
  }
  return { slug, hash: q < 0 || q === h.length - 1 ? '' : `#${h.slice(q + 1)}`, notes };
}

/**
 * parseState(hash) → {params: Map<string,string>, notes: [string], section}:
 * the widget state a page's fragment holds (#id.key=value&…), or in section
 * the id of the element it names (a fragment without "="). It never throws.
 * Whatever it cannot read (a malformed percent-escape in a name or a value,
 * more than MAX_PARAMS settings, a fragment longer than MAX_HASH) is dropped
 * and described in notes, which the page shows above the lesson together with
 * coerce's clamping notes.
 */
export function parseState(hash) {
  const notes = [];
  const note = (text) => {
    if (notes.length < MAX_NOTES) notes.push(text);
    else if (notes.length === MAX_NOTES) notes.push('More of the link could not be read; those parts were ignored too.');
  };
  let h = String(hash ?? '').replace(/^#/, '');
  const params = new Map();
  if (h && !h.includes('=') && !h.includes('&')) return { params, notes, section: decode(h) ?? '' };
  if (h.length > MAX_HASH) {
    const cut = h.lastIndexOf('&', MAX_HASH);
    note(`The link is ${h.length.toLocaleString('en-US')} characters long; only its first ${MAX_HASH.toLocaleString('en-US')} were read.`);
    h = h.slice(0, cut > 0 ? cut : MAX_HASH);
  }
  let dropped = 0;
  for (const part of h.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const k = decode(rawKey);
    if (k === null) {
      note(`The setting name ${quote(rawKey)} in the link is not validly encoded, so it was ignored.`);
      continue;
    }
    const v = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (v === null) {
      note(`The value of ${quote(k)} in the link is not validly encoded, so it was ignored and the usual value is used.`);
      continue;
    }
    if (params.size < MAX_PARAMS || params.has(k)) params.set(k, v);
    else dropped++;
  }
  if (dropped) note(`The link has more than ${MAX_PARAMS} settings; the last ${dropped} were ignored.`);
  return { params, notes, section: '' };
}

/** formatState(params) is the inverse of parseState: '#id.key=value&…', or '' for no settings. */
export function formatState(params) {
  const q = [];
  for (const [k, v] of params) q.push(`${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%2C/g, ',').replace(/%7C/g, '|')}`);
  return q.length ? `#${q.join('&')}` : '';
}

const shown = (v) => (typeof v === 'number' ? String(+v.toPrecision(6)) : `"${String(v).slice(0, 40)}"`);

/**
 * round(spec, v) is v to the significant digits the URL keeps (spec.digits,
 * app/widget's Param.URLDigits: a number's, or each list entry's): what the
 * page holds of a value it reads is what a link written from it says.
 */
const round = (spec, v) => (spec.digits ? +v.toPrecision(spec.digits) : v);

/**
 * coerce(spec, raw, name, notes) turns a URL or lesson value into a valid
 * value of the schema entry spec, pushing a note when it had to change it
 * (rounding an int to a whole number, or a number to spec.digits, included).
 * Numbers follow the link grammar (number.js, readLink: decimal only).
 * Kinds: number {min, max, digits}, int {min, max, digits}, enum {values},
 * list {min, max, minLength, maxLength, digits} (comma-separated numbers),
 * text {maxLength, pattern}.
 */
export function coerce(spec, raw, name, notes) {
  const label = spec.label || name;
  if (raw === undefined || raw === null) return spec.default;
  raw = String(raw).replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (raw === '') return spec.default;
  switch (spec.type) {
    case 'number':
    case 'int': {
      let v = readLink(raw);
      if (v === null) {
        notes.push(`${label}: ${shown(String(raw))} is not a number, so the default ${shown(spec.default)} is used.`);
        return spec.default;
      }
      if (spec.type === 'int' && !Number.isInteger(v)) {
        notes.push(`${label} = ${String(v)} must be a whole number, so ${String(Math.round(v))} is used.`);
        v = Math.round(v);
      }
      if (v < spec.min || v > spec.max) {
        const c = Math.min(Math.max(v, spec.min), spec.max);
        notes.push(`${label} = ${shown(v)} is outside ${shown(spec.min)} … ${shown(spec.max)}, so ${shown(c)} is used.`);
        v = c;
      }
      const r = round(spec, v);
      if (r !== v) notes.push(`${label} = ${String(v)} is kept to ${spec.digits} significant digits, so ${String(r)} is used.`);
      return r;
    }
    case 'enum':
      if (spec.values.includes(String(raw))) return String(raw);
      notes.push(`${label}: ${shown(String(raw))} is not one of ${spec.values.join(', ')}, so ${shown(spec.default)} is used.`);
      return spec.default;
    case 'list': {
      const parts = String(raw).split(',').slice(0, (spec.maxLength || 100) + 1);
      const xs = parts.map(readLink);
      if (parts.length > (spec.maxLength || 100) || parts.length < (spec.minLength || 1) || xs.some((v) => v === null)) {
        notes.push(`${label}: the list was not ${spec.minLength || 1}–${spec.maxLength || 100} numbers, so the default is used.`);
        return spec.default;
      }
      let clamped = false;
      let rounded = false;
      const out = xs.map((v) => {
        const c = Math.min(Math.max(v, spec.min), spec.max);
        if (c !== v) clamped = true;
        const r = round(spec, c);
        if (r !== c) rounded = true;
        return r;
      });
      if (clamped) notes.push(`${label}: values outside ${shown(spec.min)} … ${shown(spec.max)} were clamped.`);
      if (rounded) notes.push(`${label}: values were kept to ${spec.digits} significant digits.`);
      return out;
    }
    case 'text': {
      const s = String(raw).slice(0, spec.maxLength || 200);
      if (spec.pattern && !spec.pattern.test(s)) {
        notes.push(`${label}: ${shown(s)} is not valid here, so the default is used.`);
        return spec.default;
      }
      return s;
    }
  }
  return spec.default;
}

/**
 * FIXING names the settings a link may add beside a widget's schema keys:
 * hide (controls not shown) and lock (controls shown but fixed), each a
 * comma-separated list of schema keys (w.hide=eps,seed, w.lock=eps). No
 * schema may use these names (app/widget checks it).
 */
export const FIXING = ['hide', 'lock'];

// At most this many names of a hide or lock list are read; no widget has as many keys.
const MAX_KEYS = 64;

/**
 * readKeys(schema, raw, label, notes) is the list of schema keys that raw,
 * the value of a hide or lock setting, names: comma-separated, each trimmed of
 * spaces, tabs and line breaks, empty names skipped, each key once, in the
 * order given, at most MAX_KEYS names read. A name that is not a key of
 * schema is left out with one note for all of them, starting with label.
 * app/widget's Keys reads the same way.
 */
export function readKeys(schema, raw, label, notes) {
  const keys = [];
  const unknown = [];
  for (const part of String(raw ?? '').split(',').slice(0, MAX_KEYS)) {
    const k = part.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
    if (!k) continue;
    if (!Object.hasOwn(schema, k)) {
      if (!unknown.includes(k)) unknown.push(k);
    } else if (!keys.includes(k)) keys.push(k);
  }
  if (unknown.length) {
    const names = unknown.slice(0, 3).map((k) => shown(k)).join(', ') + (unknown.length > 3 ? ` and ${unknown.length - 3} more` : '');
    notes.push(`${label}: ${names} ${unknown.length === 1 ? 'is not a setting' : 'are not settings'} of this widget, so ${unknown.length === 1 ? 'it was' : 'they were'} ignored.`);
  }
  return keys;
}

/** encode(spec, value) is the URL form of a value. */
export function encode(spec, value) {
  if (value === null || value === undefined) return null;
  if (spec.type === 'list') return value.map((v) => String(round(spec, v))).join(',');
  if (typeof value === 'number') return String(round(spec, value));
  return String(value);
}
