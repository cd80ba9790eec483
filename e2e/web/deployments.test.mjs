// Real deployments on every ε slider (issue 44), in Debian's Chromium: each
// tick is a row of app/deployments' file (through gen/widgets.js, which Go
// writes), placed in ε order where the thumb stands at that ε; the list
// names exactly those rows with their sources, as text; the range input
// keeps its value text and its keys; at 390 px the docked slider carries the
// same ticks. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, harness, idle, shoot } from './harness.mjs';

const web = harness(['index.html', 'dist/ is missing: run make site']);
const { schemas, deployments } = await import(pathToFileURL(path.join(dist, 'gen', 'widgets.js')).href);

/** marks(page, sel) is what an ε slider of widget sel shows: its ticks, its list and its range input's state. */
const marks = (page, sel) => page.locator(sel).evaluate((fig) => {
  const wrap = fig.querySelector('.control-slider[data-key="eps"]');
  const input = wrap.querySelector('input[type=range]');
  const r = input.getBoundingClientRect();
  return {
    ticks: [...wrap.querySelectorAll('.slider-marks .deployment-mark')].map((t) => {
      const b = t.getBoundingClientRect();
      return { id: t.dataset.deployment, kind: t.className, x: (b.left + b.right) / 2 - r.left, width: r.width, hidden: t.closest('[aria-hidden="true"]') !== null };
    }),
    items: [...fig.querySelectorAll('.slider-deployments li')].map((li) => ({ id: li.dataset.deployment, text: li.textContent, href: li.querySelector('a').getAttribute('href') })),
    summary: fig.querySelector('.slider-deployments summary').textContent,
    listDocked: fig.querySelector('.slider-deployments').closest('.slider-dock') !== null,
    description: document.getElementById(input.getAttribute('aria-describedby'))?.textContent,
    valuetext: input.getAttribute('aria-valuetext'),
    docked: wrap.closest('.slider-dock') !== null,
  };
});

/** inRange(lo, hi) are the file's rows an ε slider over [lo, hi] marks, in ε order. */
const inRange = (lo, hi) => deployments.filter((d) => d.epsilon !== null && d.epsilon >= lo && d.epsilon <= hi)
  .sort((a, b) => a.epsilon - b.epsilon);

