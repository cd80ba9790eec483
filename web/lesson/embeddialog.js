// The "Embed or share" dialog: a widget's lesson link, embed code and QR code.
//
// The "Embed or share" dialog of a widget: the link to the lesson with this
// widget in its current state, the <iframe> code that embeds the widget
// alone (embed.html), a QR code of the link for slides shown in a hall, and
// the choices both follow: which controls to hide, which to lock (shown but
// fixed), and, for the frame, caption, data table and theme. The addresses
// are written by embedlink.js, the one writer of the embed grammar; every
// value comes from the widget's schema and its validated state, and the
// dialog is built with textContent and attributes, never from markup.
import { embedAddress, lessonAddress, iframeSnippet } from '../embed/embedlink.js';
import { qrElement } from '../base/qr.js';
import { encode, coerce, opening } from '../state/values.js';
import { root, state, lessonsBySlug } from './current.js';
import { schemas } from '../gen/widgets.js';
import { el } from '../base/dom.js';
import { THEMES } from '../page/theme.js';

const CHOICES = [['', 'Can be changed'], ['lock', 'Locked'], ['hide', 'Hidden']];

let dialog = null; // the page's one embed dialog, built on first use
let parts = null; // its live parts
let opener = null; // the button that opened it: focus returns there

const capital = (s) => s.replace(/^[a-z]/, (c) => c.toUpperCase());

/**
 * openEmbed(fig, button) opens the dialog for widget figure fig, whose button
 * opened it. The choices start afresh each time: the controls hidden and
 * locked as the page's link has them (none, usually), caption and table
 * shown, the reader's theme.
 */
export async function openEmbed(fig, button) {
  const slot = state.widgets.find((w) => w.fig === fig);
  if (slot?.mounting) await slot.mounting;
  build();
  opener = button;
  const schema = slot?.schema || schemas[fig.dataset.widget] || {};
  const id = fig.dataset.id;
  parts.widget = { fig, id, schema, slot, slug: state.slug, title: fig.querySelector('.widget-title')?.textContent.trim() || id };
  const lesson = lessonsBySlug.get(state.slug)?.title;
  parts.sub.textContent = lesson ? `${parts.widget.title}, from the lesson “${lesson}”` : parts.widget.title;
  const fixed = slot?.fixed || { hide: [], lock: [] };
  // Only a key with a control on the page (or one the link already hides)
  // can be hidden or locked: the others (a chart's axis, the step reached)
  // have nothing to show or fix.
  const controlled = Object.entries(schema).filter(([key]) => fixed.hide.includes(key) || fig.querySelector(`[data-key="${CSS.escape(key)}"]`));
  parts.keys.replaceChildren(...controlled.map(([key, spec], i) => {
    const sel = el('select', { id: `embed-key-${i}`, 'data-setting': key });
    for (const [v, t] of CHOICES) sel.append(el('option', { value: v }, t));
    sel.value = fixed.hide.includes(key) ? 'hide' : fixed.lock.includes(key) ? 'lock' : '';
    return el('div', { class: 'embed-key' }, el('label', { for: sel.id }, capital(spec.label || key)), sel);
  }));
  parts.keysBox.hidden = !controlled.length;
  parts.caption.checked = true;
  parts.table.checked = true;
  parts.theme.value = 'system';
  for (const s of dialog.querySelectorAll('.embed-status')) s.textContent = '';
  update();
  dialog.showModal();
}

/**
 * values(w) is the widget's state as the link writes it (URL-encoded by
 * state/values.js): each key whose value is not its opening one (its lesson
 * block's, else its schema's default), which keeps the link short enough
 * for a QR code.
 */
function values(w) {
  const out = {};
  const now = w.slot?.values || {};
  const base = opening(w.schema, JSON.parse(w.fig.dataset.params || '{}'));
  for (const [key, spec] of Object.entries(w.schema)) {
    if (!(key in now)) continue;
    const v = encode(spec, now[key]);
    if (v === null || v === encode(spec, base[key])) continue;
    // A value the schema refuses (typed, not valid yet) stays out of the link.
    const refused = [];
    coerce(spec, v, key, refused);
    if (!refused.length) out[key] = v;
  }
  return out;
}

/** choices() is what the dialog's controls ask for, in the options embedlink.js takes. */
function choices() {
  const hide = [], lock = [];
  for (const sel of parts.keys.querySelectorAll('select')) {
    if (sel.value === 'hide') hide.push(sel.dataset.setting);
    if (sel.value === 'lock') lock.push(sel.dataset.setting);
  }
  return { hide, lock, caption: parts.caption.checked, table: parts.table.checked, theme: parts.theme.value };
}

/** update writes the link, the embed code and the QR code for the widget and the choices now. */
function update() {
  const w = parts.widget;
  const vals = values(w);
  const opts = choices();
  const link = lessonAddress(root.href, w.slug, w.id, vals, { hide: opts.hide, lock: opts.lock });
  const src = embedAddress(root.href, w.slug, w.id, vals, opts);
  parts.link.value = link;
  parts.open.href = link;
  parts.code.value = iframeSnippet(src, w.title, frameHeight(w.fig));
  parts.qr.replaceChildren(qr(link));
}

