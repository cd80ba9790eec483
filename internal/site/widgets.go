package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/widget"
)

// WidgetsModule is the path, in the built site, of the ES module that holds
// what the widgets take from package widget.
const WidgetsModule = "gen/widgets.js"

// jsParam is one schema entry as web/state/values.js reads it.
type jsParam struct {
	Type      string   `json:"type"`
	Label     string   `json:"label"`
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`
	MinLength int      `json:"minLength,omitempty"`
	MaxLength int      `json:"maxLength,omitempty"`
	Digits    int      `json:"digits,omitempty"` // the significant digits the URL keeps (widget.Param.URLDigits)
	Values    []string `json:"values,omitempty"`
	Pattern   string   `json:"pattern,omitempty"` // the source of a RegExp, compiled by the module
	Default   any      `json:"default"`
}

var jsKinds = map[widget.Kind]string{widget.Number: "number", widget.Int: "int", widget.Enum: "enum", widget.List: "list", widget.Text: "text"}

// toJS returns p as the page's schema entry: ranges on numbers and lists
// and the significant digits the URL keeps of them, the default as the value
// the page holds (a number, a string, an array of numbers or null for no
// list), and a text's characters as a pattern.
func toJS(p widget.Param) (jsParam, error) {
	j := jsParam{Type: jsKinds[p.Kind], Label: p.Label, Values: p.Values, Digits: p.URLDigits(), Default: p.Default}
	if p.Kind == widget.Number || p.Kind == widget.Int || p.Kind == widget.List {
		j.Min, j.Max = &p.Min, &p.Max
	}
	switch p.Kind {
	case widget.Number, widget.Int:
		x, err := strconv.ParseFloat(p.Default, 64)
		if err != nil {
			return j, fmt.Errorf("%s: default %q is not a number", p.Key, p.Default)
		}
		j.Default = x
	case widget.List:
		j.MinLength, j.MaxLength, j.Default = p.MinLen, p.MaxLen, nil
		if p.Default != "" {
			var xs []float64
			if err := json.Unmarshal([]byte("["+p.Default+"]"), &xs); err != nil {
				return j, fmt.Errorf("%s: default %q is not a list of numbers", p.Key, p.Default)
			}
			j.Default = xs
		}
	case widget.Text:
		j.MaxLength = p.MaxLen
		if p.Allowed != "" {
			j.Pattern = "^[" + regexp.MustCompile(`[\\\]\[^-]`).ReplaceAllString(p.Allowed, `\$0`) + "]*$"
		}
	}
	return j, nil
}

// marshal returns v as JSON, which is JavaScript, leaving <, > and & as
// they are (the module is never inlined into HTML). v is always data this
// file builds, which JSON can encode.
func marshal(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// object writes a JSON object whose keys keep the given order (the order
// the page writes a widget's keys into its URL).
func object(keys []string, value func(i int) (any, error)) (string, error) {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range keys {
		v, err := value(i)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteString(",\n  ")
		}
		fmt.Fprintf(&b, "%s: %s", marshal(k), marshal(v))
	}
	b.WriteString("}")
	return b.String(), nil
}

// jsDataSet is a candidate set as the widgets read it; sensitivity is null
// when the scores come from no function of people's data.
type jsDataSet struct {
	Label       string    `json:"label"`
	Candidates  []string  `json:"candidates"`
	Scores      []float64 `json:"scores"`
	Delta       float64   `json:"delta"`
	Sensitivity *float64  `json:"sensitivity"`
	Unit        string    `json:"unit"`
}

func dataSets(sets []widget.DataSet) (string, error) {
	keys := make([]string, len(sets))
	for i, d := range sets {
		keys[i] = d.Name
	}
	return object(keys, func(i int) (any, error) {
		d := sets[i]
		j := jsDataSet{Label: d.Label, Candidates: d.Candidates, Scores: d.Scores, Delta: d.Delta, Unit: d.Unit}
		if d.Sensitivity > 0 {
			j.Sensitivity = &d.Sensitivity
		}
		return j, nil
	})
}

// jsMechanism is a selection mechanism as a widget names it: core mechanism
// Mechanism run at Factor·ε, and what its ε guarantees. The selection
// widgets' mechanisms have a Title and a Noise, the loss chart's curves a
// Label (their readout's row); Short is a lane's or a legend's name.
type jsMechanism struct {
	Mechanism string  `json:"mechanism"`
	Factor    float64 `json:"factor"`
	Title     string  `json:"title,omitempty"`
	Noise     string  `json:"noise,omitempty"`
	Short     string  `json:"short"`
	Label     string  `json:"label,omitempty"`
	Guarantee string  `json:"guarantee"`
}

// jsDeployment is a real deployment as the ε sliders mark it: at Epsilon
// (null for a ρ row that states no ε), drawn by Kind, named by Label.
type jsDeployment struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Epsilon *float64 `json:"epsilon"`
	Label   string   `json:"label"`
	Source  string   `json:"source"`
}

// deploymentsJS returns widget.Deployments() as the sliders read them.
func deploymentsJS() ([]jsDeployment, error) {
	all, err := widget.Deployments()
	if err != nil {
		return nil, err
	}
	out := make([]jsDeployment, len(all))
	for i, d := range all {
		out[i] = jsDeployment{ID: d.ID, Kind: string(d.Kind), Label: d.Label, Source: d.Source}
		if d.Epsilon > 0 {
			out[i].Epsilon = &all[i].Epsilon
		}
	}
	return out, nil
}

// widgetsModule returns the ES module of what the widgets take from package
// widget: every widget's schema (schemas.NAME, keys in URL order), the
// selection widgets' data sets, the selection mechanisms with what each
// one's ε guarantees, the permute-and-flip widget's sets, ε grid and curves, the pricing widgets' price grid, the ε-band widget's poll, the
// auditor's mechanisms, the real deployments the ε sliders mark, and
// widgets' formulas as MathML.
// Every line after the comment is `export const NAME = JSON;` but the last,
// which turns text patterns into RegExps.
func widgetsModule(math *Math) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Generated by dpplay site from package app/widget: edit that, not this.\n")
	export := func(name, value string) { fmt.Fprintf(&b, "export const %s = %s;\n", name, value) }
	names := widget.WithSchema()
	schemas, err := object(names, func(i int) (any, error) {
		params := widget.Schema(names[i])
		keys := make([]string, len(params))
		for k, p := range params {
			keys[k] = p.Key
		}
		s, err := object(keys, func(k int) (any, error) { return toJS(params[k]) })
		if err != nil {
			return nil, fmt.Errorf("widget %s: %w", names[i], err)
		}
		return json.RawMessage(s), nil
	})
	if err != nil {
		return nil, err
	}
	export("schemas", schemas)
	for _, s := range []struct {
		name string
		sets []widget.DataSet
	}{{"datasets", widget.DataSets()}, {"lossSets", widget.LossSets()}} {
		v, err := dataSets(s.sets)
		if err != nil {
			return nil, err
		}
		export(s.name, v)
	}
	export("lossGrid", marshal(widget.LossGrid()))
	export("priceGrid", marshal(map[string]float64{"maxPrice": widget.MaxPrice, "step": widget.PriceStep}))
	export("poll", marshal(map[string]any{"days": widget.PollDays, "others": widget.PollOthers}))
	var curves []jsMechanism
	for _, c := range widget.LossCurves() {
		curves = append(curves, jsMechanism{Mechanism: c.Mechanism, Factor: c.Factor, Short: c.Short, Label: c.Label,
			Guarantee: widget.GuaranteeOf(c.Mechanism, c.Factor)})
	}
	export("lossCurves", marshal(curves))
	var sels []jsMechanism
	for _, c := range widget.Selections() {
		sels = append(sels, jsMechanism{Mechanism: c.Mechanism, Factor: c.Factor, Title: c.Title, Noise: c.Noise, Short: c.Short,
			Guarantee: c.Guarantee})
	}
	export("selections", marshal(sels))
	var mechs [][2]string
	for _, c := range widget.AuditMechanismChoices() {
		mechs = append(mechs, [2]string{c.Value, c.Label})
	}
	export("auditMechanisms", marshal(mechs))
	deps, err := deploymentsJS()
	if err != nil {
		return nil, err
	}
	export("deployments", marshal(deps))
	formulas := map[string]map[string]string{}
	for w, fs := range widget.Formulas() {
		formulas[w] = map[string]string{}
		for name, tex := range fs {
			m, err := math.MathML(tex, false)
			if err != nil {
				return nil, fmt.Errorf("widget %s formula %s: %w", w, name, err)
			}
			formulas[w][name] = m
		}
	}
	export("formulas", marshal(formulas))
	b.WriteString("for (const s of Object.values(schemas)) for (const p of Object.values(s)) if (p.pattern) p.pattern = new RegExp(p.pattern);\n")
	return b.Bytes(), nil
}
