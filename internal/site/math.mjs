// The site build's TeX renderer (internal/site/math.go runs it in one Node
// process per build): each line on stdin is a JSON object {tex, display},
// and each line it writes back is {mathml} or {error}, in the same order.
// Temml (npm temml, pinned in package-lock.json) writes MathML Core: text-
// size brackets unless \left…\right sizes them, upright function names,
// operator spacing from MathML's dictionary; an unknown command is an error.
import readline from 'node:readline';
import temml from 'temml';

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let reply;
  try {
    const { tex, display } = JSON.parse(line);
    reply = { mathml: temml.renderToString(tex, { displayMode: display, annotate: true, throwOnError: true }) };
  } catch (e) {
    // Temml's message ends with the formula, its error underlined with
    // combining characters; the build names the formula itself.
    reply = { error: String(e.message).replace(/(at position \d+):[\s\S]*$/, '$1') };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
