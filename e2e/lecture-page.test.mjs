// The live lecture page in Chromium against a real `dpplay serve`
// with an SQLite file: an instructor page and three student pages play the
// meeting-day activity to the end. Needs `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launch, watch } from './web/browser.mjs';
import { afterTasks, dist, downloaded, dpplayBin, violations } from './web/harness.mjs';

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  s.on('error', reject);
});

// The binary is run directly (the run's, or built once): killing `go run`
// would leave its child serving, holding this process open.
const bin = dpplayBin();

async function startServer() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dpplay-lecture-'));
  const port = await freePort();
  const proc = spawn(bin, ['serve', '-dir', dist, '-db', path.join(dir, 'l.db'), '-addr', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    proc.stdout.once('data', resolve);
    proc.once('exit', (c) => reject(new Error(`dpplay serve exited ${c}`)));
  });
  proc.stdout.resume();
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => { proc.removeAllListeners('exit'); proc.kill('SIGKILL'); rmSync(dir, { recursive: true, force: true }); },
  };
}

/**
 * lectureTest(name, timeout, body) is a test that runs body({server, browser})
 * on its own `dpplay serve` (a fresh SQLite file) and browser connection (the
 * run's Chromium under e2e/run.mjs), and stops both after it, passed or failed.
 */
function lectureTest(name, timeout, body) {
  test(name, { timeout }, async () => {
    const server = await startServer();
    const browser = await launch();
    try {
      await body({ server, browser });
    } finally {
      await browser.close();
      server.stop();
    }
  });
}

/** shoot saves each [page, file] as a full-page screenshot in $SHOTS, when it is set. */
async function shoot(...shots) {
  if (!process.env.SHOTS) return;
  for (const [p, file] of shots) await p.screenshot({ path: path.join(process.env.SHOTS, file), fullPage: true });
}

/** settled checks that host and the students' phones say no failure in their status lines, and that no page had errors. */
async function settled(host, students, errors) {
  await calm([host, ...students.map((s) => s.p)]);
  assert.deepEqual([...errors, ...students.flatMap((s) => s.errs)], []);
}

/** axe(page, name) asserts that axe finds nothing on the page as it is (its disclosures left as they are). */
async function axe(page, name) {
  assert.deepEqual(await violations(page), [], `axe on ${name}`);
}

/** calm checks that no page has reported a failure in its status line or beside a control. */
async function calm(pages) {
  for (const p of pages) {
    const said = await p.locator('#lecture-status').textContent();
    assert.doesNotMatch(said, /problem|wrong|refused|not sent/i, `status line: ${said}`);
    assert.deepEqual(await p.locator('.lec-said.bad').allTextContents(), [], 'a refusal beside a control');
  }
}

/** hostSession opens the instructor view of activity and starts a session. */
async function hostSession(browser, server, activity) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const host = await ctx.newPage();
  const errors = watch(host);
  await host.goto(server.url + `lecture.html?role=host&activity=${activity}`);
  await host.getByRole('button', { name: 'Start the session' }).click();
  const code = (await host.locator('[data-code]').textContent({ timeout: 10000 })).trim();
  assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const link = await host.locator('.lec-link a').getAttribute('href');
  assert.ok(link.endsWith(`lecture.html?join=${code}`), link);
  assert.ok(!host.url().includes('token') && !link.includes('token'));
  await host.waitForFunction(() => document.querySelector('[data-remaining]').textContent === '3');
  // The server is on 127.0.0.1, which phones cannot reach: the view says so.
  const warning = host.locator('[data-loopback-warning]');
  assert.ok(await warning.isVisible(), 'loopback warning shown');
  assert.match(await warning.textContent(), new RegExp(`Phones cannot reach this page.*make serve ADDR=0\\.0\\.0\\.0:${new URL(server.url).port}`, 's'));
  return { host, code, link, errors };
}

/** phone opens a 390 px student page, by the join link or (code given) by typing the code. */
async function phone(browser, server, link, code) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p = await ctx.newPage();
  const errs = watch(p);
  if (!code) await p.goto(link);
  else {
    await p.goto(server.url + 'lecture.html');
    await p.getByLabel('Join code from the screen').fill(code.toLowerCase().replace('-', ''));
    await p.getByRole('button', { name: 'Join' }).click();
  }
  return { p, errs };
}

async function send(p) {
  await p.getByRole('button', { name: 'Send my answer' }).click();
  await p.locator('[data-sent]').filter({ hasText: 'Answer sent' }).waitFor();
  assert.match(await p.evaluate(() => localStorage.getItem('dpplay.lecture.student')), /^[A-Za-z0-9_-]{22}$/);
}

/** answer opens a phone by the join link for each value, types the value in and sends it. */
async function answer(browser, server, link, values) {
  const students = [];
  for (const v of values) {
    const s = await phone(browser, server, link);
    students.push(s);
    await s.p.locator('#value').fill(String(v));
    await send(s.p);
  }
  return students;
}

/** shown waits until every student's phone shows the released result. */
async function shown(students, result) {
  for (const { p } of students) {
    await p.locator('.lec-result [data-result]').waitFor({ timeout: 10000 });
    assert.equal(await p.locator('.lec-result [data-result]').getAttribute('data-result'), result);
  }
}

/** release waits for n answers, releases at ε = 1 (leaving `left` of the budget of 3) and returns the released value. */
async function release(host, n, left = 2) {
  await host.waitForFunction((k) => document.querySelector('[data-participants]').textContent === String(k), n, { timeout: 10000 });
  await host.locator('#eps').fill('1');
  await host.getByRole('button', { name: 'Release' }).click();
  // The ε left and the result are drawn together, so once one is new, so is the other.
  await host.waitForFunction((l) => document.querySelector('[data-remaining]').textContent === String(l), left, { timeout: 10000 });
  return host.locator('.lec-result [data-result]').getAttribute('data-result');
}

lectureTest('an instructor and three students play the meeting-day activity', 180000, async ({ server, browser }) => {
  const { host, code, link, errors } = await hostSession(browser, server, 'meeting-day');
  await axe(host, 'instructor view');
  // Three phones: two by the link, one by typing the code. Tue suits all three.
  const answers = [[1, 2], [0, 1], [1, 4]];
  const students = [];
  for (let i = 0; i < 3; i++) {
    const s = await phone(browser, server, link, i === 2 ? code : null);
    students.push(s);
    const boxes = s.p.locator('input[name=day]');
    await boxes.first().waitFor();
    for (const d of answers[i]) await boxes.nth(d).check();
    await send(s.p);
  }
  await axe(students[0].p, 'student view');
  const day = await release(host, 3);
  assert.ok(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].includes(day));
  await shown(students, day);
  await axe(host, 'instructor view with a release');
  await axe(students[1].p, 'student view with a release');
  await shoot([host, 'lecture-host-1280.png'], [students[0].p, 'lecture-student-390.png']);
  await settled(host, students, errors);
});

