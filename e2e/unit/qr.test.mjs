// web/base/qr.js against an independent decoder: every symbol it draws, from
// version 1 to its largest, decodes with jsQR (a devDependency, never part of
// the site) to the text it encodes. Runs in Node; no browser needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { qrMatrix } from '../../web/base/qr.js';

/** image draws a matrix as RGBA pixels, `scale` per module, with a four-module quiet zone. */
function image({ size, modules }, scale = 4) {
  const side = (size + 8) * scale;
  const px = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!modules[y][x]) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + 4) * scale + dy) * side + (x + 4) * scale + dx) * 4;
          px[i] = px[i + 1] = px[i + 2] = 0;
        }
      }
    }
  }
  return { px, side };
}

test('qrMatrix output decodes to its text at every size it supports', () => {
  const join = 'http://192.168.1.20:8080/lecture.html?session=ABCD-1234&role=student';
  const texts = [
    'a',
    join,
    join + '&activity=meeting-day',
    'ε = 1, Δ = 2: privé ✓',
    ...[20, 40, 80, 120, 160, 200, 213].map((n) => 'x'.repeat(n - 3) + n),
  ];
  const sizes = new Set();
  for (const text of texts) {
    const m = qrMatrix(text);
    sizes.add(m.size);
    const { px, side } = image(m);
    const got = jsQR(px, side, side);
    assert.ok(got, `jsQR found no code in the symbol for ${JSON.stringify(text.slice(0, 30))}… (size ${m.size})`);
    assert.equal(Buffer.from(got.binaryData).toString('utf8'), text);
  }
  assert.ok(sizes.size >= 6, `the texts span only sizes ${[...sizes]}`);
  assert.ok(sizes.has(21) && sizes.has(57), `versions 1 and 10 are both drawn (sizes ${[...sizes]})`);
});

test('a damaged symbol is still read: level M corrects about 15%', () => {
  const text = 'http://192.168.1.20:8080/lecture.html?session=WXYZ-9876';
  const m = qrMatrix(text);
  // Flip a few data modules in the bottom-right area, away from the finder patterns.
  const modules = m.modules.map((row) => row.slice());
  for (let k = 0; k < 6; k++) modules[m.size - 2 - k][m.size - 2 - (k % 3)] ^= true;
  const { px, side } = image({ size: m.size, modules });
  const got = jsQR(px, side, side);
  assert.ok(got, 'a lightly damaged symbol was not found');
  assert.equal(got.data, text);
});
