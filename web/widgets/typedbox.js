// Number boxes that read what a person types with the page's one rule.
//
// Number boxes that read what a person types with the page's one rule
// (number.js, readTyped: a lone comma is a decimal point, fractions and
// simple expressions are understood), for a single number or a list of
// numbers separated by spaces or semicolons (a comma inside a number is its
// decimal point). What was read, and why a value was refused or moved into
// range, is said under the box; the text typed never goes into markup.
import { readTyped } from '../base/number.js';

/**
 * textBox({id, label, value, hint, wide}) is a labelled text box and the line
 * under it that describes it, the hint until say(text) replaces it:
 * {wrap, input, note, say}. The number boxes below and the auditor's
 * expression boxes are built on it.
 */
export function textBox({ id, label, value, hint, wide }) {
  const wrap = document.createElement('div');
  wrap.className = wide ? 'control control-wide' : 'control';
  const l = document.createElement('label');
  l.htmlFor = id;
  l.textContent = label;
  const input = document.createElement('input');
  Object.assign(input, { id, type: 'text', value, spellcheck: false, autocomplete: 'off' });
  input.setAttribute('autocapitalize', 'off');
  const note = document.createElement('span');
  note.className = 'hint';
  note.id = `${id}-note`;
  input.setAttribute('aria-describedby', note.id);
  wrap.append(l, input, note);
  const say = (text) => { note.textContent = text || hint || ''; };
  say('');
  return { wrap, input, note, say };
}

/** box(opts) is a textBox for numbers: a decimal keypad, and a note that is announced. */
function box(opts) {
  const b = textBox(opts);
  b.input.setAttribute('inputmode', 'decimal');
  b.note.setAttribute('role', 'status');
  return b;
}

/** read(text, min, max, int) is {value, note} or {error}: one typed number, rounded if int, kept in [min, max]. */
function read(text, min, max, int) {
  const r = readTyped(text);
  if (!r.ok) return { error: r.message };
  let v = r.value;
  const notes = r.note ? [r.note] : [];
  if (int && !Number.isInteger(v)) {
    v = Math.round(v);
    notes.push(`Read as ${v}, a whole number.`);
  }
  if (v < min || v > max) {
    const c = Math.min(Math.max(v, min), max);
    notes.push(`${r.read} is outside ${min} … ${max}; ${c} is used.`);
    v = c;
  }
  return { value: v, note: notes.join(' ') };
}

/**
 * typedBox({id, label, value, min, max, int, hint, onChange}) is a labelled
 * box for one number: {el, input, set(v)}. onChange(v) receives each valid
 * value after Enter or leaving the box.
 */
export function typedBox({ id, label, value, min, max, int = false, hint = '', onChange }) {
  const { wrap, input, say } = box({ id, label, value: String(value), hint });
  input.addEventListener('change', () => {
    const r = read(input.value, min, max, int);
    if (r.error) {
      input.setAttribute('aria-invalid', 'true');
      say(r.error);
      return;
    }
    input.removeAttribute('aria-invalid');
    say(r.note);
    if (r.note) input.value = String(r.value);
    onChange(r.value);
  });
  return { el: wrap, input, set(v) { input.value = String(v); input.removeAttribute('aria-invalid'); say(''); } };
}

/** listText(xs) writes a list of numbers as the list box shows it. */
export const listText = (xs) => Array.from(xs).join(' ');

/**
 * typedList({id, label, value, min, max, minLen, maxLen, int, hint,
 * onChange}) is a labelled box for a list of numbers separated by spaces or
 * semicolons: {el, input, set(xs)}. onChange(xs) receives each valid list.
 */
export function typedList({ id, label, value, min, max, minLen = 1, maxLen, int = false, hint = 'Numbers separated by spaces.', onChange }) {
  const { wrap, input, say } = box({ id, label, value: listText(value), hint, wide: true });
  input.addEventListener('change', () => {
    const parts = input.value.split(/[\s;]+/).filter(Boolean);
    const fail = (msg) => { input.setAttribute('aria-invalid', 'true'); say(msg); };
    if (parts.length < minLen || parts.length > maxLen) {
      fail(minLen === maxLen ? `Type ${minLen} numbers separated by spaces.` : `Type ${minLen} to ${maxLen} numbers separated by spaces.`);
      return;
    }
    const xs = [];
    const notes = [];
    for (const [i, p] of parts.entries()) {
      const r = read(p, min, max, int);
      if (r.error) { fail(`Number ${i + 1}, “${p}”: ${r.error}`); return; }
      if (r.note) notes.push(`Number ${i + 1}: ${r.note}`);
      xs.push(r.value);
    }
    input.removeAttribute('aria-invalid');
    say(notes.join(' '));
    input.value = listText(xs);
    onChange(xs);
  });
  return { el: wrap, input, set(xs) { input.value = listText(xs); input.removeAttribute('aria-invalid'); say(''); } };
}
