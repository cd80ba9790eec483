// What the live lecture's three views share: the API client, DOM, numbers and charts.
//
// What the live lecture's three views share (docs/lecture.md): the API
// client, the DOM builder (base/dom.js's el, which the views import from
// here), the reading of typed numbers, and the drawing of a release. Everything from the API or the URL is untrusted
// (docs/security.md): the DOM is built with el() and textContent, numbers
// are checked to be finite before they are shown, and no API string
// becomes markup.
import { qrElement } from '../base/qr.js';
import { readTyped } from '../base/number.js';
import { niceStep } from '../base/format.js';
import { el, svgEl as svg } from '../base/dom.js';

export { el };

/** DEFAULT_API: the lecture back end when no ?api= is set; '' means `api/` beside this page (dpplay serve). */
export const DEFAULT_API = '';
export const POLL_MS = 1500;

export const params = new URLSearchParams(location.search);
export const main = document.getElementById('main');
const status = document.getElementById('lecture-status');

export const show = (parent, ...children) => parent.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
export const say = (t) => { status.textContent = t; };

/**
 * said(attr) is the line beside a control that says what pressing it did:
 * a live region (role=status) from first paint, so assistive technology
 * announces each result where the eye looks for it. tell(box, t, bad)
 * writes t there, marked as a refusal when bad; the same words written
 * twice are announced twice.
 */
export const said = (attr) => el('p', { class: 'lec-said', role: 'status', [attr]: true });
export function tell(box, t, bad = false) {
  box.classList.toggle('bad', bad);
  if (box.textContent === t && t) {
    box.textContent = '';
    requestAnimationFrame(() => { box.textContent = t; });
  } else box.textContent = t;
}

/** epsilonUnits(v) is ε = v in the server's unit, millionths, rounded: two values equal there are one ε. */
export const epsilonUnits = (v) => Math.round(v * 1e6);

/**
 * EPSILON_RULE is what a release's ε must be, as the server counts it
 * (lecture.Units, MaxEpsilon): more than 0, at most 10, in whole
 * millionths. epsilonProblem(v) is that rule when v breaks it, else ''.
 */
export const EPSILON_RULE = 'ε must be more than 0 and at most 10, in steps of 0.000001.';
export function epsilonProblem(v) {
  const u = epsilonUnits(v);
  return v > 0 && v <= 10 && u >= 1 && Math.abs(v * 1e6 - u) <= 1e-6 ? '' : EPSILON_RULE;
}

/**
 * refusal(err) says in the page's words why the server did not do what was
 * asked, from the status of its reply (err.status); the server's own
 * message, written for the API's users, is never shown.
 */
