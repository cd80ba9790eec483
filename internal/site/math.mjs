// The site build's TeX renderer and math font subsetter
// (internal/site/math.go runs it in one Node process per build). Each line
// on stdin is a JSON request, each line it writes back the answer, in the
// same order:
//
//	{tex, display}  → {mathml} or {error}: Temml (npm temml) writes MathML
//	                  Core: text-size brackets unless \left…\right sizes
//	                  them, upright function names, operator spacing from
//	                  MathML's dictionary; an unknown command is an error.
//	{subset: text}  → {woff2, license} (base64, text): STIX Two Math (npm
//	                  @fontsource/stix-two-math, OFL) cut to the glyphs of
//	                  text and those its MATH table and script-size forms
//	                  reach, by HarfBuzz's subsetter (npm subset-font).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import temml from 'temml';
import subsetFont from 'subset-font';

const require = createRequire(path.join(process.cwd(), 'math.mjs'));
const fontDir = path.dirname(require.resolve('@fontsource/stix-two-math/package.json'));

async function answer(req) {
  if (typeof req.subset === 'string') {
    const font = fs.readFileSync(path.join(fontDir, 'files', 'stix-two-math-latin-400-normal.woff2'));
    const woff2 = await subsetFont(font, req.subset, { targetFormat: 'woff2' });
    return { woff2: Buffer.from(woff2).toString('base64'), license: fs.readFileSync(path.join(fontDir, 'LICENSE'), 'utf8') };
  }
  try {
    const mathml = temml.renderToString(commasAsTeX(req.tex), { displayMode: req.display, annotate: true, throwOnError: true });
    // The annotation is the TeX as the author wrote it.
    return { mathml: primesInLine(mathml).replace(/(<annotation encoding="application\/x-tex">)[\s\S]*?(<\/annotation>)/, (_, a, b) => a + escape(req.tex) + b) };
  } catch (e) {
    // Temml's message ends with the formula, its error underlined with
    // combining characters; the build names the formula itself.
    return { error: String(e.message).replace(/(at position \d+):[\s\S]*$/, '$1') };
  }
}

const TEXT_MODE = /\\(?:text|textrm|textit|textbf|textsf|texttt|mbox)\s*\{/g;

/**
 * commasAsTeX(tex) is tex with a space after each comma between two digits
 * outside text mode. TeX reads 0,1 as 0, a comma (punctuation, a thin
 * space after it) and 1, and ignores spaces in math; Temml would set 0,1
 * as one number, so {0,1} would read as a decimal comma. A thousands
 * separator is written {,} and stays in the number.
 */
function commasAsTeX(tex) {
  let out = '', at = 0;
  for (const m of tex.matchAll(TEXT_MODE)) {
    if (m.index < at) continue;
    out += tex.slice(at, m.index).replace(/(\d),(?=\d)/g, '$1, ');
    let depth = 0, i = m.index + m[0].length - 1;
    for (; i < tex.length; i++) {
      if (tex[i] === '{') depth++;
      else if (tex[i] === '}' && --depth === 0) break;
      else if (tex[i] === '\\') i++;
    }
    out += tex.slice(m.index, i + 1);
    at = i + 1;
  }
  return out + tex.slice(at).replace(/(\d),(?=\d)/g, '$1, ');
}

/**
 * primesInLine(mathml) sets the prime of a letter (x') beside it, not as
 * its superscript: a math font's ′ is drawn raised already, and as a
 * superscript it is raised again and shrunk to a speck, unless the font's
 * script forms (ssty) are applied, which Chromium does not do.
 */
const primesInLine = (mathml) => mathml.replace(
  /<msup>(<(mi|mn|mtext)\b[^>]*>[^<]*<\/\2>)<mo lspace="0em" rspace="0em" class="tml-prime[^"]*">([′″‴]+)<\/mo><\/msup>/g,
  '<mrow>$1<mo lspace="0em" rspace="0em">$3</mo></mrow>');

/** escape(s) is s as HTML text. */
const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  process.stdout.write(JSON.stringify(await answer(JSON.parse(line))) + '\n');
}
