package site

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/dpplay/dpplay/app/widget"
	"github.com/dpplay/dpplay/internal/nodeprobe"
)

// exports parses the generated module back: the JSON value of every
// `export const NAME = …;` line.
func exports(t *testing.T, mod []byte) map[string]json.RawMessage {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(mod), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "// Generated") || !strings.HasPrefix(lines[len(lines)-1], "for (const s of Object.values(schemas))") {
		t.Fatalf("the module does not start with its comment and end with the pattern loop:\n%s", mod)
	}
	out := map[string]json.RawMessage{}
	re := regexp.MustCompile(`(?s)^export const ([A-Za-z]+) = (.*);$`)
	for _, l := range strings.Split(strings.Join(lines[1:len(lines)-1], "\n"), "\nexport") {
		if !strings.HasPrefix(l, "export") {
			l = "export" + l
		}
		m := re.FindStringSubmatch(l)
		if m == nil || !json.Valid([]byte(m[2])) {
			t.Fatalf("not an export of JSON: %.200s", l)
		}
		out[m[1]] = json.RawMessage(m[2])
	}
	return out
}

// keys returns the keys of a JSON object in the order they are written.
func keys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %.100s", raw)
	}
	var out []string
	for dec.More() {
		tok, _ := dec.Token()
		out = append(out, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The module, read back as JSON, holds package widget's definitions: every
// widget's keys in order with its kind, label, range, lengths, digits,
// values and default; a text's pattern accepts exactly its characters; the
// data sets, the loss grid and curves, the price grid, the poll, the
// auditor's mechanisms and the formulas as Math renders them.
func TestWidgetsModuleHoldsTheDefinitions(t *testing.T) {
	mod, err := widgetsModule(testMath)
	if err != nil {
		t.Fatal(err)
	}
	ex := exports(t, mod)
	var schemas map[string]json.RawMessage
	if err := json.Unmarshal(ex["schemas"], &schemas); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(t, ex["schemas"]), widget.WithSchema(); !reflect.DeepEqual(got, want) {
		t.Fatalf("widgets %v, want %v", got, want)
	}
	kinds := map[string]widget.Kind{"number": widget.Number, "int": widget.Int, "enum": widget.Enum, "list": widget.List, "text": widget.Text}
	for _, w := range widget.WithSchema() {
		params := widget.Schema(w)
		var got map[string]struct {
			Type, Label, Pattern string
			Min, Max             *float64
			MinLength, MaxLength int
			Digits               int
			Values               []string
			Default              any
		}
		if err := json.Unmarshal(schemas[w], &got); err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, p := range params {
			order = append(order, p.Key)
		}
		if k := keys(t, schemas[w]); !reflect.DeepEqual(k, order) {
			t.Errorf("%s: keys %v, want %v", w, k, order)
		}
		for _, p := range params {
			g := got[p.Key]
			if g.Digits != p.URLDigits() {
				t.Errorf("%s.%s: digits %d, want %d", w, p.Key, g.Digits, p.URLDigits())
			}
			back := widget.Param{Key: p.Key, Kind: kinds[g.Type], Label: g.Label, Values: g.Values, Digits: p.Digits, MinLen: g.MinLength, MaxLen: g.MaxLength, Default: widget.URLText(g.Default)}
			if g.Min != nil && g.Max != nil {
				back.Min, back.Max = *g.Min, *g.Max
			}
			if g.Pattern != "" {
				re, err := regexp.Compile(g.Pattern)
				if err != nil {
					t.Errorf("%s.%s: pattern %q: %v", w, p.Key, g.Pattern, err)
					continue
				}
				for c := rune(0); c < 128; c++ {
					if re.MatchString(string(c)) != strings.ContainsRune(p.Allowed, c) {
						t.Errorf("%s.%s: pattern %q and %q disagree on %q", w, p.Key, g.Pattern, p.Allowed, c)
					}
				}
				back.Allowed = p.Allowed
			}
			if !reflect.DeepEqual(back, p) {
				t.Errorf("%s.%s:\n module %+v\n widget %+v", w, p.Key, back, p)
			}
		}
	}
	for name, sets := range map[string][]widget.DataSet{"datasets": widget.DataSets(), "lossSets": widget.LossSets()} {
		var got map[string]jsDataSet
		if err := json.Unmarshal(ex[name], &got); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, d := range sets {
			names = append(names, d.Name)
			want := jsDataSet{Label: d.Label, Candidates: d.Candidates, Scores: d.Scores, Delta: d.Delta, Unit: d.Unit}
			if d.Sensitivity > 0 {
				want.Sensitivity = &d.Sensitivity
			}
			if !reflect.DeepEqual(got[d.Name], want) {
				t.Errorf("%s.%s = %+v, want %+v", name, d.Name, got[d.Name], want)
			}
		}
		if k := keys(t, ex[name]); !reflect.DeepEqual(k, names) {
			t.Errorf("%s: %v, want %v", name, k, names)
		}
	}
	var grid []float64
	json.Unmarshal(ex["lossGrid"], &grid)
	if want := widget.LossGrid(); !reflect.DeepEqual(grid, want) || len(grid) != widget.LossGridPoints {
		t.Errorf("lossGrid %v, want %v", grid, want)
	}
	var price struct{ MaxPrice, Step float64 }
	json.Unmarshal(ex["priceGrid"], &price)
	if price.MaxPrice != widget.MaxPrice || price.Step != widget.PriceStep {
		t.Errorf("priceGrid %+v, want %v, %v", price, widget.MaxPrice, widget.PriceStep)
	}
	var poll struct {
		Days   []string
		Others []float64
	}
	json.Unmarshal(ex["poll"], &poll)
	if !reflect.DeepEqual(poll.Days, widget.PollDays) || !reflect.DeepEqual(poll.Others, widget.PollOthers) {
		t.Errorf("poll %+v, want %v %v", poll, widget.PollDays, widget.PollOthers)
	}
	var curves []struct {
		Mechanism, Short, Label, Guarantee string
		Factor                             float64
	}
	json.Unmarshal(ex["lossCurves"], &curves)
	want := widget.LossCurves()
	if len(curves) != len(want) {
		t.Fatalf("%d curves, want %d", len(curves), len(want))
	}
	for i, c := range curves {
		w := want[i]
		if c.Mechanism != w.Mechanism || c.Factor != w.Factor || c.Short != w.Short || c.Label != w.Label || c.Guarantee != widget.GuaranteeOf(w.Mechanism, w.Factor) || c.Guarantee == "" {
			t.Errorf("curve %d = %+v, want %+v", i, c, w)
		}
	}
	var sels []widget.Selection
	json.Unmarshal(ex["selections"], &sels)
	if !reflect.DeepEqual(sels, widget.Selections()) {
		t.Errorf("selections %+v, want %+v", sels, widget.Selections())
	}
	var mechs [][2]string
	json.Unmarshal(ex["auditMechanisms"], &mechs)
	for i, c := range widget.AuditMechanismChoices() {
		if i >= len(mechs) || mechs[i] != [2]string{c.Value, c.Label} {
			t.Errorf("auditMechanisms %v, want %v", mechs, widget.AuditMechanismChoices())
			break
		}
	}
	var formulas map[string]map[string]string
	json.Unmarshal(ex["formulas"], &formulas)
	for w, fs := range widget.Formulas() {
		for name, tex := range fs {
			m, _ := testMath.MathML(tex, false)
			if formulas[w][name] != m || !strings.HasPrefix(m, "<math>") {
				t.Errorf("formulas.%s.%s = %q, want %q", w, name, formulas[w][name], m)
			}
		}
	}
}

// linkPieces are what randomLinkValue joins: numbers in the forms other
// readers accept and the link grammar refuses (hexadecimal, binary, octal,
// underscores, spaces, non-ASCII digits, Infinity), exponents, signs, long
// digit runs and list separators.
var linkPieces = []string{
	"0", "1", "5", "0.5", ".5", "5.", "123", "1e3", "1E-7", "e", "e+", "-", "+", "--", ".", ",", ", ", "|",
	"0x10", "0X1P-2", "0b11", "0o7", "1_0", " ", "\t", "\u00a0", "\u3000", "٣", "５", "Infinity", "NaN",
	"0.30000000000000004", strings.Repeat("9", 30), strings.Repeat("0", 30) + "1", "1e400", "1e-400", "%", "1,5",
}

func randomLinkValue(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.IntN(4); n > 0; n-- {
		b.WriteString(linkPieces[r.IntN(len(linkPieces))])
	}
	return b.String()
}

// The page's clamp rule (web/state/values.js coerce) applied in Node to the
// module's schemas and package widget's Coerce agree on every widget's keys:
// the same value and the same note for values out of range, not numbers,
// not among an enum's values, lists of the wrong length, numbers and list
// entries with more digits than the URL keeps, and texts with other
// characters. The value the page holds is the one its URL writes (encode),
// digit for digit. A wrong range, default, enum value, list length, digits
// or pattern in the module changes the page's answer. Number and list keys
// also get random strings: both read numbers with the one link grammar
// (web/base/number.js readLink, number.Link).
func TestWidgetsModuleClampsAsGo(t *testing.T) {
	mod, err := widgetsModule(testMath)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"widgets.mjs": mod, "state/values.mjs": nodeprobe.Read(t, "../../web/state/values.js"), "base/number.js": nodeprobe.Read(t, "../../web/base/number.js")}
	type probe struct{ Widget, Key, Raw string }
	var probes []probe
	rng := rand.New(rand.NewPCG(3, 4))
	for _, w := range widget.WithSchema() {
		for _, p := range widget.Schema(w) {
			raws := []string{"", p.Default, "nope"}
			switch p.Kind {
			case widget.Number, widget.Int:
				// The last two keep more digits than the schema: the page
				// rounds them.
				raws = append(raws, fmt.Sprint(p.Min-1), fmt.Sprint(2*p.Max+1), fmt.Sprint((p.Min+p.Max)/2), fmt.Sprint(p.Min+(p.Max-p.Min)/3))
			case widget.Enum:
				raws = append(raws, p.Values...)
			case widget.List:
				// The last keeps 17 digits of each entry: the page rounds them.
				raws = append(raws, strings.Repeat("1,", p.MinLen)+"1", strings.Repeat("0.5,", max(p.MinLen, 1)-1)+"0.5", "1,x", fmt.Sprintf("%v,%v", p.Min-1, p.Max+1),
					strings.Repeat(fmt.Sprint(p.Min+(p.Max-p.Min)/3)+",", max(p.MinLen, 1)-1)+"0.12345678901234567")
			case widget.Text:
				raws = append(raws, "ahha", "count[r] + 1", "ABC")
			}
			if p.Kind != widget.Enum && p.Kind != widget.Text {
				for range 60 {
					raws = append(raws, randomLinkValue(rng))
				}
			}
			for _, r := range raws {
				probes = append(probes, probe{w, p.Key, r})
			}
		}
	}
	script := `import { schemas } from './widgets.mjs';
import { coerce, encode } from './state/values.mjs';
import { readFileSync } from 'node:fs';
const probes = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(JSON.stringify(probes.map(({ Widget, Key, Raw }) => {
  const spec = { ...schemas[Widget][Key], label: Widget + '.' + Key };
  const notes = [];
  const v = coerce(spec, Raw, Key, notes);
  return { value: encode(spec, v) ?? '', held: v === null ? '' : String(v), notes };
})));`
	var page []struct {
		Value, Held string
		Notes       []string
	}
	nodeprobe.Run(t, files, script, probes, &page)
	if len(page) != len(probes) {
		t.Fatalf("node answered %d of %d", len(page), len(probes))
	}
	for i, pr := range probes {
		var p widget.Param
		for _, q := range widget.Schema(pr.Widget) {
			if q.Key == pr.Key {
				p = q
			}
		}
		got, notes := widget.Coerce(pr.Widget, pr.Widget+".", map[string]string{pr.Key: pr.Raw})
		v, ok := got[pr.Key]
		if !ok {
			v = p.Default
		}
		if v != page[i].Value || strings.Join(notes, "\n") != strings.Join(page[i].Notes, "\n") {
			t.Errorf("%s.%s = %q: the page gives %q %q, Coerce %q %q", pr.Widget, pr.Key, pr.Raw, page[i].Value, page[i].Notes, v, notes)
		}
		if page[i].Held != page[i].Value {
			t.Errorf("%s.%s = %q: the page holds %q and its URL writes %q", pr.Widget, pr.Key, pr.Raw, page[i].Held, page[i].Value)
		}
	}
}

// The page's reading of a hide or lock list (web/state/values.js readKeys) and
// package widget's Keys agree: the same keys and the same note for every
// widget, on lists of its keys, unknown names, repeats, blanks, names
// differing in case or spacing, and random lists of these pieces.
func TestKeysMirrorJS(t *testing.T) {
	mod, err := widgetsModule(testMath)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"widgets.mjs": mod, "state/values.mjs": nodeprobe.Read(t, "../../web/state/values.js"), "base/number.js": nodeprobe.Read(t, "../../web/base/number.js")}
	type probe struct{ Widget, Raw string }
	var probes []probe
	rng := rand.New(rand.NewPCG(5, 6))
	for _, w := range widget.WithSchema() {
		pieces := []string{",", ",", " ", "\t", "\u00a0", "controls", "EPS", "hide", "__proto__", "constructor", "toString", "é", strings.Repeat("x", 50), "a,b,c,d"}
		for _, p := range widget.Schema(w) {
			pieces = append(pieces, p.Key, p.Key)
		}
		probes = append(probes, probe{w, ""}, probe{w, strings.Repeat("z,", 80) + pieces[len(pieces)-1]})
		for range 80 {
			var b strings.Builder
			for n := 1 + rng.IntN(8); n > 0; n-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			probes = append(probes, probe{w, b.String()})
		}
	}
	script := `import { schemas } from './widgets.mjs';
import { readKeys } from './state/values.mjs';
import { readFileSync } from 'node:fs';
const probes = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(JSON.stringify(probes.map(({ Widget, Raw }) => {
  const notes = [];
  const keys = readKeys(schemas[Widget], Raw, 'w.hide', notes);
  return { keys, notes };
})));`
	var page []struct{ Keys, Notes []string }
	nodeprobe.Run(t, files, script, probes, &page)
	if len(page) != len(probes) {
		t.Fatalf("node answered %d of %d", len(page), len(probes))
	}
	noted := 0
	for i, pr := range probes {
		keys, notes := widget.Keys(pr.Widget, "w.hide", pr.Raw)
		if strings.Join(keys, ",") != strings.Join(page[i].Keys, ",") || strings.Join(notes, "\n") != strings.Join(page[i].Notes, "\n") {
			t.Errorf("%s %q: the page reads %q %q, Keys %q %q", pr.Widget, pr.Raw, page[i].Keys, page[i].Notes, keys, notes)
		}
		noted += len(notes)
	}
	if noted == 0 {
		t.Error("no probe earned a note")
	}
}

// The module's deployments are widget.Deployments() (app/deployments' file), row for row: the
// same ids in the same order, each with its kind, stated ε (null for none),
// label and source, and nothing else.
func TestWidgetsModuleHoldsTheDeployments(t *testing.T) {
	mod, err := widgetsModule(testMath)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(exports(t, mod)["deployments"], &got); err != nil {
		t.Fatal(err)
	}
	all, err := widget.Deployments()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) {
		t.Fatalf("%d deployments in the module, %d in the file", len(got), len(all))
	}
	for i, d := range all {
		var eps any
		if d.Epsilon > 0 {
			eps = d.Epsilon
		}
		want := map[string]any{"id": d.ID, "kind": string(d.Kind), "epsilon": eps, "label": d.Label, "source": d.Source}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("deployment %d:\n module %v\n file   %v", i, got[i], want)
		}
	}
}