/** outcome waits until phone p shows its outcome for value v at price, worked out on the phone. */
async function outcome(p, v, price) {
  const want = v >= price ? `You buy at ${price}: your utility is ${v} − ${price} = ${v - price}.`
    : `You do not buy (your value ${v} is below ${price}): utility 0.`;
  await p.waitForFunction((w) => document.querySelector('.lec-outcome')?.textContent === w, want, { timeout: 10000 });
}

/** resend changes phone p's value and waits until the server has it. */
async function resend(p, v) {
  await p.evaluate(() => { document.getElementById('lecture-status').textContent = ''; });
  await p.locator('#value').fill(String(v));
  await p.getByRole('button', { name: /my answer/ }).click();
  await p.locator('#lecture-status').filter({ hasText: 'Answer sent.' }).waitFor();
}

lectureTest('pricing: the room sees only the price, each phone sees its own purchase and utility', 180000, async ({ server, browser }) => {
  const { host, link, errors } = await hostSession(browser, server, 'pricing');
  const students = await answer(browser, server, link, [2, 9]);
  const [a, b] = students.map((s) => s.p);
  const price = Number(await release(host, 2));
  assert.ok(price >= 1 && price <= 10, `price ${price}`);
  await outcome(a, 2, price);
  await outcome(b, 9, price);
  assert.doesNotMatch(await host.locator('body').textContent(), /your value|utility/, 'the projector shows no one\'s outcome');

  // A late student: their answer is not in release 1, and the phone says so.
  const [late] = await answer(browser, server, link, [10]);
  students.push(late);
  await late.p.locator('.lec-outcome').filter({ hasText: 'Your answer came after this release' }).waitFor({ timeout: 10000 });
  // A changed answer: release 1 was drawn from the old value, so the
  // outcome shown for it stays the old value's.
  await resend(b, 1);
  await outcome(b, 9, price);

  const price2 = Number(await release(host, 3, 1));
  await outcome(late.p, 10, price2);
  await outcome(b, 1, price2);
  await outcome(a, 2, price2);
  // The outcome comes back after a reload, from the phone's own storage.
  await b.reload();
  await outcome(b, 1, price2);

  await axe(host, 'pricing instructor view with a release');
  await axe(a, 'pricing student view with a release');
  await axe(late.p, 'pricing student view, answer after the release');
  await shoot([host, 'lecture-pricing-host-1280.png'], [b, 'lecture-pricing-student-390.png']);
  await settled(host, students, errors);
});

lectureTest('histogram: every phone and the projector show the same noisy counts, one bar per range', 180000, async ({ server, browser }) => {
  const { host, link, errors } = await hostSession(browser, server, 'histogram');
  const students = await answer(browser, server, link, [7, 7.5, 11]);
  const released = await release(host, students.length);
  const counts = released.split(',').map(Number);
  assert.equal(counts.length, 6);
  assert.ok(counts.every(Number.isInteger), `integer counts (discrete Laplace): ${released}`);
  assert.equal(await host.locator('.lec-hist [data-bin]').count(), 6);
  assert.match(await host.locator('.lec-hist [data-bin]').first().textContent(), /0–2$/);
  // The chart explains itself: axes, and a caption naming the mechanism and what a negative bar means.
  assert.deepEqual(await host.locator('.lec-hist .axis').allTextContents(), ['answer, by range', 'noisy count']);
  assert.match(await host.locator('[data-caption]').textContent(), /Laplace mechanism at ε = 1.*negative bar/s);
  await shown(students, released);
  await axe(host, 'histogram instructor view with a release');
  await axe(students[0].p, 'histogram student view with a release');
  await shoot([host, 'lecture-histogram-host-1280.png'], [students[0].p, 'lecture-histogram-student-390.png']);
  await settled(host, students, errors);
});

// A double click on Release and Enter pressed three times more, while the
// first release is on its way, send one release: the button says it is
// busy until the reply, and keeps the focus. Once it is made, a press that
// repeats it (the same ε, from as many answers: a fast server answers
// between the clicks of a double click) asks first, and releases again
// only if told to.
lectureTest('a double click and Enter pressed again release once', 120000, async ({ server, browser }) => {
  const { host, link, errors } = await hostSession(browser, server, 'meeting-day');
  const s = await phone(browser, server, link);
  await s.p.locator('input[name=day]').first().check();
  await send(s.p);
  await host.waitForFunction(() => document.querySelector('[data-participants]').textContent === '1', null, { timeout: 10000 });
  let posts = 0;
  let open;
  const gate = new Promise((resolve) => { open = resolve; });
  await host.context().route('**/releases', async (route) => {
    posts++;
    await gate;
    await route.continue();
  });
  await host.locator('#eps').fill('0.2');
  const button = host.locator('.lec-release button[type=submit]');
  await button.dblclick();
  await host.waitForFunction(() => document.querySelector('.lec-release button[type=submit]').getAttribute('aria-disabled') === 'true');
  for (let i = 0; i < 3; i++) await host.locator('#eps').press('Enter');
  assert.equal(await host.locator('.lec-confirm').textContent(), '', 'a repeat asked to confirm');
  open();
  await host.waitForFunction(() => document.querySelector('[data-remaining]').textContent === '2.8', null, { timeout: 10000 });
  await host.waitForFunction(() => !document.querySelector('.lec-release button[type=submit]').hasAttribute('aria-disabled'));
  assert.equal(posts, 1, `${posts} release requests sent`);
  assert.equal(await host.evaluate(() => document.activeElement?.id), 'eps', 'the focus left the ε box');
  assert.equal(await host.locator('[data-history] tbody tr').count(), 1, 'releases in the history');
  // The release is done; the same press again asks, and sends nothing.
  for (let i = 0; i < 3; i++) await host.locator('#eps').press('Enter');
  await button.click();
  await waitText(host, '[data-release-confirm]', /^Release 1 of this activity was made with ε = 0\.2 from the same 1 answer\. Releasing again shows them with fresh noise and spends another ε = 0\.2 of the 2\.8 left\./);
  assert.equal(posts, 1, `${posts} release requests sent after the release was made`);
  await host.getByRole('button', { name: 'Release ε = 0.2' }).click();
  await waitText(host, '[data-remaining]', /^2\.6$/);
  assert.equal(posts, 2, 'the release asked for again');
  // A new answer makes the same ε a release of its own: not asked.
  const s2 = await phone(browser, server, await host.locator('.lec-link a').getAttribute('href'));
  await s2.p.locator('input[name=day]').first().check();
  await send(s2.p);
  await waitText(host, '[data-participants]', /^2$/);
  await button.click();
  await waitText(host, '[data-remaining]', /^2\.4$/);
  assert.equal(await host.locator('[data-release-confirm]').textContent(), '');
  assert.equal(posts, 3);
  await host.context().unrouteAll({ behavior: 'ignoreErrors' });
  await settled(host, [s, s2], errors);
});