export function refusal(err) {
  const st = err && err.status;
  if (!st) return 'The server did not answer: check the connection and try again.';
  if (st === 401 || st === 403) return 'The server does not accept this device’s key to the session.';
  if (st === 404) return 'The server no longer holds this session.';
  if (st === 429) return 'The server is busy: try again in a few seconds.';
  if (st >= 500) return 'The server had a problem: try again.';
  return 'The server could not use what was sent.';
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * once(buttons, run) is run guarded against a second start while one is in
 * flight (a double click, Enter pressed again): a call meanwhile does
 * nothing, and the buttons say they are busy by aria-disabled, which keeps
 * the focus where it is (disabled would drop it to the page).
 */
export function once(buttons, run) {
  let busy = false;
  return async (...args) => {
    if (busy) return undefined;
    busy = true;
    for (const b of buttons) b.setAttribute('aria-disabled', 'true');
    try {
      return await run(...args);
    } finally {
      busy = false;
      for (const b of buttons) b.removeAttribute('aria-disabled');
    }
  };
}

/** requestID() is a fresh id for one release the instructor means to make: 128 random bits in hexadecimal (lecture.RequestID). */
export const requestID = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** num(x) is x if it is a finite number; anything else from the API is refused. */
export function num(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error('the server sent a malformed reply');
  return x;
}
export const int = (x) => { if (!Number.isInteger(num(x))) throw new Error('the server sent a malformed reply'); return x; };
export const text = (x) => (typeof x === 'string' ? x : '');
export const fmt = (x) => (Math.round(num(x) * 1000) / 1000).toString();
export const plural = (n, one, many) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * typedNumber(input, out, check) reads what a person typed in input with
 * the one rule for typed numbers (number.js: a lone comma is a decimal
 * point) and shows in out the value as read, before anything uses it.
 * It returns read(), which gives the value, or null with out saying why;
 * check(v), if given, returns a sentence when v is out of range.
 */
export function typedNumber(input, out, check) {
  const read = () => {
    const r = readTyped(input.value);
    let msg = r.ok ? (check && check(r.value)) || '' : r.message;
    if (!msg && r.ok) {
      out.textContent = r.read === input.value.trim() ? '' : `Read as ${r.read}.${r.note ? ` ${r.note}` : ''}`;
      input.removeAttribute('aria-invalid');
      return r.value;
    }
    out.textContent = msg;
    input.setAttribute('aria-invalid', 'true');
    return null;
  };
  input.addEventListener('input', () => { read(); });
  return read;
}

/** numberInput(id, value, describedBy) is a text box for a typed number (type=number would drop "0,3"). */
export const numberInput = (id, value, out) => el('input', { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', value, 'aria-describedby': out });

/** apiURL(base) is the API root for a base URL (http or https only), ending in /api/. */
function apiURL(base) {
  const u = new URL(base, location.href);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not an http(s) URL');
  u.search = ''; u.hash = '';
  if (!/\/api\/?$/.test(u.pathname)) u.pathname = u.pathname.replace(/\/?$/, '/api/');
  return u.href.replace(/\/?$/, '/');
}
const OWN_API = new URL('api/', location.href).href;
export const HOME_API = DEFAULT_API ? apiURL(DEFAULT_API) : OWN_API;
const LEGACY_API_KEY = 'dpplay.lecture.api'; // earlier versions remembered ?api= here
export let API = HOME_API;

/**
 * chooseAPI() settles the API this page talks to: the configured one, unless
 * the link names another with ?api=; then the page shows that server's host
 * and asks before sending it anything. The choice lasts for this page only.
 */
export async function chooseAPI() {
  try { localStorage.removeItem(LEGACY_API_KEY); } catch { /* storage blocked */ }
  const asked = params.get('api');
  if (!asked || asked === 'default') return;
  let other;
  try { other = apiURL(asked); } catch { return; }
  if (other === HOME_API || other === OWN_API) { API = other; return; }
  const host = new URL(other).host;
  const useIt = el('button', { type: 'button', 'data-api-accept': true }, `Use ${host}`);
  const home = el('button', { type: 'button', class: 'primary', 'data-api-refuse': true }, 'Use this site’s own server');
  show(main, el('section', { class: 'lec-card lec-ask', 'aria-labelledby': 'ask-h' },
    el('h1', { id: 'ask-h' }, 'This link uses another server'),
    el('p', {}, 'It would send your answers and your device’s id to ', el('strong', { 'data-api-host': true }, host),
      ', not to ', el('strong', {}, location.host), '.'),
    el('p', {}, 'Use it only if your instructor told you the class runs there. If someone else posted this link, use this site’s own server.'),
    el('p', { class: 'lec-ask-buttons' }, home, ' ', useIt)));
  API = await new Promise((done) => {
    home.addEventListener('click', () => done(HOME_API), { once: true });
    useIt.addEventListener('click', () => done(other), { once: true });
  });
}

// RETRY_MS are the waits before each repeat of a PUT whose request failed
// transiently (no reply, or 502, 503 or 504 from a proxy or a restarting
// server): a PUT replaces the student's answer, so sending it again is
// harmless, and a hall's Wi-Fi drops requests. lecturetest.RetryDelays is
// the same policy in the load tests.
const RETRY_MS = [500, 1500, 4000];
const transient = (status) => status === 502 || status === 503 || status === 504;
const seen = new Map(); // GET path → {tag, data}: the last reply, for If-None-Match

/**
 * call(method, path, body, token, opts) sends one API request and returns
 * its JSON reply, or throws an Error with the server's message and status
 * (retryAfter: its Retry-After in seconds). A GET names the version it last
 * saw (If-None-Match) and gets that reply back on 304; opts.waiting(s) is
 * called before a PUT refused with 429 is sent again after Retry-After;
 * opts.signal, an AbortSignal, ends a request that takes too long.
 */
export async function call(method, path, body, token, opts = {}) {
  const headers = {};
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const last = method === 'GET' ? seen.get(path) : undefined;
  if (last) headers['If-None-Match'] = last.tag;
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', signal: opts.signal };
  let res;
  for (let attempt = 0; ; attempt++) {
    const final = method !== 'PUT' || attempt >= RETRY_MS.length;
    try {
      res = await fetch(API + path, init);
      if (method === 'PUT' && res.status === 429 && attempt < 20) {
        const wait = Math.min(30, Math.max(1, Number(res.headers.get('Retry-After')) || 5));
        if (opts.waiting) opts.waiting(wait);
        await sleep(wait * 1000);
        continue;
      }
      if (final || !transient(res.status)) break;
    } catch (err) {
      if (final) throw err;
    }
    await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
  }
  if (res.status === 304 && last) return last.data;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw Object.assign(new Error(text(data && data.error) || `HTTP ${res.status}`),
      { status: res.status, retryAfter: Number(res.headers.get('Retry-After')) || 0 });
  }
  if (!data || typeof data !== 'object') throw new Error('the server sent a malformed reply');
  const tag = res.headers.get('ETag');
  if (method === 'GET' && tag) seen.set(path, { tag, data });
  return data;
}

/** hasAPI() reports whether the lecture API answers here (GET api/ names the service). */
export async function hasAPI() {
  try {
    const res = await fetch(API, { cache: 'no-store' });
    const data = await res.json();
    return res.ok && data && data.service === 'dpplay lecture';
  } catch { return false; }
}

/**
 * normalizeCode(s) is a join code as the server reads one (Crockford base
 * 32: any case, spaces and hyphens dropped, O for 0, I and L for 1), or ''
 * if s cannot be one: a link's ?join= holding a slash or a path is refused
 * here with a message instead of being sent.
 */
export function normalizeCode(s) {
  const c = String(s || '').toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return /^[0-9A-HJKMNP-TV-Z]{8}$/.test(c) ? c : '';
}

// Activities the instructor can start with one click; "poll" is a
// meeting-day activity whose prompt and options the instructor types.
export const SPECS = {
  'meeting-day': { kind: 'meeting-day', options: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], prompt: 'Which days could you come to an extra session?' },
  pricing: { kind: 'pricing', prices: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], prompt: 'What is this digital good worth to you, from 0 to 10?' },
  histogram: { kind: 'histogram', min: 0, max: 12, bins: 6, prompt: 'How many hours did you sleep last night (0 to 12)?' },
};
const KIND_NAMES = { 'meeting-day': 'choice', pricing: 'pricing', histogram: 'histogram' };

