// The lesson "The sparse vector technique" and the "break it" challenges
// (here and in "Check a mechanism yourself") end to end in Chromium: the
// stream's exact probabilities (the numbers the Go tests compute), typed
// numbers read by the page's one rule, the auditor on each variant, a
// challenge that fails twice, shows its hint, is solved and is remembered
// after a reload. Both pages' axe, sideways scroll and screenshots at 360,
// 390 and 1280 px in light and dark are the sweep's.
// Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { checked, harness, idle, renders, rerendered } from './harness.mjs';
import { ready } from './browser.mjs';

const slug = 'sparse-vector';
const web = harness([path.join(slug, 'index.html'), `dist/ has no ${slug}: run make site`]);
const open = async (hash = '', opts = {}) => web.open(`#/${slug}${hash}`, { ...opts, lesson: slug });

test('the stream shows the exact probabilities and reads typed numbers', async () => {
  await checked(await open(), async ({ page }) => {
    const W = '#w-stream';
    await idle(page, W);
    const table = () => page.locator(`${W} .table-wrap tbody`).textContent();
    // Query 2 (answer 6) 25.8%, query 4 (answer 9) 25.4% (lessons/quote_sparse_vector_test.go).
    assert.match(await table(), /26\s*25\.8%/);
    assert.match(await table(), /49\s*25\.4%/);
    assert.match(await page.locator(`${W} .panel-stat`).textContent(), /α = 47\.9; .* within 6\./);
    // A comma is a decimal point: T = "8,5".
    let n = await renders(page, W);
    const t = page.locator(W).getByRole('textbox', { name: 'Threshold T' });
    await t.fill('8,5');
    await t.press('Enter');
    await rerendered(page, W, n);
    assert.match(await page.evaluate(() => location.hash), /stream\.t=8\.5/);
    assert.match(await page.locator(`${W} .table-wrap caption`).textContent(), /T = 8\.5/);
    // Nonsense is refused with a message, and nothing is drawn from it.
    n = await renders(page, W);
    await t.fill('eight');
    await t.press('Enter');
    assert.equal(await t.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator(`${W} #${await t.getAttribute('aria-describedby')}`).textContent(), /Not a number/);
    assert.equal(await renders(page, W), n);
    // c = 2: the technique may answer ⊤ twice.
    const c = page.locator(W).getByRole('textbox', { name: 'Cutoff c (⊤ answers before it halts)' });
    await c.fill('2');
    await c.press('Enter');
    await rerendered(page, W, n);
    assert.match(await page.locator(`${W} .loss-line`).textContent(), /Lap\(8\)\. Expected ⊤ answers: [\d.]+ \(at most c = 2\)/);
  });
});

test('the auditor audits each variant', async () => {
  await checked(await open(), async ({ page }) => {
    const W = '#w-variants';
    await idle(page, W);
    const verdict = () => page.locator(`${W} .loss-line`).textContent();
    assert.match(await verdict(), /^Holds on this pair of neighbours \(each answer moved by at most 1, as one person moves every query of sensitivity 1\): the privacy loss is 0\.964\d?, within the claimed ε = 1\.$/);
    for (const [alg, re] of [['3', /^Fails on this pair of neighbours .* is 4\.5, above the claimed ε = 1\. Lyu et al\. prove no ε that holds for every stream\.$/], ['4', /^Fails on .* is 1\.728, .*Lyu et al\. prove ε = 1\.75 for this variant\.$/], ['5', /^Fails on .* is ∞/], ['6', /^Fails on .* is 1\.493/]]) {
      const n = await renders(page, W);
      await page.locator(W).getByLabel('Variant', { exact: true }).selectOption(alg);
      await rerendered(page, W, n, 60000);
      assert.match(await verdict(), re, `Algorithm ${alg}`);
    }
    // A pair that is not a pair of neighbours is refused, as text.
    const n = await renders(page, W);
    const y = page.locator(W).getByRole('textbox', { name: 'Answers on the neighbour x′' });
    await y.fill('3 1 1 1 1 1 1 1 1 0');
    await y.press('Enter');
    await rerendered(page, W, n);
    assert.match(await page.locator(`${W} .widget-error`).textContent(), /query 1 moves by 3/);
  });
});

test('a challenge: two misses, the hint, the break, remembered after a reload', async () => {
  await checked(await open(), async ({ page }) => {
    const W = '#w-nocutoff';
    await idle(page, W);
    const result = () => page.locator(`${W} .challenge-result`).textContent();
    const check = async () => {
      const n = await renders(page, W);
      await page.locator(W).getByRole('button', { name: 'Check my output' }).click();
      await rerendered(page, W, n);
    };
    assert.ok(await page.locator(`${W} .challenge-solved`).isHidden());
    // The starting pair (x = x′) cannot break anything.
    await check();
    assert.match(await result(), /^Not yet\. ⊥⊥⊥⊥ .* loss of 0 ≤ ε = 1/);
    assert.ok(await page.locator(`${W} .challenge-hint`).isHidden());
    await check();
    assert.match(await page.locator(`${W} .challenge-hint`).textContent(), /^Hint: /);
    // The answer the hint points at: x = (3, 3, 2, 2), x′ = (2, 2, 3, 3), ⊤⊤⊥⊥.
    await page.locator(W).getByLabel('Your x (answers)').fill('3 3 2 2');
    await page.locator(W).getByLabel('Your x′ (answers)').fill('2 2 3 3');
    for (const q of [1, 2]) await page.locator(W).getByRole('button', { name: `(query ${q} below)` }).click();
    assert.equal(await page.locator(W).getByRole('button', { name: '(query 1 above)' }).getAttribute('aria-pressed'), 'true');
    await check();
    assert.match(await result(), /^Broken\. ⊤⊤⊥⊥ .* loss of 1\.53 > ε = 1/);
    assert.ok(await page.locator(`${W} .challenge-solved`).isVisible());
    // Reloading keeps the pair in the link and the solved mark on this device.
    await page.waitForFunction(() => /nocutoff\.x=3/.test(location.hash));
    await page.reload();
    await idle(page, W);
    assert.ok(await page.locator(`${W} .challenge-solved`).isVisible());
    assert.equal(await page.locator(W).getByLabel('Your x (answers)').inputValue(), '3 3 2 2');
  });
});

test('the auditor lessons: a gallery challenge, and the benchmark table', async () => {
  await checked(await web.open('#/check-a-mechanism', { lesson: 'check-a-mechanism' }), async ({ page }) => {
    const W = '#w-twice';
    await idle(page, W, 60000);
    await page.locator(W).getByLabel('Your x (counts)').fill('1 0 2');
    await page.locator(W).getByLabel('Your x′ (counts)').fill('0 0 3');
    const n = await renders(page, W);
    await page.locator(W).getByRole('button', { name: 'Check my output' }).click();
    await rerendered(page, W, n, 60000);
    assert.match(await page.locator(`${W} .challenge-result`).textContent(), /^Broken\. candidate 0 .* loss of 1\.687 > ε = 1/);
    // The benchmark table is the next lesson's.
    await page.locator('#lesson-nav a[data-slug="research-tools"]').click();
    await ready(page, 'research-tools');
    const table = await page.locator('#lesson table', { hasText: 'Noisy hist. 2' }).textContent();
    assert.match(table, /SVT5\s*every entry\s*∞\s*∞\s*1\.761/);
  });
});