test('the ε band: every tick is a row of the file, in ε order, named in the list, and the slider keeps its value and keys', async () => {
  const { context, page, errors } = await web.open('what-epsilon-promises/', { lesson: 'what-epsilon-promises' });
  await idle(page, '#w-band');
  const { min, max } = schemas['epsilon-band'].eps;
  const want = inRange(min, max);
  assert.ok(want.length > 0 && want.length < deployments.length, `${want.length} of ${deployments.length} rows in range`);
  const m = await marks(page, '#w-band');
  assert.deepEqual(m.ticks.map((t) => t.id), want.map((d) => d.id));
  const ids = new Set(deployments.map((d) => d.id));
  for (const [i, t] of m.ticks.entries()) {
    assert.ok(ids.has(t.id), `tick ${t.id} is not a row of the file`);
    assert.ok(t.hidden, `tick ${t.id} is exposed to assistive technology`);
    assert.match(t.kind, new RegExp(`mark-${want[i].kind}\\b`));
    assert.ok(t.x > 0 && t.x < t.width, `tick ${t.id} at ${t.x} of ${t.width}`);
    if (i > 0) assert.ok(t.x >= m.ticks[i - 1].x - 0.01, `${t.id} (ε ${want[i].epsilon}) left of ${m.ticks[i - 1].id}`);
  }
  // Ticks of different ε stand apart: the largest in range lies right of the smallest.
  assert.ok(m.ticks.at(-1).x - m.ticks[0].x > m.ticks[0].width / 2);
  assert.deepEqual(m.items, want.map((d) => ({ id: d.id, text: d.label, href: d.source })));
  // The legend says where a ρ tick sits, and the last line that not every row records a unit.
  const prose = await page.locator('#w-band .slider-deployments').evaluate((list) => ({
    legend: [...list.querySelector('.deployment-legend').children].map((item) => item.textContent),
    rest: list.querySelector(':scope > p:last-child').textContent,
  }));
  assert.deepEqual(prose.legend, ['ε only', '(ε, δ)', 'ρ (zCDP), placed at the ε of its row’s (ε, δ)']);
  const above = deployments.filter((d) => d.epsilon !== null && d.epsilon > max).length;
  assert.equal(prose.rest, `${above} more lie above ε = ${max}, past this slider. The rows differ in their unit of privacy (not recorded for every row), in whether they have a δ, and in their accounting: see why these numbers are not comparable.`);
  assert.equal(m.summary, `Real deployments (${want.length})`);
  assert.equal(m.description, `Ticks under the slider mark the ε of ${want.length} real deployments, named under “Real deployments”.`);
  assert.equal(m.valuetext, 'ε = 1');

  // The thumb at a deployment's ε stands over its tick, and a tick between two
  // positions of the slider lies between them in log ε: Google's 2.64 between 2.5 and 3.
  const slider = page.locator('#w-band .control-slider[data-key="eps"] input[type=range]');
  const thumbAt = async (text) => {
    await slider.focus();
    for (let i = 0; i < 40 && await slider.getAttribute('aria-valuetext') !== text; i++) await slider.press('ArrowRight');
    assert.equal(await slider.getAttribute('aria-valuetext'), text);
    return slider.evaluate((input) => {
      const r = input.getBoundingClientRect();
      return 8 + ((+input.value - +input.min) / (+input.max - +input.min)) * (r.width - 16);
    });
  };
  await slider.focus();
  await slider.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#w-band input[type=range]').getAttribute('aria-valuetext') === 'ε = 1.2');
  const tickOf = async (id) => (await marks(page, '#w-band')).ticks.find((t) => t.id === id).x;
  const x2 = await thumbAt('ε = 2');
  const on2 = await tickOf(want.find((d) => d.epsilon === 2).id);
  assert.ok(Math.abs(on2 - x2) < 1, `ε = 2: tick at ${on2}, thumb at ${x2}`);
  const x25 = await thumbAt('ε = 2.5'), x3 = await thumbAt('ε = 3');
  const between = want.find((d) => d.epsilon > 2.5 && d.epsilon < 3);
  const expect = x25 + (Math.log(between.epsilon / 2.5) / Math.log(3 / 2.5)) * (x3 - x25);
  const at = await tickOf(between.id);
  assert.ok(Math.abs(at - expect) < 0.5, `ε = ${between.epsilon}: tick at ${at}, want ${expect} (log ε between 2.5 and 3)`);

  // The list's last line points to this section of this lesson.
  const why = await page.locator('#w-band .slider-deployments > p:last-child a').evaluate((a) => ({ path: new URL(a.href).pathname, hash: new URL(a.href).hash }));
  assert.match(why.path, /\/what-epsilon-promises\/$/);
  assert.equal(await page.locator(`h2${why.hash}`).count(), 1, `no section ${why.hash}`);
  await page.locator('#w-band .slider-deployments summary').click();
  await shoot(page.locator('#w-band'), 'deployments-band-1280.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every ε slider on a page carries ticks of its own range, and a phone\'s docked slider the same', async () => {
  for (const [width, scheme] of [[1280, 'dark'], [390, 'light'], [390, 'dark']]) {
    const { context, page, errors } = await web.open('exponential-mechanism/', { lesson: 'exponential-mechanism', width, height: 844, scheme, hasTouch: width < 600, isMobile: width < 600 });
    await idle(page, '#w-meet');
    const m = await marks(page, '#w-meet');
    const { min, max } = schemas['exponential-mechanism'].eps;
    assert.deepEqual(m.ticks.map((t) => t.id), inRange(min, max).map((d) => d.id), `${width} px`);
    assert.equal(m.docked, width < 600);
    // The bar that stays on screen holds the slider and its ticks, not the list.
    assert.equal(m.listDocked, false);
    assert.deepEqual(m.items.map((i) => i.id), inRange(min, max).map((d) => d.id));
    await page.locator('#w-meet .slider-deployments summary').click();
    await page.locator('#w-meet .slider-deployments').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shoot(page, `deployments-meet-${width}-${scheme}.png`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
