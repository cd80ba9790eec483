// A page's address: the page at slug/ and its widgets' state in the fragment.
//
// The lesson's page is slug/ below the site's root, and the state of its
// widgets is in the fragment, so a link reproduces the exact view:
// slug/#widget.key=value&…  A fragment without "=" names an element (a
// heading) instead. The values a fragment holds are checked against each
// widget's schema by values.js, which clamps what is out of range with a
// visible note. Nothing in an address can crash the page. Links of the
// site's first form, #/slug?widget.key=value…, go to the same state at the
// page's address (oldLink; index.html's head does it on load).
// internal/site/address.go writes and reads the same form in Go.

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
