// Own data end to end in Chromium (issue 19): a CSV loaded by the file
// picker and by paste changes the charts and tables of the
// exponential-mechanism, permute-and-flip, SmallDB and pricing lessons; every bad file shows
// its error (line and column) and keeps the data in use; the file stays in
// IndexedDB across a reload until forgotten, and a link without it says so;
// a data table downloads as CSV equal to the table; 100,000 rows parse in
// the worker (how fast is make bench's: app/data's BenchmarkParse100k,
// natively and in WebAssembly). Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ready } from './browser.mjs';
import { axe, checked, downloaded, harness, idle, renders, rerendered } from './harness.mjs';

const web = harness([path.join('wasm', 'data.wasm'), 'dist/ has no data module: run make site']);
/** open(slug, fig, hash, opts) is the lesson slug in a fresh context that accepts downloads, once its widget fig has drawn. */
async function open(slug, fig, hash = '', opts = {}) {
  const o = await web.open(`${slug}/${hash}`, { acceptDownloads: true, ...opts, lesson: slug });
  await idle(o.page, fig);
  return o;
}

/** rows(page, fig, i) is the text of data table i of the widget: [[cell…]…], header first. */
const rows = (page, fig, i = 0) => page.locator(`${fig} .widget-body table >> nth=${i}`).evaluate((t) =>
  Array.from(t.querySelectorAll('thead tr, tbody tr'), (tr) => Array.from(tr.children, (c) => c.textContent.trim())));

/** drop drops a file of size bytes of 'A' on the panel, made inside the page (a 17 MB upload through the driver is slow). */
async function drop(page, fig, name, size) {
  await page.locator(`${fig} .data-panel`).evaluate((d, [n, k]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(k).fill(65)], n, { type: 'text/csv' }));
    d.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, size]);
}

async function loadFile(page, fig, name, text) {
  if (typeof text === 'number') return drop(page, fig, name, text);
  await page.locator(`${fig} .data-panel > summary`).click().catch(() => {});
  await page.locator(`${fig} .data-panel`).evaluate((d) => { d.open = true; });
  const buffer = Buffer.isBuffer(text) ? text : Buffer.from(text);
  await page.locator(`${fig} .data-panel input[type=file]`).setInputFiles({ name, mimeType: 'text/csv', buffer });
}

async function paste(page, fig, text) {
  await page.locator(`${fig} .data-panel`).evaluate((d) => { d.open = true; });
  await page.locator(`${fig} .data-panel textarea`).fill(text);
  await page.locator(`${fig} .data-panel button`, { hasText: 'Use the pasted text' }).click();
}

/** expectError loads a bad file and checks its message and that the table did not change. */
async function expectError(page, fig, name, content, want) {
  const before = await rows(page, fig);
  const n = +(await page.locator(fig).getAttribute('data-data-errors') || 0);
  await loadFile(page, fig, name, content);
  await page.waitForFunction(([s, k]) => +(document.querySelector(s).dataset.dataErrors || 0) > k, [fig, n], { timeout: 30000 });
  const msg = await page.locator(`${fig} .data-error`).textContent();
  assert.ok(want.test(msg), `${name}: error ${JSON.stringify(msg)} does not match ${want}`);
  assert.deepEqual(await rows(page, fig), before, `${name}: the table changed`);
}

