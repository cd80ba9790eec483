// Typed values, presentation mode and chart labels (issue 17), in Debian's
// Chromium: every slider has a number box bound to it and to the URL,
// sliders land on round values, presenting fills a 1920×1080 screen with
// the ε value as its largest text, and bar charts name their axes and their
// changing column. The slider dock on phones is the sweep's
// (sweep.test.mjs). Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './browser.mjs';
import { axe as audit, checked, harness, idle, live, shoot, siteIndex } from './harness.mjs';

const index = siteIndex();
const slugs = index.lessons.map((l) => l.slug);
const web = harness(['index.html', 'dist/ is missing: run make site']);

/** open(hash, opts) is a page in a fresh context; a phone (width < 600) has touch and no hover. */
const open = (hash, { width = 1280, ...opts } = {}) => web.open(hash, { width, ...opts, hasTouch: width < 600, isMobile: width < 600 });

/** axe(page, what) audits the widgets (this file's subject; the sweep audits whole pages). */
const axe = (page, what) => audit(page, what, 'figure.widget');

test('typed ε: the number box and the slider move together and write the URL; the slider lands on round values', async () => {
  await checked(await open('exponential-mechanism/', { lesson: 'exponential-mechanism' }), async ({ page }) => {
    const w = '#w-meet';
    await live(page, w);
    const box = page.locator(`${w} .slider-box`);
    const slider = page.locator(`${w} input[type=range]`);
    // The box has the slider's visible label as its name.
    assert.match(await box.evaluate((b) => document.getElementById(b.getAttribute('aria-labelledby')).textContent), /ε \(epsilon\)/);
    const n0 = Number(await page.locator(w).getAttribute('data-renders'));
    await box.fill('0.05');
    await box.press('Enter');
    await page.waitForFunction(() => /meet\.eps=0\.05(&|$)/.test(location.hash));
    await page.waitForFunction(([s, n]) => Number(document.querySelector(s).dataset.renders) > n, [w, n0]);
    assert.equal(await slider.getAttribute('aria-valuetext'), 'ε = 0.05');
    // Out of range is clamped with the URL's rule, and said.
    await box.fill('50');
    await box.press('Enter');
    await page.waitForFunction(() => /meet\.eps=20(&|$)/.test(location.hash));
    assert.equal(await box.inputValue(), '20');
    assert.match(await page.locator(`${w} .slider-note`).textContent(), /outside 0\.01 … 20, so 20 is used/);
    assert.equal(await slider.inputValue(), await slider.getAttribute('max'));
    // Not a number: marked invalid, the state stays.
    await box.fill('');
    await box.press('Enter');
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.match(page.url(), /meet\.eps=20(&|$)/);
    // From the bottom, every key press is a round value: 0.01 → 1 in 22 presses, past 0.05, 0.5, 3 and 5.
    await slider.focus();
    await page.keyboard.press('Home');
    const seen = [await box.inputValue()];
    for (let i = 0; i < 40 && seen.at(-1) !== '20'; i++) {
      await page.keyboard.press('ArrowRight');
      seen.push(await box.inputValue());
    }
    for (const v of ['0.01', '0.05', '0.5', '1', '3', '5', '20']) assert.ok(seen.includes(v), `${v} not reachable: ${seen.join(' ')}`);
    assert.equal(seen.indexOf('1'), 22, `0.01 to 1 took ${seen.indexOf('1')} presses`);
    for (const v of seen) {
      const m = +(Number(v) / 10 ** Math.floor(Math.log10(Number(v)))).toPrecision(6);
      assert.ok([1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8].includes(m), `${v} is not a round value`);
    }
    await page.waitForFunction(() => /meet\.eps=20(&|$)/.test(location.hash));
    // A linked off-grid value is kept exactly and shown in the box.
    await checked(await open('exponential-mechanism/#meet.eps=0.693', { lesson: 'exponential-mechanism' }), async (other) => {
      assert.equal(await other.page.locator(`${w} .slider-box`).inputValue(), '0.693');
    });
  });
});