/** checkSpec(s) returns the activity spec s with its kind checked and its numbers finite. */
export function checkSpec(s) {
  if (!s || !SPECS[s.kind]) throw new Error('the server sent an activity of an unknown kind');
  const out = { kind: s.kind, prompt: text(s.prompt) };
  if (s.kind === 'meeting-day') out.options = (Array.isArray(s.options) ? s.options : []).map(text);
  if (s.kind === 'histogram') { out.min = num(s.min); out.max = num(s.max); out.bins = int(s.bins); }
  if (s.kind === 'pricing') out.prices = (Array.isArray(s.prices) ? s.prices : []).map(num);
  return out;
}

/** activityName(spec, id) is how tabs and the ledger name an activity. */
export const activityName = (spec, id) => `${id}. ${spec.prompt || KIND_NAMES[spec.kind]}`;

// latestRelease: the API leaves "releases" out until the first one.
export const releasesOf = (a) => (Array.isArray(a.releases) ? a.releases : []);
export const latestRelease = (a) => releasesOf(a).at(-1);

/** sessionChannel(code) is the channel the instructor's windows of a session share (the projector follows the controls). */
export const sessionChannel = (code) => ('BroadcastChannel' in window ? new BroadcastChannel(`dpplay.lecture.${code}`) : null);

// noiseOf(code, id, ε) asks the server what ε means for an activity: the
// same Go constructors that release compute it, from the activity's
// definition alone (never the answers). Cached per activity and ε.
const noiseCache = new Map();
export function noiseOf(code, id, epsilon) {
  const key = `${code}/${id}/${epsilon}`;
  if (!noiseCache.has(key)) {
    noiseCache.set(key, call('GET', `sessions/${encodeURIComponent(code)}/activities/${id}/noise?epsilon=${encodeURIComponent(epsilon)}`)
      .catch((err) => { noiseCache.delete(key); throw err; }));
  }
  return noiseCache.get(key);
}
const pct = (p) => `${Math.round(100 * num(p))}%`;

