// The student's phone view of the live lecture.
//
// The student's phone view of the live lecture (lecture.html?join=CODE):
// the session's current activity, followed as the projector moves on; the
// answer form; what the class sees, and a pricing student's own outcome
// worked out on the phone. The student id (128 random bits) and a pricing
// student's own value stay in this phone's localStorage.
import {
  POLL_MS, budgetLine, call, checkSpec, el, fmt, int, latestRelease, main, normalizeCode, num, numberInput, params, plural, result, say, show, sleep, text, typedNumber,
} from './client.js';

const STUDENT_KEY = 'dpplay.lecture.student';

function studentId() {
  let id = localStorage.getItem(STUDENT_KEY);
  if (!id || !/^[A-Za-z0-9_-]{22}$/.test(id)) {
    const b = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    localStorage.setItem(STUDENT_KEY, id);
  }
  return id;
}

/** askCode() shows the form for a join code and resolves to a valid one. */
function askCode(why) {
  const input = el('input', { id: 'code', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', required: true, maxlength: '20', class: 'lec-code-input', 'aria-describedby': 'code-why' });
  const note = el('p', { class: 'lec-meta', id: 'code-why', role: 'alert' }, why || '');
  const form = el('form', { class: 'lec-card' }, el('label', { for: 'code' }, 'Join code from the screen'), input, note,
    el('button', { class: 'primary', type: 'submit' }, 'Join'));
  show(main, el('div', { class: 'lec-student' }, el('h1', {}, 'Join the class'), form));
  return new Promise((done) => form.addEventListener('submit', (e) => {
    e.preventDefault();
    const c = normalizeCode(input.value);
    if (c) done(c);
    else note.textContent = 'That is not a join code: it has 8 letters and digits, like ABCD-1234.';
  }));
}

export async function phone() {
  document.body.dataset.view = 'student';
  let code = params.has('join') ? normalizeCode(params.get('join')) : '';
  if (!code) code = await askCode(params.has('join') ? 'The link’s join code is not valid: type the code shown on the screen.' : '');
  const path = `sessions/${code}`;
  let sess;
  for (;;) {
    try { sess = await call('GET', path); break; } catch (err) {
      code = await askCode(`Could not join: ${err.message}`);
    }
  }
  const display = text(sess.display) || code;
  // The phone follows the projector: the session's current activity, or
  // before the instructor picks one, the newest open activity.
  const pick = (list, cur) => {
    const acts = Array.isArray(list) ? list : [];
    return acts.find((a) => a.id === cur) || acts.filter((a) => !a.closed).at(-1) || acts.at(-1);
  };
  // The activity to show and what it asks (checkSpec), once the server
  // names one this page can show: until then, a note, and the session is
  // asked again; an activity it cannot read is never drawn.
  const waitFor = async () => {
    for (;;) {
      const act = pick(sess.activities, sess.current);
      let spec = null, why = 'You are in. The instructor has not started an activity yet; this page follows as soon as they do.';
      try { if (act) spec = checkSpec(act.spec); } catch (err) { why = `This activity cannot be shown here (${err.message}); this page follows as soon as the instructor moves on.`; }
      if (spec) return { act, spec };
      show(main, el('div', { class: 'lec-student' }, el('h1', { class: 'lec-code-small' }, `Session ${display}`), el('p', { class: 'lec-waiting' }, why)));
      await sleep(POLL_MS);
      try { sess = await call('GET', path); } catch (err) { say(`Connection problem: ${err.message}`); }
    }
  };
  for (;;) {
    const { act, spec } = await waitFor();
    const next = await answerView(path, display, int(act.id), spec, text(sess.code) || code);
    say('The instructor moved on: here is the new activity.');
    sess = { ...sess, current: next };
    try { sess.activities = [await call('GET', `${path}/activities/${next}`)]; } catch (err) { say(`Connection problem: ${err.message}`); }
  }
}

/** answerView shows one activity on the phone and resolves to the next activity's id when the projector moves on. */
function answerView(path, display, id, spec, canon) {
  const me = studentId();
  const mineKey = `dpplay.lecture.answer.${canon}.${id}`;
  let mine = null;
  try { mine = JSON.parse(localStorage.getItem(mineKey) || 'null'); } catch { mine = null; }
  let readValue = null;
  let field;
  if (spec.kind === 'meeting-day') {
    field = el('fieldset', { class: 'lec-checks' }, el('legend', {}, spec.prompt || 'Which options suit you?'),
      spec.options.map((o, i) => el('label', { class: 'choice' },
        el('input', { type: 'checkbox', name: 'day', value: i, checked: !!(mine && Array.isArray(mine.available) && mine.available.includes(i)) }), ` ${o}`)));
  } else {
    const [lo, hi] = spec.kind === 'histogram' ? [spec.min, spec.max] : [0, 1e9];
    const input = numberInput('value', mine && Number.isFinite(mine.value) ? String(mine.value) : '', 'value-read');
    const out = el('p', { class: 'lec-read', id: 'value-read', 'aria-live': 'polite' });
    readValue = typedNumber(input, out, (v) => (v >= lo && v <= hi ? '' : `Your answer must lie between ${fmt(lo)} and ${fmt(hi)}.`));
    field = [el('label', { for: 'value' }, spec.prompt || 'Your value'), input, out];
  }
  const sendButton = el('button', { class: 'primary', type: 'submit' }, mine ? 'Update my answer' : 'Send my answer');
  // What the phone has sent, in words: an answer with nothing ticked is an
  // answer (none of the options suits), and says so.
  const none = (m) => spec.kind === 'meeting-day' && m && Array.isArray(m.available) && !m.available.length;
  const sentText = (m) => (none(m)
    ? 'Answer sent: you ticked nothing, so it counts for none of the options. Tick those that suit you and send again to change it, until the instructor closes the activity.'
    : 'Answer sent. You can change it until the instructor closes the activity.');
  const sent = el('p', { class: 'lec-sent', 'data-sent': true }, mine ? sentText(mine) : '');
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
  let seq = -1;
  let poll = () => {};
  answerForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    let answer;
    if (spec.kind === 'meeting-day') answer = { available: [...main.querySelectorAll('input[name=day]:checked')].map((c) => +c.value) };
    else {
      const v = readValue();
      if (v === null) { say('Not sent: check your answer.'); return; }
      answer = { value: v };
    }
    try {
      const reply = await call('PUT', `${path}/activities/${id}/submissions/${me}`, answer, undefined,
        { waiting: (s) => say(`Many students are joining at once: sending again in ${s} s.`) });
      const after = int(reply.after_release ?? 0);
      const prev = mine && mine.after < after ? { ...mine, prev: null } : (mine && mine.prev) || null;
      mine = { ...answer, after, prev };
      localStorage.setItem(mineKey, JSON.stringify(mine));
      sent.textContent = sentText(mine);
      sendButton.textContent = 'Update my answer';
      say(none(mine) ? 'Answer sent: nothing ticked.' : 'Answer sent.');
      showOutcome();
      poll(); // at once, so the count of answers includes this one
    } catch (err) { say(`Not sent: ${err.message}`); }
  });
  return new Promise((moveOn) => {
    let timer = 0;
    let asked = 0; // polls started; only the newest one's answer is shown
    poll = async () => {
      clearTimeout(timer);
      const n = ++asked;
      try {
        const a = await call('GET', `${path}/activities/${id}`);
        // A poll that was under way when the answer was sent is older than
        // the one the answer started: its count would undo this one's.
        if (n !== asked) return;
        const cur = a.current == null ? 0 : int(a.current);
        if (cur && cur !== id) { moveOn(cur); return; }
        budget.textContent = `${plural(int(a.participants), 'answer', 'answers')} so far · ${budgetLine(a)}`;
        latest = latestRelease(a) || null;
        if ((latest ? latest.seq : 0) !== seq) {
          show(out, result(spec, latest, false));
          seq = latest ? latest.seq : 0;
        }
        showOutcome();
        sendButton.disabled = !!a.closed;
        if (a.closed) sent.textContent = 'The instructor has closed submissions for now.';
        else if (sent.textContent !== (mine ? sentText(mine) : '')) sent.textContent = mine ? sentText(mine) : '';
      } catch (err) { if (err.status !== 429 && n === asked) say(`Connection problem: ${err.message}`); }
      if (n === asked) timer = setTimeout(poll, POLL_MS);
    };
    poll();
  });
}
