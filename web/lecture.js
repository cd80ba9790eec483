// The live lecture page (API in docs/lecture.md). Two views:
//   ?role=host[&session=CODE][&activity=meeting-day|pricing|histogram]
//                the projector view: one session is the whole lecture, its
//                activities switched on screen, its ε ledger shown
//   ?join=CODE   a student's phone view, which follows the projector
// The projector shows only what the server releases. The instructor token
// is kept per session in this device's localStorage, never in the URL; the
// student id (128 random bits) and a pricing student's own value stay in
// localStorage on the phone. Without the API (a static host) the instructor
// view says what the lecture needs.
// A host page opened on a loopback address warns that phones cannot reach it.
//
// Everything from the API or the URL is untrusted (docs/security.md): the DOM
// is built with el() and textContent, numbers are checked to be finite before
// they are shown, and an API named by ?api= is used only after the person
// has seen its host and agreed, and never remembered.
import { qrSVG } from './qr.js';
import { save } from './download.js';

/** DEFAULT_API: the lecture back end when no ?api= is set; '' means `api/` beside this page (dpplay serve). */
export const DEFAULT_API = '';
const LEGACY_API_KEY = 'dpplay.lecture.api'; // earlier versions remembered ?api= here
const STUDENT_KEY = 'dpplay.lecture.student';
const POLL_MS = 1500;

const params = new URLSearchParams(location.search);
const main = document.getElementById('main');
const status = document.getElementById('lecture-status');

/** el(tag, attrs, ...children) builds an element; string children become text nodes, never markup. */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return e;
}
const show = (parent, ...children) => parent.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));

/** num(x) is x if it is a finite number; anything else from the API is refused. */
function num(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error('the server sent a malformed reply');
  return x;
}
const int = (x) => { if (!Number.isInteger(num(x))) throw new Error('the server sent a malformed reply'); return x; };
const text = (x) => (typeof x === 'string' ? x : '');
const fmt = (x) => (Math.round(num(x) * 1000) / 1000).toString();

/** apiURL(base) is the API root for a base URL (http or https only), ending in /api/. */
function apiURL(base) {
  const u = new URL(base, location.href);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not an http(s) URL');
  u.search = ''; u.hash = '';
  if (!/\/api\/?$/.test(u.pathname)) u.pathname = u.pathname.replace(/\/?$/, '/api/');
  return u.href.replace(/\/?$/, '/');
}
const OWN_API = new URL('api/', location.href).href;
const HOME_API = DEFAULT_API ? apiURL(DEFAULT_API) : OWN_API;

/**
 * chooseAPI() is the API this page talks to: the configured one, unless the
 * link names another with ?api=; then the page shows that server's host and
 * asks before sending it anything. The choice lasts for this page only.
 */
async function chooseAPI() {
  try { localStorage.removeItem(LEGACY_API_KEY); } catch { /* storage blocked */ }
  const asked = params.get('api');
  if (!asked || asked === 'default') return HOME_API;
  let other;
  try { other = apiURL(asked); } catch { return HOME_API; }
  if (other === HOME_API || other === OWN_API) return other;
  const host = new URL(other).host;
  const useIt = el('button', { type: 'button', 'data-api-accept': true }, `Use ${host}`);
  const home = el('button', { type: 'button', class: 'primary', 'data-api-refuse': true }, 'Use this site’s own server');
  show(main, el('section', { class: 'lec-card lec-ask', 'aria-labelledby': 'ask-h' },
    el('h1', { id: 'ask-h' }, 'This link uses another server'),
    el('p', {}, 'It would send your answers and your device’s id to ', el('strong', { 'data-api-host': true }, host),
      ', not to ', el('strong', {}, location.host), '.'),
    el('p', {}, 'Use it only if your instructor told you the class runs there. If someone else posted this link, use this site’s own server.'),
    el('p', { class: 'lec-ask-buttons' }, home, ' ', useIt)));
  return new Promise((done) => {
    home.addEventListener('click', () => done(HOME_API), { once: true });
    useIt.addEventListener('click', () => done(other), { once: true });
  });
}
let API = HOME_API;

// RETRY_MS are the waits before each repeat of a PUT whose request failed
// transiently (no reply, or 502, 503 or 504 from a proxy or a restarting
// server): a PUT replaces the student's answer, so sending it again is
// harmless, and a hall's Wi-Fi drops requests. lecturetest.RetryDelays is
// the same policy in the load tests.
const RETRY_MS = [500, 1500, 4000];
const transient = (status) => status === 502 || status === 503 || status === 504;

async function call(method, path, body, token) {
  const headers = {};
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' };
  let res;
  for (let attempt = 0; ; attempt++) {
    const last = method !== 'PUT' || attempt === RETRY_MS.length;
    try {
      res = await fetch(API + path, init);
      if (last || !transient(res.status)) break;
    } catch (err) {
      if (last) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(text(data && data.error) || `HTTP ${res.status}`), { status: res.status });
  if (!data || typeof data !== 'object') throw new Error('the server sent a malformed reply');
  return data;
}

const say = (t) => { status.textContent = t; };

function studentId() {
  let id = localStorage.getItem(STUDENT_KEY);
  if (!id || !/^[A-Za-z0-9_-]{22}$/.test(id)) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    localStorage.setItem(STUDENT_KEY, id);
  }
  return id;
}

