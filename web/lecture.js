// The live lecture page (API in docs/lecture.md). Two views:
//   ?role=host&activity=meeting-day|pricing|histogram  the projector view
//   ?join=CODE                               a student's phone view
// The projector shows only what the server releases. The instructor token
// stays in sessionStorage, never in the URL; the student id (128 random bits)
// and a pricing student's own value stay in localStorage on the phone.
// A host page opened on a loopback address warns that phones cannot reach it.
import { qrSVG } from './qr.js';

/** DEFAULT_API: the lecture back end when no ?api= is set; '' means `api/` beside this page (dpplay serve). */
export const DEFAULT_API = '';
const API_KEY = 'dpplay.lecture.api';
const HOST_KEY = 'dpplay.lecture.host';
const STUDENT_KEY = 'dpplay.lecture.student';
const POLL_MS = 1500;

const params = new URLSearchParams(location.search);
const main = document.getElementById('main');
const status = document.getElementById('lecture-status');
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const fmt = (x) => (Math.round(x * 1000) / 1000).toString();

/** apiBase(): ?api= (remembered; ?api=default forgets it), else the remembered one, else DEFAULT_API, else ./api/. */
function apiBase() {
  let setting = params.get('api');
  try {
    if (setting === 'default' || setting === '') { localStorage.removeItem(API_KEY); setting = null; }
    else if (setting && /^https?:\/\//.test(setting)) localStorage.setItem(API_KEY, setting);
    else setting = localStorage.getItem(API_KEY);
  } catch { /* storage blocked: use the default */ }
  const base = setting || DEFAULT_API;
  if (!base) return new URL('api/', location.href).href;
  const u = new URL(base);
  if (!/\/api\/?$/.test(u.pathname)) u.pathname = u.pathname.replace(/\/?$/, '/api/');
  return u.href.replace(/\/?$/, '/');
}
const API = apiBase();

async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status });
  return data;
}

const say = (text) => { status.textContent = text; };

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

// histogramHTML draws the released noisy counts as bars. The counts are
// integers (exact discrete Laplace noise) and can be negative: such a bar is
// empty and its number is shown as released, since clipping it here would
// hide what the mechanism really output.
function histogramHTML(r) {
  const { counts, edges } = r.result;
  const top = Math.max(1, ...counts);
  const bars = counts.map((c, i) => {
    const range = `${fmt(edges[i])}–${fmt(edges[i + 1])}`;
    return `<li><span class="lec-bar-area"><span class="lec-bar-count">${fmt(c)}</span><span class="lec-bar" style="height:${(100 * Math.max(0, c) / top).toFixed(1)}%"></span></span><span class="lec-bar-label">${range}</span></li>`;
  }).join('');
  const text = counts.map((c, i) => `${fmt(edges[i])} to ${fmt(edges[i + 1])}: ${fmt(c)}`).join('; ');
  return `<ol class="lec-hist" data-result="${counts.map(fmt).join(',')}" aria-label="Noisy count per range: ${esc(text)}">${bars}</ol>`;
}

function joinURL(code) {
  const u = new URL('lecture.html', location.href);
  u.search = '';
  u.searchParams.set('join', code);
  const api = params.get('api') || localStorage.getItem(API_KEY);
  if (api && /^https?:\/\//.test(api)) u.searchParams.set('api', api);
  return u.href;
}

// latestRelease: the API leaves "releases" out until the first one.
const latestRelease = (a) => (a.releases || []).at(-1);

function resultHTML(spec, r, large) {
  if (!r) return `<p class="lec-waiting">No release yet.</p>`;
  const meta = `<p class="lec-meta">ε = ${fmt(r.epsilon)} · from ${r.participants} answer${r.participants === 1 ? '' : 's'} · release ${r.seq}</p>`;
  if (spec.kind === 'meeting-day') {
    const tiles = spec.options.map((o, i) => `<li class="${i === r.result.choice ? 'chosen' : ''}"${i === r.result.choice ? ' aria-current="true"' : ''}>${esc(o)}</li>`).join('');
    return `<p class="lec-big" data-result="${esc(r.result.option)}">${esc(r.result.option)}</p>${large ? `<ol class="lec-days" aria-label="All options, the released one highlighted">${tiles}</ol>` : ''}${meta}`;
  }
  if (spec.kind === 'pricing') return `<p class="lec-big" data-result="${r.result.price}">price ${fmt(r.result.price)}</p>${meta}`;
  return `${histogramHTML(r)}${meta}`;
}

// isLoopback: a host name that a phone would take to mean the phone itself.
// URL.hostname keeps IPv6 brackets.
const isLoopback = (h) => h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) ||
  h === '[::1]' || h === '0.0.0.0' || h === '[::]';

