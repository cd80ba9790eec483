// "Use your own data": the CSV panel the data-taking widgets share.
//
// "Use your own data": the panel the data-taking widgets share. A CSV file
// (file picker, drag and drop, or pasted text) or a table from the gallery
// is parsed by the lazily loaded data module (app/data in Go, in the page's
// worker): nothing leaves the browser. The widget chooses what it needs:
//
//   mode 'selection': a column of categories counted into scores, or a
//                     column of candidates with a column of scores;
//   mode 'numbers':   one column of numbers;
//   mode 'bits':      up to `max` yes/no columns, counted over {0,1}^k.
//
// The file stays in this browser (IndexedDB) until "Forget" is pressed. The
// URL keeps only the widget's `src` key: the file's fingerprint (the first
// 12 hex digits of its SHA-256) and the chosen columns, so a link made with
// one's own data can say that it needs the file, and load it when given.
// Every string from a file reaches the page through textContent only.
import { el } from '../base/dom.js';

/** GALLERY: real public tables shipped with the site (web/data/), fetched only when chosen. */
export const GALLERY = [
  { file: 'adult-marital.csv', label: 'Adult census: marital status counts', modes: ['selection'],
    source: 'UCI Machine Learning Repository, Adult data set (Becker and Kohavi, 1996), training file, 32,561 people', licence: 'CC BY 4.0' },
  { file: 'titanic.csv', label: 'Titanic: the 2,201 people aboard', modes: ['selection', 'bits'],
    source: 'R’s datasets package, Titanic (from Dawson, 1995, British Board of Trade inquiry), one row per person', licence: 'R datasets package, GPL-2 | GPL-3; the counts are historical facts' },
  { file: 'haireyecolor.csv', label: 'Hair and eye colour of 592 statistics students', modes: ['selection'],
    source: 'R’s datasets package, HairEyeColor (Snee, 1974), one row per student', licence: 'R datasets package, GPL-2 | GPL-3' },
  { file: 'mtcars.csv', label: 'Motor Trend cars, 1974 (32 cars)', modes: ['numbers', 'bits'],
    source: 'R’s datasets package, mtcars (Henderson and Velleman, 1981)', licence: 'R datasets package, GPL-2 | GPL-3' },
];

const MAX_BYTES = 16 << 20;
const DB = 'dpplay-data';

