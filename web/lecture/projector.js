// The projector view of the live lecture.
//
// The projector view of the live lecture (lecture.html?role=projector&
// session=CODE): only what the room should see, large. The join code with
// its QR code, the current question, how many joined (from how many
// addresses) and answered, the latest release with its caption, and the
// lecture's ε budget. No control, export or token: the instructor's
// control view opens this in a second window and keeps it in step over a
// BroadcastChannel (the timer, and a new release at once). It reads only
// what every phone reads, so it needs no token.
import {
  POLL_MS, activityName, call, checkSpec, count, el, fmt, int, joinURL, joinCard, latestRelease, main, normalizeCode, num, params, plural, result, say, sessionChannel, show, stat, text,
} from './client.js';

export async function projector() {
  document.body.dataset.view = 'projector';
  const code = normalizeCode(params.get('session'));
  if (!code) {
    show(main, el('h1', {}, 'No session named'), el('p', {}, 'Open the projector view from the instructor’s page.'));
    return;
  }
  let sess;
  try { sess = await call('GET', `sessions/${code}`); } catch (err) {
    show(main, el('h1', {}, 'Could not open the session'), el('p', {}, err.message));
    return;
  }
  const display = text(sess.display);
  const question = el('h2', { class: 'lec-prompt', 'data-prompt': true });
  const out = el('div', { class: 'lec-result', 'aria-live': 'polite' });
  const meter = el('meter', { class: 'lec-meter', min: '0', max: '1', value: '1', 'aria-label': 'Privacy budget left' });
  const timer = el('p', { class: 'lec-timer', 'data-timer': true, role: 'timer', 'aria-live': 'off', hidden: true });
  const full = el('button', { type: 'button', class: 'lec-full', 'data-fullscreen': true }, 'Full screen');
  const joined = el('p', { class: 'lec-meta lec-joined', 'data-addresses': true });
  // The room is told what the privacy promise covers: the neighbour notion
  // the releases are private under, and what the exact counts give away.
  const notion = el('p', { class: 'lec-notion', 'data-notion': true },
    el('strong', {}, 'What stays private: '),
    'each release is ε-differentially private for one student’s answer changed (change-one neighbours). ',
    'The joined and answered counts are exact: they show how many took part, never what anyone answered.');
  show(main, el('div', { class: 'lec-projector' },
    joinCard(display, joinURL(display)),
    el('section', { class: 'lec-card lec-live', 'aria-labelledby': 'q-h' },
      el('p', { class: 'lec-eyebrow', id: 'q-h' }, 'The question'), question, timer, out),
    el('section', { class: 'lec-card lec-ledger', 'aria-labelledby': 'b-h' },
      el('h2', { id: 'b-h', class: 'visually-hidden' }, 'Privacy budget of the lecture'),
      el('div', { class: 'lec-stats lec-strip' }, stat(['joined', 'joined'], 'data-joined'), stat(['answered', 'answered'], 'data-participants'),
        stat(['ε left', 'ε left'], 'data-remaining'), stat(['ε spent', 'ε spent'], 'data-spent'),
        el('div', { class: 'lec-meter-box' }, meter, el('p', { class: 'lec-meta', 'data-releases': true }), joined)),
      notion)), full);
  const q = (sel) => main.querySelector(sel);
  full.addEventListener('click', () => document.documentElement.requestFullscreen().catch(() => say('Full screen is not available here.')));
  document.addEventListener('fullscreenchange', () => { full.hidden = !!document.fullscreenElement; });

  let shown = 0;
  let spec = null;
  let seq = -1;
  const refresh = async () => {
    const next = await call('GET', `sessions/${code}`);
    const list = Array.isArray(next.activities) ? next.activities : [];
    const cur = int(next.current) || (list.length ? int(list.at(-1).id) : 0);
    const curAct = list.find((a) => a.id === cur);
    const a = curAct ? await call('GET', `sessions/${code}/activities/${cur}`) : null;
    sess = next;
    count(q('[data-joined]'), int(sess.joined), int(sess.joined).toLocaleString('en'));
    const addresses = int(sess.addresses);
    joined.textContent = sess.joined ? `Joined from ${plural(addresses, 'address', 'addresses')}${sess.door_open ? '' : ' · the door is closed'}` : '';
    count(q('[data-remaining]'), 0, fmt(sess.epsilon_remaining));
    count(q('[data-spent]'), 0, fmt(sess.epsilon_spent));
    meter.max = num(sess.epsilon_budget);
    meter.value = num(sess.epsilon_remaining);
    const releases = list.reduce((k, x) => k + int(x.release_count), 0);
    q('[data-releases]').textContent = `${plural(releases, 'release', 'releases')} so far, of a budget of ε = ${fmt(sess.epsilon_budget)}`;
    if (!a) {
      question.textContent = 'The first question comes in a moment.';
      show(out);
      count(q('[data-participants]'), 0, '0');
      return;
    }
    if (cur !== shown) { shown = cur; seq = -1; spec = checkSpec(curAct.spec); question.textContent = activityName(spec, cur).replace(/^\d+\. /, ''); }
    count(q('[data-participants]'), int(a.participants), int(a.participants).toLocaleString('en'));
    const r = latestRelease(a);
    if ((r ? r.seq : 0) !== seq) {
      show(out, r ? result(spec, r, true) : el('p', { class: 'lec-waiting' }, a.closed ? 'Answers are closed; the release comes next.' : 'Answer on your phone. Only a privately released result is shown here.'));
      seq = r ? r.seq : 0;
    }
  };
  // The timer is the control view's; it runs here as there.
  let deadline = 0;
  const tick = () => {
    timer.hidden = !deadline;
    if (!deadline) return;
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    timer.textContent = left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'time’s up';
    timer.classList.toggle('done', !left);
  };
  setInterval(tick, 250);
  let wake = () => {};
  const channel = sessionChannel(code);
  if (channel) {
    channel.onmessage = (e) => {
      const m = e.data || {};
      if (typeof m.deadline === 'number' && Number.isFinite(m.deadline)) { deadline = m.deadline; tick(); }
      if (m.refresh) wake();
    };
  }
  for (;;) {
    try { await refresh(); say(''); } catch (err) { if (err.status !== 429) say(`Connection problem: ${err.message}`); }
    await new Promise((r) => { const t = setTimeout(r, POLL_MS); wake = () => { clearTimeout(t); r(); }; });
  }
}
