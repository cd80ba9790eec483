// A QR code encoder for the lecture's join link and the embed dialog.
//
// A compact QR code encoder for the lecture page's join link (ISO/IEC 18004):
// byte mode, error-correction level M (about 15% of the symbol may be lost),
// versions 1–10, so up to 213 bytes. No network, no dependency.
//
// qrMatrix(text) returns { size, modules } where modules[y][x] is true for a
// dark module; qrSVG(text, label) returns an accessible <svg> string with a
// four-module quiet zone.

// Level M, versions 1–10: error-correction codewords per block and the
// number of blocks (the standard's table 9).
const EC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
const MAX_VERSION = 10;

/** rawModules(v): modules left for data and error correction once the function patterns are placed. */
function rawModules(v) {
  let n = (16 * v + 128) * v + 64;
  if (v >= 2) {
    const a = Math.floor(v / 7) + 2;
    n -= (25 * a - 10) * a - 55;
    if (v >= 7) n -= 36; // the two version-information blocks
  }
  return n;
}

const dataCodewords = (v) => Math.floor(rawModules(v) / 8) - EC_PER_BLOCK[v] * BLOCKS[v];

// GF(2⁸) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D).
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}
const mul = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** rsRemainder(data, degree): the Reed–Solomon check bytes, the remainder of data·x^degree by ∏(x − αⁱ), i < degree. */
function rsRemainder(data, degree) {
  // Generator coefficients, highest power first, leading 1 dropped.
  const gen = new Uint8Array(degree);
  gen[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      gen[j] = mul(gen[j], root);
      if (j + 1 < degree) gen[j] ^= gen[j + 1];
    }
    root = mul(root, 2);
  }
  const rem = new Uint8Array(degree);
  for (const b of data) {
    const factor = b ^ rem[0];
    rem.copyWithin(0, 1);
    rem[degree - 1] = 0;
    for (let j = 0; j < degree; j++) rem[j] ^= mul(gen[j], factor);
  }
  return rem;
}

/** codewords(bytes, v): the data bits, padded, split into blocks, with error correction, interleaved. */
function codewords(bytes, v) {
  const bits = [];
  const put = (val, n) => { for (let i = n - 1; i >= 0; i--) bits.push((val >>> i) & 1); };
  put(0b0100, 4); // byte mode
  put(bytes.length, v <= 9 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(v) * 8;
  put(0, Math.min(4, capacity - bits.length)); // terminator
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = new Uint8Array(bits.length / 8);
  bits.forEach((b, i) => { data[i >> 3] |= b << (7 - (i & 7)); });

  const nBlocks = BLOCKS[v];
  const ec = EC_PER_BLOCK[v];
  const raw = Math.floor(rawModules(v) / 8);
  const nShort = nBlocks - (raw % nBlocks);
  const shortLen = Math.floor(raw / nBlocks); // data + ec of a short block
  const blocks = [];
  for (let i = 0, k = 0; i < nBlocks; i++) {
    const len = shortLen - ec + (i < nShort ? 0 : 1);
    const d = data.slice(k, k + len);
    k += len;
    blocks.push({ d, e: rsRemainder(d, ec) });
  }
  const out = [];
  for (let i = 0; i <= shortLen - ec; i++) {
    for (const b of blocks) if (i < b.d.length) out.push(b.d[i]);
  }
  for (let i = 0; i < ec; i++) for (const b of blocks) out.push(b.e[i]);
  return out;
}

function alignmentPositions(v, size) {
  if (v === 1) return [];
  const n = Math.floor(v / 7) + 2;
  const step = Math.ceil((v * 4 + 4) / (n * 2 - 2)) * 2;
  const pos = [6];
  for (let p = size - 7; pos.length < n; p -= step) pos.splice(1, 0, p);
  return pos;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** penalty(m): the standard's four penalty rules; the mask with the lowest score is used. */
function penalty(m, size) {
  let score = 0;
  const finderLike = (line) => {
    let s = 0;
    for (let i = 0; i + 7 <= size; i++) {
      if (line(i) && !line(i + 1) && line(i + 2) && line(i + 3) && line(i + 4) && !line(i + 5) && line(i + 6)) {
        let before = true;
        let after = true;
        for (let k = 1; k <= 4; k++) {
          if (i - k >= 0 && line(i - k)) before = false;
          if (i + 6 + k < size && line(i + 6 + k)) after = false;
        }
        if (before || after) s += 40;
      }
    }
    return s;
  };
  for (let pass = 0; pass < 2; pass++) {
    for (let a = 0; a < size; a++) {
      const at = pass === 0 ? (i) => m[a][i] : (i) => m[i][a];
      let run = 1;
      for (let i = 1; i <= size; i++) {
        if (i < size && at(i) === at(i - 1)) run++;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      score += finderLike(at);
    }
  }
  let dark = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (m[y][x]) dark++;
      if (x + 1 < size && y + 1 < size && m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] && m[y][x] === m[y + 1][x + 1]) score += 3;
    }
  }
  score += Math.floor(Math.abs(dark * 20 - size * size * 10) / (size * size)) * 10;
  return score;
}