// Activities the instructor can start with one click; "poll" is a
// meeting-day activity whose prompt and options the instructor types.
const SPECS = {
  'meeting-day': { kind: 'meeting-day', options: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], prompt: 'Which days could you come to an extra session?' },
  pricing: { kind: 'pricing', prices: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], prompt: 'What is this digital good worth to you, from 0 to 10?' },
  histogram: { kind: 'histogram', min: 0, max: 12, bins: 6, prompt: 'How many hours did you sleep last night (0 to 12)?' },
};
const KIND_NAMES = { 'meeting-day': 'choice', pricing: 'pricing', histogram: 'histogram' };

/** checkSpec(s) returns the activity spec s with its kind checked and its numbers finite. */
function checkSpec(s) {
  if (!s || !SPECS[s.kind]) throw new Error('the server sent an activity of an unknown kind');
  const out = { kind: s.kind, prompt: text(s.prompt) };
  if (s.kind === 'meeting-day') out.options = (Array.isArray(s.options) ? s.options : []).map(text);
  if (s.kind === 'histogram') { out.min = num(s.min); out.max = num(s.max); out.bins = int(s.bins); }
  if (s.kind === 'pricing') out.prices = (Array.isArray(s.prices) ? s.prices : []).map(num);
  return out;
}

/** activityName(spec, id) is how the projector's tabs and the ledger name an activity. */
const activityName = (spec, id) => `${id}. ${spec.prompt || KIND_NAMES[spec.kind]}`;

// noiseOf(code, id, ε) asks the server what ε means for an activity: the
// same Go constructors that release compute it, from the activity's
// definition alone (never the answers). Cached per activity and ε.
const noiseCache = new Map();
function noiseOf(code, id, epsilon) {
  const key = `${code}/${id}/${epsilon}`;
  if (!noiseCache.has(key)) {
    noiseCache.set(key, call('GET', `sessions/${encodeURIComponent(code)}/activities/${id}/noise?epsilon=${encodeURIComponent(epsilon)}`)
      .catch((err) => { noiseCache.delete(key); throw err; }));
  }
  return noiseCache.get(key);
}
const pct = (p) => `${Math.round(100 * num(p))}%`;

/** noiseSentence(n) says in words what the ε of Noise n means; n comes from the API and is checked. */
function noiseSentence(n) {
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
const SVGNS = 'http://www.w3.org/2000/svg';
function svg(name, attrs = {}, txt) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (txt !== undefined) e.textContent = txt;
  return e;
}
function histogram(res, large) {
  const counts = (Array.isArray(res.counts) ? res.counts : []).map(num);
  const edges = (Array.isArray(res.edges) ? res.edges : []).map(num);
  if (edges.length !== counts.length + 1 || !counts.length) throw new Error('the server sent a malformed release');
  const W = large ? 900 : 380, H = large ? 380 : 300, L = large ? 70 : 54, R = 10, T = 28, B = large ? 64 : 58;
  // Room beyond the extreme bars for their numbers: above the tallest, below the deepest.
  const hi0 = Math.max(1, ...counts), lo0 = Math.min(0, ...counts);
  const pad = 0.12 * (hi0 - lo0);
  const hi = hi0 + pad, lo = lo0 < 0 ? lo0 - pad : 0;
  const step = niceStep((hi - lo) / 5);
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
/** niceStep(x) is the 1, 2 or 5 times a power of ten at or above x. */
function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(Math.max(x, 1e-9)));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= x) || 10 * p;
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

function joinURL(code) {
  const u = new URL('lecture.html', location.href);
  u.search = '';
  u.searchParams.set('join', code);
  if (API !== HOME_API) u.searchParams.set('api', API);
  return u.href;
}

// latestRelease: the API leaves "releases" out until the first one.
const releasesOf = (a) => (Array.isArray(a.releases) ? a.releases : []);
const latestRelease = (a) => releasesOf(a).at(-1);

/** resultText(spec, res) is a release's result in a few words (the history table). */
function resultText(spec, res) {
  if (spec.kind === 'meeting-day') return text(spec.options[int(res.choice)]);
  if (spec.kind === 'pricing') return `price ${fmt(res.price)}`;
  return (Array.isArray(res.counts) ? res.counts : []).map((c) => fmt(c)).join(', ');
}

function result(spec, r, large) {
  if (!r) return [el('p', { class: 'lec-waiting' }, 'No release yet.')];
  const n = int(r.participants);
  const meta = el('p', { class: 'lec-meta' }, `ε = ${fmt(r.epsilon)} · from ${n} answer${n === 1 ? '' : 's'} · release ${int(r.seq)}`);
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

// isLoopback: a host name that a phone would take to mean the phone itself.
// URL.hostname keeps IPv6 brackets.
const isLoopback = (h) => h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) ||
  h === '[::1]' || h === '0.0.0.0' || h === '[::]';

// loopbackWarning: shown on the projector view when the join link and QR
// code would point phones at this computer's loopback address, which is
// the first thing to go wrong when running a class from a laptop.
function loopbackWarning() {
  if (!isLoopback(location.hostname)) return null;
  const port = location.port || (location.protocol === 'https:' ? '443' : '80');
  const icon = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg" class="lec-warning-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2.5 1.5 21h21L12 2.5Z"/><path class="mark" d="M11 9h2v6h-2zM11 16.5h2v2h-2z"/></svg>', 'image/svg+xml').documentElement;
  return el('section', { class: 'lec-warning', 'aria-labelledby': 'warn-h', 'data-loopback-warning': true }, icon,
    el('div', {}, el('p', { class: 'lec-warning-title', id: 'warn-h' }, 'Phones cannot reach this page'),
      el('p', {}, 'It is open at ', el('strong', {}, location.hostname), ', which on a phone means the phone itself: the join link and QR code this page gives the class will not work. To fix it:'),
      el('ol', {},
        el('li', {}, 'Serve on the network: ', el('code', {}, `make serve ADDR=0.0.0.0:${port}`)),
        el('li', {}, 'Open this page at this computer’s network address, on the same Wi-Fi as the phones: ',
          el('code', { class: 'lec-warning-url' }, `${location.protocol}//`, el('var', {}, 'address'), `:${port}${location.pathname}${location.search}`),
          el('br'), 'Find the address with ', el('code', {}, 'hostname -I'), ' (Linux), ', el('code', {}, 'ipconfig getifaddr en0'),
          ' (macOS) or ', el('code', {}, 'ipconfig'), ' (Windows)'))));
}

