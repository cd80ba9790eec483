package deployments

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// registry is the registry's registry/data.csv (commit 20c15d0), row by row:
// each citation name with the ε and δ it gives (δ 0 where it writes N/A or
// leaves it blank). The file must keep every row, in this order.
var registry = []struct {
	id         string
	eps, delta float64
}{
	{"apple_quick", 8, 0},
	{"apple_emoji", 4, 0},
	{"apple_lookup", 8, 0},
	{"apple_healthkit", 2, 0},
	{"apple_safari_energy", 4, 0},
	{"apple_safari_autoplay", 16, 0},
	{"google_community", 2.64, 0},
	{"google_prediction", 6.92, 1e-5},
	{"google_search", 1.68, 0},
	{"google_shared", 0.66, 2.1e-29},
	{"google_vaccine", 2.19, 1e-5},
	{"google_apple_covid", 8, 0},
	{"linkedin_audience", 34.9, 7e-9},
	{"linkedin_labor", 14.4, 1.2e-9},
	{"meta_movement", 2, 0},
	{"meta_full", 1.453, 1e-5},
	{"microsoft_global", 12, 5.8e-6},
	{"microsoft_telemetry", 1.672, 0},
	{"microsoft_us", 0.2, 0},
	{"microsoft_assistive", 4, 1e-7},
	{"microsoft_ohmconnect", 4.72, 5.06e-9},
	{"spectus_mobility", 10, 0},
	{"uscensus_post_secondary", 3, 0},
	{"uscensus_restricting", 13.64, 1e-5},
	{"uscensus_2020", 49.95, 1e-5},
	{"uscensus_county", 35.62, 1e-5},
	{"wikimedia_distinct", 1, 1e-5},
}

// The embedded file parses strictly and keeps every row of the registry,
// each once, with the registry's own ε and δ.
func TestFileKeepsTheRegistry(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(registry) {
		t.Fatalf("%d rows, want the registry's %d", len(all), len(registry))
	}
	for i, d := range all {
		r := registry[i]
		if d.ID != r.id {
			t.Errorf("row %d is %q, want %q (the registry's order)", i+1, d.ID, r.id)
		}
		if d.RegistryEpsilon != r.eps || d.RegistryDelta != r.delta {
			t.Errorf("%s: registry (ε, δ) kept as (%v, %v), the registry has (%v, %v)", d.ID, d.RegistryEpsilon, d.RegistryDelta, r.eps, r.delta)
		}
	}
}