/** noiseSentence(n) says in words what the ε of Noise n means; n comes from the API and is checked. */
export function noiseSentence(n) {
  const e = fmt(n.epsilon);
  if (n.kind === 'histogram') {
    return `At ε = ${e} each bar’s count is off by at most ±${int(n.within_90)} with probability 90% (discrete Laplace noise of scale ${fmt(n.scale)}, standard deviation ${fmt(n.sd)}).`;
  }
  if (n.kind === 'meeting-day') {
    const leads = (Array.isArray(n.leads) ? n.leads : []).map((l) => `${pct(l.win)} with a lead of ${int(l.lead)}`);
    return `At ε = ${e}, an option that more students chose than every other wins with probability ${leads.join(', ')} (exponential mechanism; with no lead all options are equally likely).`;
  }
  return `At ε = ${e} the posted price’s revenue is within ${fmt(n.shortfall_90)} of the best price’s with probability 90% (exponential mechanism on revenue, Δ = ${fmt(n.sensitivity)}, the highest price).`;
}

// histogram draws the released noisy counts as an SVG bar chart with a
// zero line, a count axis and the ranges. The counts are integers (exact
// discrete Laplace noise) and can be negative: such a bar hangs below zero
// and its number is shown as released, since clipping it here would hide
// what the mechanism really output.
function histogram(res, large) {
  const counts = (Array.isArray(res.counts) ? res.counts : []).map(num);
  const edges = (Array.isArray(res.edges) ? res.edges : []).map(num);
  if (edges.length !== counts.length + 1 || !counts.length) throw new Error('the server sent a malformed release');
  const W = large ? 900 : 380, H = large ? 380 : 300, L = large ? 70 : 54, R = 10, T = 28, B = large ? 64 : 58;
  // Room beyond the extreme bars for their numbers: above the tallest, below the deepest.
  const hi0 = Math.max(1, ...counts), lo0 = Math.min(0, ...counts);
  const pad = 0.12 * (hi0 - lo0);
  const hi = hi0 + pad, lo = lo0 < 0 ? lo0 - pad : 0;
  const step = niceStep((hi - lo) / 5, [1, 2, 5]);
  const top = Math.ceil(hi / step) * step, bottom = Math.floor(lo / step) * step;
  const y = (v) => T + (H - T - B) * (top - v) / (top - bottom);
  const bw = (W - L - R) / counts.length;
  const said = counts.map((c, i) => `${fmt(edges[i])} to ${fmt(edges[i + 1])}: ${fmt(c)}`).join('; ');
  const chart = svg('svg', { class: large ? 'lec-hist large' : 'lec-hist', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `Noisy count per range: ${said}`, 'data-result': counts.map(fmt).join(',') });
  for (let v = bottom; v <= top + 1e-9; v += step) {
    chart.append(svg('line', { class: v === 0 ? 'zero' : 'grid', x1: L, x2: W - R, y1: y(v), y2: y(v) }),
      svg('text', { class: 'tick', x: L - 8, y: y(v) + 5, 'text-anchor': 'end' }, fmt(v)));
  }
  counts.forEach((c, i) => {
    const x = L + i * bw;
    const g = svg('g', { 'data-bin': i });
    g.append(svg('rect', { class: c < 0 ? 'bar neg' : 'bar', x: x + bw * 0.12, width: bw * 0.76, y: Math.min(y(c), y(0)), height: Math.max(1, Math.abs(y(c) - y(0))) }),
      svg('text', { class: 'count', x: x + bw / 2, y: c < 0 ? y(c) + 20 : y(c) - 7, 'text-anchor': 'middle' }, fmt(c)),
      svg('text', { class: 'tick', x: x + bw / 2, y: H - B + 22, 'text-anchor': 'middle' }, `${fmt(edges[i])}–${fmt(edges[i + 1])}`));
    chart.append(g);
  });
  chart.append(svg('text', { class: 'axis', x: L + (W - L - R) / 2, y: H - 8, 'text-anchor': 'middle' }, 'answer, by range'),
    svg('text', { class: 'axis', x: 14, y: T + (H - T - B) / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${T + (H - T - B) / 2})` }, 'noisy count'));
  return chart;
}

/** caption(spec, r) says which mechanism made release r and what its noise means. */
function caption(spec, r) {
  const e = fmt(r.epsilon);
  if (spec.kind === 'histogram') {
    return `Released by the Laplace mechanism at ε = ${e}: each bar is the true number of answers in its range plus random whole-number noise of scale 2/ε, drawn independently per bar. A bar can be off by several students either way; a negative bar means the noise pulled a small count below zero, never that fewer than zero students answered. The true counts are never shown.`;
  }
  if (spec.kind === 'meeting-day') {
    return `Chosen by the exponential mechanism at ε = ${e}: every option had a chance, weighted by e^(ε·count/2) where count is how many students chose it. Options more students chose are more likely, not certain; the counts themselves are never shown.`;
  }
  return `Posted by the exponential mechanism at ε = ${e}: each price had a chance weighted by e^(ε·revenue/(2Δ)), with revenue the price times the students whose value is at least it. No one’s value is shown; each phone works out its own purchase.`;
}

/** resultText(spec, res) is a release's result in a few words (the history table). */
export function resultText(spec, res) {
  if (spec.kind === 'meeting-day') return text(spec.options[int(res.choice)]);
  if (spec.kind === 'pricing') return `price ${fmt(res.price)}`;
  return (Array.isArray(res.counts) ? res.counts : []).map((c) => fmt(c)).join(', ');
}

/** result(spec, r, large) draws release r of an activity: the big result, its figures and its caption. */
export function result(spec, r, large) {
  if (!r) return [el('p', { class: 'lec-waiting' }, 'No release yet.')];
  const n = int(r.participants);
  const meta = el('p', { class: 'lec-meta' }, `ε = ${fmt(r.epsilon)} · from ${plural(n, 'answer', 'answers')} · release ${int(r.seq)}`);
  const res = r.result && typeof r.result === 'object' ? r.result : {};
  const cap = el('p', { class: 'lec-caption', 'data-caption': true }, caption(spec, r));
  if (spec.kind === 'meeting-day') {
    const choice = int(res.choice);
    const option = text(spec.options[choice]);
    const tiles = spec.options.map((o, i) => el('li', { class: i === choice ? 'chosen' : false, 'aria-current': i === choice ? 'true' : false }, o));
    return [el('p', { class: 'lec-big', 'data-result': option }, option),
      large && el('ol', { class: 'lec-days', 'aria-label': 'All options, the released one highlighted' }, tiles), meta, cap];
  }
  if (spec.kind === 'pricing') return [el('p', { class: 'lec-big', 'data-result': fmt(res.price) }, `price ${fmt(res.price)}`), meta, cap];
  return [el('figure', { class: 'lec-figure' }, histogram(res, large), el('figcaption', {}, meta, cap))];
}

/** joinURL(code) is the link a phone opens to join (with ?api= when this page uses another API). */
export function joinURL(code) {
  const u = new URL('lecture.html', location.href);
  u.search = '';
  u.searchParams.set('join', code);
  if (API !== HOME_API) u.searchParams.set('api', API);
  return u.href;
}

/** qr(link) is the join link's QR code as an SVG element (qr.js escapes its label). */
export function qr(link) {
  return qrElement(link, `QR code for the join link ${link}`);
}

/**
 * breakable(link) is the text of link with a break opportunity (<wbr>)
 * after each run of slashes and before its query, so that a long address
 * wraps between its parts, never inside a word. (No lookbehind in the
 * pattern: Safari before 16.4 cannot parse one, and this module is the
 * phones' too.)
 */
const breakable = (link) => (link.match(/[^/?]*\/+|\?[^?]*|[^/?]+/g) || [link]).flatMap((part, i) => (i ? [el('wbr'), part] : [part]));

/** joinCard(display, link, ...extra) is the join code, its QR code and link, as the room sees them. */
export const joinCard = (display, link, ...extra) => el('section', { class: 'lec-card lec-join', 'aria-labelledby': 'join-h' },
  el('h1', { id: 'join-h' }, 'Join on your phone'),
  el('div', { class: 'lec-qr' }, qr(link)),
  el('p', { class: 'lec-code-label' }, 'or enter the code'), el('p', { class: 'lec-code', 'data-code': true }, display),
  el('p', { class: 'lec-link' }, el('a', { href: link, target: '_blank', rel: 'noopener' }, breakable(link))), ...extra);

/** stat(label, attr) is a big number with its label; count(box, n, txt) fills it. */
export const stat = (label, attr) => el('p', {}, el('span', { class: 'lec-num', [attr]: true }, '–'), ' ', el('span', { 'data-label': label.join('|') }, label[1]));
export function count(box, n, txt) {
  box.textContent = txt;
  const [one, many] = box.nextElementSibling.dataset.label.split('|');
  box.nextElementSibling.textContent = n === 1 ? one : many;
}

/** budgetLine(sess) is the ε left of the lecture in words. */
export const budgetLine = (s) => `ε left for the lecture ${fmt(s.epsilon_remaining)} of ${fmt(s.epsilon_budget)}`;