function idb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore('files', { keyPath: 'id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function store(mode, value) {
  const db = await idb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction('files', mode === 'get' ? 'readonly' : 'readwrite');
    const s = tx.objectStore('files');
    const req = mode === 'get' ? s.get(value) : mode === 'put' ? s.put(value) : s.clear();
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function fingerprint(bytes) {
  const h = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(h.slice(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * wideControl(ctx, name, labelText, tag, props) is a wide control: a new tag
 * element with props and a unique id (from name), under a label for it.
 * Returns the control's box and the element.
 */
function wideControl(ctx, name, labelText, tag, props = {}) {
  const wrap = el('div', { class: 'control control-wide' });
  const id = ctx.uid(name);
  const label = el('label', {}, labelText);
  label.htmlFor = id;
  const input = Object.assign(el(tag), props);
  input.id = id;
  wrap.append(label, input);
  return { wrap, input };
}

function selectBox(ctx, labelText, options, value, onChange) {
  const { wrap, input: s } = wideControl(ctx, 'col', labelText, 'select');
  for (const [v, text] of options) {
    const o = el('option', {}, text);
    o.value = String(v);
    s.append(o);
  }
  s.value = String(value);
  s.addEventListener('change', () => onChange(Number(s.value)));
  return wrap;
}

/**
 * dataPanel(ctx, {mode, max, min, onData}) builds the panel and returns {el,
 * restore()}: restore() reloads the file the URL names from this browser,
 * if it is here, and must be awaited before the widget's first draw.
 * onData(d) receives the data in use, or null for the lesson's own:
 * selection {name, candidates, scores, unit, sensitivity} (sensitivity 1 for a
 * column's counts, which one row moves by at most 1 each; absent for a score
 * column, whose function the page does not know); numbers {name, column, values};
 * bits {name, columns, counts}. A file or column that fails keeps the data in use.
 * In mode 'numbers', min (optional) is the smallest value allowed.
 */
export function dataPanel(ctx, { mode, max, min: lo, onData }) {
  const root = el('details', { class: 'data-panel' });
  // The panel is the control of the key it sets, so a link that hides or
  // locks src (fixing.js) hides or locks the whole panel.
  root.dataset.key = 'src';
  const summary = el('summary', {}, 'Use your own data (CSV)');
  const marker = el('span', { class: 'data-marker' });
  marker.hidden = true;
  summary.append(marker);
  const privacy = el('p', { class: 'hint' }, 'Your file is read inside this browser tab and is never uploaded. It stays on this device until you press “Forget my data”, which removes every file you loaded here.');
  const what = el('p', { class: 'hint' }, {
    selection: `A column of categories (each row one person; the scores are the counts), or a column of candidates with a column of scores. At most ${max} candidates.`,
    numbers: 'A column of numbers, one row per buyer: what each would pay (0 or more). The price grid runs from 0 to the largest value in 500 steps.',
    bits: `Yes/no columns (0/1, yes/no, true/false); choose up to ${max}.`,
  }[mode]);
  const need = el('p', { class: 'data-need' });
  need.setAttribute('role', 'status');
  need.hidden = true;

  const { wrap: pick, input: file } = wideControl(ctx, 'file', 'CSV file (or drop it on this panel)', 'input', { type: 'file' });
  file.accept = '.csv,.tsv,.txt,text/csv,text/plain';

  const { wrap: paste, input: area } = wideControl(ctx, 'paste', 'Or paste CSV text', 'textarea');
  area.rows = 3;
  area.spellcheck = false;
  const pasteBtn = el('button', {}, 'Use the pasted text');
  pasteBtn.type = 'button';
  paste.append(pasteBtn);

  const { wrap: gallery, input: gSel } = wideControl(ctx, 'gallery', 'Or a real data set', 'select');
  gSel.append(el('option', {}, 'choose…'));
  gSel.firstChild.value = '';
  const sets = GALLERY.filter((g) => g.modes.includes(mode));
  for (const g of sets) {
    const o = el('option', {}, g.label);
    o.value = g.file;
    gSel.append(o);
  }
  const gNote = el('p', { class: 'hint data-source' });
  gallery.append(gNote);

  const status = el('p', { class: 'data-status' });
  status.setAttribute('aria-live', 'polite');
  const error = el('p', { class: 'widget-error data-error' });
  error.setAttribute('role', 'alert');
  const columns = el('div', { class: 'data-columns' });
  const forget = el('button', {}, 'Forget my data');
  forget.type = 'button';
  forget.hidden = true;
  root.append(summary, privacy, what, need, pick, paste, gallery, error, status, columns, forget);

  let table = null; // {handle, names, kinds, rows, name, id}
  let cols = [];

  const fail = (msg) => { error.textContent = msg; ctx.fig.dataset.dataErrors = String(+(ctx.fig.dataset.dataErrors || 0) + 1); };

  /** parse reads bytes as a new table; true when it parsed. */
  async function parse(bytes, name, id, chosen) {
    error.textContent = '';
    if (bytes.byteLength > MAX_BYTES) { fail(`${name}: the file is ${(bytes.byteLength / 2 ** 20).toFixed(1)} MB; the limit is 16 MB.`); return false; }
    status.textContent = `Reading ${name}…`;
    let t;
    try {
      const t0 = performance.now();
      t = await ctx.bridge.call('data', 'parse', { bytes: new Uint8Array(bytes), header: 'auto' });
      t.totalMs = performance.now() - t0;
    } catch (err) {
      status.textContent = table ? `Still using ${table.name}.` : '';
      fail(`${name}: ${err.message}`);
      return false;
    }
    const prev = table;
    table = { ...t, names: Array.from(t.names), kinds: Array.from(t.kinds), name, id };
    // A guessed table of candidates and scores whose names repeat is a column of categories after all.
    const guess = chosen || defaults();
    let ok = await choose(guess, !chosen && guess.length > 1);
    if (!ok && !chosen && guess.length > 1) ok = await choose([guess[0]]);
    if (!ok) { table = prev; status.textContent = prev ? `Still using ${prev.name}.` : ''; return false; }
    status.textContent = `${name}: ${t.rows.toLocaleString('en-US')} rows, ${table.names.length} column${table.names.length === 1 ? '' : 's'}, ${t.delimiter === '\t' ? 'tab' : `“${t.delimiter}”`}-separated${t.hasHeader ? ', with a header row' : ''}; read in ${Math.max(1, Math.round(t.ms))} ms.`;
    ctx.fig.dataset.parseMs = String(t.ms);
    return true;
  }

  function defaults() {
    const k = table.kinds;
    const first = (kind) => k.indexOf(kind);
    if (mode === 'numbers') return [Math.max(0, first('number') >= 0 ? first('number') : first('binary'))];
    if (mode === 'bits') return k.map((x, j) => (x === 'binary' ? j : -1)).filter((j) => j >= 0).slice(0, max);
    const cat = first('category') >= 0 ? first('category') : 0;
    const num = k.findIndex((x, j) => j !== cat && x === 'number');
    // Two columns, the second of numbers: perhaps a table of candidates and scores (see parse).
    return table.names.length === 2 && num === 1 && table.rows <= max ? [0, 1] : [cat];
  }

  /** choose converts the table's columns c; on success it is the data in use. */
  async function choose(c, quiet = false) {
    if (!table) return false;
    if (!c.length || c.some((j) => !(j >= 0 && j < table.names.length))) c = defaults();
    if (mode === 'bits' && !c.length) { fail(`${table.name}: no column holds only 0/1, yes/no or true/false.`); return false; }
    const b = ctx.bridge, h = table.handle;
    let d;
    try {
      if (mode === 'numbers') {
        const { values } = await b.call('data', 'numbers', { handle: h, column: c[0], min: lo });
        d = { name: table.name, column: table.names[c[0]], values: Array.from(values) };
      } else if (mode === 'bits') {
        const { counts } = await b.call('data', 'histogram', { handle: h, columns: c.slice(0, max) });
        d = { name: table.name, columns: c.slice(0, max).map((j) => table.names[j]), counts: Array.from(counts) };
      } else if (c.length > 1 && c[1] >= 0) {
        const r = await b.call('data', 'scores', { handle: h, name: c[0], score: c[1], max });
        d = { name: table.name, candidates: Array.from(r.names), scores: Array.from(r.scores), unit: table.names[c[1]] };
      } else {
        const r = await b.call('data', 'categories', { handle: h, column: c[0], max });
        d = { name: table.name, candidates: Array.from(r.names), scores: Array.from(r.counts), unit: 'rows', sensitivity: 1 };
      }
    } catch (err) {
      if (!quiet) fail(`${table.name}: ${err.message}`);
      return false;
    }
    error.textContent = '';
    cols = c;
    if (mode === 'selection') ctx.set('src', `${table.id}.${c[0]}${c.length > 1 && c[1] >= 0 ? `.${c[1]}` : ''}`);
    else ctx.set('src', `${table.id}.${c.join('.')}`);
    need.hidden = true;
    marker.hidden = false;
    marker.textContent = `your data: ${table.name}`;
    forget.hidden = false;
    buildColumns();
    await onData(d);
    return true;
  }

  function buildColumns() {
    columns.replaceChildren();
    const opts = table.names.map((n, j) => [j, `${n} (${table.kinds[j]})`]);
    if (mode === 'numbers') {
      columns.append(selectBox(ctx, 'Column of numbers', opts, cols[0], (j) => choose([j])));
    } else if (mode === 'selection') {
      columns.append(
        selectBox(ctx, 'Candidates: column', opts, cols[0], (j) => choose([j, cols[1] ?? -1])),
        selectBox(ctx, 'Scores', [[-1, 'count the rows of each candidate'], ...opts], cols[1] ?? -1, (j) => choose([cols[0], j])),
      );
    } else {
      const fs = el('fieldset', { class: 'data-bits' });
      fs.append(el('legend', {}, `Attributes (at most ${max})`));
      table.names.forEach((n, j) => {
        if (table.kinds[j] !== 'binary') return;
        const id = ctx.uid('bit');
        const box = el('input');
        box.type = 'checkbox';
        box.id = id;
        box.checked = cols.includes(j);
        box.addEventListener('change', () => {
          const next = table.names.map((_, i) => i).filter((i) => (i === j ? box.checked : cols.includes(i)));
          if (next.length > max || !next.length) {
            box.checked = !box.checked;
            fail(next.length ? `Choose at most ${max} attributes: SmallDB enumerates every database over {0,1}^k.` : 'Choose at least one attribute.');
            return;
          }
          choose(next);
        });
        const lab = el('label', {}, n);
        lab.htmlFor = id;
        const row = el('span', { class: 'data-bit' });
        row.append(box, lab);
        fs.append(row);
      });
      columns.append(fs);
    }
  }

  async function fromBytes(bytes, name) {
    const id = await fingerprint(bytes);
    // The file a shared link was made with: use the link's columns.
    const [want, ...chosen] = (ctx.values.src || '').split('.');
    const ok = await parse(bytes, name, id, want === id ? chosen.map(Number) : null);
    if (ok) store('put', { id, name, bytes, saved: Date.now() }).catch(() => {});
    return ok;
  }

  file.addEventListener('change', async () => {
    const f = file.files && file.files[0];
    if (f) await fromBytes(await f.arrayBuffer(), f.name);
  });
  pasteBtn.addEventListener('click', () => {
    const bytes = new TextEncoder().encode(area.value);
    fromBytes(bytes.buffer, 'pasted text');
  });
  root.addEventListener('dragover', (e) => { e.preventDefault(); root.classList.add('data-drop'); });
  root.addEventListener('dragleave', () => root.classList.remove('data-drop'));
  root.addEventListener('drop', async (e) => {
    e.preventDefault();
    root.classList.remove('data-drop');
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) { root.open = true; await fromBytes(await f.arrayBuffer(), f.name); }
  });
  gSel.addEventListener('change', async () => {
    const g = GALLERY.find((x) => x.file === gSel.value);
    gNote.textContent = g ? `Source: ${g.source}. Licence: ${g.licence}.` : '';
    if (!g) return;
    try {
      const res = await fetch(new URL(`../data/${g.file}`, import.meta.url));
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      await fromBytes(await res.arrayBuffer(), g.label);
    } catch (err) {
      fail(`${g.label}: could not be loaded (${err.message}).`);
    }
  });
  forget.addEventListener('click', async () => {
    await store('clear').catch(() => {});
    table = null;
    cols = [];
    ctx.set('src', '');
    marker.hidden = true;
    forget.hidden = true;
    columns.replaceChildren();
    status.textContent = 'Forgotten: no file you loaded is stored in this browser any more.';
    await onData(null);
  });

  async function restore() {
    const src = ctx.values.src;
    if (!src) return;
    const [id, ...rest] = src.split('.');
    let rec;
    try { rec = await store('get', id); } catch { rec = null; }
    if (rec && await parse(rec.bytes, rec.name, id, rest.map(Number))) return;
    root.open = true;
    need.hidden = false;
    need.textContent = 'This link was made with someone’s own data file, which is not stored in this browser. Load the same file to see what they saw; until then the lesson’s own data is shown.';
  }

  return { el: root, restore };
}