// Each row's numbers, as the registry and the primary sources give them,
// and the figures the issue names: where a row departs from the registry its
// note says so.
func TestRows(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Deployment{}
	kinds := map[Kind]int{}
	var corrected []string
	for _, d := range all {
		byID[d.ID] = d
		kinds[d.Kind]++
		if d.Label == "" || !strings.HasPrefix(d.Label, d.Organisation+", "+d.Product+": ") {
			t.Errorf("%s: label %q", d.ID, d.Label)
		}
		if d.Corrected() {
			corrected = append(corrected, d.ID)
		}
		// A label names the unit its row records, and says so when there is none.
		if d.Unit == "" && !strings.Contains(d.Label, "unit of privacy not recorded") || d.Unit != "" && !strings.Contains(d.Label, " per "+d.Unit) {
			t.Errorf("%s: label %q for unit %q", d.ID, d.Label, d.Unit)
		}
		// An inferred ρ is never written as stated.
		if d.RhoFrom == Inferred && !strings.Contains(d.Label, "ρ ≈ ") || d.RhoFrom == Stated && !strings.Contains(d.Label, "ρ = ") {
			t.Errorf("%s: label %q for a ρ that is %s", d.ID, d.Label, d.RhoFrom)
		}
	}
	for _, c := range []struct {
		id         string
		kind       Kind
		eps, delta float64
		rho        float64
		from       RhoFrom
		unit       string
		label      string
	}{
		{"uscensus_2020", ZCDP, 49.95, 1e-5, 19.77, Inferred, "", "United States Census Bureau, 2020 Census Demographic and Housing Characteristics File: (ε, δ) = (49.95, 10⁻⁵), unit of privacy not recorded; ρ ≈ 19.77 (zCDP) converts to it"},
		{"uscensus_restricting", ZCDP, 13.64, 1e-5, 2.631, Stated, "", "United States Census Bureau, 2020 Census redistricting data: ρ = 2.631 (zCDP), unit of privacy not recorded, given as (ε, δ) = (13.64, 10⁻⁵)"},
		{"uscensus_county", Approx, 35.62, 1e-5, 0, "", "", ""},
		{"google_community", Pure, 2.64, 0, 0, "", "", ""},
		{"linkedin_audience", Approx, 34.9, 7e-9, 0, "", "user-month", "LinkedIn, Audience Engagements API: (ε, δ) = (34.9, 7 × 10⁻⁹) per user-month"},
		{"microsoft_telemetry", Pure, 1.672, 0, 0, "", "", ""},
		{"microsoft_assistive", Approx, 4, 1e-7, 0, "", "user", ""},
		{"apple_emoji", Pure, 4, 0, 0, "", "user-day", "Apple, Emoji suggestions: ε = 4 per user-day"},
		{"apple_quick", Pure, 16, 0, 0, "", "user-day", ""},
		{"google_shared", Approx, 0.66, 2.1e-29, 0, "", "", ""},
		{"wikimedia_distinct", ZCDP, 1, 1e-7, 0.015, Stated, "device-day", "Wikimedia Foundation, Wikipedia pageviews by country: ρ = 0.015 (zCDP) per device-day, given as (ε, δ) = (1, 10⁻⁷)"},
		{"google_prediction", ZCDP, 6.92, 1e-5, 0.81, Inferred, "user", "Google, Gboard next-word prediction model: (ε, δ) = (6.92, 10⁻⁵) per user; ρ ≈ 0.81 (zCDP) converts to it"},
	} {
		d, ok := byID[c.id]
		if !ok {
			t.Errorf("%s: missing", c.id)
			continue
		}
		if d.Kind != c.kind || d.Epsilon != c.eps || d.Delta != c.delta || d.Rho != c.rho || d.RhoFrom != c.from || d.Unit != c.unit {
			t.Errorf("%s: %s ε %v δ %v ρ %v (%q) unit %q; want %s %v %v %v (%q) %q", c.id, d.Kind, d.Epsilon, d.Delta, d.Rho, d.RhoFrom, d.Unit, c.kind, c.eps, c.delta, c.rho, c.from, c.unit)
		}
		if c.label != "" && d.Label != c.label {
			t.Errorf("%s: label\n %q, want\n %q", c.id, d.Label, c.label)
		}
	}
	// Two rows' numbers are corrected from the sources their notes name: the
	// registry's QuickType ε = 8 against Desfontaines' 16, and its Wikimedia
	// (1, 10⁻⁵) against the data set's own (1, 10⁻⁷).
	if want := []string{"apple_quick", "wikimedia_distinct"}; !slices.Equal(corrected, want) {
		t.Errorf("corrected rows %q, want %q", corrected, want)
	}
	if n := byID["apple_quick"].Note; !strings.Contains(n, "ε = 8") || !strings.Contains(n, "16") {
		t.Errorf("apple_quick's note does not name both figures: %q", n)
	}
	if n := byID["wikimedia_distinct"].Note; !strings.Contains(n, "(1, 10⁻⁵)") {
		t.Errorf("wikimedia_distinct's note does not give the registry's pair: %q", n)
	}
	// The redistricting data's ρ is the person file's plus the housing-unit
	// file's, each 1/global_scale² in the Census Bureau's production configs.
	if rho := math.Pow(542.0/339, 2) + math.Pow(3379.0/12343, 2); math.Abs(rho-byID["uscensus_restricting"].Rho) > 0.0005 {
		t.Errorf("the redistricting data's ρ from its global scales is %v, the file has %v", rho, byID["uscensus_restricting"].Rho)
	}
	// County Business Patterns looks like a conversion from ρ but is not
	// verified: it stays (ε, δ), and its note says so.
	if n := byID["uscensus_county"].Note; !strings.Contains(n, "Not verified") {
		t.Errorf("uscensus_county's note does not say the ρ reading is unverified: %q", n)
	}
	for _, k := range []Kind{Pure, Approx, ZCDP} {
		if kinds[k] == 0 {
			t.Errorf("no %s row", k)
		}
	}
}

// ZCDPEpsilon is Bun and Steinke's ρ + 2√(ρ ln(1/δ)): Gboard's ρ = 0.81 at
// δ = 10⁻⁵ gives the registry's 6.92, Wikimedia's ρ = 0.015 at 10⁻⁷ about 1.
func TestZCDPEpsilon(t *testing.T) {
	for _, c := range []struct{ rho, delta, want, tol float64 }{
		{0.81, 1e-5, 6.92, 0.005},
		{0.015, 1e-7, 1, 0.005},
		{2.631, 1e-5, 13.64, 0.005},
		{1, math.Exp(-1), 3, 1e-12},
	} {
		got, err := ZCDPEpsilon(c.rho, c.delta)
		if err != nil || math.Abs(got-c.want) > c.tol {
			t.Errorf("ZCDPEpsilon(%v, %v) = %v, %v; want %v ± %v", c.rho, c.delta, got, err, c.want, c.tol)
		}
	}
	for _, c := range [][2]float64{{0, 1e-5}, {-1, 1e-5}, {math.NaN(), 1e-5}, {math.Inf(1), 1e-5}, {1, 0}, {1, 1}, {1, math.NaN()}} {
		if e, err := ZCDPEpsilon(c[0], c[1]); err == nil {
			t.Errorf("ZCDPEpsilon(%v, %v) = %v, want an error", c[0], c[1], e)
		}
	}
}