test('bar charts name their axes, and the number column says whether it is exact or drawn', async () => {
  const { context, page, errors } = await open('exponential-mechanism/#meet.step=0', { lesson: 'exponential-mechanism' });
  const labels = (sel) => page.locator(`${sel} .chart-svg svg .axis-label`).evaluateAll((ts) => ts.map((t) => t.textContent));
  await page.waitForFunction(() => document.querySelector('#w-meet .col-label'));
  assert.deepEqual(await labels('#w-meet'), ['Share of draws or exact probability (%)', 'Candidate', 'Exact']);
  await page.locator('#w-meet button.primary').click();
  await page.waitForFunction(() => document.querySelector('#w-meet .col-label')?.textContent === 'Share of draws');
  for (const slug of ['report-noisy-max', 'what-dp-promises', 'floating-point']) {
    await page.locator(`#lesson-nav a[data-slug="${slug}"]`).click();
    await ready(page, slug);
    const bare = await page.locator('figure.widget .chart-svg svg').evaluateAll((svgs) => svgs
      .filter((s) => s.querySelector('.bar, .track') && !s.querySelector('.axis-label')).length);
    assert.equal(bare, 0, `${slug}: a bar chart without an axis title`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('presenting at 1920×1080: full screen, every lesson\'s widget fits, ε is the largest text; ] changes lesson and + nudges ε', async () => {
  const sizes = [];
  const { context, page, errors } = await open(`${slugs[0]}/`, { width: 1920, height: 1080 });
  await ready(page, slugs[0]);
  await page.locator('#lesson figure.widget').first().focus();
  await page.keyboard.press('f');
  for (const [i, slug] of slugs.entries()) {
    if (i > 0) {
      await page.keyboard.press(']');
      await ready(page, slug);
    }
    assert.ok(await page.evaluate(() => document.body.classList.contains('presenting')), `${slug}: not presenting`);
    await page.waitForFunction(() => document.querySelector('figure.widget.is-presented')?.dataset.fitted, null, { timeout: 30000 });
    await idle(page, 'figure.widget.is-presented');
    if (slug === 'check-a-mechanism') {
      // Twice the candidates once fitted: the pair table and chart grow,
      // and the widget must be fitted again.
      const n = await page.locator('figure.widget.is-presented').getAttribute('data-renders');
      const fitted = () => page.evaluate(() => document.documentElement.style.fontSize);
      const before = await fitted();
      await page.getByLabel('Candidates k').fill('6');
      await page.getByLabel('Candidates k').press('Enter');
      await page.waitForFunction((b) => document.querySelector('figure.widget.is-presented').dataset.renders !== b, n, { timeout: 30000 });
      await page.waitForFunction((b) => document.documentElement.style.fontSize !== b, before, { timeout: 10000 });
      // The keys below act on the page, not on the number box.
      await page.locator('figure.widget.is-presented').focus();
    }
    // Fitting settles over a few frames; a widget still cut off after 10 s
    // fails here, with its overflow.
    await page.waitForFunction(() => {
      const fig = document.querySelector('figure.widget.is-presented');
      return fig.dataset.fitted && fig.scrollHeight - fig.clientHeight <= 1;
    }, null, { timeout: 10000 }).catch(async () => {
      const over = await page.evaluate(() => { const f = document.querySelector('figure.widget.is-presented'); return f.scrollHeight - f.clientHeight; });
      assert.fail(`${slug}: the presented widget is still cut off by ${over}px at 1920×1080 after 10 s`);
    });
    const r = await page.evaluate(() => {
      const fig = document.querySelector('figure.widget.is-presented');
      const box = fig.querySelector('.slider-box');
      let largest = 0, what = '';
      for (const e of fig.querySelectorAll('*')) {
        if (e === box || !e.offsetParent && e.tagName !== 'text' || ![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const fs = parseFloat(e.getAttribute('font-size') || getComputedStyle(e).fontSize);
        if (fs > largest) { largest = fs; what = `${e.tagName}.${e.getAttribute('class') || ''}`; }
      }
      return { id: fig.id, over: fig.scrollHeight - fig.clientHeight, full: !!document.fullscreenElement,
        box: box ? parseFloat(getComputedStyle(box).fontSize) : 0, largest, what };
    });
    assert.ok(r.full, `${slug}: not full screen`);
    assert.ok(r.over <= 1, `${slug} #${r.id}: cut off by ${r.over}px at 1920×1080`);
    if (r.box) assert.ok(r.box > r.largest, `${slug} #${r.id}: ε at ${r.box}px is not above ${r.what} at ${r.largest}px`);
    sizes.push(`${slug}#${r.id}: ε ${r.box.toFixed(1)}px, next ${r.largest.toFixed(1)}px`);
    if (slug === 'report-noisy-max') {
      const before = await page.evaluate(() => location.hash.match(/rnm\.eps=([\d.]+)/)?.[1] ?? '1');
      await page.keyboard.press('+');
      await page.waitForFunction((b) => (location.hash.match(/rnm\.eps=([\d.]+)/)?.[1] ?? '1') !== b, before);
      assert.equal(await page.evaluate(() => location.hash.match(/rnm\.eps=([\d.]+)/)[1]), '1.2');
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(() => /rnm\.eps=1(&|$)/.test(location.hash));
      await shoot(page, 'ux-present-1920.png');
      await axe(page, 'presented report-noisy-max at 1920');
    }
  }
  await page.keyboard.press('f');
  assert.ok(!(await page.evaluate(() => document.body.classList.contains('presenting'))));
  await page.waitForFunction(() => !document.fullscreenElement);
  assert.deepEqual(errors, []);
  await context.close();
  console.log(sizes.join('\n'));
});

test('presenting in the dark scheme passes axe', async () => {
  const { context, page, errors } = await open('exponential-mechanism/', { width: 1920, height: 1080, scheme: 'dark', lesson: 'exponential-mechanism' });
  await page.locator('#w-meet').focus();
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.querySelector('figure.widget.is-presented')?.dataset.fitted, null, { timeout: 30000 });
  await shoot(page, 'ux-present-1920-dark.png');
  await axe(page, 'presented exponential-mechanism (dark)');
  assert.deepEqual(errors, []);
  await context.close();
});
