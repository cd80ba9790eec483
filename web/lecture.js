// The live lecture page (API in docs/lecture.md). Two views:
//   ?role=host&activity=meeting-day|pricing|histogram  the projector view
//   ?join=CODE                               a student's phone view
// The projector shows only what the server releases. The instructor token
// stays in sessionStorage, never in the URL; the student id (128 random bits)
// and a pricing student's own value stay in localStorage on the phone.
// A host page opened on a loopback address warns that phones cannot reach it.
//
// Everything from the API or the URL is untrusted (docs/security.md): the DOM
// is built with el() and textContent, numbers are checked to be finite before
// they are shown, and an API named by ?api= is used only after the person
// has seen its host and agreed, and never remembered.
import { qrSVG } from './qr.js';

/** DEFAULT_API: the lecture back end when no ?api= is set; '' means `api/` beside this page (dpplay serve). */
export const DEFAULT_API = '';
const LEGACY_API_KEY = 'dpplay.lecture.api'; // earlier versions remembered ?api= here
const HOST_KEY = 'dpplay.lecture.host';
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

const SPECS = {
  'meeting-day': { kind: 'meeting-day', options: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], prompt: 'Which days could you come to an extra session?' },
  pricing: { kind: 'pricing', prices: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], prompt: 'What is this digital good worth to you, from 0 to 10?' },
  histogram: { kind: 'histogram', min: 0, max: 12, bins: 6, prompt: 'How many hours did you sleep last night (0 to 12)?' },
};

/** checkSpec(s) returns the activity spec s with its kind checked and its numbers finite. */
function checkSpec(s) {
  if (!s || !SPECS[s.kind]) throw new Error('the server sent an activity of an unknown kind');
  const out = { kind: s.kind, prompt: text(s.prompt) };
  if (s.kind === 'meeting-day') out.options = (Array.isArray(s.options) ? s.options : []).map(text);
  if (s.kind === 'histogram') { out.min = num(s.min); out.max = num(s.max); out.bins = int(s.bins); }
  return out;
}

// histogram draws the released noisy counts as bars. The counts are
// integers (exact discrete Laplace noise) and can be negative: such a bar is
// empty and its number is shown as released, since clipping it here would
// hide what the mechanism really output.
function histogram(r) {
  const counts = (Array.isArray(r.result.counts) ? r.result.counts : []).map(num);
  const edges = (Array.isArray(r.result.edges) ? r.result.edges : []).map(num);
  if (edges.length !== counts.length + 1) throw new Error('the server sent a malformed release');
  const top = Math.max(1, ...counts);
  const bars = counts.map((c, i) => {
    const bar = el('span', { class: 'lec-bar' });
    bar.style.height = `${(100 * Math.max(0, c) / top).toFixed(1)}%`;
    return el('li', {}, el('span', { class: 'lec-bar-area' }, el('span', { class: 'lec-bar-count' }, fmt(c)), bar),
      el('span', { class: 'lec-bar-label' }, `${fmt(edges[i])}–${fmt(edges[i + 1])}`));
  });
  const said = counts.map((c, i) => `${fmt(edges[i])} to ${fmt(edges[i + 1])}: ${fmt(c)}`).join('; ');
  return el('ol', { class: 'lec-hist', 'data-result': counts.map(fmt).join(','), 'aria-label': `Noisy count per range: ${said}` }, bars);
}

function joinURL(code) {
  const u = new URL('lecture.html', location.href);
  u.search = '';
  u.searchParams.set('join', code);
  if (API !== HOME_API) u.searchParams.set('api', API);
  return u.href;
}

// latestRelease: the API leaves "releases" out until the first one.
const latestRelease = (a) => (Array.isArray(a.releases) ? a.releases : []).at(-1);