// ZCDPRho inverts ZCDPEpsilon: at ln(1/δ) = 1, ε = 3 comes from ρ = 1; the
// registry's Gboard and DHC pairs come from ρ ≈ 0.81 and 19.77; and the
// round trip holds over many orders of magnitude.
func TestZCDPRho(t *testing.T) {
	for _, c := range []struct{ eps, delta, want, tol float64 }{
		{3, math.Exp(-1), 1, 1e-12},
		{6.92, 1e-5, 0.81, 0.005},
		{49.95, 1e-5, 19.77, 0.005},
	} {
		got, err := ZCDPRho(c.eps, c.delta)
		if err != nil || math.Abs(got-c.want) > c.tol {
			t.Errorf("ZCDPRho(%v, %v) = %v, %v; want %v ± %v", c.eps, c.delta, got, err, c.want, c.tol)
		}
	}
	for _, rho := range []float64{1e-12, 1e-6, 0.015, 0.81, 19.77, 1e6} {
		for _, delta := range []float64{0.5, 1e-5, 1e-10, 1e-100} {
			e, _ := ZCDPEpsilon(rho, delta)
			if back, err := ZCDPRho(e, delta); err != nil || math.Abs(back-rho) > 1e-9*rho {
				t.Errorf("ZCDPRho(ZCDPEpsilon(%v, %v)) = %v, %v", rho, delta, back, err)
			}
		}
	}
	for _, c := range [][2]float64{{0, 1e-5}, {-1, 1e-5}, {math.NaN(), 1e-5}, {math.Inf(1), 1e-5}, {1, 0}, {1, 1}, {1, math.NaN()}} {
		if r, err := ZCDPRho(c[0], c[1]); err == nil {
			t.Errorf("ZCDPRho(%v, %v) = %v, want an error", c[0], c[1], r)
		}
	}
}

func TestPower(t *testing.T) {
	for in, want := range map[float64]string{1e-5: "10⁻⁵", 7e-9: "7 × 10⁻⁹", 2.1e-29: "2.1 × 10⁻²⁹", 5.06e-9: "5.06 × 10⁻⁹", 8.4e-8: "8.4 × 10⁻⁸", 1e-100: "10⁻¹⁰⁰", 0.5: "5 × 10⁻¹", 2: "2"} {
		if got := Power(in); got != want {
			t.Errorf("Power(%v) = %q, want %q", in, got, want)
		}
	}
}

// record is a row of the file format: a good pure row with the named fields
// replaced.
func record(fields map[string]string) string {
	row := map[string]string{"id": "a_b", "organisation": "Org", "product": "Product", "kind": "pure", "epsilon": "1",
		"unit": "user-day", "unit_from": "primary", "source": "https://example.org/x", "registry_epsilon": "1", "registry_delta": "N/A"}
	for k, v := range fields {
		if !slices.Contains(Header, k) {
			panic("no field " + k)
		}
		row[k] = v
	}
	out := make([]string, len(Header))
	for i, h := range Header {
		out[i] = row[h]
	}
	return strings.Join(out, ",") + "\n"
}

// Parse accepts each kind of row the file uses, with the values it reads.
func TestParseAccepts(t *testing.T) {
	head := strings.Join(Header, ",") + "\n"
	for name, c := range map[string]struct {
		fields map[string]string
		check  func(Deployment) bool
	}{
		"pure": {nil, func(d Deployment) bool { return d.Epsilon == 1 && !d.Corrected() }},
		"approx, the registry's δ written m 10^-k": {map[string]string{"kind": "approx", "delta": "2.1e-29", "registry_delta": "2.1 10^-29"},
			func(d Deployment) bool { return d.Delta == 2.1e-29 && d.RegistryDelta == 2.1e-29 }},
		"pure, the registry's δ left blank": {map[string]string{"registry_delta": ""}, func(d Deployment) bool { return d.RegistryDelta == 0 }},
		"stated rho without a pair":         {map[string]string{"kind": "zcdp", "epsilon": "", "rho": "0.015", "rho_from": "stated", "note": "no pair"}, func(d Deployment) bool { return d.Rho == 0.015 }},
		"inferred rho": {map[string]string{"kind": "zcdp", "epsilon": "6.92", "delta": "1e-5", "rho": "0.81", "rho_from": "inferred", "registry_epsilon": "6.92", "registry_delta": "10^-5"},
			func(d Deployment) bool { return d.RhoFrom == Inferred && !d.Corrected() }},
		"corrected with a note": {map[string]string{"epsilon": "16", "registry_epsilon": "8", "note": "why"}, func(d Deployment) bool { return d.Corrected() }},
	} {
		ds, err := Parse([]byte(head + record(c.fields)))
		if err != nil || len(ds) != 1 || !c.check(ds[0]) {
			t.Errorf("%s: %+v, %v", name, ds, err)
		}
	}
}