// loopbackWarning: shown on the projector view when the join link and QR
// code would point phones at this computer's loopback address, which is
// the first thing to go wrong when running a class from a laptop.
function loopbackWarning() {
  if (!isLoopback(location.hostname)) return '';
  const port = location.port || (location.protocol === 'https:' ? '443' : '80');
  const fixed = `${location.protocol}//<var>address</var>:${port}${esc(location.pathname + location.search)}`;
  return `<section class="lec-warning" aria-labelledby="warn-h" data-loopback-warning>
    <svg class="lec-warning-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2.5 1.5 21h21L12 2.5Z"/><path class="mark" d="M11 9h2v6h-2zM11 16.5h2v2h-2z"/></svg>
    <div><p class="lec-warning-title" id="warn-h">Phones cannot reach this page</p>
    <p>It is open at <strong>${esc(location.hostname)}</strong>, which on a phone means the phone itself: the join link and QR code
      this page gives the class will not work. To fix it:</p>
    <ol><li>Serve on the network: <code>make serve ADDR=0.0.0.0:${port}</code></li>
      <li>Open this page at this computer’s network address, on the same Wi-Fi as the phones:
        <code class="lec-warning-url">${fixed}</code><br>Find the address with <code>hostname -I</code> (Linux),
        <code>ipconfig getifaddr en0</code> (macOS) or <code>ipconfig</code> (Windows)</li></ol></div>
  </section>`;
}

