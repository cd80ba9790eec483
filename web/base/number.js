// Reading numbers from outside the page: a link's values and what a person types.
//
// The two rules for reading numbers that come from outside the page:
// readLink, the grammar of a number in a link, and readTyped, the rule for a
// number a person types. Go's app/number is the same two rules (its doc
// comments are the reference); a Go test runs both on the same random
// strings and requires the same answers.

const LINK = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * readLink(s) is the number a link's value s holds, or null: an optional
 * sign, decimal digits with at most one point and an optional exponent, after
 * trimming ASCII spaces, tabs and line breaks. Hexadecimal, underscores,
 * Infinity and values too large for a double are not numbers in a link.
 */
export function readLink(s) {
  const t = String(s ?? '').replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
  if (!LINK.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

export const MSG_EMPTY = 'Type a number.';
export const MSG_UNREADABLE = 'Not a number I can read.';
export const MSG_INFINITE = 'That has no finite value.';
const NOTE_COMMA = 'A comma is read as a decimal point.';
const NOTE_GROUPING = 'The comma groups thousands.';
const NOTE_DOT_GROUP = 'The point groups thousands and the comma is a decimal point.';
const NOTE_LOG = 'log is read as ln, the natural logarithm.';
export const MAX_TYPED = 200;
const MAX_DEPTH = 32;

const SPACES = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u00a0', '\u2007', '\u2009', '\u202f']);
const isSpace = (c) => SPACES.has(c);
const isDigit = (c) => c >= '0' && c <= '9' && c.length === 1;
const isLetter = (c) => c !== undefined && c.length === 1 && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));

/** shown10 is the value as read: +v.toPrecision(10), written as String writes it. */
const shown10 = (v) => String(+v.toPrecision(10));

/**
 * readTyped(text) reads a number as a person types it: {ok: true, value,
 * read, note}, where read is the value to show before it is used and note
 * says how the text was read where that is not literal (or is ''), or
 * {ok: false, message}. A lone comma is a decimal point ("0,3" is 0.3);
 * fractions, percentages, e, π, exp, ln and sqrt are understood (Go's
 * number.Typed gives the whole rule).
 */
export function readTyped(text) {
  const chars = [...String(text ?? '')];
  let a = 0;
  let b = chars.length;
  while (a < b && isSpace(chars[a])) a++;
  while (b > a && isSpace(chars[b - 1])) b--;
  const src = chars.slice(a, b);
  if (src.length === 0) return { ok: false, message: MSG_EMPTY };
  if (src.length > MAX_TYPED) return { ok: false, message: MSG_UNREADABLE };
  const p = new Parser(src);
  let r = p.expr();
  p.skipSpace();
  if (!r.ok || p.pos !== src.length) return { ok: false, message: p.infinite ? MSG_INFINITE : MSG_UNREADABLE };
  if (!Number.isFinite(r.v) || !Number.isFinite(+r.v.toPrecision(10))) return { ok: false, message: MSG_INFINITE };
  const value = r.v + 0;
  return { ok: true, value, read: shown10(value), note: p.notes.join(' ') };
}

const FAIL = { v: 0, ok: false };
const ok = (v) => ({ v, ok: true });

class Parser {
  constructor(src) {
    this.src = src;
    this.pos = 0;
    this.depth = 0;
    this.notes = [];
    this.infinite = false;
  }

  skipSpace() {
    while (this.pos < this.src.length && isSpace(this.src[this.pos])) this.pos++;
  }

  peek() {
    this.skipSpace();
    return this.pos < this.src.length ? this.src[this.pos] : '';
  }

  at(s) {
    const rs = [...s];
    if (this.pos + rs.length > this.src.length) return false;
    return rs.every((r, i) => this.src[this.pos + i] === r);
  }

  note(n) {
    if (!this.notes.includes(n)) this.notes.push(n);
  }

  finite(v) {
    if (!Number.isFinite(v)) {
      this.infinite = true;
      return { v, ok: false };
    }
    return ok(v);
  }

  nested(f) {
    if (this.depth >= MAX_DEPTH) return FAIL;
    this.depth++;
    const r = f.call(this);
    this.depth--;
    return r;
  }

  expr() {
    let r = this.term();
    while (r.ok) {
      const c = this.peek();
      if (c === '+') {
        this.pos++;
        const w = this.term();
        r = w.ok ? this.finite(r.v + w.v) : w;
      } else if (c === '-' || c === '−' || c === '–') {
        this.pos++;
        const w = this.term();
        r = w.ok ? this.finite(r.v - w.v) : w;
      } else return r;
    }
    return { v: r.v, ok: false };
  }

  term() {
    let r = this.unary();
    while (r.ok) {
      const c = this.peek();
      let w;
      if ((c === '*' && !this.at('**')) || c === '×' || c === '·' || c === '⋅') {
        this.pos++;
        w = this.unary();
        r = w.ok ? this.finite(r.v * w.v) : w;
      } else if (c === '/' || c === '÷') {
        this.pos++;
        w = this.unary();
        r = w.ok ? this.finite(r.v / w.v) : w;
      } else if (c === '(' || c === 'π' || c === '√' || isLetter(c)) {
        w = this.power();
        r = w.ok ? this.finite(r.v * w.v) : w;
      } else return r;
    }
    return { v: r.v, ok: false };
  }

  unary() {
    const c = this.peek();
    if (c === '+') {
      this.pos++;
      return this.nested(this.unary);
    }
    if (c === '-' || c === '−' || c === '–') {
      this.pos++;
      const r = this.nested(this.unary);
      return { v: -r.v, ok: r.ok };
    }
    return this.power();
  }