/** qr(link) is the join link's QR code as an SVG element (qr.js escapes its label). */
function qr(link) {
  return new DOMParser().parseFromString(qrSVG(link, `QR code for the join link ${link}`), 'image/svg+xml').documentElement;
}

// staticHostHelp: the page is served without the lecture API (GitHub
// Pages, or any static host), so it says what the lecture needs instead of
// failing on its first request.
function staticHostHelp() {
  const here = `${location.origin}${location.pathname}`;
  return el('section', { class: 'lec-card lec-static', 'aria-labelledby': 'static-h', 'data-static-host': true },
    el('h1', { id: 'static-h' }, 'The live lecture needs a server'),
    el('p', {}, 'This copy of dpplay is served as static files, which can show every lesson but cannot collect the class’s answers. ',
      'Nothing was sent anywhere. Run the lecture in one of two ways:'),
    el('h2', {}, 'From your laptop, on the room’s Wi-Fi'),
    el('ol', {},
      el('li', {}, 'In a copy of dpplay, run ', el('code', {}, 'make serve ADDR=0.0.0.0:8080'), ' (it installs what is missing, builds the site and starts the server).'),
      el('li', {}, 'Find the laptop’s network address: ', el('code', {}, 'hostname -I'), ' (Linux), ', el('code', {}, 'ipconfig getifaddr en0'), ' (macOS) or ', el('code', {}, 'ipconfig'), ' (Windows).'),
      el('li', {}, 'Open ', el('code', {}, 'http://', el('var', {}, 'address'), ':8080/lecture.html?role=host'), ' on the laptop; phones on the same Wi-Fi join from the QR code it shows.')),
    el('h2', {}, 'From a Cloudflare Workers deployment (HTTPS, any network)'),
    el('ol', {},
      el('li', {}, 'Deploy the lecture API: ', el('code', {}, 'make worker-build'), ', then in ', el('code', {}, 'worker/'), ' ', el('code', {}, 'npx wrangler d1 create dpplay-lecture'), ', ',
        el('code', {}, 'npx wrangler d1 migrations apply DB --remote'), ' and ', el('code', {}, 'npx wrangler deploy'), ' (docs/lecture.md, “Deploying the worker”).'),
      el('li', {}, 'Set ', el('code', {}, 'DEFAULT_API'), ' in ', el('code', {}, 'web/lecture.js'), ' to the worker’s URL and add its origin to ', el('code', {}, 'connect-src'),
        ' in ', el('code', {}, 'web/lecture.html'), '; set the worker’s ', el('code', {}, 'ALLOWED_ORIGIN'), ' to this site’s origin.'),
      el('li', {}, 'Rebuild and publish the site, then open ', el('code', {}, `${here}?role=host`), ' again.')));
}

/** hasAPI() reports whether the lecture API answers here (GET api/ names the service). */
async function hasAPI() {
  try {
    const res = await fetch(API, { cache: 'no-store' });
    const data = await res.json();
    return res.ok && data && data.service === 'dpplay lecture';
  } catch { return false; }
}

