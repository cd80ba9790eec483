// The sampling machine from a lesson page: pressing "Start the machine"
// loads machine.html in an iframe (wasm/machine, ebiten), balls land, the
// counts in the live region rise; it pauses, steps, plays its counts as
// tones, follows ε, and fills to 2,000 balls in flight. Its timings (press to
// first ball, frames per second) are make bench's (scripts/machine-bench.mjs).
// Uses the harness of e2e/web unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ready } from './web/browser.mjs';
import { audioSpy, harness, dist, shoot, live } from './web/harness.mjs';

const web = harness(
  [path.join('wasm', 'machine.wasm'), `${dist}/wasm/machine.wasm is missing: build the site with the machine module (docs/figures.md)`],
  ['machine.html', 'dist/machine.html is missing'],
);

const landed = (page) => page.locator('#machine-host').getAttribute('data-landed').then(Number);

test('Start the machine: counts rise, it pauses and steps, it plays its counts as tones, follows ε and runs fast', async () => {
  const { context, page, errors, requests } = await web.open('exponential-mechanism/');
  await ready(page, 'exponential-mechanism');
  assert.ok(!requests.some((u) => /machine\.(wasm|html)/.test(u)), 'the machine must not load before the button is pressed');

  // The exponential mechanism lesson's machine widget (meeting days; the
  // exponential mechanism beside report noisy max with Laplace noise, at
  // scale 2Δ/ε: ε-private under the page's change-one-answer neighbours).
  // Name its host for the checks below.
  await live(page, 'figure.widget[data-id="machine"]');
  const host = page.locator('figure.widget[data-id="machine"] .machine-host');
  await host.evaluate((el) => { el.id = 'machine-host'; });
  await host.scrollIntoViewIfNeeded();
  await page.evaluate(() => { window.machine = document.getElementById('machine-host').machine; });
  await page.locator('#machine-host button.machine-start').click();
  await page.waitForFunction(() => document.getElementById('machine-host').dataset.firstBallMs, null, { timeout: 30000 });
  assert.ok(requests.some((u) => u.endsWith('/wasm/machine.wasm')), 'machine.wasm was fetched after the press');

  // Counts rise in the host page's live region.
  await page.waitForFunction(() => Number(document.getElementById('machine-host').dataset.landed) > 0, null, { timeout: 20000 });
  const a = await landed(page);
  await page.waitForFunction((n) => Number(document.getElementById('machine-host').dataset.landed) > n, a, { timeout: 20000 });
  const status = await page.locator('#machine-host .machine-status').textContent();
  assert.match(status, /Exponential mechanism: [\d,]+ balls\. Monday/);
  assert.match(status, /Report noisy max \(Laplace 2Δ\/ε\): [\d,]+ balls/);
  assert.match(await page.locator('#machine-host iframe').getAttribute('src'), /[#&]mech=exponential%2Creport-noisy-max-laplace&factor=1%2C0\.5&/);
  assert.match(await page.locator('figure.widget[data-id="machine"] .lane-guarantees').textContent(), /Report noisy max \(Laplace 2Δ\/ε\): ε-private for any scores that one person moves by at most Δ, with either neighbour notion\./);
  await page.locator('#machine-host').scrollIntoViewIfNeeded();
  await shoot(page.locator('#machine-host'), 'machine-lesson.png');

  // Pause stops new balls; step drops exactly one per lane.
  const frame = page.frameLocator('#machine-host iframe');
  await page.locator('#machine-host .machine-controls button', { hasText: 'Pause' }).click();
  const iframe = page.frames().find((f) => f.url().includes('machine.html'));
  await iframe.waitForFunction(() => window.machineStats.state?.paused && window.machineStats.state.inFlight === 0, null, { timeout: 10000 });
  const before = await iframe.evaluate(() => window.machineStats.state.lanes[0].released);
  await page.locator('#machine-host .machine-controls button', { hasText: 'Step' }).click();
  await iframe.waitForFunction((n) => window.machineStats.state.lanes[0].released === n + 1, before, { timeout: 10000 });
  assert.ok(await frame.locator('#live').count() === 1);

  // "Listen", while paused: each lane's exact probabilities, then its shares
  // of the balls landed, one tone a candidate, higher for a larger value.
  // Paused, the balls already released still land: read the counts once none is in flight.
  await iframe.waitForFunction(() => window.machineStats.state.inFlight === 0, null, { timeout: 20000 });
  const lanes = await iframe.evaluate(() => window.machineStats.state.lanes);
  await page.waitForFunction((n) => Number(document.getElementById('machine-host').dataset.landed) === n, lanes[0].landed);
  await page.evaluate(audioSpy);
  await page.locator('#machine-host .listen-button').click();
  await page.waitForFunction(() => /share of [\d,]+ balls/.test(document.getElementById('listen-status')?.textContent || ''), null, { timeout: 20000 });
  const tones = await page.evaluate(() => window.__tones);
  const values = lanes.flatMap((l) => [l.probs, l.counts.map((c) => c / l.landed)]).flat();
  assert.equal(tones.length, values.length, `tones: ${JSON.stringify(tones)}`);
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < values.length; j++) if (values[i] > values[j] + 1e-9) assert.ok(tones[i].f > tones[j].f, `value ${values[i]} sounds no higher than ${values[j]}`);
  }
  assert.match(await page.locator('#listen-status').textContent(), /^Exponential mechanism, exact probability: Monday \d+\.\d%, /);

  // Reconfiguring from the host (postMessage) restarts with new exact probabilities.
  const p1 = await iframe.evaluate(() => window.machineStats.state.lanes[0].probs[1]);
  await page.evaluate(() => window.machine.update({ epsilon: 3 }));
  await iframe.waitForFunction((p) => window.machineStats.state.lanes[0].probs[1] > p + 0.1, p1, { timeout: 10000 });

  // 2,000 balls in flight: 1,000 per second in each lane, one second to fall
  // (the frame rate with them is make bench's, scripts/machine-bench.mjs).
  await page.evaluate(() => { window.machine.send({ type: 'speed', speed: 1000 }); window.machine.send({ type: 'pause', paused: false }); });
  await iframe.waitForFunction(() => window.machineStats.state.inFlight >= 1900, null, { timeout: 30000 });
  await shoot(page.locator('#machine-host'), 'machine-2000.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('machine.html on its own: keyboard, reduced motion and the live region', async () => {
  const { context, page, errors } = await web.open('machine.html#speed=250&seed=3', { width: 900, height: 560, reducedMotion: 'reduce' });
  await page.waitForFunction(() => window.machineStats?.state?.lanes[0].landed > 0, null, { timeout: 30000 });
  // Reduced motion: balls land the moment they are drawn, none in flight.
  const s = await page.evaluate(() => window.machineStats.state);
  assert.equal(s.inFlight, 0);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => window.machineStats.state.paused);
  const n = await page.evaluate(() => window.machineStats.state.lanes[0].released);
  await page.keyboard.press('s');
  await page.waitForFunction((k) => window.machineStats.state.lanes[0].released === k + 1, n);
  await page.waitForFunction(() => /Exponential mechanism: [\d,]+ draws\. Monday/.test(document.getElementById('live').textContent));
  await shoot(page, 'machine-page.png');
  assert.deepEqual(errors, []);
  await context.close();
});
