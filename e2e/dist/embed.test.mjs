// docs/embed.md's addresses, read in Node as the site reads them: every
// lesson link and embed address it shows reads without a note (web/state/address.js and values.js,
// web/embed/embedlink.js and the widgets' schemas in dist/gen/widgets.js), and
// every file it names is in dist/. Run `make site` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, root as repo } from '../web/harness.mjs';
import { readEmbed } from '../../web/embed/embedlink.js';
import { parseState } from '../../web/state/address.js';
import { coerce, readKeys, FIXING } from '../../web/state/values.js';

const SITE = 'https://dpplay.github.io/dpplay/';

/** widgetsOf(slug) is the Map widget id → widget name of lesson slug's built page, or null when there is no such page. */
function widgetsOf(slug) {
  const file = path.join(dist, slug, 'index.html');
  if (!fs.existsSync(file)) return null;
  const html = fs.readFileSync(file, 'utf8');
  return new Map([...html.matchAll(/<figure class="widget" [^>]*?data-widget="([^"]+)" data-id="([^"]+)"/g)].map((m) => [m[2], m[1]]));
}

/**
 * addressNotes(url, schemas) is what the site would say of url, an address
 * below SITE: the notes of its reader (readEmbed for the embed page,
 * parseState for a lesson), and one for a lesson or widget it does not
 * have, a setting the widget does not have, or a value or hide/lock list
 * the widget's schema would correct. [] is an address that reads as written.
 */
function addressNotes(url, schemas) {
  const u = url.slice(SITE.length);
  const notes = [];
  const settings = []; // [widget id, key, raw value]
  let slug;
  if (u.startsWith('embed.html#')) {
    const r = readEmbed(u.slice('embed.html'.length));
    notes.push(...r.notes);
    slug = r.slug;
    for (const [k, v] of r.params) settings.push([r.id, k, v]);
  } else {
    const m = /^([a-z0-9-]+)\/(#.*)?$/.exec(u);
    if (!m) return [`${u}: neither the embed page nor a lesson's page`];
    slug = m[1];
    const st = parseState(m[2] || '');
    notes.push(...st.notes);
    for (const [k, v] of st.params) settings.push([k.slice(0, k.indexOf('.')), k.slice(k.indexOf('.') + 1), v]);
  }
  const widgets = widgetsOf(slug);
  if (!widgets) return notes.concat(`no lesson ${slug}`);
  for (const [id, key, raw] of settings) {
    const schema = schemas[widgets.get(id)];
    if (!schema) notes.push(`no widget ${id} in ${slug}`);
    else if (FIXING.includes(key)) readKeys(schema, raw, key, notes);
    else if (!Object.hasOwn(schema, key)) notes.push(`${id} has no setting ${key}`);
    else coerce(schema[key], raw, key, notes);
  }
  return notes;
}

test('every dpplay address in docs/embed.md reads without a note', async () => {
  const { schemas } = await import(pathToFileURL(path.join(dist, 'gen', 'widgets.js')).href);
  const doc = fs.readFileSync(path.join(repo, 'docs', 'embed.md'), 'utf8');
  const urls = [...new Set([...doc.matchAll(/https:\/\/dpplay\.github\.io\/dpplay\/[^\s"'<>)`]*/g)].map((m) => m[0].replace(/&amp;/g, '&')))];
  const addresses = urls.filter((u) => /^[^.]*\/|^embed\.html#/.test(u.slice(SITE.length)));
  assert.ok(addresses.filter((u) => u.includes('embed.html#')).length >= 4 && addresses.filter((u) => !u.includes('embed.html')).length >= 2, `addresses found: ${addresses.join(' ')}`);
  for (const u of addresses) assert.deepEqual(addressNotes(u, schemas), [], u);
  // Files it names (embed.js) are in the site.
  for (const u of urls.filter((x) => !addresses.includes(x))) {
    const file = u.slice(SITE.length);
    if (file) assert.ok(fs.existsSync(path.join(dist, file)), `${file} is in the site`);
  }
  // The check can fail: a wrong value, an unknown key, an unknown widget.
  assert.equal(addressNotes(`${SITE}embed.html#/exponential-mechanism/meet?eps=99&hide=colour&colour=red`, schemas).length, 3);
  assert.equal(addressNotes(`${SITE}exponential-mechanism/#meet.eps=x&nope.eps=1`, schemas).length, 2);
  assert.equal(addressNotes(`${SITE}embed.html#/no-such-lesson/meet?eps=1`, schemas).length, 1);
});