/** qrMatrix(text) encodes text (UTF-8) in the smallest version 1–10 at level M. */
export function qrMatrix(text) {
  const bytes = new TextEncoder().encode(String(text));
  let v = 1;
  while (v <= MAX_VERSION && 4 + (v <= 9 ? 8 : 16) + bytes.length * 8 > dataCodewords(v) * 8) v++;
  if (v > MAX_VERSION) throw new RangeError(`text too long for a version ${MAX_VERSION} QR code: ${bytes.length} bytes`);
  const size = 17 + 4 * v;
  const m = Array.from({ length: size }, () => new Array(size).fill(false));
  const fn = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (x, y, dark) => { m[y][x] = dark; fn[y][x] = true; };

  for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        set(x, y, d !== 2 && d !== 4);
      }
    }
  }
  const al = alignmentPositions(v, size);
  for (const ax of al) {
    for (const ay of al) {
      if ((ax === 6 && ay === 6) || (ax === 6 && ay === size - 7) || (ax === size - 7 && ay === 6)) continue;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
  }
  const drawFormat = (mask) => {
    const data = (0 << 3) | mask; // level M is 00
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) set(8, i, bit(i));
    set(8, 7, bit(6));
    set(8, 8, bit(7));
    set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(i));
    set(8, size - 8, true); // the dark module
  };
  drawFormat(0); // reserve the format areas before placing data
  if (v >= 7) {
    let rem = v;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (v << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, dark);
      set(b, a, dark);
    }
  }

  const cw = codewords(bytes, v);
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // skip the vertical timing column
    const upward = ((right + 1) & 2) === 0;
    for (let k = 0; k < size; k++) {
      const y = upward ? size - 1 - k : k;
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        if (fn[y][x]) continue;
        if (i < cw.length * 8) m[y][x] = ((cw[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
        i++;
      }
    }
  }

  const applyMask = (k) => {
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (!fn[y][x] && MASKS[k](x, y)) m[y][x] = !m[y][x];
  };
  let best = 0;
  let bestScore = Infinity;
  for (let k = 0; k < 8; k++) {
    applyMask(k);
    drawFormat(k);
    const s = penalty(m, size);
    if (s < bestScore) { bestScore = s; best = k; }
    applyMask(k); // masking is its own inverse
  }
  applyMask(best);
  drawFormat(best);
  return { size, version: v, mask: best, modules: m };
}

/** qrSVG(text, label) draws the code as one SVG path, dark on light in both colour schemes. */
export function qrSVG(text, label) {
  const { size, modules } = qrMatrix(text);
  const q = 4;
  let d = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!modules[y][x]) continue;
      let w = 1;
      while (x + w < size && modules[y][x + w]) w++;
      d += `M${x + q} ${y + q}h${w}v1h-${w}z`;
      x += w - 1;
    }
  }
  const n = size + 2 * q;
  const esc = String(label).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  return `<svg class="qr" viewBox="0 0 ${n} ${n}" role="img" aria-label="${esc}" shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg"><rect width="${n}" height="${n}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
}

/** qrElement(text, label) is qrSVG(text, label) as an <svg> element for the page; it throws as qrMatrix does when text is too long. */
export function qrElement(text, label) {
  return new DOMParser().parseFromString(qrSVG(text, label), 'image/svg+xml').documentElement;
}