  power() {
    const r = this.postfix();
    if (!r.ok) return r;
    if (this.peek() === '^') this.pos++;
    else if (this.at('**')) this.pos += 2;
    else return r;
    const w = this.nested(this.unary);
    if (!w.ok) return FAIL;
    return this.finite(Math.pow(r.v, w.v));
  }

  postfix() {
    const r = this.primary();
    if (r.ok && this.peek() === '%') {
      this.pos++;
      return ok(r.v / 100);
    }
    return r;
  }

  primary() {
    const c = this.peek();
    if (c === '(') {
      this.pos++;
      const r = this.nested(this.expr);
      if (!r.ok || this.peek() !== ')') return FAIL;
      this.pos++;
      return r;
    }
    if (isDigit(c) || c === '.' || c === ',') return this.number();
    if (c === 'π') {
      this.pos++;
      return ok(Math.PI);
    }
    if (c === '√') {
      this.pos++;
      return this.apply(Math.sqrt);
    }
    if (isLetter(c)) {
      const start = this.pos;
      while (this.pos < this.src.length && isLetter(this.src[this.pos])) this.pos++;
      switch (this.src.slice(start, this.pos).join('').toLowerCase()) {
        case 'e': return ok(Math.E);
        case 'pi': return ok(Math.PI);
        case 'exp': return this.apply(Math.exp);
        case 'ln': return this.apply(Math.log);
        case 'log':
          this.note(NOTE_LOG);
          return this.apply(Math.log);
        case 'sqrt': return this.apply(Math.sqrt);
      }
    }
    return FAIL;
  }

  apply(f) {
    const r = this.peek() === '(' ? this.nested(this.primary) : this.nested(this.unary);
    if (!r.ok) return FAIL;
    return this.finite(f(r.v));
  }

  number() {
    const src = this.src;
    const start = this.pos;
    while (this.pos < src.length && (isDigit(src[this.pos]) || src[this.pos] === '.' || src[this.pos] === ',')) this.pos++;
    const mant = src.slice(start, this.pos).join('');
    let exp = '';
    if (this.pos < src.length && (src[this.pos] === 'e' || src[this.pos] === 'E')) {
      let i = this.pos + 1;
      if (i < src.length && (src[i] === '+' || src[i] === '-' || src[i] === '−')) i++;
      const j = i;
      while (i < src.length && isDigit(src[i])) i++;
      if (i > j) {
        exp = 'e' + src.slice(this.pos + 1, i).join('').replace('−', '-');
        this.pos = i;
      }
    }
    const dec = this.separators(mant);
    if (dec === null) return FAIL;
    const v = Number(dec + exp);
    if (!Number.isFinite(v)) {
      this.infinite = true;
      return FAIL;
    }
    return ok(v);
  }

  separators(m) {
    const count = (ch) => m.split(ch).length - 1;
    const commas = count(',');
    const points = count('.');
    const cut = (s, sep) => {
      const i = s.indexOf(sep);
      return i < 0 ? [s, '', false] : [s.slice(0, i), s.slice(i + 1), true];
    };
    let whole;
    let frac;
    let hasFrac;
    if (commas === 0 && points <= 1) {
      [whole, frac, hasFrac] = cut(m, '.');
    } else if (commas === 1 && points === 0) {
      [whole, frac, hasFrac] = cut(m, ',');
      this.note(NOTE_COMMA);
    } else if (commas >= 2 && points === 0) {
      if (!grouped(m, ',')) return null;
      [whole, frac, hasFrac] = [m, '', false];
      this.note(NOTE_GROUPING);
    } else if (commas >= 1 && points === 1 && m.lastIndexOf(',') < m.indexOf('.')) {
      [whole, frac, hasFrac] = cut(m, '.');
      if (!grouped(whole, ',')) return null;
      this.note(NOTE_GROUPING);
    } else if (commas === 1 && points >= 1 && m.lastIndexOf('.') < m.indexOf(',')) {
      [whole, frac, hasFrac] = cut(m, ',');
      if (!grouped(whole, '.')) return null;
      this.note(NOTE_DOT_GROUP);
    } else return null;
    whole = whole.replace(/[.,]/g, '');
    if (whole === '' && frac === '') return null;
    if (whole === '') whole = '0';
    if (!hasFrac || frac === '') return whole;
    return whole + '.' + frac;
  }
}

/** grouped(s, sep): digits in groups separated by sep, the first of 1–3 digits, the others of 3. */
function grouped(s, sep) {
  const groups = s.split(sep);
  if (groups.length < 2 || groups[0].length < 1 || groups[0].length > 3) return false;
  return groups.slice(1).every((g) => g.length === 3);
}

export const MAX_DECIMALS = 5;

/**
 * givesAnswer(x, target, decimals) says whether x, a number a person typed,
 * gives the answer target at the precision an exercise asks for: rounded
 * half up to the same number at 1 to MAX_DECIMALS decimals
 * (⌊v·10^decimals + 1/2⌋), or equal to target (within a relative 10⁻⁹) for
 * decimals 0, a whole number or an exact value. Target itself always gives
 * it. Go's number.Gives is the same rule.
 */
export function givesAnswer(x, target, decimals) {
  if (Math.abs(x - target) <= 1e-9 * Math.max(1, Math.abs(target))) return true;
  if (!Number.isInteger(decimals) || decimals < 1 || decimals > MAX_DECIMALS) return false;
  const s = 10 ** decimals;
  return Math.floor(x * s + 0.5) === Math.floor(target * s + 0.5);
}
