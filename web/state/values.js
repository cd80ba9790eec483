// A widget's values checked against its schema: clamped with a note, written in URL form.
//
// The schema of each widget comes from app/widget (gen/widgets.js); Go's
// widget.Coerce and widget.Keys apply the same rules, and a Go test runs
// this module against them. A link's values arrive through address.js.

import { readLink } from '../base/number.js';

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

/** opening(schema, given) is a widget's opening values: given's (its lesson block's), else its schema's defaults. */
export function opening(schema, given) {
  return Object.fromEntries(Object.entries(schema).map(([key, spec]) => [key, coerce(spec, given[key], key, [])]));
}