test('exponential mechanism: own data by file and paste, bad files, IndexedDB, shared link, CSV out', async () => {
  const fig = '#w-meet';
  await checked(await open('exponential-mechanism', fig), async ({ page }) => {
    const builtIn = await rows(page, fig);
    assert.equal(builtIn[1][0], 'Monday');

    // A column of categories, counted into scores (semicolons, CRLF, a BOM, a quoted name).
    let n = await renders(page, fig);
    await loadFile(page, fig, 'survey.csv', '\ufeffanswer;age\r\nred;20\r\n"blue; dark";31\r\n\r\nred;40\r\ngreen;22\r\nred;18\r\n');
    await rerendered(page, fig, n);
    let t = await rows(page, fig);
    assert.deepEqual(t.slice(1).map((r) => [r[0], r[1]]), [['red', '3'], ['blue; dark', '1'], ['green', '1']]);
    assert.match(await page.locator(`${fig} .data-marker`).textContent(), /your data: survey\.csv/);
    assert.match(await page.locator(`${fig} .data-panel`).textContent(), /never uploaded/);
    // The URL is written after the redraw: wait for it.
    await page.waitForFunction(() => /meet\.src=[0-9a-f]{12}\.0(&|$)/.test(location.hash));

    // Every bad file: an error naming its place, and the table stays.
    await expectError(page, fig, 'empty.csv', '', /the file is empty/);
    await expectError(page, fig, 'ragged.csv', 'a,b\n1,2\n3\n', /line 3: has 1 field but line 1 has 2/);
    await expectError(page, fig, 'binary.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), /binary file/);
    await expectError(page, fig, 'many.csv', 'x\n' + Array.from({ length: 70 }, (_, i) => `c${i}`).join('\n'), /line 66, column 1 \(x\): “c64” is category 65; this lesson takes at most 64/);
    await expectError(page, fig, 'huge.csv', 17 << 20, /the limit is 16 MB/);
    await expectError(page, fig, 'quote.csv', 'a,b\n1,x"y\n', /line 2: character \d+ is a quote inside a field/);
    // A score column that is not numbers: choose it, get the error, keep the data.
    n = +(await page.locator(fig).getAttribute('data-data-errors'));
    await page.locator(`${fig} .data-columns select >> nth=1`).selectOption({ label: 'answer (category)' }).catch(() => {});
    await page.locator(`${fig} .data-columns select >> nth=1`).selectOption('0');
    await page.waitForFunction(([s, k]) => +(document.querySelector(s).dataset.dataErrors || 0) > k, [fig, n]);
    assert.match(await page.locator(`${fig} .data-error`).textContent(), /line 2, column 1 \(answer\): “red” is not a number/);
    assert.deepEqual(await rows(page, fig), t);

    // Paste a table of candidates and scores.
    n = await renders(page, fig);
    await paste(page, fig, 'option\tvotes\nTea\t12\nCoffee\t30\nWater\t7\n');
    await rerendered(page, fig, n);
    t = await rows(page, fig);
    assert.deepEqual(t.slice(1).map((r) => [r[0], r[1]]), [['Tea', '12'], ['Coffee', '30'], ['Water', '7']]);
    assert.match(t[0][1], /votes/);

    // The table downloads as CSV equal to the table.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${fig} .table-csv button`).click()]);
    const csv = (await downloaded(download)).toString('utf8');
    const parsed = csv.trimEnd().split('\r\n').map((line) => line.split(','));
    assert.deepEqual(parsed, t);
    assert.match(download.suggestedFilename(), /^meet-.*\.csv$/);

    // Reload: the data comes back from IndexedDB, with the marker.
    await page.waitForFunction(() => /meet\.src=[0-9a-f]{12}\.0\.1/.test(location.hash));
    const link = page.url();
    await page.reload();
    await ready(page, 'exponential-mechanism');
    await idle(page, fig);
    await page.waitForFunction((s) => !document.querySelector(`${s} .data-marker`).hidden, fig);
    assert.deepEqual(await rows(page, fig), t);

    // Another browser without the file: the page says it needs it, shows the lesson's data, and loads it when given.
    const other = await open('exponential-mechanism', fig, new URL(link).hash);
    assert.match(await other.page.locator(`${fig} .data-need`).textContent(), /made with someone’s own data file/);
    assert.equal((await rows(other.page, fig))[1][0], 'Monday');
    n = await renders(other.page, fig);
    await paste(other.page, fig, 'option\tvotes\nTea\t12\nCoffee\t30\nWater\t7\n');
    await rerendered(other.page, fig, n);
    assert.deepEqual(await rows(other.page, fig), t);
    assert.deepEqual(other.errors, []);
    await other.context.close();

    // Forget: the lesson's data is back and a reload does not bring the file back.
    n = await renders(page, fig);
    await page.locator(`${fig} .data-panel > summary`).click();
    await page.locator(`${fig} .data-panel button`, { hasText: 'Forget my data' }).click();
    await rerendered(page, fig, n);
    assert.equal((await rows(page, fig))[1][0], 'Monday');
    await page.waitForFunction(() => !/meet\.src=[0-9a-f]/.test(location.hash));
    const stored = await page.evaluate(() => new Promise((res) => {
      const r = indexedDB.open('dpplay-data', 1);
      r.onsuccess = () => { const q = r.result.transaction('files').objectStore('files').count(); q.onsuccess = () => res(q.result); };
    }));
    assert.equal(stored, 0);
  });
});

test('100,000 rows parse in the worker', async () => {
  const fig = '#w-meet';
  await checked(await open('exponential-mechanism', fig), async ({ page }) => {
    const st = ['Married-civ-spouse', 'Never-married', 'Divorced', '"Separated, legally"', 'Widowed'];
    let text = 'status,income,smoker\r\n';
    for (let i = 0; i < 100000; i++) text += `${st[i * 7 % 5]},${(i % 997) * 1.25},${i % 3 % 2 ? 'no' : 'yes'}\r\n`;
    const n = await renders(page, fig);
    await loadFile(page, fig, 'big.csv', text);
    await rerendered(page, fig, n);
    // The header and one row per status, counted over every row.
    const t = await rows(page, fig);
    assert.equal(t.length, 6);
  });
});

test('private pricing: buyers’ values from a file and from paste; bad columns keep the data', async () => {
  const fig = '#w-price';
  await checked(await open('private-pricing', fig), async ({ page }) => {
    const builtIn = await rows(page, fig);
    assert.equal(builtIn.length, 501); // header and 500 prices up to $5

    // Paste: four buyers; the grid runs to $10 in steps of 2 cents.
    let n = await renders(page, fig);
    await paste(page, fig, 'value\n2\n3\n3\n10\n');
    await rerendered(page, fig, n);
    let t = await rows(page, fig);
    assert.equal(t.length, 501);
    assert.equal(t[500][0], '10');
    assert.deepEqual(t.find((r) => r[0] === '3'), ['3', '9']); // three buyers value the good at $3 or more
    assert.deepEqual(t.find((r) => r[0] === '10'), ['10', '10']);

    // Bad columns: not a number, below 0, a ragged row.
    await expectError(page, fig, 'text.csv', 'value\n2\nabc\n', /line 3, column 1 \(value\): “abc” is not a number/);
    await expectError(page, fig, 'negative.csv', 'value;other\n2;1\n-1;1\n', /line 3, column 1 \(value\): “-1” is outside 0 … /);
    await expectError(page, fig, 'ragged.csv', 'v\tw\n1\t2\n3\n', /line 3: has 1 field but line 1 has 2/);

    // File picker: the values column of a table, with a decimal comma.
    n = await renders(page, fig);
    await loadFile(page, fig, 'bids.csv', 'name;bid\nAda;1,5\nBo;0,5\nCy;1\n');
    await rerendered(page, fig, n);
    t = await rows(page, fig);
    assert.equal(t[500][0], '2'); // the grid now runs to $2
    assert.deepEqual(t.find((r) => r[0] === '1'), ['1', '2']);
  });
});

test('SmallDB: yes/no columns from a file, from paste and from the gallery; too many attributes refused', async () => {
  const fig = '#w-sdb';
  await checked(await open('small-database', fig), async ({ page }) => {
    const note = () => page.locator(`${fig} .synth-panel .panel-stat >> nth=0`).textContent();
    assert.match(await note(), /^120 patients over 4 yes\/no attributes/);

    // File picker: three yes/no columns (yes/no, true/false, 0/1) and a column of text, which is not offered.
    let n = await renders(page, fig);
    await loadFile(page, fig, 'class.csv', 'name,coffee,tea,late\nAda,yes,false,1\nBo,no,true,0\nCy,yes,true,0\nDi,yes,false,0\n');
    await rerendered(page, fig, n);
    assert.match(await note(), /^4 rows over 3 yes\/no attributes: 8 possible rows, 4 of which occur/);
    const hist = await rows(page, fig);
    assert.deepEqual(hist[0].slice(0, 4), ['coffee', 'tea', 'late', 'rows']);
    assert.equal(await page.locator(`${fig} .data-bits input`).count(), 3);

    // Paste six yes/no columns: the first five are used; a sixth is refused with a message.
    n = await renders(page, fig);
    await paste(page, fig, 'a,b,c,d,e,f\n1,0,1,0,1,0\n0,0,1,1,1,1\n');
    await rerendered(page, fig, n);
    assert.match(await note(), /^2 rows over 5 yes\/no attributes: 32 possible rows/);
    const before = await rows(page, fig);
    await page.locator(`${fig} .data-bits input >> nth=5`).check().catch(() => {});
    assert.match(await page.locator(`${fig} .data-error`).textContent(), /Choose at most 5 attributes/);
    assert.equal(await page.locator(`${fig} .data-bits input >> nth=5`).isChecked(), false);
    assert.deepEqual(await rows(page, fig), before);

    // A file with no yes/no column, and one with a bad cell in a chosen column: errors, the data stays.
    await expectError(page, fig, 'numbers.csv', 'x\n1.5\n2\n', /no column holds only 0\/1, yes\/no or true\/false/);
    await expectError(page, fig, 'binary.csv', Buffer.from('a,b\n1,\u0000\n'), /binary file/);

    // The gallery: the Titanic table, with its source and licence.
    n = await renders(page, fig);
    await page.locator(`${fig} .data-panel select >> nth=0`).selectOption('titanic.csv');
    await rerendered(page, fig, n);
    assert.match(await note(), /^2201 rows over 3 yes\/no attributes/);
    assert.match(await page.locator(`${fig} .data-source`).textContent(), /Source: R’s datasets package, Titanic.*Licence:/);
    // Stage 3 shows the candidate count and the predicted time before scoring.
    await page.locator(`${fig} button`, { hasText: 'Next stage' }).click();
    await page.waitForFunction((s) => document.querySelector(s).dataset.stage === 'queries', fig);
    await page.locator(`${fig} button`, { hasText: 'Next stage' }).click();
    await page.waitForFunction((s) => document.querySelector(s).dataset.stage === 'count', fig);
    assert.match(await page.locator(fig).textContent(), /C\(8 \+ 6 − 1, 6\) =\s*1,716[\s\S]*Predicted scoring time/);

  });
});

test('MWEM takes the same kind of file: its queries name the file\'s columns', async () => {
  const mw = '#w-mw';
  await checked(await open('mwem', mw), async ({ page }) => {
    assert.doesNotMatch(await page.locator(mw).textContent(), /coffee/);
    const n = await renders(page, mw);
    await loadFile(page, mw, 'class.csv', 'name,coffee,tea,late\nAda,yes,false,1\nBo,no,true,0\nCy,yes,true,0\nDi,yes,false,0\n');
    await rerendered(page, mw, n);
    assert.match(await page.locator(mw).textContent(), /coffee=1 ∧ tea=0/);
  });
});

test('axe: the data panels, with a file loaded, and the CSV download, in light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    await checked(await open('small-database', '#w-sdb', '', { width: 390, scheme }), async ({ page }) => {
      await paste(page, '#w-sdb', 'a,b\nyes,no\nno,no\n');
      await page.waitForFunction(() => !document.querySelector('#w-sdb .data-marker').hidden);
      await axe(page, `the data panel (${scheme})`, '.data-panel', '.table-csv');
    });
  }
});

test('permute-and-flip: own scores by paste redraw the exact losses', async () => {
  const fig = '#w-pf';
  await checked(await open('permute-and-flip', fig), async ({ page }) => {
    const before = await rows(page, fig);
    const n = await renders(page, fig);
    await paste(page, fig, 'candidate,score\nA,10\nB,0\n');
    await rerendered(page, fig, n);
    const mine = await rows(page, fig);
    assert.notDeepEqual(mine, before, 'the loss table changed with the pasted scores');
    // Two candidates 10 apart at ε = 1: the exponential mechanism loses
    // 10·e^{-5}/(1 + e^{-5}), computed here independently of the page.
    const em = 10 * Math.exp(-5) / (1 + Math.exp(-5));
    const cell = mine.find((r) => /^Exponential mechanism/.test(r[0]));
    assert.ok(cell, JSON.stringify(mine));
    assert.ok(Math.abs(Number(cell[2]) - em) < 5e-4, `exponential mechanism loss ${cell[2]}, want ${em.toFixed(4)}`);
  });
});
