// The formulas of the built site, read in Node from dist/'s files (every
// page, embed fragment and the widgets' formula lines in gen/widgets.js):
// each is valid MathML Core, sets its brackets at text size as TeX does
// unless \left…\right (or \big…) sized them and carries its TeX; the
// lessons' text (widgets' own drawings aside) writes no TeX outside math;
// and the one math font ships, declared, preloaded and licensed. Run
// `make site` first (DIST=dir reads another build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseHTML } from 'linkedom';
import { dist } from '../web/harness.mjs';
import { ARITY } from '../mathcore.mjs';

/** htmlFiles(dir) lists every .html file under dir, relative to it. */
const htmlFiles = (dir, sub = '') => fs.readdirSync(path.join(dir, sub), { withFileTypes: true }).flatMap((e) => {
  const rel = path.join(sub, e.name);
  if (e.isDirectory()) return htmlFiles(dir, rel);
  return e.name.endsWith('.html') ? [rel] : [];
});
const files = htmlFiles(dist);
const docs = new Map(files.map((f) => [f, parseHTML(fs.readFileSync(path.join(dist, f), 'utf8')).document]));
const { formulas } = await import(pathToFileURL(path.join(dist, 'gen', 'widgets.js')).href);
/** Every widget formula line, as [where, its <math> element]. */
const widgetMath = Object.entries(formulas).flatMap(([w, fs]) => Object.entries(fs).map(([name, m]) =>
  [`gen/widgets.js ${w}.${name}`, parseHTML(`<p>${m}</p>`).document.querySelector('math')]));
/** Every formula of the site, as [where, its <math> element]. */
const allMath = () => [...docs].flatMap(([f, d]) => [...d.querySelectorAll('math')].map((m) => [f, m])).concat(widgetMath);

// The elements of MathML Core.
const MATHML = new Set(['math', 'annotation', 'annotation-xml', 'maction', 'merror', 'mfrac', 'mi', 'mmultiscripts', 'mn', 'mo', 'mover',
  'mpadded', 'mphantom', 'mprescripts', 'mroot', 'mrow', 'ms', 'mspace', 'msqrt', 'mstyle', 'msub', 'msubsup', 'msup', 'mtable', 'mtd',
  'mtext', 'mtr', 'munder', 'munderover', 'semantics', 'none']);
const TOKENS = ['mi', 'mn', 'mo', 'mtext', 'ms', 'annotation'];

/** mathProblems(math) lists what in the <math> element is not valid MathML Core: unknown elements, wrong numbers of arguments. */
function mathProblems(math) {
  const out = [];
  const walk = (el) => {
    const tag = el.localName;
    if (!MATHML.has(tag)) out.push(`<${tag}> is not MathML`);
    const kids = [...el.children];
    if (ARITY[tag] !== undefined && kids.length !== ARITY[tag]) out.push(`<${tag}> has ${kids.length} children, not ${ARITY[tag]}: ${el.outerHTML.slice(0, 160)}`);
    if (tag === 'mmultiscripts' && kids.filter((k) => k.localName !== 'mprescripts').length % 2 !== 1) out.push(`<mmultiscripts> needs a base and pairs of scripts: ${el.outerHTML.slice(0, 160)}`);
    if (TOKENS.includes(tag) && tag !== 'annotation' && kids.length) out.push(`<${tag}> holds elements: ${el.outerHTML.slice(0, 120)}`);
    if (!TOKENS.includes(tag)) kids.forEach(walk);
  };
  walk(math);
  return out;
}

// The characters MathML's operator dictionary stretches (fences and bars).
const FENCES = new Set([...'()[]{}|‖⟨⟩⌊⌋⌈⌉']);
// The TeX that sizes a delimiter: \left, \middle, \right and \big and its kin.
const SIZERS = /\\(left|middle|right|[bB]igg?[lrm]?)(?![a-zA-Z])/g;

/**
 * fenceProblems(math) lists the brackets and bars of the <math> element
 * that may stretch (an <mo> of a fence without stretchy="false") beyond
 * those its TeX (the annotation) sized with \left, \right, \middle or
 * \big: TeX keeps every other bracket at text size, where MathML would
 * stretch a bare one to the tallest thing on its line.
 */
function fenceProblems(math) {
  const tex = math.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
  if (tex === undefined) return ['no TeX annotation'];
  const loose = [...math.querySelectorAll('mo')].filter((mo) => FENCES.has(mo.textContent.trim()) && mo.getAttribute('stretchy') !== 'false');
  const sized = (tex.match(SIZERS) || []).length;
  return loose.length > sized ? [`${loose.length} brackets may stretch but ${sized} are sized in ${JSON.stringify(tex)}: ${loose.map((m) => m.outerHTML).join(' ')}`] : [];
}