// The instructor's sessions on this device. The token is the key to a
// session: whoever holds it releases and spends the budget, and nobody can
// recover it, so it is kept in this browser's localStorage, per session and
// API, never in a URL (docs/security.md).
const SESSIONS_KEY = 'dpplay.lecture.sessions';
function savedSessions() {
  let list;
  try { list = JSON.parse(localStorage.getItem(SESSIONS_KEY) || '[]'); } catch { list = []; }
  return (Array.isArray(list) ? list : []).filter((s) => s && typeof s.api === 'string' && /^[0-9A-Z]{8}$/.test(s.code) &&
    /^[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(s.display) && /^[A-Za-z0-9_-]{22}$/.test(s.token) && Number.isFinite(s.created));
}
function saveSession(s) {
  const list = [s, ...savedSessions().filter((x) => !(x.code === s.code && x.api === s.api))].slice(0, 20);
  localStorage.setItem(SESSIONS_KEY, JSON.stringify(list));
}
function forgetSession(s) {
  localStorage.setItem(SESSIONS_KEY, JSON.stringify(savedSessions().filter((x) => !(x.code === s.code && x.api === s.api))));
}
const when = (ms) => new Date(ms).toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/** pickSession(kind) lets the instructor resume a session of this device or start one; it resolves to the session. */
async function pickSession(kind) {
  const mine = savedSessions().filter((s) => s.api === API);
  const form = el('form', { class: 'lec-card lec-setup' },
    el('h2', {}, mine.length ? 'Or start a new session' : 'Start the lecture’s session'),
    el('p', {}, 'One session holds the whole lecture: every activity, one join code, one ε budget.'),
    el('label', { for: 'budget' }, 'Privacy budget for the whole lecture, ε (epsilon)'),
    el('input', { id: 'budget', type: 'number', min: '0.1', max: '100', step: 'any', value: '3', required: true }),
    el('label', { for: 'roster' }, 'Most students who may answer'),
    el('input', { id: 'roster', type: 'number', min: '1', max: '10000', step: '1', value: '1000', required: true }),
    el('button', { class: mine.length ? false : 'primary', type: 'submit' }, mine.length ? 'Start a new session' : 'Start the session'),
    el('div', { 'data-confirm': true }));
  const resume = mine.length ? el('section', { class: 'lec-card', 'aria-labelledby': 'resume-h' },
    el('h2', { id: 'resume-h' }, 'Your sessions on this device'),
    el('ul', { class: 'lec-sessions' }, mine.map((s, i) => el('li', {},
      el('button', { type: 'button', class: i === 0 ? 'primary' : false, 'data-resume': s.code }, `Resume ${s.display}`),
      ' ', el('span', { class: 'lec-meta' }, `started ${when(s.created)}`))))) : null;
  show(main, el('h1', {}, 'Run the lecture'), loopbackWarning(), resume, form);
  return new Promise((done) => {
    main.querySelectorAll('[data-resume]').forEach((b) => b.addEventListener('click', () => done(mine.find((s) => s.code === b.dataset.resume))));
    let confirmed = !mine.length;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (!confirmed) {
        const yes = el('button', { type: 'button', class: 'primary', 'data-confirm-new': true }, 'Yes, start a new session');
        const no = el('button', { type: 'button' }, 'Cancel');
        show(form.querySelector('[data-confirm]'), el('p', { role: 'alert' }, `A new session has a new join code: the class joins again and its ε budget starts afresh. ${mine[0].display} stays on this device to resume.`),
          el('p', { class: 'lec-ask-buttons' }, yes, ' ', no));
        yes.addEventListener('click', () => { confirmed = true; form.requestSubmit(); });
        no.addEventListener('click', () => show(form.querySelector('[data-confirm]')));
        yes.focus();
        return;
      }
      say('Starting the session…');
      try {
        const sess = await call('POST', 'sessions', { epsilon_budget: +form.querySelector('#budget').value, roster: +form.querySelector('#roster').value });
        const s = { api: API, code: text(sess.code), display: text(sess.display), token: text(sess.instructor_token), created: Date.now() };
        saveSession(s);
        say('');
        done(s);
      } catch (err) { say(`Could not start the session: ${err.message}`); }
    });
  }).then((s) => ({ s, kind }));
}

