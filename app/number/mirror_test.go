package number

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/internal/nodeprobe"
)

// pieces are what the random strings are made of: the characters and words
// each rule treats specially, and ones that other number readers accept
// (hexadecimal, underscores, non-ASCII digits and spaces, Infinity).
var pieces = []string{
	"0", "1", "2", "3", "5", "7", "9", "00", "123", "999", "1234", "4503599627370497",
	"12345678901234567890123456789", strings.Repeat("9", 400),
	".", ",", ",000", ",567", ".567", ",5", ".5", "e", "E", "e-", "e+", "e3", "e-400", "e400",
	"+", "-", "−", "–", "*", "**", "×", "·", "⋅", "/", "÷", "^", "%", "(", ")",
	" ", "  ", "\t", "\n", "\u00a0", "\u2009", "\u202f", "\u3000",
	"π", "pi", "PI", "√", "exp", "ln", "log", "sqrt", "sin", "x", "0x", "0X1P-2", "0b", "_",
	"Infinity", "NaN", "٣", "５", "½", "∞", "<", "&", "'",
}

// randomNumber is digits in groups of random length joined by points and
// commas, with an exponent sometimes: what the separator rule decides on.
func randomNumber(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.IntN(4); n > 0; n-- {
		b.WriteString("1234567890"[:r.IntN(5)])
		if n > 1 {
			b.WriteByte(".,"[r.IntN(2)])
		}
	}
	if r.IntN(4) == 0 {
		b.WriteString([]string{"e5", "e-3", "E+2", "e"}[r.IntN(4)])
	}
	return b.String()
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.IntN(8); n > 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// transcendental reports whether s may call exp, ln or pow, whose last bit
// may differ between Go's math and JavaScript's Math.
func transcendental(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "exp") || strings.Contains(s, "ln") || strings.Contains(s, "log") || strings.Contains(s, "^") || strings.Contains(s, "**")
}

// web/base/number.js in Node and this package read the same strings the same
// way: the corpus of the tests above, every piece and pair of pieces, and
// thousands of random strings. Link's values are equal; Typed's errors,
// notes and shown values are equal, and its values equal to the last bit
// except where exp, ln or a power may round differently: Go's math.Pow
// differs from V8's by up to about 30 ulps on large results, so there the
// values agree to 12 digits.
func TestMirrorJS(t *testing.T) {
	script := `import { readLink, readTyped } from './number.mjs';
import { readFileSync } from 'node:fs';
const inputs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(JSON.stringify(inputs.map((s) => {
  const l = readLink(s);
  const t = readTyped(s);
  return { link: l === null ? null : String(l), linkOK: l !== null, ok: t.ok, value: t.ok ? String(t.value) : '', read: t.read ?? '', note: t.note ?? '', message: t.message ?? '' };
})));`
	inputs := []string{"", "0,3", "1/16", "4/e", "exp(0.401)", "12.5%", "2π", "1,234.5", "1.234,5", "1,234,567", "1,000", "-2^2", "√2", "log 2", "1e999", "ln 0", "0/0", "0.30000000000000004", "1e-400", "0x10", "1_0", "0b11", "0X1P-2", strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40)}
	for _, p := range pieces {
		inputs = append(inputs, p)
		for _, q := range pieces {
			inputs = append(inputs, p+q)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		inputs = append(inputs, randomText(r), randomNumber(r))
	}
	var page []struct {
		Link                       *string
		LinkOK, OK                 bool
		Value, Read, Note, Message string
	}
	nodeprobe.Run(t, map[string][]byte{"number.mjs": nodeprobe.Read(t, "../../web/base/number.js")}, script, inputs, &page)
	if len(page) != len(inputs) {
		t.Fatalf("node answered %d of %d", len(page), len(inputs))
	}
	read := 0
	for i, s := range inputs {
		p := page[i]
		x, ok := Link(s)
		if ok != p.LinkOK || ok && Format(x) != *p.Link {
			t.Errorf("link %q: Go %v %v, page %v", s, Format(x), ok, p.Link)
		}
		rd, err := Typed(s)
		if (err == nil) != p.OK {
			t.Errorf("typed %q: Go %+v %v, page %+v", s, rd, err, p)
			continue
		}
		if err != nil {
			if err.Error() != p.Message {
				t.Errorf("typed %q: Go says %q, the page %q", s, err, p.Message)
			}
			continue
		}
		read++
		if rd.Note != p.Note {
			t.Errorf("typed %q: Go notes %q, the page %q", s, rd.Note, p.Note)
		}
		v, ok := Link(p.Value)
		if !ok {
			t.Errorf("typed %q: the page's value %q", s, p.Value)
			continue
		}
		if v == rd.Value && rd.Read == p.Read {
			continue
		}
		if !transcendental(s) || math.Abs(v-rd.Value) > 1e-12*math.Abs(rd.Value) {
			t.Errorf("typed %q: Go %v (%s), the page %v (%s)", s, rd.Value, rd.Read, v, p.Read)
		}
	}
	t.Logf("%d strings, %d read as numbers", len(inputs), read)
	if read < len(inputs)/20 {
		t.Errorf("only %d of %d strings were numbers: the test covers too little", read, len(inputs))
	}
}

// web/base/number.js's givesAnswer and Gives agree on typed values next to every
// rounding boundary, on both sides of it, and on values far from the target.
func TestGivesMirrorJS(t *testing.T) {
	script := `import { givesAnswer } from './number.mjs';
import { readFileSync } from 'node:fs';
const inputs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(JSON.stringify(inputs.map(([x, target, d]) => givesAnswer(x, target, d))));`
	type triple [3]float64
	var inputs []triple
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		d := r.IntN(MaxDecimals + 2) // 0 to MaxDecimals+1
		s := math.Pow(10, float64(d))
		target := (r.Float64()*2 - 0.5) * math.Pow(10, float64(r.IntN(4)))
		edge := (math.Floor(target*s) + 0.5) / s
		for _, x := range []float64{target, edge, math.Nextafter(edge, 0), math.Nextafter(edge, 10), edge - 1/s, target + 0.3/s, target * (1 + 1e-9), r.Float64()} {
			inputs = append(inputs, triple{x, target, float64(d)})
		}
	}
	var page []bool
	nodeprobe.Run(t, map[string][]byte{"number.mjs": nodeprobe.Read(t, "../../web/base/number.js")}, script, inputs, &page)
	if len(page) != len(inputs) {
		t.Fatalf("node answered %d of %d", len(page), len(inputs))
	}
	gives := 0
	for i, in := range inputs {
		g := Gives(in[0], in[1], int(in[2]))
		if g != page[i] {
			t.Errorf("Gives(%v, %v, %v): Go %v, the page %v", in[0], in[1], in[2], g, page[i])
		}
		if g {
			gives++
		}
	}
	if gives == 0 || gives == len(inputs) {
		t.Errorf("%d of %d triples give the answer: the test covers too little", gives, len(inputs))
	}
}