function result(spec, r, large) {
  if (!r) return [el('p', { class: 'lec-waiting' }, 'No release yet.')];
  const n = int(r.participants);
  const meta = el('p', { class: 'lec-meta' }, `ε = ${fmt(r.epsilon)} · from ${n} answer${n === 1 ? '' : 's'} · release ${int(r.seq)}`);
  const res = r.result && typeof r.result === 'object' ? r.result : {};
  if (spec.kind === 'meeting-day') {
    const choice = int(res.choice);
    const option = text(spec.options[choice]);
    const tiles = spec.options.map((o, i) => el('li', { class: i === choice ? 'chosen' : false, 'aria-current': i === choice ? 'true' : false }, o));
    return [el('p', { class: 'lec-big', 'data-result': option }, option),
      large && el('ol', { class: 'lec-days', 'aria-label': 'All options, the released one highlighted' }, tiles), meta];
  }
  if (spec.kind === 'pricing') return [el('p', { class: 'lec-big', 'data-result': fmt(res.price) }, `price ${fmt(res.price)}`), meta];
  return [histogram({ result: res }), meta];
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

// ---- Instructor ----
async function host() {
  const kind = SPECS[params.get('activity')] ? params.get('activity') : 'meeting-day';
  let s = null;
  try { s = JSON.parse(sessionStorage.getItem(HOST_KEY) || 'null'); } catch { s = null; }
  if (!s || s.kind !== kind || s.api !== API) {
    const form = el('form', { class: 'lec-card lec-setup' }, el('p', {}, SPECS[kind].prompt),
      el('label', { for: 'budget' }, 'Privacy budget for the session, ε (epsilon)'),
      el('input', { id: 'budget', type: 'number', min: '0.1', max: '100', step: 'any', value: '3', required: true }),
      el('label', { for: 'roster' }, 'Most students who may answer'),
      el('input', { id: 'roster', type: 'number', min: '1', max: '10000', step: '1', value: '1000', required: true }),
      el('button', { class: 'primary', type: 'submit' }, 'Start the session'));
    show(main, el('h1', {}, 'Run this with the class'), loopbackWarning(), form);
    await new Promise((done) => form.addEventListener('submit', (e) => { e.preventDefault(); done(); }, { once: true }));
    say('Starting the session…');
    try {
      const sess = await call('POST', 'sessions', { epsilon_budget: +form.querySelector('#budget').value, roster: +form.querySelector('#roster').value });
      const act = await call('POST', `sessions/${encodeURIComponent(text(sess.code))}/activities`, SPECS[kind], text(sess.instructor_token));
      s = { api: API, kind, code: text(sess.code), display: text(sess.display), token: text(sess.instructor_token), id: int(act.id) };
      sessionStorage.setItem(HOST_KEY, JSON.stringify(s));
      say('');
    } catch (err) { say(`Could not start the session: ${err.message}`); return; }
  }
  const code = encodeURIComponent(s.code);
  const link = joinURL(s.display);
  // label is [one, many]: the projector says "1 answer", "2 answers".
  const stat = (label, attr) => el('p', {}, el('span', { class: 'lec-num', [attr]: true }, '–'), ' ', el('span', { 'data-label': label.join('|') }, label[1]));
  const door = el('button', { type: 'button', 'data-door': true }, 'Close to new students');
  const eps = el('input', { id: 'eps', type: 'number', min: '0.01', max: '10', step: 'any', value: '0.5', required: true });
  const releaseForm = el('form', { class: 'lec-release' }, el('label', { for: 'eps' }, 'ε (epsilon) for this release'), eps,
    el('button', { class: 'primary', type: 'submit' }, 'Release'));
  const out = el('div', { class: 'lec-result', 'aria-live': 'polite' });
  const meter = el('meter', { class: 'lec-meter', min: '0', max: '1', value: '1', 'aria-label': 'Privacy budget left' });
  const again = el('button', { type: 'button', 'data-new': true }, 'New session');
  show(main, loopbackWarning(), el('div', { class: 'lec-host' },
    el('section', { class: 'lec-card lec-join', 'aria-labelledby': 'join-h' }, el('h1', { id: 'join-h' }, 'Join on your phone'),
      el('div', { class: 'lec-qr' }, qr(link)),
      el('p', { class: 'lec-code-label' }, 'or enter the code'), el('p', { class: 'lec-code', 'data-code': true }, s.display),
      el('p', { class: 'lec-link' }, el('a', { href: link, target: '_blank', rel: 'noopener' }, link))),
    el('section', { class: 'lec-card lec-live', 'aria-labelledby': 'live-h' }, el('h2', { id: 'live-h', class: 'visually-hidden' }, 'Live'),
      el('p', { class: 'lec-prompt' }, SPECS[kind].prompt),
      el('div', { class: 'lec-stats' }, stat(['answer', 'answers'], 'data-participants'), stat(['joined', 'joined'], 'data-joined'), stat(['ε left', 'ε left'], 'data-remaining')),
      el('p', { class: 'lec-meta lec-door' }, el('span', { 'data-door-state': true }), ' ', door),
      meter, releaseForm, out, el('p', {}, again))));
  const q = (sel) => main.querySelector(sel);
  again.addEventListener('click', () => { sessionStorage.removeItem(HOST_KEY); location.reload(); });
  let last = null;
  let seq = -1;
  const render = (a) => {
    const count = (attr, n, shown) => {
      const box = q(`[${attr}]`);
      box.textContent = shown;
      const [one, many] = box.nextElementSibling.dataset.label.split('|');
      box.nextElementSibling.textContent = n === 1 ? one : many;
    };
    count('data-participants', int(a.participants), int(a.participants));
    count('data-joined', int(a.joined), int(a.joined));
    count('data-remaining', 0, fmt(a.epsilon_remaining));
    q('[data-door-state]').textContent = `${a.door_open ? 'Open to new students' : 'Closed to new students'} · at most ${int(a.roster).toLocaleString('en')} students`;
    door.textContent = a.door_open ? 'Close to new students' : 'Open to new students';
    meter.max = num(a.epsilon_budget);
    meter.value = num(a.epsilon_remaining);
    const r = latestRelease(a);
    if (r && r.seq !== seq) { show(out, result(spec, r, true)); seq = r.seq; }
    if (!r && seq === -1) { seq = 0; show(out, result(spec, null)); }
    last = a;
  };
  const spec = checkSpec(SPECS[kind]);
  const refresh = async () => render(await call('GET', `sessions/${code}/activities/${s.id}`));
  door.addEventListener('click', async () => {
    try {
      await call('POST', `sessions/${code}/door`, { open: !(last && last.door_open) }, s.token);
      await refresh();
    } catch (err) { say(`Could not change the door: ${err.message}`); }
  });
  releaseForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const epsilon = +eps.value;
    if (last && last.participants === 0) { say('Nobody has answered yet.'); return; }
    if (last && epsilon > last.epsilon_remaining + 1e-12) { say(`Only ε = ${fmt(last.epsilon_remaining)} is left.`); return; }
    try {
      await call('POST', `sessions/${code}/activities/${s.id}/releases`, { epsilon }, s.token);
      say(`Released with ε = ${fmt(epsilon)}.`);
      await refresh();
    } catch (err) { say(`Release refused: ${err.message}`); }
  });
  const poll = async () => {
    try { await refresh(); } catch (err) { say(`Connection problem: ${err.message}`); }
    setTimeout(poll, POLL_MS);
  };
  document.body.dataset.view = 'host';
  poll();
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
  let sess, act, spec;
  try {
    sess = await call('GET', path);
    const acts = Array.isArray(sess.activities) ? sess.activities : [];
    const open = acts.filter((a) => !a.closed);
    act = open[open.length - 1] || acts[acts.length - 1];
    if (act) { int(act.id); spec = checkSpec(act.spec); }
  } catch (err) {
    show(main, el('h1', {}, 'Could not join'), el('p', {}, err.message), el('p', {}, el('a', { href: 'lecture.html' }, 'Try another code')));
    return;
  }
  if (!act) { show(main, el('h1', {}, 'Waiting'), el('p', {}, 'The instructor has not started an activity yet. Reload in a moment.')); return; }
  const me = studentId();
  const mineKey = `dpplay.lecture.answer.${text(sess.code) || code}.${act.id}`;
  let mine = null;
  try { mine = JSON.parse(localStorage.getItem(mineKey) || 'null'); } catch { mine = null; }
  const field = spec.kind === 'meeting-day'
    ? el('fieldset', { class: 'lec-checks' }, el('legend', {}, spec.prompt || 'Which days can you make?'),
      spec.options.map((o, i) => el('label', { class: 'choice' },
        el('input', { type: 'checkbox', name: 'day', value: i, checked: !!(mine && Array.isArray(mine.available) && mine.available.includes(i)) }), ` ${o}`)))
    : [el('label', { for: 'value' }, spec.prompt || 'Your value'),
      el('input', { id: 'value', type: 'number', min: spec.kind === 'histogram' ? spec.min : 0, max: spec.kind === 'histogram' ? spec.max : false,
        step: 'any', required: true, value: mine && Number.isFinite(mine.value) ? mine.value : '' })];
  const sendButton = el('button', { class: 'primary', type: 'submit' }, mine ? 'Update my answer' : 'Send my answer');
  const sent = el('p', { class: 'lec-sent', 'data-sent': true }, mine ? 'Answer sent. You can change it until the instructor closes the activity.' : '');
  const answerForm = el('form', { class: 'lec-card lec-answer' }, field, sendButton, sent);
  const out = el('div', { class: 'lec-result', 'aria-live': 'polite' });
  const outcomeBox = el('div', { class: 'lec-outcome', 'aria-live': 'polite' });
  const budget = el('p', { class: 'lec-meta', 'data-budget': true });
  show(main, el('div', { class: 'lec-student' }, el('h1', { class: 'lec-code-small' }, `Session ${text(sess.display) || code}`), answerForm,
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
      const reply = await call('PUT', `${path}/activities/${act.id}/submissions/${me}`, answer);
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
  const poll = async () => {
    try {
      const a = await call('GET', `${path}/activities/${act.id}`);
      const n = int(a.participants);
      budget.textContent = `${n} answer${n === 1 ? '' : 's'} so far · ε left ${fmt(a.epsilon_remaining)} of ${fmt(a.epsilon_budget)}`;
      latest = latestRelease(a) || null;
      if ((latest ? latest.seq : 0) !== seq) {
        show(out, result(spec, latest, false));
        seq = latest ? latest.seq : 0;
      }
      showOutcome();
      if (a.closed) sendButton.disabled = true;
    } catch (err) { say(`Connection problem: ${err.message}`); }
    setTimeout(poll, POLL_MS);
  };
  document.body.dataset.view = 'student';
  poll();
}

chooseAPI().then((api) => { API = api; return params.get('role') === 'host' ? host() : student(); })
  .catch((err) => say(`Something went wrong: ${err.message}`));
