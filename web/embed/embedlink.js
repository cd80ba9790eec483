// The embed page's address and the lesson link with the same settings, written and read.
//
// The address of one widget on the embed page, and the lesson link with the
// same settings: the one place that writes and reads them. The embed page
// shows one widget of one lesson, its settings in the fragment without the
// widget's id before each key:
//
//   <root>/embed.html#/<lesson-slug>/<widget-id>?eps=0.5&seed=7&hide=seed&lock=eps&caption=0&table=0&theme=dark
//
// hide and lock (state/values.js FIXING) work on the lesson's own link too, keyed
// by the widget (slug/#id.eps=0.5&id.lock=eps); caption, table and theme
// are the embed page's alone (VIEW). Both forms are written and read with
// state/address.js's formatState and parseState, so a value means the same in both.
import { formatState, pageAddress, parseState } from '../state/address.js';
import { FIXING } from '../state/values.js';
import { THEMES } from '../page/theme.js';

/** EMBED_PAGE is the embed page's address below the site's root. */
export const EMBED_PAGE = 'embed.html';

/**
 * VIEW is what the embed page's own settings may be, each with its default
 * first: caption (the widget's title and caption shown), table (its data
 * tables shown) and theme.
 */
export const VIEW = { caption: ['1', '0'], table: ['1', '0'], theme: THEMES };

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** entries(values) is the [key, text] pairs of values (a Map or an object of URL-form values; a list is joined by commas, null left out). */
function entries(values) {
  const out = [];
  for (const [k, v] of values instanceof Map ? values : Object.entries(values || {})) {
    if (v === null || v === undefined) continue;
    out.push([k, Array.isArray(v) ? v.join(',') : String(v)]);
  }
  return out;
}

/** fixing(opts) is the hide and lock settings of opts ({hide, lock}: lists of keys, or comma-separated text), those not empty. */
function fixing(opts) {
  const out = [];
  for (const f of FIXING) {
    const keys = Array.isArray(opts?.[f]) ? opts[f].join(',') : String(opts?.[f] ?? '');
    if (keys) out.push([f, keys]);
  }
  return out;
}

/**
 * embedAddress(root, slug, widgetId, values, opts) is the absolute address
 * of the embed page showing widget widgetId of lesson slug with values (a
 * Map or object, key → value in the URL's form, state/values.js encode); opts:
 * hide and lock (lists of schema keys), caption and table (false to leave
 * them out) and theme ('light', 'dark'; 'system' is the default). A
 * setting at its default is not written.
 */
export function embedAddress(root, slug, widgetId, values, opts = {}) {
  const params = new Map(entries(values).concat(fixing(opts)));
  if (opts.caption === false || opts.caption === '0') params.set('caption', '0');
  if (opts.table === false || opts.table === '0') params.set('table', '0');
  if (opts.theme && opts.theme !== 'system') params.set('theme', String(opts.theme));
  const q = formatState(params).slice(1);
  return new URL(`${EMBED_PAGE}#/${slug}/${encodeURIComponent(widgetId)}${q ? `?${q}` : ''}`, root).href;
}

/**
 * lessonAddress(root, slug, widgetId, values, opts) is the absolute address
 * of lesson slug's page with widget widgetId at values and, from opts, its
 * hide and lock settings: slug/#id.key=value&…&id.hide=…&id.lock=….
 */
export function lessonAddress(root, slug, widgetId, values, opts = {}) {
  const params = new Map(entries(values).concat(fixing(opts)).map(([k, v]) => [`${widgetId}.${k}`, v]));
  return new URL(pageAddress(slug, formatState(params)), root).href;
}

/**
 * readEmbed(hash) reads the embed page's fragment, #/slug/id?key=value&…:
 * {slug, id, params, view, notes}. params is the Map key → raw value of the
 * widget's settings (hide and lock among them), without the view's; view is
 * {caption, table, theme} (caption and table booleans); notes says what of
 * the fragment could not be read as written (a value of the view not among
 * VIEW's is its default). slug or id is '' when the fragment names none it
 * can read. It never throws.
 */
export function readEmbed(hash) {
  const h = String(hash ?? '').replace(/^#\/?/, '');
  const q = h.indexOf('?');
  const path = (q < 0 ? h : h.slice(0, q)).split('/').filter(Boolean);
  const notes = [];
  let slug = path[0] ?? '';
  let id = '';
  try { id = decodeURIComponent(path[1] ?? ''); } catch { id = '\u0000'; }
  if (!SLUG.test(slug) || path.length > 2) {
    notes.push('The link does not name a lesson and a widget (embed.html#/lesson/widget).');
    slug = '';
  }
  if (!slug) id = '';
  else if (!ID.test(id)) {
    notes.push('The link does not name a widget of the lesson (embed.html#/lesson/widget).');
    id = '';
  }
  const state = parseState(q < 0 ? '' : `#${h.slice(q + 1)}`);
  notes.push(...state.notes);
  const params = state.params;
  const view = {};
  for (const [k, values] of Object.entries(VIEW)) {
    let v = values[0];
    if (params.has(k)) {
      const raw = params.get(k);
      params.delete(k);
      if (values.includes(raw)) v = raw;
      else notes.push(`The embed setting ${k}: “${raw.slice(0, 40)}” is not one of ${values.join(', ')}, so ${values[0]} is used.`);
    }
    view[k] = k === 'theme' ? v : v === '1';
  }
  return { slug, id, params, view, notes };
}

/** attr(s) is s safe inside a double-quoted HTML attribute. */
const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * iframeSnippet(url, title, height) is the HTML of an iframe showing url
 * (an embed address): full width, height px tall until the page's resize
 * messages size it (embed.js does; a plain iframe keeps the height), lazily
 * loaded, named by title for screen readers, with no sandbox and no allow
 * list (it asks for no feature).
 */
export function iframeSnippet(url, title, height = 480) {
  const h = Math.max(120, Math.min(4000, Math.round(+height) || 480));
  return `<iframe src="${attr(url)}" title="${attr(title)}" width="100%" height="${h}" style="border: 0; width: 100%; max-width: 100%;" loading="lazy"></iframe>`;
}