/**
 * frameHeight(fig) is the frame's height in CSS pixels for the snippet: the
 * widget's height here, to the next 10 px, within 320 … 1600. A page with
 * embed.js sizes the frame from its resize messages instead.
 */
const frameHeight = (fig) => Math.min(1600, Math.max(320, Math.ceil(fig.getBoundingClientRect().height / 10) * 10));

/**
 * qr(text) is text's QR code (qr.js, the lecture's encoder and drawing),
 * dark on white with a quiet zone whatever the theme, or a note when text
 * is too long for the encoder.
 */
function qr(text) {
  try {
    return qrElement(text, 'QR code of the link');
  } catch {
    return el('p', { class: 'embed-qr-note' }, `This link is ${text.length} characters long, too long for a QR code: choose fewer controls, or share the link itself.`);
  }
}

/** copy(text, what, said) puts text on the clipboard and says so in the status line said. */
async function copy(text, what, said) {
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = `${what} copied.`;
  } catch {
    said.textContent = `Selected: copy it with Ctrl+C (⌘C on a Mac).`;
  }
}

/** build makes the page's one dialog, once. */
function build() {
  if (dialog) return;
  // A copy button and, beside it, the line that says what it did.
  const copyButton = (label, what, field) => {
    const b = el('button', { type: 'button', class: 'embed-copy' }, label);
    const said = el('span', { class: 'embed-status', role: 'status' });
    b.addEventListener('click', () => { field.select(); copy(field.value, what, said); });
    return [b, said];
  };
  const close = el('button', { type: 'button', class: 'icon-button embed-close' });
  close.append(el('span', { 'aria-hidden': 'true' }, '×'), el('span', { class: 'visually-hidden' }, 'Close'));
  const sub = el('p', { class: 'embed-sub', id: 'embed-sub' });

  const link = el('input', { type: 'text', id: 'embed-link', readonly: '', spellcheck: 'false', autocomplete: 'off' });
  const open = el('a', { target: '_blank', rel: 'noopener', class: 'embed-open' }, 'Open the link', el('span', { class: 'visually-hidden' }, ' (in a new tab)'));
  const qrBox = el('div', { class: 'embed-qr' });
  const linkBox = el('section', { class: 'embed-part embed-linkpart', 'aria-labelledby': 'embed-link-h' },
    el('h3', { id: 'embed-link-h' }, 'Link to this widget'),
    el('div', { class: 'embed-linkrow' },
      el('div', { class: 'embed-linktext' },
        el('label', { for: 'embed-link', class: 'visually-hidden' }, 'Link'), link,
        el('div', { class: 'embed-buttons' }, ...copyButton('Copy link', 'Link', link), open),
        el('p', { class: 'embed-hint' }, 'Opens the lesson with this widget as it is now. For slides that cannot hold a frame, such as Google Slides, show the QR code.')),
      qrBox));

  const code = el('textarea', { id: 'embed-code', readonly: '', rows: '5', spellcheck: 'false', autocomplete: 'off' });
  const codeBox = el('section', { class: 'embed-part', 'aria-labelledby': 'embed-code-h' },
    el('h3', { id: 'embed-code-h' }, 'Embed code'),
    el('label', { for: 'embed-code', class: 'embed-hint' }, 'Paste this <iframe> into a slide deck, course page or notebook: it shows this widget alone.'),
    code,
    el('div', { class: 'embed-buttons' }, ...copyButton('Copy embed code', 'Embed code', code)));

  const keys = el('div', { class: 'embed-keys' });
  const keysBox = el('fieldset', { class: 'embed-part' },
    el('legend', {}, 'Controls'),
    el('p', { class: 'embed-hint' }, 'Hide a control, or lock it: shown, fixed at its value here. For the link and the embed code.'),
    keys);
  const caption = el('input', { type: 'checkbox', id: 'embed-caption' });
  const table = el('input', { type: 'checkbox', id: 'embed-table' });
  const theme = el('select', { id: 'embed-theme' });
  for (const v of THEMES) theme.append(el('option', { value: v }, v[0].toUpperCase() + v.slice(1)));
  const lookBox = el('fieldset', { class: 'embed-part' },
    el('legend', {}, 'In the embedded frame'),
    el('div', { class: 'embed-look' },
      el('div', { class: 'embed-check' }, caption, el('label', { for: 'embed-caption' }, 'Show the caption')),
      el('div', { class: 'embed-check' }, table, el('label', { for: 'embed-table' }, 'Show the data table')),
      el('div', { class: 'embed-check' }, el('label', { for: 'embed-theme' }, 'Theme'), theme)));

  dialog = el('dialog', { id: 'embed-dialog', class: 'embed-dialog', 'aria-labelledby': 'embed-title', 'aria-describedby': 'embed-sub' });
  dialog.append(
    el('div', { class: 'embed-head' }, el('h2', { id: 'embed-title' }, 'Embed or share'), close),
    sub, linkBox, codeBox, keysBox, lookBox);
  document.body.append(dialog);
  parts = { sub, link, open, qr: qrBox, code, keys, keysBox, caption, table, theme, widget: null };

  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('change', update);
  // A click on the backdrop (outside the dialog's box) closes it, as Escape does.
  dialog.addEventListener('click', (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) dialog.close();
  });
  dialog.addEventListener('close', () => { opener?.isConnected && opener.focus(); });
}
