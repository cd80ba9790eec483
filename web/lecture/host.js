// The instructor's view of the live lecture.
//
// The instructor's control view of the live lecture
// (lecture.html?role=host[&session=CODE][&activity=meeting-day|pricing|histogram]):
// one session is the whole lecture, its activities switched here, its ε
// ledger shown, the room let in or pruned; the projector view, opened from
// here in a second window, shows the room only what it should see.
//
// The instructor token is kept per session in this device's localStorage,
// never in the URL. Starting a session on a server that is not this
// machine needs the instructor key that `dpplay serve` prints, in the
// link's fragment (#key=…, never sent to a server) or typed here; it is
// kept per API in localStorage.
import { save } from '../base/download.js';
import {
  API, POLL_MS, SPECS, activityName, call, checkSpec, count, el, epsilonProblem, epsilonUnits, fmt, hasAPI, int, joinCard, joinURL, latestRelease, main, noiseOf, noiseSentence, num,
  numberInput, once, params, plural, refusal, releasesOf, requestID, result, resultText, said, say, sessionChannel, show, stat, tell, text, typedNumber,
} from './client.js';

// sayAgain(input, out) puts the focus on a box whose number cannot be used
// and has its line (out, which says why) announced again: pressing a
// button then says the rule where it already stands, once.
const sayAgain = (input, out) => { input.focus(); tell(out, out.textContent, true); };

// isLoopback: a host name that a phone would take to mean the phone itself.
// URL.hostname keeps IPv6 brackets.
const isLoopback = (h) => h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) ||
  h === '[::1]' || h === '0.0.0.0' || h === '[::]';

// loopbackWarning: shown on the control view when the join link and QR
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
      el('li', {}, 'Deploy the lecture API: ', el('code', {}, 'make cloudflare-build'), ', then in ', el('code', {}, 'cloudflare/'), ' ', el('code', {}, 'npx wrangler d1 create dpplay-lecture'), ', ',
        el('code', {}, 'npx wrangler d1 migrations apply DB --remote'), ', ', el('code', {}, 'npx wrangler secret put INSTRUCTOR_KEY'), ' and ', el('code', {}, 'npx wrangler deploy'), ' (docs/lecture.md, “Deploying the worker”).'),
      el('li', {}, 'Set ', el('code', {}, 'DEFAULT_API'), ' in ', el('code', {}, 'web/lecture/client.js'), ' to the worker’s URL and add its origin to ', el('code', {}, 'connect-src'),
        ' in ', el('code', {}, 'web/lecture.html'), '; set the worker’s ', el('code', {}, 'ALLOWED_ORIGIN'), ' to this site’s origin.'),
      el('li', {}, 'Rebuild and publish the site, then open ', el('code', {}, `${here}?role=host`), ' again.')));
}

// The instructor's sessions on this device. The token is the key to a
// session: whoever holds it releases and spends the budget, and nobody can
// recover it, so it is kept in this browser's localStorage, per session and
// API, never in a URL (docs/security.md).
const SESSIONS_KEY = 'dpplay.lecture.sessions';
const KEYS_KEY = 'dpplay.lecture.keys';
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

// The instructor key of each API, from the link's fragment or typed.
const validKey = (k) => typeof k === 'string' && /^[A-Za-z0-9_-]{8,128}$/.test(k);
function instructorKey() {
  let keys;
  try { keys = JSON.parse(localStorage.getItem(KEYS_KEY) || '{}'); } catch { keys = {}; }
  const k = keys && typeof keys === 'object' ? keys[API] : '';
  return validKey(k) ? k : '';
}
function keepKey(k) {
  let keys;
  try { keys = JSON.parse(localStorage.getItem(KEYS_KEY) || '{}'); } catch { keys = {}; }
  if (!keys || typeof keys !== 'object' || Array.isArray(keys)) keys = {};
  keys[API] = k;
  localStorage.setItem(KEYS_KEY, JSON.stringify(keys));
}
/** takeKeyFromLink keeps the key of a link's #key=… and takes it out of the address bar. */
function takeKeyFromLink() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (!h.has('key')) return;
  if (validKey(h.get('key'))) keepKey(h.get('key'));
  history.replaceState(null, '', location.pathname + location.search);
}