lectureTest('the instructor view on a network address shows no loopback warning', 120000, async ({ server, browser }) => {
  // The page is opened as http://lecture.test:8080/, each request
  // forwarded to the loopback server, as a LAN address would be.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.route('http://lecture.test:8080/**', async (route) => {
    const u = new URL(route.request().url());
    // A LAN address reaches the server with Host and Origin alike; this
    // forward changes the host, so it changes the Origin to match.
    const headers = { ...route.request().headers() };
    if (headers.origin) headers.origin = new URL(server.url).origin;
    const response = await route.fetch({ url: server.url + u.pathname.slice(1) + u.search, headers });
    // A poll the page gave up on while it was forwarded is answered by no one.
    await route.fulfill({ response }).catch((err) => { if (!/already handled/.test(err.message)) throw err; });
  });
  const host = await ctx.newPage();
  const errors = watch(host);
  await host.goto('http://lecture.test:8080/lecture.html?role=host&activity=meeting-day');
  await host.getByRole('button', { name: 'Start the session' }).click();
  await host.locator('[data-code]').waitFor({ timeout: 10000 });
  assert.equal(await host.locator('[data-loopback-warning]').count(), 0);
  assert.match(await host.locator('.lec-link a').getAttribute('href'), /^http:\/\/lecture\.test:8080\/lecture\.html\?join=/);
  assert.deepEqual(errors, []);
  // The page polls on: a forward in flight when the context closes is dropped, not failed.
  await ctx.unrouteAll({ behavior: 'ignoreErrors' });
  await ctx.close();
});

// A join link naming another API is not remembered, the
// page shows that server's host and asks before sending it anything, and
// strings from an API with markup in them are shown as text.
lectureTest('a hostile ?api= link is never remembered and asks first', 120000, async ({ server, browser }) => {
  const { host, code, errors } = await hostSession(browser, server, 'meeting-day');
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const evil = [];
  await ctx.route('http://evil.test/**', (route) => { evil.push(route.request().url()); route.abort(); });
  const p = await ctx.newPage();
  const errs = watch(p);
  await p.goto(server.url + `lecture.html?join=${code}&api=http://evil.test/`);
  const ask = p.locator('[data-api-host]');
  await ask.waitFor({ timeout: 10000 });
  assert.equal(await ask.textContent(), 'evil.test');
  assert.deepEqual(evil, [], 'nothing is sent to the named server before the student agrees');
  assert.equal(await p.evaluate(() => Object.keys(localStorage).filter((k) => /api/i.test(k)).length), 0, 'no API is remembered');
  await p.getByRole('button', { name: 'Use this site’s own server' }).click();
  await p.locator('input[name=day]').first().waitFor({ timeout: 10000 });
  // The plain link afterwards goes straight to the site's own server.
  await p.goto(server.url + `lecture.html?join=${code}`);
  await p.locator('input[name=day]').first().waitFor({ timeout: 10000 });
  assert.equal(await p.locator('[data-api-host]').count(), 0);
  assert.deepEqual(evil, []);
  // An API base remembered by an earlier version of the page is forgotten.
  await p.evaluate(() => localStorage.setItem('dpplay.lecture.api', 'http://evil.test/'));
  await p.reload();
  await p.locator('input[name=day]').first().waitFor({ timeout: 10000 });
  assert.equal(await p.evaluate(() => localStorage.getItem('dpplay.lecture.api')), null);
  assert.deepEqual(evil, []);
  await settled(p, [], [...errors, ...errs]);
});