// ---- Instructor ----
async function host() {
  document.body.dataset.view = 'host';
  if (!(await hasAPI())) { show(main, staticHostHelp()); return; }
  let kind = SPECS[params.get('activity')] ? params.get('activity') : null;
  let s = savedSessions().find((x) => x.api === API && x.code === params.get('session'));
  if (!s) ({ s, kind } = await pickSession(kind));
  // The address now names the session: a reload resumes it.
  const u = new URL(location.href);
  u.searchParams.delete('activity');
  u.searchParams.set('session', s.code);
  history.replaceState(null, '', u.href);

  const code = encodeURIComponent(s.code);
  const auth = (method, path, body) => call(method, `sessions/${code}${path}`, body, s.token);
  let sess;
  try { sess = await call('GET', `sessions/${code}`); } catch (err) {
    if (err.status === 404) forgetSession(s);
    show(main, el('h1', {}, 'Could not open the session'), el('p', {}, err.message), el('p', {}, el('a', { href: 'lecture.html?role=host' }, 'Your sessions')));
    return;
  }
  // An activity named by the link (a lesson's "Run this with the class")
  // joins the session, or is put back on screen if the session has one.
  const acts = () => (Array.isArray(sess.activities) ? sess.activities : []);
  if (kind) {
    const same = acts().filter((a) => a.spec && a.spec.kind === kind && text(a.spec.prompt) === SPECS[kind].prompt).at(-1);
    try {
      const id = same ? int(same.id) : int((await auth('POST', '/activities', SPECS[kind])).id);
      await auth('POST', '/current', { activity: id });
      sess = await call('GET', `sessions/${code}`);
    } catch (err) { say(`Could not add the activity: ${err.message}`); }
  }

  const link = joinURL(s.display);
  const stat = (label, attr) => el('p', {}, el('span', { class: 'lec-num', [attr]: true }, '–'), ' ', el('span', { 'data-label': label.join('|') }, label[1]));
  const door = el('button', { type: 'button', 'data-door': true }, 'Close to new students');
  const closeBtn = el('button', { type: 'button', 'data-close': true }, 'Close submissions');
  const again = el('button', { type: 'button', 'data-again': true }, 'Run again with fresh answers');
  const eps = el('input', { id: 'eps', type: 'number', min: '0.01', max: '10', step: 'any', value: '0.5', required: true, 'aria-describedby': 'eps-means' });
  const means = el('p', { class: 'lec-means', id: 'eps-means', 'data-noise': true });
  const releaseForm = el('form', { class: 'lec-release' }, el('label', { for: 'eps' }, 'ε (epsilon) for this release'), eps,
    el('button', { class: 'primary', type: 'submit' }, 'Release'), means);
  const out = el('div', { class: 'lec-result', 'aria-live': 'polite' });
  const meter = el('meter', { class: 'lec-meter', min: '0', max: '1', value: '1', 'aria-label': 'Privacy budget left' });
  const tabs = el('nav', { class: 'lec-tabs', 'aria-label': 'Activities of this lecture' });
  const prompt = el('p', { class: 'lec-prompt', 'data-prompt': true });
  const state = el('p', { class: 'lec-meta', 'data-open-state': true });
  const history_ = el('tbody');
  const ledger = el('tbody');
  const ledgerFoot = el('tfoot');
  const timerShown = el('span', { class: 'lec-timer', 'data-timer': true, role: 'timer', 'aria-live': 'off' }, '–:––');
  const full = el('button', { type: 'button', 'data-fullscreen': true }, 'Full screen');
  const exportCSV = el('button', { type: 'button', 'data-export': 'csv' }, 'Export CSV');
  const exportJSON = el('button', { type: 'button', 'data-export': 'json' }, 'Export JSON');
  const composer = composeForm();
  show(main, loopbackWarning(), tabs, el('div', { class: 'lec-host' },
    el('section', { class: 'lec-card lec-join', 'aria-labelledby': 'join-h' }, el('h1', { id: 'join-h' }, 'Join on your phone'),
      el('div', { class: 'lec-qr' }, qr(link)),
      el('p', { class: 'lec-code-label' }, 'or enter the code'), el('p', { class: 'lec-code', 'data-code': true }, s.display),
      el('p', { class: 'lec-link' }, el('a', { href: link, target: '_blank', rel: 'noopener' }, link)),
      el('div', { class: 'lec-stats' }, stat(['joined', 'joined'], 'data-joined'), stat(['answered', 'answered'], 'data-participants'), stat(['yet to answer', 'yet to answer'], 'data-waiting')),
      el('p', { class: 'lec-meta lec-door' }, el('span', { 'data-door-state': true }), ' ', door)),
    el('section', { class: 'lec-card lec-live', 'aria-labelledby': 'live-h' }, el('h2', { id: 'live-h', class: 'visually-hidden' }, 'The current activity'),
      prompt, el('p', { class: 'lec-door' }, state, ' ', closeBtn, ' ', again),
      el('div', { class: 'lec-timer-row' }, el('span', {}, 'Timer '), timerShown, ...[1, 2, 5].map((m) => el('button', { type: 'button', 'data-timer-start': m * 60 }, `${m} min`)),
        el('button', { type: 'button', 'data-timer-stop': true }, 'Stop')),
      out, releaseForm,
      el('h3', {}, 'Releases of this activity'),
      el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Releases of this activity' },
        el('table', { class: 'lec-table', 'data-history': true }, el('thead', {}, el('tr', {}, ['#', 'time', 'ε', 'answers', 'result'].map((h) => el('th', { scope: 'col' }, h)))), history_))),
    el('section', { class: 'lec-card lec-ledger', 'aria-labelledby': 'ledger-h' },
      el('h2', { id: 'ledger-h' }, 'The lecture’s ε budget'),
      el('div', { class: 'lec-stats' }, stat(['ε left', 'ε left'], 'data-remaining'), stat(['ε spent', 'ε spent'], 'data-spent')), meter,
      el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'ε spent per activity' },
        el('table', { class: 'lec-table', 'data-ledger': true }, el('thead', {}, el('tr', {}, ['activity', 'releases', 'ε spent'].map((h) => el('th', { scope: 'col' }, h)))), ledger, ledgerFoot)),
      el('p', { class: 'lec-ask-buttons' }, exportCSV, ' ', exportJSON, ' ', full),
      el('p', { class: 'lec-key' }, el('strong', {}, 'This device holds the key to this session. '),
        'The instructor token kept in this browser is what lets you release results and spend the budget. It cannot be recovered: if it is lost, no one can release anything in this session again, and whoever copies it can. A reload or a new tab on this device resumes the session; ',
        el('a', { href: 'lecture.html?role=host' }, 'your sessions'), ' lists them.')),
    composer.box));

  const q = (sel) => main.querySelector(sel);
  let shown = 0; // the activity on screen
  let spec = null;
  let act = null; // its last poll
  let seq = -1;
  const count = (attr, n, txt) => {
    const box = q(`[${attr}]`);
    box.textContent = txt;
    const [one, many] = box.nextElementSibling.dataset.label.split('|');
    box.nextElementSibling.textContent = n === 1 ? one : many;
  };
  const renderSession = () => {
    const list = acts();
    show(tabs, list.map((a) => {
      const sp = checkSpec(a.spec);
      const b = el('button', { type: 'button', 'data-activity': int(a.id), 'aria-pressed': String(a.id === sess.current) }, activityName(sp, a.id));
      b.addEventListener('click', () => switchTo(a.id));
      return b;
    }), composer.toggle);
    count('data-joined', int(sess.joined), int(sess.joined));
    count('data-remaining', 0, fmt(sess.epsilon_remaining));
    count('data-spent', 0, fmt(sess.epsilon_spent));
    meter.max = num(sess.epsilon_budget);
    meter.value = num(sess.epsilon_remaining);
    q('[data-door-state]').textContent = `${sess.door_open ? 'Open to new students' : 'Closed to new students'} · at most ${int(sess.roster).toLocaleString('en')} students`;
    door.textContent = sess.door_open ? 'Close to new students' : 'Open to new students';
    show(ledger, list.map((a) => el('tr', {}, el('td', {}, activityName(checkSpec(a.spec), a.id)), el('td', {}, String(int(a.release_count))), el('td', {}, fmt(a.activity_epsilon_spent)))));
    show(ledgerFoot, el('tr', {}, el('th', { scope: 'row' }, 'whole lecture'), el('td', {}, String(list.reduce((k, a) => k + int(a.release_count), 0))),
      el('td', {}, `${fmt(sess.epsilon_spent)} of ${fmt(sess.epsilon_budget)}`)));
  };
  const renderActivity = (a) => {
    act = a;
    count('data-participants', int(a.participants), int(a.participants));
    const waiting = Math.max(0, int(sess.joined) - int(a.participants));
    count('data-waiting', waiting, waiting);
    state.textContent = a.closed ? 'Submissions are closed.' : 'Submissions are open.';
    closeBtn.textContent = a.closed ? 'Reopen submissions' : 'Close submissions';
    const rels = releasesOf(a);
    const r = rels.at(-1);
    if ((r ? r.seq : 0) !== seq) {
      show(out, result(spec, r, true));
      seq = r ? r.seq : 0;
      show(history_, rels.slice().reverse().map((x) => el('tr', {}, el('td', {}, String(int(x.seq))),
        el('td', {}, new Date(int(x.created) * 1000).toLocaleTimeString('en-GB')), el('td', {}, fmt(x.epsilon)),
        el('td', {}, String(int(x.participants))), el('td', {}, resultText(spec, x.result || {})))));
      if (!rels.length) show(history_, el('tr', {}, el('td', { colspan: '5' }, 'None yet.')));
    }
  };
  // The session and then the current activity are read before either is
  // drawn, so the ε left and the latest result on screen always agree: the
  // activity, read second, holds every release the session's total counts.
  const refresh = async () => {
    const next = await call('GET', `sessions/${code}`);
    let cur = int(next.current);
    const list = Array.isArray(next.activities) ? next.activities : [];
    if (!cur && list.length) { cur = int(list.at(-1).id); await auth('POST', '/current', { activity: cur }); next.current = cur; }
    const curAct = list.find((a) => a.id === cur);
    const a = curAct ? await call('GET', `sessions/${code}/activities/${cur}`) : null;
    sess = next;
    renderSession();
    if (!curAct) { show(out, el('p', { class: 'lec-waiting' }, 'Add an activity to begin.')); return; }
    if (cur !== shown) {
      shown = cur; seq = -1;
      spec = checkSpec(curAct.spec);
      prompt.textContent = activityName(spec, cur);
      explain();
    }
    renderActivity(a);
  };
  const switchTo = async (id) => {
    try { await auth('POST', '/current', { activity: id }); await refresh(); } catch (err) { say(`Could not switch: ${err.message}`); }
  };
  // What the ε typed means for this activity, before releasing.
  let asked = '';
  const explain = async () => {
    const e = +eps.value;
    const key = `${shown}/${e}`;
    if (!shown || key === asked) return;
    asked = key;
    if (!(e > 0 && e <= 10)) { means.textContent = 'ε must lie between 0 and 10.'; return; }
    try {
      const n = await noiseOf(s.code, shown, e);
      if (asked === key) means.textContent = noiseSentence(n);
    } catch (err) { if (asked === key) means.textContent = err.message; }
  };
  eps.addEventListener('input', explain);
  door.addEventListener('click', async () => {
    try { await auth('POST', '/door', { open: !sess.door_open }); await refresh(); } catch (err) { say(`Could not change the door: ${err.message}`); }
  });
  closeBtn.addEventListener('click', async () => {
    const closing = !(act && act.closed);
    try {
      await auth('POST', `/activities/${shown}/${closing ? 'close' : 'open'}`, {});
      say(closing ? 'Submissions closed.' : 'Submissions reopened.');
      await refresh();
    } catch (err) { say(`Could not ${closing ? 'close' : 'reopen'}: ${err.message}`); }
  });
  releaseForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const epsilon = +eps.value;
    if (act && act.participants === 0) { say('Nobody has answered yet.'); return; }
    if (epsilon > sess.epsilon_remaining + 1e-12) { say(`Only ε = ${fmt(sess.epsilon_remaining)} is left.`); return; }
    try {
      await auth('POST', `/activities/${shown}/releases`, { epsilon });
      say(`Released with ε = ${fmt(epsilon)}.`);
      await refresh();
    } catch (err) { say(`Release refused: ${err.message}`); }
  });
  // Running an activity again is a new activity with the same definition:
  // the old answers and releases stay in the ledger, the new one starts empty.
  again.addEventListener('click', async () => {
    if (!spec) return;
    const { kind: k, prompt: p, options, min, max, bins, prices } = spec;
    try { await composer.onCreate({ kind: k, prompt: p, options, min, max, bins, prices }); say('A fresh copy of the activity is on screen.'); } catch (err) { say(`Could not run it again: ${err.message}`); }
  });
  composer.onCreate = async (newSpec) => {
    const { id } = await auth('POST', '/activities', newSpec);
    await switchTo(int(id));
  };
  // The timer runs on this projector only; it never closes anything by itself.
  let deadline = 0;
  const tick = () => {
    if (!deadline) { timerShown.textContent = '–:––'; timerShown.classList.remove('done'); return; }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    timerShown.textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'time’s up';
    timerShown.classList.toggle('done', !left);
  };
  main.querySelectorAll('[data-timer-start]').forEach((b) => b.addEventListener('click', () => { deadline = Date.now() + 1000 * +b.dataset.timerStart; tick(); }));
  q('[data-timer-stop]').addEventListener('click', () => { deadline = 0; tick(); });
  setInterval(tick, 250);
  full.addEventListener('click', () => (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => say('Full screen is not available here.')));
  document.addEventListener('fullscreenchange', () => { full.textContent = document.fullscreenElement ? 'Leave full screen' : 'Full screen'; });
  const download = async (fmtName) => {
    try {
      const res = await fetch(`${API}sessions/${code}/${fmtName === 'csv' ? 'ledger.csv' : 'ledger'}`, { headers: { Authorization: `Bearer ${s.token}` }, cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const blob = fmtName === 'csv' ? await res.blob() : new Blob([JSON.stringify(await res.json(), null, 2)], { type: 'application/json' });
      save(blob, `dpplay-${s.display}.${fmtName}`);
    } catch (err) { say(`Could not export: ${err.message}`); }
  };
  exportCSV.addEventListener('click', () => download('csv'));
  exportJSON.addEventListener('click', () => download('json'));

  const poll = async () => {
    try { await refresh(); } catch (err) { say(`Connection problem: ${err.message}`); }
    setTimeout(poll, POLL_MS);
  };
  poll();
}

/** composeForm() is the form that adds an activity to the lecture: a preset, or a question with options typed on the spot. */
function composeForm() {
  const c = { onCreate: null };
  const kindSel = el('select', { id: 'new-kind' },
    el('option', { value: 'poll' }, 'Your own question with options'),
    el('option', { value: 'meeting-day' }, 'Meeting day (Mon–Fri)'),
    el('option', { value: 'histogram' }, 'Histogram of a number (hours of sleep)'),
    el('option', { value: 'pricing' }, 'Pricing a digital good'));
  const promptIn = el('input', { id: 'new-prompt', type: 'text', maxlength: '200', value: '' });
  const optionsIn = el('textarea', { id: 'new-options', rows: '4', 'aria-describedby': 'new-options-help' });
  const optionsRow = el('div', {}, el('label', { for: 'new-options' }, 'Options, one per line (2 to 31)'), optionsIn,
    el('p', { class: 'lec-meta', id: 'new-options-help' }, 'Students tick every option that applies; the exponential mechanism picks one.'));
  const form = el('form', { class: 'lec-compose' }, el('label', { for: 'new-kind' }, 'Activity'), kindSel,
    el('label', { for: 'new-prompt' }, 'Question'), promptIn, optionsRow,
    el('p', { class: 'lec-ask-buttons' }, el('button', { type: 'submit', class: 'primary' }, 'Add and show it'), ' ',
      el('button', { type: 'button', 'data-compose-cancel': true }, 'Cancel')));
  c.box = el('section', { class: 'lec-card lec-new', 'aria-labelledby': 'new-h', hidden: true }, el('h2', { id: 'new-h' }, 'New activity'), form);
  c.toggle = el('button', { type: 'button', class: 'lec-add', 'data-compose': true, 'aria-expanded': 'false' }, '+ New activity');
  const sync = () => {
    const k = kindSel.value;
    optionsRow.hidden = k !== 'poll';
    promptIn.value = k === 'poll' ? '' : SPECS[k].prompt;
    promptIn.required = k === 'poll';
    optionsIn.required = k === 'poll';
  };
  kindSel.addEventListener('change', sync);
  sync();
  const open = (yes) => { c.box.hidden = !yes; c.toggle.setAttribute('aria-expanded', String(yes)); if (yes) kindSel.focus(); };
  c.toggle.addEventListener('click', () => open(c.box.hidden));
  form.querySelector('[data-compose-cancel]').addEventListener('click', () => open(false));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const k = kindSel.value;
    const spec = k === 'poll'
      ? { kind: 'meeting-day', prompt: promptIn.value.trim(), options: optionsIn.value.split('\n').map((o) => o.trim()).filter(Boolean) }
      : { ...SPECS[k], prompt: promptIn.value.trim() || SPECS[k].prompt };
    try { await c.onCreate(spec); open(false); optionsIn.value = ''; sync(); say('Activity added and shown.'); } catch (err) { say(`Could not add the activity: ${err.message}`); }
  });
  return c;
}