// ---- Instructor ----
async function host() {
  const kind = SPECS[params.get('activity')] ? params.get('activity') : 'meeting-day';
  let s = null;
  try { s = JSON.parse(sessionStorage.getItem(HOST_KEY) || 'null'); } catch { s = null; }
  if (!s || s.kind !== kind || s.api !== API) {
    main.innerHTML = `<h1>Run this with the class</h1>${loopbackWarning()}<form class="lec-card lec-setup"><p>${esc(SPECS[kind].prompt)}</p>
      <label for="budget">Privacy budget for the session, ε (epsilon)</label>
      <input id="budget" type="number" min="0.1" max="100" step="any" value="3" required>
      <button class="primary" type="submit">Start the session</button></form>`;
    await new Promise((done) => main.querySelector('form').addEventListener('submit', (e) => { e.preventDefault(); done(); }, { once: true }));
    say('Starting the session…');
    try {
      const sess = await call('POST', 'sessions', { epsilon_budget: +main.querySelector('#budget').value });
      const act = await call('POST', `sessions/${sess.code}/activities`, SPECS[kind], sess.instructor_token);
      s = { api: API, kind, code: sess.code, display: sess.display, token: sess.instructor_token, id: act.id };
      sessionStorage.setItem(HOST_KEY, JSON.stringify(s));
      say('');
    } catch (err) { say(`Could not start the session: ${err.message}`); return; }
  }
  const link = joinURL(s.display);
  main.innerHTML = `${loopbackWarning()}<div class="lec-host">
    <section class="lec-card lec-join" aria-labelledby="join-h"><h1 id="join-h">Join on your phone</h1>
      <div class="lec-qr">${qrSVG(link, `QR code for the join link ${link}`)}</div>
      <p class="lec-code-label">or enter the code</p><p class="lec-code" data-code>${esc(s.display)}</p>
      <p class="lec-link"><a href="${esc(link)}" target="_blank" rel="noopener">${esc(link)}</a></p></section>
    <section class="lec-card lec-live" aria-labelledby="live-h"><h2 id="live-h" class="visually-hidden">Live</h2>
      <p class="lec-prompt">${esc(SPECS[kind].prompt)}</p>
      <div class="lec-stats"><p><span class="lec-num" data-participants>0</span> answers</p>
        <p><span class="lec-num" data-remaining>–</span> ε left</p></div>
      <meter class="lec-meter" min="0" max="1" value="1" aria-label="Privacy budget left"></meter>
      <form class="lec-release"><label for="eps">ε (epsilon) for this release</label>
        <input id="eps" type="number" min="0.01" max="10" step="any" value="0.5" required>
        <button class="primary" type="submit">Release</button></form>
      <div class="lec-result" aria-live="polite"></div>
      <p><button type="button" data-new>New session</button></p></section></div>`;
  const q = (sel) => main.querySelector(sel);
  q('[data-new]').addEventListener('click', () => { sessionStorage.removeItem(HOST_KEY); location.reload(); });
  let last = null;
  let seq = -1;
  const show = (a) => {
    q('[data-participants]').textContent = a.participants;
    q('[data-remaining]').textContent = fmt(a.epsilon_remaining);
    q('.lec-meter').max = a.epsilon_budget;
    q('.lec-meter').value = a.epsilon_remaining;
    const r = latestRelease(a);
    if (r && r.seq !== seq) { seq = r.seq; q('.lec-result').innerHTML = resultHTML(a.spec, r, true); }
    if (!r && seq === -1) { seq = 0; q('.lec-result').innerHTML = resultHTML(a.spec, null); }
    last = a;
  };
  q('.lec-release').addEventListener('submit', async (e) => {
    e.preventDefault();
    const eps = +q('#eps').value;
    if (last && last.participants === 0) { say('Nobody has answered yet.'); return; }
    if (last && eps > last.epsilon_remaining + 1e-12) { say(`Only ε = ${fmt(last.epsilon_remaining)} is left.`); return; }
    try {
      await call('POST', `sessions/${s.code}/activities/${s.id}/releases`, { epsilon: eps }, s.token);
      say(`Released with ε = ${fmt(eps)}.`);
      show(await call('GET', `sessions/${s.code}/activities/${s.id}`));
    } catch (err) { say(`Release refused: ${err.message}`); }
  });
  const poll = async () => {
    try { show(await call('GET', `sessions/${s.code}/activities/${s.id}`)); } catch (err) { say(`Connection problem: ${err.message}`); }
    setTimeout(poll, POLL_MS);
  };
  document.body.dataset.view = 'host';
  poll();
}