// Every rule of Parse refuses a row that breaks it, naming the line.
func TestParseRefuses(t *testing.T) {
	head := strings.Join(Header, ",") + "\n"
	good := record(nil)
	for name, body := range map[string]string{
		"no rows":                  "",
		"bad header":               "id,organisation\n",
		"wrong field count":        strings.TrimSuffix(good, ",\n") + "\n",
		"duplicate id":             good + good,
		"id":                       record(map[string]string{"id": "A b"}),
		"empty product":            record(map[string]string{"product": ""}),
		"spaces":                   record(map[string]string{"organisation": "Org "}),
		"pure with delta":          record(map[string]string{"delta": "1e-5"}),
		"pure without eps":         record(map[string]string{"epsilon": ""}),
		"approx no delta":          record(map[string]string{"kind": "approx"}),
		"approx with rho":          record(map[string]string{"kind": "approx", "delta": "1e-5", "rho": "0.1"}),
		"zcdp no rho":              record(map[string]string{"kind": "zcdp", "delta": "1e-5", "rho_from": "stated"}),
		"zcdp half a pair":         record(map[string]string{"kind": "zcdp", "rho": "0.1", "rho_from": "stated"}),
		"zcdp wrong pair":          record(map[string]string{"kind": "zcdp", "epsilon": "6.93", "delta": "1e-5", "rho": "0.81", "rho_from": "stated"}),
		"zcdp no rho_from":         record(map[string]string{"kind": "zcdp", "epsilon": "", "rho": "0.1"}),
		"zcdp unknown rho_from":    record(map[string]string{"kind": "zcdp", "epsilon": "", "rho": "0.1", "rho_from": "guessed"}),
		"inferred without a pair":  record(map[string]string{"kind": "zcdp", "epsilon": "", "rho": "0.81", "rho_from": "inferred"}),
		"inferred wrong rho":       record(map[string]string{"kind": "zcdp", "epsilon": "6.92", "delta": "1e-5", "rho": "0.82", "rho_from": "inferred"}),
		"rho_from without rho":     record(map[string]string{"rho_from": "stated"}),
		"kind":                     record(map[string]string{"kind": "dp"}),
		"eps zero":                 record(map[string]string{"epsilon": "0"}),
		"eps exponent":             record(map[string]string{"epsilon": "1e1"}),
		"eps negative":             record(map[string]string{"epsilon": "-1"}),
		"eps NaN":                  record(map[string]string{"epsilon": "NaN"}),
		"delta plain":              record(map[string]string{"kind": "approx", "delta": "0.00001"}),
		"delta one":                record(map[string]string{"kind": "approx", "delta": "1e-0"}),
		"unit words":               record(map[string]string{"unit": "User Day"}),
		"unit from unknown":        record(map[string]string{"unit_from": "a blog"}),
		"unit from no unit":        record(map[string]string{"unit": ""}),
		"unit without from":        record(map[string]string{"unit_from": ""}),
		"http source":              record(map[string]string{"source": "http://example.org/x"}),
		"javascript source":        record(map[string]string{"source": "javascript:alert(1)"}),
		"source with a user":       record(map[string]string{"source": "https://u@example.org/x"}),
		"no registry epsilon":      record(map[string]string{"registry_epsilon": ""}),
		"registry epsilon word":    record(map[string]string{"registry_epsilon": "eight"}),
		"registry delta as Go":     record(map[string]string{"registry_delta": "1e-5"}),
		"registry delta one":       record(map[string]string{"registry_delta": "10^-0"}),
		"registry delta mantissa":  record(map[string]string{"registry_delta": "20 10^-1"}),
		"corrected without a note": record(map[string]string{"epsilon": "16", "registry_epsilon": "8"}),
		"corrected delta, no note": record(map[string]string{"kind": "approx", "delta": "1e-7", "registry_delta": "10^-5"}),
	} {
		in := head + body
		if name == "bad header" {
			in = body
		}
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		} else if body != "" && name != "bad header" && !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: %v does not name the line", name, err)
		}
	}
}

// The embedded file starts with its source and licence.
func TestFileNamesSourceAndLicence(t *testing.T) {
	for _, want := range []string{"https://github.com/opendp/epsilon-registry", "20c15d02280835043708aff912bd87abd8ccdf9d", "MIT License", "Copyright (c) 2024 OpenDP", "Permission is hereby granted"} {
		if !bytes.Contains(file, []byte(want)) {
			t.Errorf("deployments.csv does not say %q", want)
		}
	}
}