test('every formula on every page and every widget formula line is valid MathML Core', () => {
  const all = allMath();
  assert.ok(all.length > 300, `only ${all.length} formulas`);
  assert.ok(widgetMath.length >= 2 && widgetMath.every(([, m]) => m), 'the widgets\' formula lines are MathML');
  assert.deepEqual(all.flatMap(([f, m]) => mathProblems(m).map((p) => `${f}: ${p}`)), []);
  // The check can fail.
  const bad = parseHTML('<math><munder><mi>max</mi><mo>⁡</mo><mrow><mi>x</mi></mrow></munder></math>').document.querySelector('math');
  assert.equal(mathProblems(bad).length, 1);
});

test('brackets stay at text size unless the TeX sizes them', () => {
  assert.deepEqual(allMath().flatMap(([f, m]) => fenceProblems(m).map((p) => `${f}: ${p}`)), []);
  // The check can fail, and passes what TeX sizes.
  const math = (tex, body) => parseHTML(`<math><semantics><mrow>${body}</mrow><annotation encoding="application/x-tex">${tex}</annotation></semantics></math>`).document.querySelector('math');
  assert.equal(fenceProblems(math('u(r)', '<mi>u</mi><mo>(</mo><mi>r</mi><mo>)</mo>')).length, 1);
  assert.deepEqual(fenceProblems(math('u(r)', '<mi>u</mi><mo stretchy="false">(</mo><mi>r</mi><mo stretchy="false">)</mo>')), []);
  assert.deepEqual(fenceProblems(math('\\left(x\\right)', '<mo fence="true">(</mo><mi>x</mi><mo fence="true">)</mo>')), []);
});

// A TeX superscript or subscript written as text: e^−t, e^(2ε), R_OPT.
const RAW_TEX = /\S[\^_][\p{L}\p{N}(−{\\]|\\[a-zA-Z]+/u;

test('no TeX is left outside the math in what the lessons write', () => {
  const out = [];
  for (const [f, d] of docs) {
    const main = d.querySelector('main') || d.querySelector('body');
    if (!main) continue;
    const c = main.cloneNode(true);
    // A widget's body is the widget's own drawing and controls (web/widgets),
    // and a link that shows its address is an address.
    for (const el of c.querySelectorAll('math, code, pre, script, style, noscript, .widget-body')) el.remove();
    for (const a of c.querySelectorAll('a')) if (/^(https?:\/\/)?[\w.-]+\.\w+\/\S*$/.test(a.textContent.trim())) a.remove();
    for (const m of c.textContent.matchAll(new RegExp(RAW_TEX.source, 'gu'))) {
      out.push(`${f}: …${c.textContent.slice(Math.max(0, m.index - 30), m.index + 30).replace(/\s+/g, ' ')}…`);
    }
  }
  assert.deepEqual(out, []);
  assert.ok(RAW_TEX.test('the bound e^−t') && RAW_TEX.test('|R_OPT|') && !RAW_TEX.test('ε = 1, so e is about 2.718'));
});

test('one math font, declared for math, preloaded where there is math, with its licence', () => {
  const font = fs.readFileSync(path.join(dist, 'fonts', 'stix-two-math.woff2'));
  assert.equal(font.subarray(0, 4).toString('latin1'), 'wOF2', 'the math font is WOFF2');
  assert.match(fs.readFileSync(path.join(dist, 'fonts', 'STIX-Two-Math-OFL.txt'), 'utf8'), /SIL OPEN FONT LICENSE Version 1\.1/);
  const css = fs.readFileSync(path.join(dist, 'styles.css'), 'utf8');
  assert.match(css, /@font-face\s*\{[^}]*font-family:\s*"STIX Two Math"[^}]*url\("?fonts\/stix-two-math\.woff2"?\)/);
  assert.match(css, /(^|\})\s*math\s*\{[^}]*font-family:\s*"STIX Two Math"/);
  for (const [f, d] of docs) {
    const preload = [...d.querySelectorAll('link[rel=preload][as=font]')].map((l) => new URL(l.getAttribute('href'), `http://site/${f}`).pathname);
    const hasMath = d.querySelector('main math, body > math, article math') !== null && !f.startsWith('embed/');
    if (hasMath) assert.deepEqual(preload, ['/fonts/stix-two-math.woff2'], `${f} has formulas: it preloads the math font`);
    else assert.deepEqual(preload, [], `${f} has no formula: it preloads no font`);
  }
});