// ---- Student ----
async function student() {
  let code = params.get('join');
  if (!code) {
    const input = el('input', { id: 'code', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', required: true, maxlength: '20', class: 'lec-code-input' });
    const form = el('form', { class: 'lec-card' }, el('label', { for: 'code' }, 'Join code from the screen'), input,
      el('button', { class: 'primary', type: 'submit' }, 'Join'));
    show(main, el('h1', {}, 'Join the class'), form);
    code = await new Promise((done) => form.addEventListener('submit', (e) => { e.preventDefault(); done(input.value.trim()); }, { once: true }));
  }
  const path = `sessions/${encodeURIComponent(code)}`;
  let sess;
  try { sess = await call('GET', path); } catch (err) {
    show(main, el('h1', {}, 'Could not join'), el('p', {}, err.message), el('p', {}, el('a', { href: 'lecture.html' }, 'Try another code')));
    return;
  }
  document.body.dataset.view = 'student';
  const display = text(sess.display) || code;
  // The phone follows the projector: the session's current activity, or
  // before the instructor picks one, the newest open activity.
  const pick = (list, cur) => {
    const acts = Array.isArray(list) ? list : [];
    return acts.find((a) => a.id === cur) || acts.filter((a) => !a.closed).at(-1) || acts.at(-1);
  };
  let act = pick(sess.activities, sess.current);
  while (!act) {
    show(main, el('h1', { class: 'lec-code-small' }, `Session ${display}`), el('p', { class: 'lec-waiting' }, 'You are in. The instructor has not started an activity yet; this page follows as soon as they do.'));
    await new Promise((r) => setTimeout(r, POLL_MS));
    try { sess = await call('GET', path); act = pick(sess.activities, sess.current); } catch (err) { say(`Connection problem: ${err.message}`); }
  }
  for (;;) {
    const next = await answerView(path, display, int(act.id), checkSpec(act.spec), text(sess.code) || code);
    try {
      say('The instructor moved on: here is the new activity.');
      act = await call('GET', `${path}/activities/${next}`);
    } catch (err) { say(`Connection problem: ${err.message}`); await new Promise((r) => setTimeout(r, POLL_MS)); }
  }
}

/** answerView shows one activity on the phone and resolves to the next activity's id when the projector moves on. */
function answerView(path, display, id, spec, canon) {
  const me = studentId();
  const mineKey = `dpplay.lecture.answer.${canon}.${id}`;
  let mine = null;
  try { mine = JSON.parse(localStorage.getItem(mineKey) || 'null'); } catch { mine = null; }
  const field = spec.kind === 'meeting-day'
    ? el('fieldset', { class: 'lec-checks' }, el('legend', {}, spec.prompt || 'Which options suit you?'),
      spec.options.map((o, i) => el('label', { class: 'choice' },
        el('input', { type: 'checkbox', name: 'day', value: i, checked: !!(mine && Array.isArray(mine.available) && mine.available.includes(i)) }), ` ${o}`)))
    : [el('label', { for: 'value' }, spec.prompt || 'Your value'),
      el('input', { id: 'value', type: 'number', min: spec.kind === 'histogram' ? spec.min : 0, max: spec.kind === 'histogram' ? spec.max : false,
        step: 'any', required: true, value: mine && Number.isFinite(mine.value) ? mine.value : '' })];
  const sendButton = el('button', { class: 'primary', type: 'submit' }, mine ? 'Update my answer' : 'Send my answer');
  const sent = el('p', { class: 'lec-sent', 'data-sent': true }, mine ? 'Answer sent. You can change it until the instructor closes the activity.' : '');
  const answerForm = el('form', { class: 'lec-card lec-answer', 'data-activity': id }, field, sendButton, sent);
  const out = el('div', { class: 'lec-result', 'aria-live': 'polite' });
  const outcomeBox = el('div', { class: 'lec-outcome', 'aria-live': 'polite' });
  const budget = el('p', { class: 'lec-meta', 'data-budget': true });
  show(main, el('div', { class: 'lec-student' }, el('h1', { class: 'lec-code-small' }, `Session ${display}`), answerForm,
    el('section', { class: 'lec-card', 'aria-labelledby': 'rel-h' }, el('h2', { id: 'rel-h' }, 'What the class sees'), out, outcomeBox, budget)));
  let latest = null; // the newest release seen
  let outcome = ''; // what .lec-outcome says
  // A pricing student's outcome is worked out here, from the value this
  // phone sent and the public price only; the server never sends a value
  // back and knows nothing of other students here. Which value a release
  // was drawn from: on storing an answer the server says which release was
  // the newest then (after), and every later release holds that answer.
  // prev is the answer before the last release, which the latest release
  // still holds if the student has changed their mind since.
  const held = (r) => [mine, mine && mine.prev].find((m) => m && m.after < r.seq);
  const showOutcome = () => {
    let parts = [];
    if (spec.kind === 'pricing' && latest && mine) {
      const m = held(latest);
      const p = num(latest.result && latest.result.price);
      parts = !m ? ['Your answer came after this release: your outcome comes with the next one.']
        : m.value >= p ? [`You buy at ${fmt(p)}: your utility is ${fmt(m.value)} − ${fmt(p)} = `, el('strong', {}, fmt(m.value - p)), '.']
          : [`You do not buy (your value ${fmt(m.value)} is below ${fmt(p)}): utility `, el('strong', {}, '0'), '.'];
    }
    const said = parts.map((x) => (typeof x === 'string' ? x : x.textContent)).join('');
    // Only on change, so that the live region does not repeat itself every poll.
    if (said !== outcome) { outcome = said; show(outcomeBox, parts.length ? el('p', { class: 'lec-you' }, parts) : null); }
  };
  answerForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const answer = spec.kind === 'meeting-day'
      ? { available: [...main.querySelectorAll('input[name=day]:checked')].map((c) => +c.value) }
      : { value: +main.querySelector('#value').value };
    try {
      const reply = await call('PUT', `${path}/activities/${id}/submissions/${me}`, answer);
      const after = int(reply.after_release ?? 0);
      const prev = mine && mine.after < after ? { ...mine, prev: null } : (mine && mine.prev) || null;
      mine = { ...answer, after, prev };
      localStorage.setItem(mineKey, JSON.stringify(mine));
      sent.textContent = 'Answer sent. You can change it until the instructor closes the activity.';
      sendButton.textContent = 'Update my answer';
      say('Answer sent.');
      showOutcome();
    } catch (err) { say(`Not sent: ${err.message}`); }
  });
  let seq = -1;
  return new Promise((moveOn) => {
    const poll = async () => {
      try {
        const a = await call('GET', `${path}/activities/${id}`);
        const cur = a.current == null ? 0 : int(a.current);
        if (cur && cur !== id) { moveOn(cur); return; }
        const n = int(a.participants);
        budget.textContent = `${n} answer${n === 1 ? '' : 's'} so far · ε left for the lecture ${fmt(a.epsilon_remaining)} of ${fmt(a.epsilon_budget)}`;
        latest = latestRelease(a) || null;
        if ((latest ? latest.seq : 0) !== seq) {
          show(out, result(spec, latest, false));
          seq = latest ? latest.seq : 0;
        }
        showOutcome();
        sendButton.disabled = !!a.closed;
        if (a.closed) sent.textContent = 'The instructor has closed submissions for now.';
        else sent.textContent = mine ? 'Answer sent. You can change it until the instructor closes the activity.' : '';
      } catch (err) { say(`Connection problem: ${err.message}`); }
      setTimeout(poll, POLL_MS);
    };
    poll();
  });
}

chooseAPI().then((api) => { API = api; return params.get('role') === 'host' ? host() : student(); })
  .catch((err) => say(`Something went wrong: ${err.message}`));