/** pickSession(kind) lets the instructor resume a session of this device or start one; it resolves to {s, fresh}. */
async function pickSession() {
  const mine = savedSessions().filter((s) => s.api === API);
  const budgetIn = numberInput('budget', '3', 'budget-read');
  const budgetOut = el('p', { class: 'lec-read', id: 'budget-read', 'aria-live': 'polite' });
  const rosterIn = numberInput('roster', '1000', 'roster-read');
  const rosterOut = el('p', { class: 'lec-read', id: 'roster-read', 'aria-live': 'polite' });
  const readBudget = typedNumber(budgetIn, budgetOut, (v) => (v > 0 && v <= 100 ? '' : 'The budget must lie in (0, 100].'));
  const readRoster = typedNumber(rosterIn, rosterOut, (v) => (Number.isInteger(v) && v >= 1 && v <= 10000 ? '' : 'A whole number of students from 1 to 10,000.'));
  const keyRow = el('div', { 'data-key-row': true, hidden: true },
    el('label', { for: 'ikey' }, 'Instructor key'),
    el('input', { id: 'ikey', type: 'password', autocomplete: 'off', 'aria-describedby': 'ikey-help' }),
    el('p', { class: 'lec-meta', id: 'ikey-help' }, 'Starting a session on this server needs the key it printed when it started (the link it printed carries it). It stays on this device.'));
  const form = el('form', { class: 'lec-card lec-setup' },
    el('h2', {}, mine.length ? 'Or start a new session' : 'Start the lecture’s session'),
    el('p', {}, 'One session holds the whole lecture: every activity, one join code, one ε budget.'),
    el('label', { for: 'budget' }, 'Privacy budget for the whole lecture, ε (epsilon)'), budgetIn, budgetOut,
    el('label', { for: 'roster' }, 'Most students who may answer'), rosterIn, rosterOut, keyRow,
    el('button', { class: mine.length ? false : 'primary', type: 'submit' }, mine.length ? 'Start a new session' : 'Start the session'),
    said('data-start-said'), el('div', { 'data-confirm': true }));
  const startSaid = form.querySelector('[data-start-said]');
  const resume = mine.length ? el('section', { class: 'lec-card', 'aria-labelledby': 'resume-h' },
    el('h2', { id: 'resume-h' }, 'Your sessions on this device'),
    el('ul', { class: 'lec-sessions' }, mine.map((s, i) => el('li', {},
      el('button', { type: 'button', class: i === 0 ? 'primary' : false, 'data-resume': s.code }, `Resume ${s.display}`),
      ' ', el('span', { class: 'lec-meta' }, `started ${when(s.created)}`))))) : null;
  show(main, el('h1', {}, 'Run the lecture'), loopbackWarning(), resume, form);
  return new Promise((done) => {
    main.querySelectorAll('[data-resume]').forEach((b) => b.addEventListener('click', () => done({ s: mine.find((s) => s.code === b.dataset.resume), fresh: false })));
    let confirmed = !mine.length;
    // A second press while the session is being made does nothing.
    const start = once([...form.querySelectorAll('button[type=submit]')], async () => {
      const epsilonBudget = readBudget();
      const roster = readRoster();
      if (epsilonBudget === null) { sayAgain(budgetIn, budgetOut); return; }
      if (roster === null) { sayAgain(rosterIn, rosterOut); return; }
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
      const typed = form.querySelector('#ikey').value.trim();
      if (typed && validKey(typed)) keepKey(typed);
      tell(startSaid, 'Starting the session…');
      try {
        const sess = await call('POST', 'sessions', { epsilon_budget: epsilonBudget, roster }, instructorKey() || undefined);
        const s = { api: API, code: text(sess.code), display: text(sess.display), token: text(sess.instructor_token), created: Date.now() };
        saveSession(s);
        tell(startSaid, '');
        done({ s, fresh: true });
      } catch (err) {
        if (err.status === 401 || err.status === 403) {
          keyRow.hidden = false;
          form.querySelector('#ikey').focus();
          tell(startSaid, 'Starting a session on this server needs its instructor key: type it above.', true);
        } else tell(startSaid, `No session was started. ${refusal(err)}`, true);
      }
    });
    form.addEventListener('submit', (e) => { e.preventDefault(); start(); });
  });
}

/** confirmActivity(kind, display) asks before a link adds an activity to a session already running, and resolves to the answer. */
function confirmActivity(kind, display) {
  const yes = el('button', { type: 'button', class: 'primary', 'data-confirm-activity': true }, 'Add it and show it');
  const no = el('button', { type: 'button' }, 'Not now');
  show(main, el('section', { class: 'lec-card lec-ask', 'aria-labelledby': 'add-h' },
    el('h1', { id: 'add-h' }, 'Add an activity to the lecture?'),
    el('p', {}, 'This link would add ', el('strong', {}, `“${SPECS[kind].prompt}”`), ` to session ${display} and put it on the projector and every phone.`),
    el('p', { class: 'lec-ask-buttons' }, yes, ' ', no)));
  yes.focus();
  return new Promise((done) => {
    yes.addEventListener('click', () => done(true), { once: true });
    no.addEventListener('click', () => done(false), { once: true });
  });
}

