package figures

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// jsSchema is one entry of a widget's schema in web/widgets/NAME.js.
type jsSchema struct {
	Type      string          `json:"type"`
	Min       *float64        `json:"min"`
	Max       *float64        `json:"max"`
	MinLength int             `json:"minLength"`
	MaxLength int             `json:"maxLength"`
	Digits    int             `json:"digits"`
	Values    []string        `json:"values"`
	Default   json.RawMessage `json:"default"`
}

// Every chart's params are its widget's schema, read by importing the
// widget's module in Node: the same keys in the same order, kinds, ranges,
// list lengths, digits, enum values and defaults (written as the page's URL
// writes them). Without this, a figure could draw another state than the
// page for the same link.
func TestParamsMatchWidgetSchemas(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; make test installs it")
	}
	dir, _ := filepath.Abs("../web/widgets")
	// Object.entries keeps the schema's key order.
	script := `const out = {};
for (const w of process.argv.slice(1)) {
  const m = await import('file://' + ` + strconv.Quote(dir) + ` + '/' + w + '.js');
  out[w] = Object.entries(m.schema).map(([key, s]) => ({ key, ...s, default: s.default ?? null }));
}
console.log(JSON.stringify(out));`
	cmd := exec.Command(node, append([]string{"--input-type=module", "-e", script, "--"}, Widgets()...)...)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var schemas map[string][]struct {
		Key string `json:"key"`
		jsSchema
	}
	if err := json.Unmarshal(b, &schemas); err != nil {
		t.Fatalf("schemas: %v\n%s", err, b)
	}
	kinds := map[string]ParamKind{"number": Number, "int": Int, "enum": Enum, "list": List, "text": Text}
	for _, w := range Widgets() {
		js, params := schemas[w], charts[w].params
		if len(js) != len(params) {
			t.Errorf("%s: the widget has %d keys, the chart %d", w, len(js), len(params))
			continue
		}
		for i, s := range js {
			p := params[i]
			want := Param{Key: s.Key, Kind: kinds[s.Type], Values: s.Values, Digits: s.Digits, Default: jsDefault(s.Default)}
			if s.Min != nil {
				want.Min, want.Max = *s.Min, *s.Max
			}
			if s.Type == "list" || s.Type == "text" {
				want.MinLen, want.MaxLen = s.MinLength, s.MaxLength
			}
			got := p
			got.Allowed = "" // text patterns are regular expressions in JS
			if s.Type != "number" && s.Type != "int" && s.Type != "list" {
				got.Min, got.Max = 0, 0
			}
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
				t.Errorf("%s.%s:\n chart  %+v\n widget %+v", w, s.Key, got, want)
			}
		}
	}
}

// jsDefault writes a schema default as the page's URL does (state.js encode).
func jsDefault(raw json.RawMessage) string {
	var x any
	if json.Unmarshal(raw, &x) != nil || x == nil {
		return ""
	}
	switch v := x.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ",")
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}
