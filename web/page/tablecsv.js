// "Download table (CSV)": a widget's data tables as CSV files.
//
// "Download table (CSV)": every widget's data tables (the <table>s behind
// its charts) download as CSV, beside "Export figure". The file holds the
// table's cells exactly as the table shows them, header row first, quoted
// as RFC 4180 says. A cell that a spreadsheet would run as a formula (it
// starts with =, +, @, a tab or a carriage return, as a candidate's name
// from someone's CSV might) gets a leading apostrophe.
import { save } from '../base/download.js';
import { figureRow } from './figrow.js';

/** tableCSV(table) is the text of a CSV file with table's header and body rows. */
export function tableCSV(table) {
  const rows = [];
  for (const tr of table.querySelectorAll('thead tr, tbody tr')) {
    rows.push(Array.from(tr.children, (c) => cell(c.textContent.trim())).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

function cell(s) {
  if (/^[=+@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const tables = (fig) => Array.from(fig.querySelectorAll('.widget-body table')).filter((t) => t.querySelector('tbody tr'));
/** title(t, i) names table t: its caption's plain text (data-text, for a caption set in MathML), or its number. */
const title = (t, i) => {
  const c = t.querySelector('caption');
  return (c?.dataset.text || c?.textContent.trim() || `Table ${i + 1}`);
};

let uid = 0;
/** attachTableCSV(fig) adds the table chooser and the download button to a widget's action row (figrow.js). */
export function attachTableCSV(fig) {
  const id = `table-csv-${++uid}`;
  const box = document.createElement('span');
  box.className = 'table-csv';
  box.innerHTML = `<span class="fig-field"><label for="${id}">Data table</label><select id="${id}"></select></span><button type="button">Download table (CSV)</button>`;
  const [select, button] = [box.querySelector('select'), box.querySelector('button')];
  // Beside "Export figure" when the widget has it.
  const host = figureRow(fig).querySelector('.export-button');
  // The tables change as the widget redraws: list them whenever the choice is opened.
  const list = () => {
    const keep = select.value;
    select.replaceChildren(...tables(fig).map((t, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = title(t, i).slice(0, 90);
      return o;
    }));
    if (keep && +keep < select.options.length) select.value = keep;
    // One table needs no choice.
    select.parentNode.hidden = select.options.length < 2;
  };
  select.addEventListener('focus', list);
  select.addEventListener('pointerdown', list);
  button.addEventListener('click', () => {
    list();
    const ts = tables(fig);
    const t = ts[+select.value || 0];
    if (!t) return;
    const name = `${fig.dataset.id}-${title(t, +select.value || 0).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'table'}.csv`;
    save(tableCSV(t), name, 'text/csv;charset=utf-8');
  });
  if (host) host.after(box);
  else figureRow(fig).append(box);
  list();
  return box;
}