export async function host() {
  document.body.dataset.view = 'host';
  takeKeyFromLink();
  if (!(await hasAPI())) { show(main, staticHostHelp()); return; }
  const kind = SPECS[params.get('activity')] ? params.get('activity') : null;
  let s = savedSessions().find((x) => x.api === API && x.code === params.get('session'));
  let fresh = false;
  if (!s) ({ s, fresh } = await pickSession());
  // The address now names the session: a reload resumes it.
  const u = new URL(location.href);
  u.searchParams.delete('activity');
  u.searchParams.set('session', s.code);
  history.replaceState(null, '', u.href);

  const code = encodeURIComponent(s.code);
  const auth = (method, path, body, opts) => call(method, `sessions/${code}${path}`, body, s.token, opts);
  let sess;
  try { sess = await auth('GET', ''); } catch (err) {
    if (err.status === 404) forgetSession(s);
    show(main, el('h1', {}, 'Could not open the session'), el('p', {}, refusal(err)), el('p', {}, el('a', { href: 'lecture.html?role=host' }, 'Your sessions')));
    return;
  }
  // An activity named by the link (a lesson's "Run this with the class")
  // joins the session, or is put back on screen if the session has one;
  // for a session already running, only once the instructor agrees.
  const acts = () => (Array.isArray(sess.activities) ? sess.activities : []);
  if (kind && (fresh || await confirmActivity(kind, s.display))) {
    const same = acts().filter((a) => a.spec && a.spec.kind === kind && text(a.spec.prompt) === SPECS[kind].prompt).at(-1);
    try {
      const id = same ? int(same.id) : int((await auth('POST', '/activities', SPECS[kind])).id);
      await auth('POST', '/current', { activity: id });
      sess = await auth('GET', '');
    } catch (err) { say(`The activity was not added. ${refusal(err)}`); }
  }
  controls(s, sess, auth);
}