// ---- Student ----
async function student() {
  let code = params.get('join');
  if (!code) {
    main.innerHTML = `<h1>Join the class</h1><form class="lec-card"><label for="code">Join code from the screen</label>
      <input id="code" autocomplete="off" autocapitalize="characters" spellcheck="false" required maxlength="20" class="lec-code-input">
      <button class="primary" type="submit">Join</button></form>`;
    code = await new Promise((done) => main.querySelector('form').addEventListener('submit', (e) => { e.preventDefault(); done(main.querySelector('#code').value.trim()); }, { once: true }));
  }
  let sess;
  try { sess = await call('GET', `sessions/${encodeURIComponent(code)}`); } catch (err) { main.innerHTML = `<h1>Could not join</h1><p>${esc(err.message)}</p><p><a href="lecture.html">Try another code</a></p>`; return; }
  const open = sess.activities.filter((a) => !a.closed);
  const act = open[open.length - 1] || sess.activities[sess.activities.length - 1];
  if (!act) { main.innerHTML = `<h1>Waiting</h1><p>The instructor has not started an activity yet. Reload in a moment.</p>`; return; }
  const spec = act.spec;
  const me = studentId();
  const mineKey = `dpplay.lecture.answer.${sess.code || code}.${act.id}`;
  let mine = null;
  try { mine = JSON.parse(localStorage.getItem(mineKey) || 'null'); } catch { mine = null; }
  const field = spec.kind === 'meeting-day'
    ? `<fieldset class="lec-checks"><legend>${esc(spec.prompt || 'Which days can you make?')}</legend>${spec.options.map((o, i) =>
      `<label class="choice"><input type="checkbox" name="day" value="${i}"${mine && mine.available.includes(i) ? ' checked' : ''}> ${esc(o)}</label>`).join('')}</fieldset>`
    : `<label for="value">${esc(spec.prompt || 'Your value')}</label><input id="value" type="number" min="${spec.kind === 'histogram' ? spec.min : 0}"${spec.kind === 'histogram' ? ` max="${spec.max}"` : ''} step="any" required value="${mine ? mine.value : ''}">`;
  main.innerHTML = `<div class="lec-student"><h1 class="lec-code-small">Session ${esc(sess.display || code)}</h1>
    <form class="lec-card lec-answer">${field}<button class="primary" type="submit">${mine ? 'Update my answer' : 'Send my answer'}</button>
    <p class="lec-sent" data-sent>${mine ? 'Answer sent. You can change it until the instructor closes the activity.' : ''}</p></form>
    <section class="lec-card" aria-labelledby="rel-h"><h2 id="rel-h">What the class sees</h2><div class="lec-result" aria-live="polite"></div>
    <div class="lec-outcome" aria-live="polite"></div><p class="lec-meta" data-budget></p></section></div>`;
  const q = (sel) => main.querySelector(sel);
  let latest = null; // the newest release seen
  let outcome = ''; // what .lec-outcome shows
  // A pricing student's outcome is worked out here, from the value this
  // phone sent and the public price only; the server never sends a value
  // back and knows nothing of other students here. Which value a release
  // was drawn from: on storing an answer the server says which release was
  // the newest then (after), and every later release holds that answer.
  // prev is the answer before the last release, which the latest release
  // still holds if the student has changed their mind since.
  const held = (r) => [mine, mine && mine.prev].find((m) => m && m.after < r.seq);
  const showOutcome = () => {
    let html = '';
    if (spec.kind === 'pricing' && latest && mine) {
      const m = held(latest);
      const p = latest.result.price;
      html = !m ? `<p class="lec-you">Your answer came after this release: your outcome comes with the next one.</p>`
        : m.value >= p ? `<p class="lec-you">You buy at ${fmt(p)}: your utility is ${fmt(m.value)} − ${fmt(p)} = <strong>${fmt(m.value - p)}</strong>.</p>`
          : `<p class="lec-you">You do not buy (your value ${fmt(m.value)} is below ${fmt(p)}): utility <strong>0</strong>.</p>`;
    }
    // Only on change, so that the live region does not repeat itself every poll.
    if (html !== outcome) q('.lec-outcome').innerHTML = outcome = html;
  };
  q('.lec-answer').addEventListener('submit', async (e) => {
    e.preventDefault();
    const answer = spec.kind === 'meeting-day'
      ? { available: [...main.querySelectorAll('input[name=day]:checked')].map((c) => +c.value) }
      : { value: +q('#value').value };
    try {
      const reply = await call('PUT', `sessions/${encodeURIComponent(code)}/activities/${act.id}/submissions/${me}`, answer);
      const after = reply.after_release ?? 0;
      const prev = mine && mine.after < after ? { ...mine, prev: null } : (mine && mine.prev) || null;
      mine = { ...answer, after, prev };
      localStorage.setItem(mineKey, JSON.stringify(mine));
      q('[data-sent]').textContent = 'Answer sent. You can change it until the instructor closes the activity.';
      q('.lec-answer button').textContent = 'Update my answer';
      say('Answer sent.');
      showOutcome();
    } catch (err) { say(`Not sent: ${err.message}`); }
  });
  let seq = -1;
  const poll = async () => {
    try {
      const a = await call('GET', `sessions/${encodeURIComponent(code)}/activities/${act.id}`);
      q('[data-budget]').textContent = `${a.participants} answer${a.participants === 1 ? '' : 's'} so far · ε left ${fmt(a.epsilon_remaining)} of ${fmt(a.epsilon_budget)}`;
      latest = latestRelease(a) || null;
      if ((latest ? latest.seq : 0) !== seq) {
        seq = latest ? latest.seq : 0;
        q('.lec-result').innerHTML = resultHTML(spec, latest, false);
      }
      showOutcome();
      if (a.closed) q('.lec-answer button').disabled = true;
    } catch (err) { say(`Connection problem: ${err.message}`); }
    setTimeout(poll, POLL_MS);
  };
  document.body.dataset.view = 'student';
  poll();
}

(params.get('role') === 'host' ? host() : student()).catch((err) => say(`Something went wrong: ${err.message}`));