lectureTest('strings and numbers from the API never become markup', 120000, async ({ server, browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const bad = '<img src=x onerror="window.pwned=1">';
  const activity = (kind, spec, result) => ({
    id: 1, spec: { kind, prompt: bad, ...spec }, closed: false, participants: 2, joined: 2, roster: 10, door_open: true,
    epsilon_budget: 3, epsilon_spent: 1, epsilon_remaining: 2,
    releases: [{ seq: 1, activity: 1, epsilon: 1, participants: 2, result, created: 1 }],
  });
  const cases = {
    meeting: activity('meeting-day', { options: [bad, `"><svg onload="window.pwned=2">`] }, { choice: 0, option: bad }),
    hist: activity('histogram', { min: 0, max: 10, bins: 2 }, { counts: [1, 2], edges: [0, 5, 10] }),
    histBad: activity('histogram', { min: `0"><img src=x onerror="window.pwned=3">`, max: 10, bins: 2 }, { counts: [1, 2], edges: [0, 5, 10] }),
    price: { ...activity('pricing', { prices: [1, 2] }, { price: `<img src=x onerror="window.pwned=4">` }), participants: '<b>2</b>' },
  };
  for (const [name, act] of Object.entries(cases)) {
    // The page's own API, answering as a hostile or broken server would.
    await ctx.unrouteAll();
    await ctx.route('**/api/sessions/**', (route) => {
      const body = /activities\/1$/.test(new URL(route.request().url()).pathname) ? act
        : { code: 'ABCDEFGH', display: `<img src=x onerror="window.pwned=5">`, activities: [act] };
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    const p = await ctx.newPage();
    await p.goto(server.url + 'lecture.html?join=ABCDEFGH');
    await p.waitForFunction(() => document.body.dataset.view === 'student' || /Could not join/.test(document.querySelector('main').textContent), null, { timeout: 10000 });
    // A phone that joined polls: two more answers served, and read.
    if (await p.evaluate(() => document.body.dataset.view === 'student')) {
      for (let i = 0; i < 2; i++) {
        const r = await p.waitForEvent('response', { predicate: (x) => /\/api\/sessions\//.test(x.url()), timeout: 15000 })
          .catch(async () => assert.fail(`${name}: the phone stopped polling (${(await p.locator('main').textContent()).slice(0, 200)})`));
        await r.finished();
      }
    }
    await afterTasks(p);
    assert.equal(await p.locator('main img, main svg[onload], main [onerror]').count(), 0, `${name}: an element was made from API text`);
    assert.equal(await p.evaluate(() => window.pwned), undefined, `${name}: script ran`);
    if (name === 'meeting') assert.ok((await p.locator('main').textContent()).includes(bad), 'the label is shown as text');
    // An activity the phone cannot read is never drawn: it says so and keeps asking.
    if (name === 'histBad') assert.match(await p.locator('main .lec-waiting').textContent(), /cannot be shown here/);
    await p.close();
  }
});

/**
 * projectorFills checks the projector view p at 1920 × 1080 as a hall of
 * 300 sees it: the cards fill the screen without scrolling, the QR code is
 * at least half the screen's height, the text is large, the join address
 * breaks only after a slash or at its query, and the view says which
 * neighbour notion the releases are private under and what the exact
 * counts give away.
 */
async function projectorFills(p) {
  const geo = await p.evaluate(() => {
    const box = (sel) => document.querySelector(sel).getBoundingClientRect();
    const size = (sel) => { const e = document.querySelector(sel); return e ? parseFloat(getComputedStyle(e).fontSize) : 0; };
    // Where the address's lines break: the characters on either side.
    const a = document.querySelector('.lec-link a');
    const chars = [];
    const walk = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (let i = 0; i < n.length; i++) {
        const r = document.createRange();
        r.setStart(n, i); r.setEnd(n, i + 1);
        chars.push({ c: n.data[i], top: Math.round(r.getBoundingClientRect().top) });
      }
    }
    const breaks = chars.slice(1).flatMap((x, i) => (x.top > chars[i].top ? [chars[i].c + x.c] : []));
    return {
      height: innerHeight, width: innerWidth, scroll: document.documentElement.scrollHeight,
      bottom: box('.lec-projector').bottom, right: box('.lec-projector').right, qr: box('.lec-qr svg').height,
      prompt: size('[data-prompt]'), notion: size('[data-notion]'), releases: size('[data-releases]'), code: size('[data-code]'), link: size('.lec-link'), breaks,
    };
  });
  assert.ok(geo.scroll <= geo.height, `the projector view scrolls: ${geo.scroll} px tall`);
  assert.ok(geo.bottom >= 0.95 * geo.height && geo.right >= 0.97 * geo.width, `the cards leave the screen empty: ${JSON.stringify(geo)}`);
  assert.ok(geo.qr >= 0.5 * geo.height, `QR code ${geo.qr} px on a ${geo.height} px screen`);
  assert.ok(geo.prompt >= 48 && geo.code >= 72 && geo.notion >= 25 && geo.releases >= 25 && geo.link >= 25, `text sizes ${JSON.stringify(geo)}`);
  for (const b of geo.breaks) assert.ok(b[0] === '/' || b[0] === '?' || b[1] === '?', `the join address wraps inside a word: "${b}"`);
  assert.match(await p.locator('[data-notion]').textContent(), /change-one neighbours.*joined and answered counts are exact/s);
}

/** waitText waits until the element sel of page p has text matching re. */
const waitText = (p, sel, re) => p.waitForFunction(([s, src]) => new RegExp(src, 's').test(document.querySelector(s)?.textContent || ''), [sel, re.source], { timeout: 15000 });

lectureTest('one session is the lecture: two activities, a new tab, close and reopen, history, export, one budget', 300000, async ({ server, browser }) => {
  const { host, code, link, errors } = await hostSession(browser, server, 'meeting-day');
  assert.match(host.url(), new RegExp(`session=${code.replace('-', '')}`), 'the address names the session, so a reload resumes it');
  const students = [];
  for (let i = 0; i < 3; i++) {
    const s = await phone(browser, server, link);
    students.push(s);
    await s.p.locator('input[name=day]').nth(i).check();
    await send(s.p);
  }
  await release(host, 3); // ε = 1 of 3 spent
  // The instructor composes a question on the spot; every phone follows.
  await host.getByRole('button', { name: '+ New activity' }).click();
  await host.getByLabel('Question').fill('Which mechanism next?');
  await host.getByLabel('Options, one per line (2 to 31)').fill('Laplace\nGaussian\nPricing');
  await host.getByRole('button', { name: 'Add and show it' }).click();
  await waitText(host, '[data-prompt]', /2\. Which mechanism next\?/);
  assert.equal(await host.locator('.lec-tabs [aria-pressed="true"]').textContent(), '2. Which mechanism next?');
  for (const { p } of students) await waitText(p, 'legend', /Which mechanism next\?/);
  await waitText(host, '[data-participants]', /^0$/);
  await waitText(host, '[data-waiting]', /^3$/); // joined, not yet answered
  await shoot([students[0].p, 'lecture-phone-poll-390.png']);
  // The options are in the page's font, like the rest of the phone view.
  assert.equal(await students[0].p.locator('.lec-checks label.choice').first().evaluate((e) => getComputedStyle(e).fontFamily),
    await students[0].p.locator('.lec-answer button').evaluate((e) => getComputedStyle(e).fontFamily));
  for (const [i, { p }] of students.entries()) {
    await p.locator('input[name=day]').nth(i % 2).check();
    await send(p);
  }
  await waitText(host, '[data-waiting]', /^0$/);
  // Close: the phones stop sending; reopen: they can again.
  await host.getByRole('button', { name: 'Close submissions' }).click();
  const [p0] = students.map((s) => s.p);
  await p0.waitForFunction(() => document.querySelector('.lec-answer button[type=submit]').disabled, null, { timeout: 15000 });
  assert.match(await p0.locator('[data-sent]').textContent(), /closed submissions/);
  await host.getByRole('button', { name: 'Reopen submissions' }).click();
  await p0.waitForFunction(() => !document.querySelector('.lec-answer button[type=submit]').disabled, null, { timeout: 15000 });
  // What ε means, before releasing, from the server's Go code.
  await host.locator('#eps').fill('0.5');
  await waitText(host, '[data-noise]', /At ε = 0\.5, .* wins with probability \d+% with a lead of 1/);
  await host.getByRole('button', { name: 'Release' }).click();
  await waitText(host, '[data-remaining]', /^1\.5$/);
  await waitText(host, '[data-history] tbody', /^2.*0\.5/);
  assert.equal(await host.locator('[data-history] tbody tr').count(), 1, 'history lists this activity\'s releases');
  assert.deepEqual(await host.locator('[data-ledger] tbody tr').allTextContents(),
    ['1. Which days could you come to an extra session?11', '2. Which mechanism next?10.5']);
  assert.equal(await host.locator('[data-ledger] tfoot').textContent(), 'whole lecture21.5 of 3');
  // Back to the first activity: its history and the phones follow.
  await host.locator('.lec-tabs [data-activity="1"]').click();
  await waitText(host, '[data-prompt]', /^1\. Which days/);
  await waitText(host, '[data-history] tbody', /^1.*1/);
  for (const { p } of students) await waitText(p, 'legend', /Which days could you come/);

  // A new tab (a lesson's "Run this with the class") resumes the session
  // and adds its activity; the budget carries on.
  const tab = await host.context().newPage();
  const tabErrors = watch(tab);
  await tab.goto(server.url + 'lecture.html?role=host&activity=histogram');
  await tab.getByRole('button', { name: `Resume ${code}` }).click();
  // The link's activity joins a running session only once asked.
  await tab.getByRole('button', { name: 'Add it and show it' }).click();
  await waitText(tab, '[data-prompt]', /^3\. How many hours/);
  assert.equal(await tab.locator('[data-code]').textContent(), code);
  await waitText(tab, '[data-remaining]', /^1\.5$/);
  for (const { p } of students) await p.locator('#value').waitFor({ timeout: 15000 });
  for (const [i, { p }] of students.entries()) { await p.locator('#value').fill(String(3 + i)); await send(p); }
  await tab.reload();
  await waitText(tab, '[data-prompt]', /^3\. How many hours/); // resumed without asking
  await waitText(tab, '[data-participants]', /^3$/);
  await tab.locator('#eps').fill('1');
  await waitText(tab, '[data-noise]', /off by at most ±\d+ with probability 90%/);
  await tab.getByRole('button', { name: 'Release' }).click();
  // 1 of the 1.5 left is more than half: the page asks first.
  await waitText(tab, '[data-release-confirm]', /spends ε = 1 of the 1\.5 left/);
  await tab.getByRole('button', { name: 'Release ε = 1' }).click();
  await waitText(tab, '[data-remaining]', /^0\.5$/);
  await waitText(host, '[data-remaining]', /^0\.5$/); // the first tab sees the same ledger
  for (const { p } of students) await waitText(p, '[data-budget]', /ε left for the lecture 0\.5 of 3/);
  // One budget: 1 more is refused though this activity has spent only 1.
  await tab.locator('#eps').fill('1');
  await tab.getByRole('button', { name: 'Release' }).click();
  await waitText(tab, '[data-release-said]', /only ε = 0\.5 is left/);

  // Export: releases and ledger, never an answer.
  const [csvDl] = await Promise.all([tab.waitForEvent('download'), tab.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = (await downloaded(csvDl)).toString('utf8').trim().split('\n');
  assert.equal(csv.length, 4, csv.join('\n'));
  assert.match(csv[0], /^seq,time_utc,activity,kind,prompt,epsilon,epsilon_total,epsilon_budget,participants,result/);
  assert.match(csv[3], /^3,.*,3,histogram,.*,1,2\.5,3,3,/);
  const [jsonDl] = await Promise.all([tab.waitForEvent('download'), tab.getByRole('button', { name: 'Export JSON' }).click()]);
  const ledger = JSON.parse((await downloaded(jsonDl)).toString('utf8'));
  assert.equal(ledger.epsilon_spent, 2.5);
  assert.deepEqual(ledger.activities.map((a) => a.epsilon_spent), [1, 0.5, 1]);
  assert.deepEqual(ledger.releases.map((r) => r.epsilon_total), [1, 1.5, 2.5]);
  assert.doesNotMatch(JSON.stringify(ledger) + csv.join(''), /available|"value"|student/);

  await axe(tab, 'lecture instructor view');
  await axe(students[0].p, 'lecture phone view');
  if (process.env.SHOTS) {
    await tab.setViewportSize({ width: 1920, height: 1080 });
    await afterTasks(tab);
    await tab.screenshot({ path: path.join(process.env.SHOTS, 'lecture-controls-1920.png') });
    await shoot([tab, 'lecture-controls-1920-full.png'], [students[0].p, 'lecture-phone-390.png']);
  }
  // Starting another session asks first, and says what it costs.
  await tab.goto(server.url + 'lecture.html?role=host');
  await tab.getByRole('button', { name: 'Start a new session' }).click();
  await waitText(tab, '[data-confirm]', /new join code: the class joins again and its ε budget starts afresh/);
  await tab.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await tab.locator('[data-confirm]').textContent(), '');
  assert.equal(await tab.evaluate(() => JSON.parse(localStorage.getItem('dpplay.lecture.sessions')).length), 1);
  await settled(host, students, [...errors, ...tabErrors]);
});

lectureTest('on a static host the instructor view says what the lecture needs', 120000, async ({ server, browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // GitHub Pages answers every /api/ path with its HTML 404 page.
  await ctx.route('**/api/**', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>404</h1>' }));
  const p = await ctx.newPage();
  const errors = watch(p);
  await p.goto(server.url + 'lecture.html?role=host&activity=meeting-day');
  const help = p.locator('[data-static-host]');
  await help.waitFor({ timeout: 15000 });
  assert.match(await help.textContent(), /needs a server.*make serve ADDR=0\.0\.0\.0:8080.*DEFAULT_API.*connect-src/s);
  assert.doesNotMatch(await p.locator('body').textContent(), /HTTP \d{3}/);
  await axe(p, 'static host help');
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*404/.test(e)), []);
});

lectureTest('a histogram with negative noisy counts explains itself', 120000, async ({ server, browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // The release the issue saw: ε = 0.5 from five answers.
  const act = { id: 1, spec: { kind: 'histogram', min: 0, max: 12, bins: 6, prompt: 'Hours of sleep?' }, closed: false, participants: 5, joined: 5,
    roster: 10, door_open: true, epsilon_budget: 3, epsilon_spent: 0.5, epsilon_remaining: 2.5, current: 1,
    releases: [{ seq: 1, activity: 1, epsilon: 0.5, participants: 5, result: { counts: [1, 4, -5, 5, -3, -16], edges: [0, 2, 4, 6, 8, 10, 12] }, created: 1 }] };
  await ctx.route('**/api/sessions/**', (route) => route.fulfill({ status: 200, contentType: 'application/json',
    body: JSON.stringify(/activities\/1$/.test(new URL(route.request().url()).pathname) ? act : { code: 'ABCDEFGH', display: 'ABCD-EFGH', current: 1, activities: [act] }) }));
  const p = await ctx.newPage();
  const errors = watch(p);
  await p.goto(server.url + 'lecture.html?join=ABCDEFGH');
  await p.locator('.lec-hist').waitFor({ timeout: 15000 });
  const geo = await p.evaluate(() => {
    const box = (e) => e.getBoundingClientRect();
    const zero = box(document.querySelector('.lec-hist .zero'));
    return [...document.querySelectorAll('.lec-hist [data-bin]')].map((g) => {
      const [bar, count, label] = [g.querySelector('rect'), g.querySelector('.count'), g.querySelectorAll('.tick')[0]].map(box);
      return { up: bar.bottom <= zero.top + 2, down: bar.top >= zero.top - 2, countAboveLabel: count.bottom <= label.top + 1, text: g.querySelector('.count').textContent };
    });
  });
  assert.deepEqual(geo.map((g) => g.text), ['1', '4', '-5', '5', '-3', '-16']);
  for (const [i, g] of geo.entries()) {
    assert.ok(g.text.startsWith('-') ? g.down : g.up, `bar ${i} on the wrong side of zero: ${JSON.stringify(g)}`);
    assert.ok(g.countAboveLabel, `bar ${i}'s number overlaps the range below: ${JSON.stringify(g)}`);
  }
  assert.deepEqual(await p.locator('.lec-hist .axis').allTextContents(), ['answer, by range', 'noisy count']);
  assert.match(await p.locator('[data-caption]').textContent(), /Laplace mechanism at ε = 0\.5.*negative bar means the noise pulled a small count below zero/s);
  await axe(p, 'negative histogram on the phone');
  await shoot([p, 'lecture-negative-390.png']);
  assert.deepEqual(errors, []);
});

lectureTest('a phone sends its answer again when a proxy drops it, and only a PUT', 120000, async ({ server, browser }) => {
  const { host, link } = await hostSession(browser, server, 'meeting-day');
  const { p } = await phone(browser, server, link);
  // The first two attempts get what wrangler's proxy sends for a dropped
  // forward; the third reaches the server.
  let puts = 0;
  await p.route('**/submissions/**', (route) => {
    puts++;
    if (puts <= 2) return route.fulfill({ status: 503, headers: { 'Retry-After': '0' }, body: 'Your worker restarted mid-request.' });
    return route.continue();
  });
  const boxes = p.locator('input[name=day]');
  await boxes.first().waitFor();
  await boxes.nth(1).check();
  await send(p);
  assert.equal(puts, 3, 'two repeats, then the answer was stored');
  await host.waitForFunction(() => document.querySelector('[data-participants]').textContent === '1', null, { timeout: 10000 });
  // A release is a POST: never repeated, so a 503 is the instructor's to see.
  let posts = 0;
  await host.route('**/releases', (route) => { posts++; return route.fulfill({ status: 503, body: '{"error":"unavailable"}' }); });
  await host.locator('#eps').fill('1');
  await host.getByRole('button', { name: 'Release' }).click();
  await host.locator('[data-release-said]').filter({ hasText: /did not confirm the release/ }).waitFor({ timeout: 10000 });
  assert.doesNotMatch(await host.locator('main').textContent(), /unavailable/, 'the server\'s own words are not shown');
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(posts, 1);
});

// A link's activity is added to a running
// session only when asked; a typed ε is read with the one rule for typed
// numbers ("0,3" is 0.3, shown as read) and a release of more than half of
// what is left is confirmed; the projector view shows the room only what it
// should see; a phone's count of answers includes its own at once.
lectureTest('the projector view, typed numbers, and asking before spending', 300000, async ({ server, browser }) => {
  const { host, code, link, errors } = await hostSession(browser, server, 'histogram');
  // The room's view, in a second window as the instructor opens it.
  const [proj] = await Promise.all([host.context().waitForEvent('page'), host.locator('[data-projector]').click()]);
  const projErrors = watch(proj);
  await proj.setViewportSize({ width: 1920, height: 1080 });
  await waitText(proj, '[data-code]', new RegExp(`^${code}$`));
  await waitText(proj, '[data-prompt]', /How many hours did you sleep/);
  const projected = await proj.locator('main').textContent();
  assert.doesNotMatch(projected, /Export|token|key to this session|Release|Close submissions|New activity/, 'the projector shows no control');
  assert.equal(await proj.locator('main button:not([data-fullscreen])').count(), 0, 'no button on the projector but full screen');
  assert.ok(await proj.locator('.lec-qr svg').isVisible());
  await projectorFills(proj);

  // Two phones; each sees its own answer counted as soon as it is sent:
  // phone b's polls are held from here on, but for the one its answer
  // makes, so only that one can bring the count up to date. A held poll
  // is answered by the server at once and its answer (0 answers) kept back,
  // to arrive after the fresh one: it must not undo it.
  const a = await phone(browser, server, link);
  const b = await phone(browser, server, link);
  await waitText(b.p, '[data-budget]', /^0 answers so far/);
  let gate = 'closed';
  const held = [];
  await b.p.route('**/api/sessions/*/activities/*', async (route) => {
    if (route.request().method() !== 'GET' || gate === 'one') { if (gate === 'one') gate = 'closed'; return route.continue(); }
    const response = await route.fetch();
    held.push(() => route.fulfill({ response }));
  });
  while (!held.length) await new Promise((r) => setTimeout(r, 100));
  await a.p.locator('#value').fill('7');
  await send(a.p);
  await b.p.locator('#value').fill('4,5');
  await waitText(b.p, '#value-read', /Read as 4\.5\. A comma is read as a decimal point\./);
  gate = 'one';
  await send(b.p);
  await waitText(b.p, '[data-budget]', /^2 answers so far/);
  assert.equal(held.length, 1, 'no periodic poll got through');
  // Once the page has read the held answer whole (its resource timing entry), and the tasks after.
  const polls = () => performance.getEntriesByType('resource').filter((e) => /\/activities\/\d+$/.test(e.name) && e.responseEnd > 0).length;
  const read = await b.p.evaluate(polls);
  await held.shift()();
  while (await b.p.evaluate(polls) <= read) await afterTasks(b.p);
  await afterTasks(b.p);
  assert.match(await b.p.locator('[data-budget]').textContent(), /^2 answers so far/, 'a poll older than the answer undid its count');
  await b.p.unroute('**/api/sessions/*/activities/*');
  for (const f of held) await f().catch(() => {}); // unroute may have let it go already
  assert.equal(await b.p.evaluate(() => JSON.parse(Object.entries(localStorage).find(([k]) => k.startsWith('dpplay.lecture.answer.'))[1]).value), 4.5);
  await waitText(host, '[data-participants]', /^2$/);
  await waitText(proj, '[data-participants]', /^2$/);

  // ε typed with a comma is read as a decimal point and shown as read.
  await host.locator('#eps').fill('0,3');
  await waitText(host, '#eps-read', /^Read as 0\.3\. A comma is read as a decimal point\.$/);
  await waitText(host, '[data-noise]', /^At ε = 0\.3 each bar/);
  await host.getByRole('button', { name: 'Release' }).click();
  await waitText(host, '[data-remaining]', /^2\.7$/);
  await waitText(proj, '[data-remaining]', /^2\.7$/);
  await proj.locator('.lec-result .lec-hist').waitFor({ timeout: 15000 });
  // More than half of what is left: asked first; Cancel spends nothing.
  await host.locator('#eps').fill('2');
  await host.getByRole('button', { name: 'Release' }).click();
  await waitText(host, '[data-release-confirm]', /spends ε = 2 of the 2\.7 left/);
  await host.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await host.locator('[data-release-confirm]').textContent(), '');
  await host.locator('#eps').fill('3 apples');
  await waitText(host, '#eps-read', /Not a number I can read/);
  assert.equal(await host.locator('[data-noise]').textContent(), '');
  await host.getByRole('button', { name: 'Release' }).click();
  // The reason stays said once, under the box, which has the focus.
  await host.waitForFunction(() => document.activeElement?.id === 'eps');
  await waitText(host, '#eps-read', /Not a number I can read/);
  assert.equal(await host.locator('[data-release-said]').textContent(), '');
  assert.equal(await host.locator('[data-remaining]').textContent(), '2.7');

  // A link naming an activity for this running session asks first.
  const again = await host.context().newPage();
  await again.goto(server.url + `lecture.html?role=host&session=${code.replace('-', '')}&activity=pricing`);
  await again.getByRole('button', { name: 'Not now' }).click();
  await waitText(again, '[data-prompt]', /^1\. How many hours/);
  assert.equal(await again.locator('.lec-tabs [data-activity]').count(), 1, 'no activity added without asking');
  await again.close();

  await axe(proj, 'projector view');
  await axe(b.p, 'phone with a typed answer');
  await shoot([proj, 'lecture-projector-view-1920.png'], [b.p, 'lecture-phone-typed-390.png']);
  await settled(host, [a, b], [...errors, ...projErrors]);
});

// A join link whose code is not a code says so at
// once, instead of waiting for a session that cannot exist.
lectureTest('a join link with a bad code says so', 120000, async ({ server, browser }) => {
  const { code } = await hostSession(browser, server, 'meeting-day');
  const { p, errs } = await phone(browser, server, server.url + `lecture.html?join=${code.replace('-', '')}/activities/1`);
  await waitText(p, '#code-why', /not valid/);
  await p.getByLabel('Join code from the screen').fill(code);
  await p.getByRole('button', { name: 'Join' }).click();
  await p.locator('input[name=day]').first().waitFor({ timeout: 15000 });
  assert.deepEqual(errs, []);
});

// Where the server asks for the instructor key, the
// page asks for it, keeps it on this device, and a link's #key= fills it
// in without the key staying in the address bar.
lectureTest('starting a session asks for the instructor key where the server needs it', 120000, async ({ server, browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // The server stands for one on another machine: no key, no session.
  const sent = [];
  await ctx.route('**/api/sessions', (route) => {
    const key = route.request().headers().authorization || '';
    sent.push(key);
    if (key !== 'Bearer the-key-1234') return route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"starting a session needs the instructor key"}' });
    return route.continue({ headers: { ...route.request().headers(), authorization: '' } });
  });
  const p = await ctx.newPage();
  const errors = watch(p);
  await p.goto(server.url + 'lecture.html?role=host');
  await p.getByRole('button', { name: 'Start the session' }).click();
  await p.getByLabel('Instructor key').waitFor();
  await p.getByLabel('Instructor key').fill('the-key-1234');
  await p.getByRole('button', { name: 'Start the session' }).click();
  await p.locator('[data-code]').waitFor({ timeout: 15000 });
  assert.deepEqual(sent, ['', 'Bearer the-key-1234']);
  // A link with the key in its fragment: kept, and gone from the address.
  const q = await ctx.newPage();
  await q.goto(server.url + 'lecture.html?role=host#key=another-key-5678');
  await q.getByRole('button', { name: /Resume/ }).first().waitFor();
  assert.ok(!q.url().includes('key'), q.url());
  assert.match(await q.evaluate(() => localStorage.getItem('dpplay.lecture.keys')), /another-key-5678/);
  assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
});

// What the instructor's screen says and shows: before an activity, no
// control that needs one; the new-activity form only the fields of its
// kind; ε's rule said once, in the page's words, before anything is sent;
// each result beside the control that caused it, in a live region; the
// server's own messages never; why answers are refused once the roster or
// the session is full, and a way to remove ids a script invented that
// answer every activity. A phone that ticks nothing is told so.
lectureTest('the instructor\'s screen says what happened beside what was pressed', 300000, async ({ server, browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const host = await ctx.newPage();
  const errors = watch(host);
  await host.goto(server.url + 'lecture.html?role=host');
  await host.getByRole('button', { name: 'Start the session' }).click();
  await host.locator('[data-empty]').waitFor({ timeout: 10000 });
  for (const name of ['Close submissions', 'Release', '1 min', 'Run again with fresh answers']) {
    assert.equal(await host.getByRole('button', { name, exact: true }).count(), 0, `"${name}" before any activity`);
  }
  await axe(host, 'instructor view before any activity');

  // The form shows what each kind uses.
  await host.getByRole('button', { name: 'Add the first activity' }).click();
  const fields = { question: 'Question', options: 'Options, one per line (2 to 31)', min: 'Smallest answer', max: 'Largest answer', bins: 'Ranges' };
  const visible = async () => {
    const out = [];
    for (const [k, label] of Object.entries(fields)) if (await host.getByLabel(label, { exact: true }).isVisible()) out.push(k);
    return out;
  };
  const kind = host.getByLabel('Activity', { exact: true });
  for (const [value, want] of [['poll', ['question', 'options']], ['meeting-day', ['question']], ['histogram', ['question', 'min', 'max', 'bins']], ['pricing', ['question']]]) {
    await kind.selectOption(value);
    assert.deepEqual(await visible(), want, `fields of ${value}`);
  }
  await kind.selectOption('meeting-day');
  await host.getByRole('button', { name: 'Add and show it' }).click();
  await waitText(host, '[data-tabs-said]', /^Activity added and shown\.$/);
  const link = await host.locator('.lec-link a').getAttribute('href');

  // A phone that sends nothing ticked is told what that means.
  const s = await phone(browser, server, link);
  await s.p.locator('input[name=day]').first().waitFor();
  await send(s.p);
  assert.match(await s.p.locator('[data-sent]').textContent(), /you ticked nothing, so it counts for none of the options/);
  await waitText(host, '[data-participants]', /^1$/);

  // ε's rule, in the page's words, once; nothing is sent, and what the
  // server would say about such an ε is never shown.
  let releases = 0;
  await host.route('**/releases', (route) => { releases++; return route.continue(); });
  for (const typed of ['0', '1e-300', '10.5', '0.0000015']) {
    await host.locator('#eps').fill(typed);
    await waitText(host, '#eps-read', /^ε must be more than 0 and at most 10, in steps of 0\.000001\.$/);
    assert.equal(await host.locator('[data-noise]').textContent(), '', `noise sentence for ε = ${typed}`);
    await host.getByRole('button', { name: 'Release' }).click();
    assert.equal(await host.evaluate(() => document.activeElement?.id), 'eps');
    assert.equal(await host.locator('[data-release-said]').textContent(), '');
  }
  assert.equal(releases, 0, 'a release was sent with an ε the server refuses');
  assert.doesNotMatch(await host.locator('main').textContent(), /epsilon:|in \(0, 10\]/);

  // Each result beside its button, in a live region.
  // Both boxes measured in one task: a poll may draw a release above them.
  const beside = async (button, said) => {
    const gap = await host.evaluate(([bs, ms]) => {
      const [b, m] = [document.querySelector(bs).getBoundingClientRect(), document.querySelector(ms).getBoundingClientRect()];
      return m.top >= b.top ? m.top - b.bottom : Infinity;
    }, [button, said]);
    assert.ok(gap < 120, `${said} is ${gap} px below ${button}`);
    assert.equal(await host.locator(said).getAttribute('role'), 'status');
  };
  await host.locator('#eps').fill('1');
  await host.getByRole('button', { name: 'Release' }).click();
  await waitText(host, '[data-release-said]', /^Released with ε = 1\.$/);
  await waitText(host, '[data-history] tbody', /^1/);
  await beside('.lec-release button[type=submit]', '[data-release-said]');
  await host.locator('#eps').fill('2.5');
  await host.getByRole('button', { name: 'Release' }).click();
  await waitText(host, '[data-release-said]', /^Nothing was released: only ε = 2 is left for the lecture\.$/);
  assert.equal(releases, 1);
  // A server's refusal is said in the page's words.
  await host.route('**/door', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"sqlite: disk I/O error xyz"}' }));
  await host.getByRole('button', { name: 'Close to new students' }).click();
  await waitText(host, '[data-door-said]', /^The door did not change\. The server had a problem: try again\.$/);
  await beside('[data-door]', '[data-door-said]');
  assert.doesNotMatch(await host.locator('main').textContent(), /xyz/);
  await host.unroute('**/door');

  // A full roster says why newcomers are refused, and opens the roster's controls.
  await host.locator('summary').filter({ hasText: 'Roster' }).click();
  await host.locator('#roster-new').fill('1');
  await host.getByRole('button', { name: 'Set', exact: true }).click();
  await waitText(host, '[data-roster-said]', /^At most 1 student\.$/);
  await waitText(host, '[data-full]', /^The roster is full: 1 of 1 students have joined, so anyone new is refused\./);
  assert.equal(await host.locator('[data-prune-door]').isVisible(), false, 'before the door reopens there is no one to remove by it');
  // The script's id answers every activity, so pruning by answers keeps
  // it; closing and opening the door lets the instructor remove everyone
  // who came in before.
  await host.getByRole('button', { name: 'Close to new students' }).click();
  await waitText(host, '[data-door-said]', /^Closed: only students who have joined can answer\.$/);
  await host.getByRole('button', { name: 'Open to new students' }).click();
  await waitText(host, '[data-door-opened]', /^The door was last opened at \d\d:\d\d:\d\d/);
  await host.getByRole('button', { name: 'Remove everyone who joined before the door last opened' }).click();
  await host.locator('[data-prune-yes]').click();
  await waitText(host, '[data-prune-said]', /^Removed 1 student; 0 remain\.$/);
  await waitText(host, '[data-joined]', /^0$/);
  await waitText(host, '[data-full]', /^$/);
  assert.equal(await host.evaluate(() => document.activeElement?.dataset.pruneDoor), '', 'the focus went back to the button');
  await axe(host, 'instructor view with the roster open');

  // A session at its cap of answers says so, and what to do.
  await host.route('**/api/sessions/*', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch({ headers: { ...route.request().headers(), 'if-none-match': '' } });
    const body = await response.json();
    return route.fulfill({ response, json: { ...body, answers: body.max_answers } });
  });
  await waitText(host, '[data-full]', /^No new answer is stored: this session holds 1,000,000 answers, the most one session keeps\. Start a new session/);
  await host.unroute('**/api/sessions/*');
  await shoot([host, 'lecture-host-screen-1280.png']);
  // It reflows at 320 px: nothing wider than the screen, the notices included.
  await host.setViewportSize({ width: 320, height: 700 });
  await afterTasks(host);
  assert.equal(await host.evaluate(() => document.documentElement.scrollWidth), 320, 'the instructor view scrolls sideways at 320 px');
  assert.deepEqual(errors.filter((e) => !/500/.test(e)), []);
});