/** controls draws the control view of session s and keeps it polled. */
function controls(s, first, auth) {
  let sess = first;
  const acts = () => (Array.isArray(sess.activities) ? sess.activities : []);
  const code = encodeURIComponent(s.code);
  const channel = sessionChannel(s.code);
  const link = joinURL(s.display);
  const door = el('button', { type: 'button', 'data-door': true }, 'Close to new students');
  const rosterIn = numberInput('roster-new', '', 'roster-new-read');
  const rosterOut = el('p', { class: 'lec-read', id: 'roster-new-read', 'aria-live': 'polite' });
  const readRoster = typedNumber(rosterIn, rosterOut, (v) => (Number.isInteger(v) && v >= 1 && v <= 10000 ? '' : 'A whole number of students from 1 to 10,000.'));
  const rosterSaid = said('data-roster-said');
  const rosterForm = el('form', { class: 'lec-inline', 'data-roster-form': true }, el('label', { for: 'roster-new' }, 'Most students'), rosterIn,
    el('button', { type: 'submit' }, 'Set'), rosterOut, rosterSaid);
  const prune = el('button', { type: 'button', 'data-prune': true }, 'Remove students without an answer to an open activity');
  const pruneDoor = el('button', { type: 'button', 'data-prune-door': true, hidden: true }, 'Remove everyone who joined before the door last opened');
  const doorNote = el('p', { class: 'lec-meta', 'data-door-opened': true });
  const pruneAsk = el('div', { 'data-prune-confirm': true });
  // What each control did is said beside it (said()).
  const doorSaid = said('data-door-said');
  const pruneSaid = said('data-prune-said');
  const rowSaid = said('data-close-said');
  const releaseSaid = said('data-release-said');
  const tabsSaid = said('data-tabs-said');
  const exportSaid = said('data-export-said');
  // Why new answers are refused, when the roster or the session is full.
  const full = el('div', { class: 'lec-alert', role: 'status', 'data-full': true });
  const closeBtn = el('button', { type: 'button', 'data-close': true }, 'Close submissions');
  const again = el('button', { type: 'button', 'data-again': true }, 'Run again with fresh answers');
  const eps = numberInput('eps', '0.5', 'eps-read eps-means');
  const epsRead = el('p', { class: 'lec-read', id: 'eps-read', 'aria-live': 'polite' });
  const means = el('p', { class: 'lec-means', id: 'eps-means', 'data-noise': true, 'aria-live': 'polite' });
  const readEps = typedNumber(eps, epsRead, epsilonProblem);
  const ask = el('div', { class: 'lec-confirm', 'data-release-confirm': true });
  const releaseButton = el('button', { class: 'primary', type: 'submit' }, 'Release');
  const releaseForm = el('form', { class: 'lec-release' }, el('label', { for: 'eps' }, 'ε (epsilon) for this release'), eps,
    releaseButton, epsRead, releaseSaid, means, ask);
  const out = el('div', { class: 'lec-result', 'aria-live': 'polite' });
  const meter = el('meter', { class: 'lec-meter', min: '0', max: '1', value: '1', 'aria-label': 'Privacy budget left' });
  const tabs = el('nav', { class: 'lec-tabs', 'aria-label': 'Activities of this lecture' });
  const prompt = el('p', { class: 'lec-prompt', 'data-prompt': true });
  const state = el('p', { class: 'lec-meta', 'data-open-state': true });
  const history_ = el('tbody');
  const ledger = el('tbody');
  const ledgerFoot = el('tfoot');
  const timerShown = el('span', { class: 'lec-timer', 'data-timer': true, role: 'timer', 'aria-live': 'off' }, '–:––');
  const projectorURL = new URL('lecture.html', location.href);
  projectorURL.search = '';
  projectorURL.searchParams.set('role', 'projector');
  projectorURL.searchParams.set('session', s.code);
  if (API !== new URL('api/', location.href).href) projectorURL.searchParams.set('api', API);
  const projectorLink = el('a', { class: 'lec-button', href: projectorURL.href, target: 'dpplay-projector', 'data-projector': true }, 'Open the projector view');
  const exportCSV = el('button', { type: 'button', 'data-export': 'csv' }, 'Export CSV');
  const exportJSON = el('button', { type: 'button', 'data-export': 'json' }, 'Export JSON');
  const composer = composeForm(tabsSaid);
  const rosterBox = el('details', { class: 'lec-roster' }, el('summary', {}, 'Roster: let more in, or remove invented ids'),
    el('p', { class: 'lec-meta' }, 'A script can fill the roster with invented students. Raise the roster to let the class in; then open a fresh activity, let the class answer it, and remove everyone without an answer to an open activity (their earlier answers go too; they can join again by answering).'),
    rosterForm, el('p', {}, prune), doorNote, el('p', {}, pruneDoor), pruneAsk, pruneSaid);
  // Before the first activity there is nothing to close, time or release.
  const addFirst = el('button', { type: 'button', class: 'primary', 'data-add-first': true }, 'Add the first activity');
  const empty = el('div', { class: 'lec-empty', 'data-empty': true },
    el('p', { class: 'lec-waiting' }, 'No activity yet: the phones wait for the first one.'), el('p', {}, addFirst));
  const actBox = el('div', { 'data-activity-controls': true, hidden: true },
    el('p', { class: 'lec-door' }, state, ' ', closeBtn, ' ', again), rowSaid,
    el('div', { class: 'lec-timer-row' }, el('span', {}, 'Timer '), timerShown, ...[1, 2, 5].map((m) => el('button', { type: 'button', 'data-timer-start': m * 60 }, `${m} min`)),
      el('button', { type: 'button', 'data-timer-stop': true }, 'Stop')),
    out, releaseForm,
    el('h3', {}, 'Releases of this activity'),
    el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Releases of this activity' },
      el('table', { class: 'lec-table', 'data-history': true }, el('thead', {}, el('tr', {}, ['#', 'time', 'ε', 'answers', 'result'].map((h) => el('th', { scope: 'col' }, h)))), history_)));
  show(main, loopbackWarning(),
    el('div', { class: 'lec-toolbar' }, el('div', { class: 'lec-tabs-box' }, tabs, tabsSaid), el('p', { class: 'lec-ask-buttons' }, projectorLink)),
    el('div', { class: 'lec-host' },
      joinCard(s.display, link,
        el('div', { class: 'lec-stats' }, stat(['joined', 'joined'], 'data-joined'), stat(['answered', 'answered'], 'data-participants'), stat(['yet to answer', 'yet to answer'], 'data-waiting')),
        el('p', { class: 'lec-meta lec-door' }, el('span', { 'data-door-state': true }), ' ', door), doorSaid, full, rosterBox),
      el('section', { class: 'lec-card lec-live', 'aria-labelledby': 'live-h' }, el('h2', { id: 'live-h', class: 'visually-hidden' }, 'The current activity'),
        prompt, empty, actBox),
      el('section', { class: 'lec-card lec-ledger', 'aria-labelledby': 'ledger-h' },
        el('h2', { id: 'ledger-h' }, 'The lecture’s ε budget'),
        el('div', { class: 'lec-stats' }, stat(['ε left', 'ε left'], 'data-remaining'), stat(['ε spent', 'ε spent'], 'data-spent')), meter,
        el('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'ε spent per activity' },
          el('table', { class: 'lec-table', 'data-ledger': true }, el('thead', {}, el('tr', {}, ['activity', 'releases', 'ε spent'].map((h) => el('th', { scope: 'col' }, h)))), ledger, ledgerFoot)),
        el('p', { class: 'lec-ask-buttons' }, exportCSV, ' ', exportJSON), exportSaid,
        el('p', { class: 'lec-key' }, el('strong', {}, 'This device holds the key to this session. '),
          'The instructor token kept in this browser is what lets you release results and spend the budget. It cannot be recovered: if it is lost, no one can release anything in this session again, and whoever copies it can. A reload or a new tab on this device resumes the session; ',
          el('a', { href: 'lecture.html?role=host' }, 'your sessions'), ' lists them.')),
      composer.box));

  const q = (sel) => main.querySelector(sel);
  let shown = 0; // the activity on screen
  let spec = null;
  let act = null; // its last poll
  let seq = -1;
  let tabsShown = '';
  const renderSession = () => {
    const list = acts();
    // Drawn again only when they change, so that a poll never takes the
    // keyboard's focus off a tab.
    const names = list.map((a) => [int(a.id), activityName(checkSpec(a.spec), a.id)]);
    const tabsKey = JSON.stringify([sess.current, names]);
    if (tabsKey !== tabsShown) {
      const had = tabs.contains(document.activeElement) ? document.activeElement : null;
      tabsShown = tabsKey;
      show(tabs, names.map(([id, name]) => {
        const b = el('button', { type: 'button', 'data-activity': id, 'aria-pressed': String(id === sess.current) }, name);
        b.addEventListener('click', () => switchTo(id));
        return b;
      }), composer.toggle);
      if (had) (had === composer.toggle ? had : tabs.querySelector(`[data-activity="${had.dataset.activity}"]`))?.focus();
    }
    count(q('[data-joined]'), int(sess.joined), int(sess.joined));
    count(q('[data-remaining]'), 0, fmt(sess.epsilon_remaining));
    count(q('[data-spent]'), 0, fmt(sess.epsilon_spent));
    meter.max = num(sess.epsilon_budget);
    meter.value = num(sess.epsilon_remaining);
    q('[data-door-state]').textContent = `${sess.door_open ? 'Open to new students' : 'Closed to new students'} · at most ${int(sess.roster).toLocaleString('en')} · ${int(sess.joined).toLocaleString('en')} joined from ${plural(int(sess.addresses), 'address', 'addresses')}`;
    door.textContent = sess.door_open ? 'Close to new students' : 'Open to new students';
    if (!rosterIn.value) rosterIn.value = String(int(sess.roster));
    const opened = Number.isInteger(sess.door_opened) ? sess.door_opened : 0;
    doorNote.textContent = opened
      ? `The door was last opened at ${new Date(opened * 1000).toLocaleTimeString('en-GB')}: everyone who joined before then can be removed, answers or not.`
      : 'If invented students answer every activity, close the door, open it again once the class is ready, and remove everyone who joined before it opened.';
    pruneDoor.hidden = !opened;
    const answers = Number.isInteger(sess.answers) ? sess.answers : 0;
    const cap = Number.isInteger(sess.max_answers) ? sess.max_answers : 0;
    const joined = int(sess.joined), roster = int(sess.roster);
    const why = cap && answers >= cap
      ? `No new answer is stored: this session holds ${answers.toLocaleString('en')} answers, the most one session keeps. Start a new session for the rest of the lecture (a new join code and a fresh ε budget), or remove invented students under “Roster” to make room.`
      : joined >= roster ? `The roster is full: ${joined.toLocaleString('en')} of ${roster.toLocaleString('en')} students have joined, so anyone new is refused. If the class is not all in, raise the roster under “Roster”; if a script invented students, close the door, open it again once the class is ready, and remove everyone who joined before it opened.` : '';
    // Only on change, so that the live region speaks once.
    if (full.textContent !== why) {
      full.textContent = why;
      if (why) rosterBox.open = true;
    }
    show(ledger, list.map((a) => el('tr', {}, el('td', {}, activityName(checkSpec(a.spec), a.id)), el('td', {}, String(int(a.release_count))), el('td', {}, fmt(a.activity_epsilon_spent)))));
    show(ledgerFoot, el('tr', {}, el('th', { scope: 'row' }, 'whole lecture'), el('td', {}, String(list.reduce((k, a) => k + int(a.release_count), 0))),
      el('td', {}, `${fmt(sess.epsilon_spent)} of ${fmt(sess.epsilon_budget)}`)));
  };
  const renderActivity = (a) => {
    act = a;
    count(q('[data-participants]'), int(a.participants), int(a.participants));
    const waiting = Math.max(0, int(sess.joined) - int(a.participants));
    count(q('[data-waiting]'), waiting, waiting);
    state.textContent = a.closed ? 'Submissions are closed.' : 'Submissions are open.';
    closeBtn.textContent = a.closed ? 'Reopen submissions' : 'Close submissions';
    const rels = releasesOf(a);
    const r = rels.at(-1);
    if ((r ? r.seq : 0) !== seq) {
      // The large chart where there is room for it; a phone-sized one else.
      show(out, result(spec, r, matchMedia('(min-width: 40rem)').matches));
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
    const next = await auth('GET', '');
    let cur = int(next.current);
    const list = Array.isArray(next.activities) ? next.activities : [];
    if (!cur && list.length) { cur = int(list.at(-1).id); await auth('POST', '/current', { activity: cur }); next.current = cur; }
    const curAct = list.find((a) => a.id === cur);
    const a = curAct ? await auth('GET', `/activities/${cur}`) : null;
    sess = next;
    renderSession();
    empty.hidden = !!curAct;
    actBox.hidden = !curAct;
    prompt.hidden = !curAct;
    if (!curAct) return;
    if (cur !== shown) {
      shown = cur; seq = -1;
      spec = checkSpec(curAct.spec);
      prompt.textContent = activityName(spec, cur);
      explain();
    }
    renderActivity(a);
  };
  const changed = async () => { if (channel) channel.postMessage({ refresh: true }); await refresh(); };
  const switchTo = async (id) => {
    try { await auth('POST', '/current', { activity: id }); await changed(); } catch (err) { tell(tabsSaid, `The projector still shows the same activity. ${refusal(err)}`, true); }
  };
  // What the ε typed means for this activity, before releasing: the value
  // as read (a comma is a decimal point) under the box, then what the
  // server says it means.
  let asked = '';
  const explain = async () => {
    const e = readEps();
    if (e === null || !shown) { asked = ''; means.textContent = ''; return; }
    const key = `${shown}/${e}`;
    if (key === asked) return;
    asked = key;
    try {
      const n = await noise(e);
      if (asked === key) means.textContent = n;
    } catch { if (asked === key) means.textContent = ''; }
  };
  const noise = async (e) => noiseSentence(await noiseOf(s.code, shown, e));
  eps.addEventListener('input', () => { tell(releaseSaid, ''); explain(); });
  door.addEventListener('click', async () => {
    const opening = !sess.door_open;
    try {
      await auth('POST', '/door', { open: opening });
      tell(doorSaid, opening ? 'Open to new students again.' : 'Closed: only students who have joined can answer.');
      await changed();
    } catch (err) { tell(doorSaid, `The door did not change. ${refusal(err)}`, true); }
  });
  rosterForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const roster = readRoster();
    if (roster === null) { sayAgain(rosterIn, rosterOut); return; }
    try { await auth('POST', '/door', { roster }); tell(rosterSaid, `At most ${plural(roster, 'student', 'students')}.`); await changed(); } catch (err) { tell(rosterSaid, `The roster did not change. ${refusal(err)}`, true); }
  });
  // askPrune(what, whyNot, body, from) asks before POST /prune with body,
  // saying what would go (what), or, when what is '', why nothing may be
  // removed (whyNot); the focus goes back to the button it came from.
  const askPrune = (what, whyNot, body, from) => {
    const yes = el('button', { type: 'button', class: 'primary', 'data-prune-yes': true }, 'Remove them');
    const no = el('button', { type: 'button' }, 'Cancel');
    show(pruneAsk, el('p', { role: 'alert' }, what || whyNot), el('p', { class: 'lec-ask-buttons' }, what ? yes : null, ' ', no));
    no.addEventListener('click', () => { show(pruneAsk); from.focus(); });
    yes.addEventListener('click', async () => {
      try {
        const r = await auth('POST', '/prune', body);
        show(pruneAsk);
        from.focus();
        tell(pruneSaid, `Removed ${plural(int(r.removed), 'student', 'students')}; ${int(r.joined).toLocaleString('en')} remain.`);
        await changed();
      } catch (err) { tell(pruneSaid, `Nobody was removed. ${refusal(err)}`, true); }
    });
    (what ? yes : no).focus();
  };
  prune.addEventListener('click', () => {
    const open = acts().filter((a) => !a.closed).length;
    askPrune(open ? `Everyone without an answer to the ${plural(open, 'open activity', 'open activities')} leaves the roster, with all their answers.` : '',
      'No activity is open: this would remove every student. Open one and let the class answer it first.', {}, prune);
  });
  pruneDoor.addEventListener('click', () => {
    const at = new Date(int(sess.door_opened) * 1000).toLocaleTimeString('en-GB');
    askPrune(`Everyone who joined before the door opened at ${at} leaves the roster, with all their answers, even if they answered every activity. Students who were already in join again by answering.`,
      '', { before_door: true }, pruneDoor);
  });
  closeBtn.addEventListener('click', async () => {
    const closing = !(act && act.closed);
    try {
      await auth('POST', `/activities/${shown}/${closing ? 'close' : 'open'}`, {});
      tell(rowSaid, closing ? 'Submissions closed.' : 'Submissions reopened.');
      await changed();
    } catch (err) { tell(rowSaid, `${closing ? 'Submissions are still open.' : 'Submissions are still closed.'} ${refusal(err)}`, true); }
  });
  // A release carries an id drawn for it; the server answers a repeat of
  // one it has recorded with that release, charged once. A release whose
  // outcome is unknown (no reply within 20 s, or a server error, which may
  // come after the release was recorded) is sent with its id when asked
  // for again for the same ε of the same activity; a refusal (4xx) recorded
  // nothing.
  let unsure = null;
  const release = once([releaseButton], async (epsilon) => {
    const request = unsure && unsure.epsilon === epsilon && unsure.activity === shown ? unsure.request : requestID();
    unsure = { epsilon, activity: shown, request };
    try {
      await auth('POST', `/activities/${shown}/releases`, { epsilon, request }, { signal: AbortSignal.timeout(20000) });
      unsure = null;
      tell(releaseSaid, `Released with ε = ${fmt(epsilon)}.`);
      await changed();
    } catch (err) {
      if (err.status && err.status < 500) {
        unsure = null;
        tell(releaseSaid, `Nothing was released. ${err.status === 409 ? 'The ε left is less than this release asks for, or the session has made all the releases it may.' : refusal(err)}`, true);
      } else {
        tell(releaseSaid, 'The server did not confirm the release. Release again with the same ε to find out: it is never charged twice.', true);
      }
    }
  });
  releaseForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (releaseButton.hasAttribute('aria-disabled')) return;
    show(ask);
    tell(releaseSaid, '');
    const epsilon = readEps();
    if (epsilon === null) { sayAgain(eps, epsRead); return; }
    const left = num(sess.epsilon_remaining);
    if (act && act.participants === 0) { tell(releaseSaid, 'Nothing was released: nobody has answered yet.', true); return; }
    if (epsilon > left + 1e-12) { tell(releaseSaid, `Nothing was released: only ε = ${fmt(left)} is left for the lecture.`, true); return; }
    // A press that repeats the activity's newest release (the same ε, from
    // as many answers) is most often a second press once the first is
    // done: a release in flight already ignores presses, but a fast server
    // answers between the two clicks of a double click, or before Enter is
    // pressed again. Releasing again shows the same answers with fresh
    // noise and spends ε again, so it is asked first, as is a release of
    // more than half of what is left.
    const last = act && latestRelease(act);
    const repeat = last && epsilonUnits(num(last.epsilon)) === epsilonUnits(epsilon) && int(last.participants) === int(act.participants);
    if (!repeat && epsilon <= left / 2) { release(epsilon); return; }
    const yes = el('button', { type: 'button', class: 'primary', 'data-release-yes': true }, `Release ε = ${fmt(epsilon)}`);
    const no = el('button', { type: 'button' }, 'Cancel');
    const why = repeat
      ? `Release ${int(last.seq)} of this activity was made with ε = ${fmt(epsilon)} from the same ${plural(int(act.participants), 'answer', 'answers')}. Releasing again shows them with fresh noise and spends another ε = ${fmt(epsilon)} of the ${fmt(left)} left${epsilon >= left ? ': nothing would be left' : ''}.`
      : `This release spends ε = ${fmt(epsilon)} of the ${fmt(left)} left for the whole lecture${epsilon >= left ? ': nothing would be left' : ''}.`;
    show(ask, el('p', { role: 'alert' }, why), el('p', { class: 'lec-ask-buttons' }, yes, ' ', no));
    yes.addEventListener('click', () => { show(ask); release(epsilon); });
    no.addEventListener('click', () => { show(ask); eps.focus(); });
    no.focus();
  });
  // Running an activity again is a new activity with the same definition:
  // the old answers and releases stay in the ledger, the new one starts empty.
  again.addEventListener('click', async () => {
    if (!spec) return;
    const { kind: k, prompt: p, options, min, max, bins, prices } = spec;
    try { await composer.onCreate({ kind: k, prompt: p, options, min, max, bins, prices }); tell(rowSaid, 'A fresh copy of the activity is on screen.'); } catch (err) { tell(rowSaid, `No copy was made. ${refusal(err)}`, true); }
  });
  composer.onCreate = async (newSpec) => {
    const { id } = await auth('POST', '/activities', newSpec);
    await switchTo(int(id));
  };
  // The timer runs on this device's windows only (the projector shows it
  // too); it never closes anything by itself.
  let deadline = 0;
  const tick = () => {
    if (!deadline) { timerShown.textContent = '–:––'; timerShown.classList.remove('done'); return; }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    timerShown.textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'time’s up';
    timerShown.classList.toggle('done', !left);
  };
  const setTimer = (d) => { deadline = d; tick(); if (channel) channel.postMessage({ deadline }); };
  main.querySelectorAll('[data-timer-start]').forEach((b) => b.addEventListener('click', () => setTimer(Date.now() + 1000 * +b.dataset.timerStart)));
  q('[data-timer-stop]').addEventListener('click', () => setTimer(0));
  setInterval(tick, 250);
  const download = async (fmtName) => {
    try {
      const res = await fetch(`${API}sessions/${code}/${fmtName === 'csv' ? 'ledger.csv' : 'ledger'}`, { headers: { Authorization: `Bearer ${s.token}` }, cache: 'no-store' });
      if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status}`), { status: res.status });
      const blob = fmtName === 'csv' ? await res.blob() : new Blob([JSON.stringify(await res.json(), null, 2)], { type: 'application/json' });
      save(blob, `dpplay-${s.display}.${fmtName}`);
      tell(exportSaid, '');
    } catch (err) { tell(exportSaid, `Nothing was exported. ${refusal(err)}`, true); }
  };
  exportCSV.addEventListener('click', () => download('csv'));
  exportJSON.addEventListener('click', () => download('json'));
  addFirst.addEventListener('click', () => composer.open(true));

  let troubled = false; // the status line says the last poll failed
  const poll = async () => {
    try {
      await refresh();
      if (troubled) { troubled = false; say(''); }
    } catch (err) { troubled = true; say(`Connection problem. ${refusal(err)}`); }
    setTimeout(poll, POLL_MS);
  };
  poll();
}

/**
 * composeForm(done) is the form that adds an activity to the lecture: a
 * preset, a histogram with ranges typed, or a question with options typed
 * on the spot; each kind shows only the fields it uses. Once an activity
 * is added the form closes and done, the line beside the activities, says so.
 */
function composeForm(done) {
  const c = { onCreate: null };
  const kindSel = el('select', { id: 'new-kind' },
    el('option', { value: 'poll' }, 'Your own question with options'),
    el('option', { value: 'meeting-day' }, 'Meeting day (Mon–Fri)'),
    el('option', { value: 'histogram' }, 'Histogram of a number'),
    el('option', { value: 'pricing' }, 'Pricing a digital good'));
  const promptIn = el('input', { id: 'new-prompt', type: 'text', maxlength: '200', value: '' });
  const optionsIn = el('textarea', { id: 'new-options', rows: '4', 'aria-describedby': 'new-options-help' });
  const optionsRow = el('div', {}, el('label', { for: 'new-options' }, 'Options, one per line (2 to 31)'), optionsIn,
    el('p', { class: 'lec-meta', id: 'new-options-help' }, 'Students tick every option that applies; the exponential mechanism picks one.'));
  const range = ['min', 'max', 'bins'].map((k) => {
    const input = numberInput(`new-${k}`, String(SPECS.histogram[k]), `new-${k}-read`);
    const out = el('p', { class: 'lec-read', id: `new-${k}-read`, 'aria-live': 'polite' });
    return { k, input, out, read: typedNumber(input, out, k === 'bins' ? (v) => (Number.isInteger(v) && v >= 1 && v <= 50 ? '' : 'From 1 to 50 ranges.') : null) };
  });
  const rangeRow = el('div', { class: 'lec-range' }, range.map((r) => el('div', {},
    el('label', { for: `new-${r.k}` }, { min: 'Smallest answer', max: 'Largest answer', bins: 'Ranges' }[r.k]), r.input, r.out)));
  const formSaid = said('data-compose-said');
  const form = el('form', { class: 'lec-compose' }, el('label', { for: 'new-kind' }, 'Activity'), kindSel,
    el('label', { for: 'new-prompt' }, 'Question'), promptIn, optionsRow, rangeRow,
    el('p', { class: 'lec-ask-buttons' }, el('button', { type: 'submit', class: 'primary' }, 'Add and show it'), ' ',
      el('button', { type: 'button', 'data-compose-cancel': true }, 'Cancel')), formSaid);
  c.box = el('section', { class: 'lec-card lec-new', 'aria-labelledby': 'new-h', hidden: true }, el('h2', { id: 'new-h' }, 'New activity'), form);
  c.toggle = el('button', { type: 'button', class: 'lec-add', 'data-compose': true, 'aria-expanded': 'false' }, '+ New activity');
  const sync = () => {
    const k = kindSel.value;
    optionsRow.hidden = k !== 'poll';
    rangeRow.hidden = k !== 'histogram';
    promptIn.value = k === 'poll' ? '' : SPECS[k].prompt;
    promptIn.required = k === 'poll';
    optionsIn.required = k === 'poll';
  };
  kindSel.addEventListener('change', sync);
  sync();
  const open = (yes) => {
    c.box.hidden = !yes;
    c.toggle.setAttribute('aria-expanded', String(yes));
    tell(formSaid, '');
    if (yes) { kindSel.focus(); c.box.scrollIntoView({ block: 'nearest' }); }
  };
  c.open = open;
  c.toggle.addEventListener('click', () => open(c.box.hidden));
  form.querySelector('[data-compose-cancel]').addEventListener('click', () => { open(false); c.toggle.focus(); });
  // A second press while the activity is being added does nothing.
  const add = once([...form.querySelectorAll('button[type=submit]')], async () => {
    const k = kindSel.value;
    let spec;
    if (k === 'poll') spec = { kind: 'meeting-day', prompt: promptIn.value.trim(), options: optionsIn.value.split('\n').map((o) => o.trim()).filter(Boolean) };
    else if (k === 'histogram') {
      const [min, max, bins] = range.map((r) => r.read());
      const bad = range.find((r, i) => [min, max, bins][i] === null);
      if (bad) { sayAgain(bad.input, bad.out); return; }
      spec = { kind: 'histogram', min, max, bins, prompt: promptIn.value.trim() || `A number from ${min} to ${max}` };
    } else spec = { ...SPECS[k], prompt: promptIn.value.trim() || SPECS[k].prompt };
    try {
      await c.onCreate(spec);
      open(false);
      optionsIn.value = '';
      sync();
      c.toggle.focus();
      tell(done, 'Activity added and shown.');
    } catch (err) { tell(formSaid, `The activity was not added. ${refusal(err)}`, true); }
  });
  form.addEventListener('submit', (e) => { e.preventDefault(); add(); });
  return c;
}
