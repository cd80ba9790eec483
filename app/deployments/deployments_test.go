package deployments

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// registryIDs are the citation names of the 27 rows of the registry's
// registry/data.csv (commit 20c15d0): the file must keep every one.
var registryIDs = []string{
	"apple_quick", "apple_emoji", "apple_lookup", "apple_healthkit", "apple_safari_energy", "apple_safari_autoplay",
	"google_community", "google_prediction", "google_search", "google_shared", "google_vaccine", "google_apple_covid",
	"linkedin_audience", "linkedin_labor", "meta_movement", "meta_full", "microsoft_global", "microsoft_telemetry",
	"microsoft_us", "microsoft_assistive", "microsoft_ohmconnect", "spectus_mobility", "uscensus_post_secondary",
	"uscensus_restricting", "uscensus_2020", "uscensus_county", "wikimedia_distinct",
}

// The embedded file parses strictly and keeps every row of the registry, each once.
func TestFileKeepsTheRegistry(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(registryIDs) {
		t.Fatalf("%d rows, want the registry's %d", len(all), len(registryIDs))
	}
	for i, d := range all {
		if d.ID != registryIDs[i] {
			t.Errorf("row %d is %q, want %q (the registry's order)", i+1, d.ID, registryIDs[i])
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
	for _, d := range all {
		byID[d.ID] = d
		kinds[d.Kind]++
		if d.Label == "" || !strings.HasPrefix(d.Label, d.Organisation+", "+d.Product+": ") {
			t.Errorf("%s: label %q", d.ID, d.Label)
		}
	}
	for _, c := range []struct {
		id         string
		kind       Kind
		eps, delta float64
		rho        float64
		unit       string
		label      string
	}{
		{"uscensus_2020", Approx, 49.95, 1e-5, 0, "", "United States Census Bureau, 2020 Census Demographic and Housing Characteristics File: (ε, δ) = (49.95, 10⁻⁵), unit of privacy not recorded"},
		{"google_community", Pure, 2.64, 0, 0, "", ""},
		{"linkedin_audience", Approx, 34.9, 7e-9, 0, "user-month", "LinkedIn, Audience Engagements API: (ε, δ) = (34.9, 7 × 10⁻⁹) per user-month"},
		{"microsoft_telemetry", Pure, 1.672, 0, 0, "", ""},
		{"apple_emoji", Pure, 4, 0, 0, "user-day", "Apple, Emoji suggestions: ε = 4 per user-day"},
		{"apple_quick", Pure, 16, 0, 0, "user-day", ""},
		{"google_shared", Approx, 0.66, 2.1e-29, 0, "", ""},
		{"wikimedia_distinct", ZCDP, 1, 1e-7, 0.015, "user-day", "Wikimedia Foundation, Wikipedia pageviews by country: ρ = 0.015 (zCDP), stated as (ε, δ) = (1, 10⁻⁷) per user-day"},
		{"google_prediction", ZCDP, 6.92, 1e-5, 0.81, "user", ""},
	} {
		d, ok := byID[c.id]
		if !ok {
			t.Errorf("%s: missing", c.id)
			continue
		}
		if d.Kind != c.kind || d.Epsilon != c.eps || d.Delta != c.delta || d.Rho != c.rho || d.Unit != c.unit {
			t.Errorf("%s: %s ε %v δ %v ρ %v unit %q; want %s %v %v %v %q", c.id, d.Kind, d.Epsilon, d.Delta, d.Rho, d.Unit, c.kind, c.eps, c.delta, c.rho, c.unit)
		}
		if c.label != "" && d.Label != c.label {
			t.Errorf("%s: label %q, want %q", c.id, d.Label, c.label)
		}
	}
	// The registry's QuickType ε = 8 against Desfontaines' 16: the row says so.
	if n := byID["apple_quick"].Note; !strings.Contains(n, "ε = 8") || !strings.Contains(n, "16") {
		t.Errorf("apple_quick's note does not name both figures: %q", n)
	}
	// The registry's Wikimedia (1, 10⁻⁵) against the data set's own ρ: said too.
	if n := byID["wikimedia_distinct"].Note; !strings.Contains(n, "(1, 10⁻⁵)") {
		t.Errorf("wikimedia_distinct's note does not give the registry's pair: %q", n)
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

func TestPower(t *testing.T) {
	for in, want := range map[float64]string{1e-5: "10⁻⁵", 7e-9: "7 × 10⁻⁹", 2.1e-29: "2.1 × 10⁻²⁹", 5.06e-9: "5.06 × 10⁻⁹", 8.4e-8: "8.4 × 10⁻⁸", 1e-100: "10⁻¹⁰⁰", 0.5: "5 × 10⁻¹", 2: "2"} {
		if got := Power(in); got != want {
			t.Errorf("Power(%v) = %q, want %q", in, got, want)
		}
	}
}

// Every rule of Parse refuses a row that breaks it, naming the line.
func TestParseRefuses(t *testing.T) {
	head := strings.Join(Header, ",") + "\n"
	good := "a_b,Org,Product,pure,1,,,user-day,primary,https://example.org/x,\n"
	if _, err := Parse([]byte(head + good)); err != nil {
		t.Fatalf("a good row: %v", err)
	}
	for name, body := range map[string]string{
		"no rows":            "",
		"bad header":         "id,organisation\n",
		"wrong field count":  "a,Org,Product,pure,1,,,user-day,primary,https://example.org/x\n",
		"duplicate id":       good + good,
		"id":                 "A b,Org,Product,pure,1,,,user-day,primary,https://example.org/x,\n",
		"empty product":      "a,Org,,pure,1,,,user-day,primary,https://example.org/x,\n",
		"spaces":             "a,Org ,Product,pure,1,,,user-day,primary,https://example.org/x,\n",
		"pure with delta":    "a,Org,Product,pure,1,1e-5,,user-day,primary,https://example.org/x,\n",
		"pure without eps":   "a,Org,Product,pure,,,,user-day,primary,https://example.org/x,\n",
		"approx no delta":    "a,Org,Product,approx,1,,,user-day,primary,https://example.org/x,\n",
		"approx with rho":    "a,Org,Product,approx,1,1e-5,0.1,user-day,primary,https://example.org/x,\n",
		"zcdp no rho":        "a,Org,Product,zcdp,1,1e-5,,user-day,primary,https://example.org/x,\n",
		"zcdp half a pair":   "a,Org,Product,zcdp,1,,0.1,user-day,primary,https://example.org/x,\n",
		"zcdp wrong pair":    "a,Org,Product,zcdp,6.93,1e-5,0.81,user-day,primary,https://example.org/x,\n",
		"kind":               "a,Org,Product,dp,1,,,user-day,primary,https://example.org/x,\n",
		"eps zero":           "a,Org,Product,pure,0,,,user-day,primary,https://example.org/x,\n",
		"eps exponent":       "a,Org,Product,pure,1e1,,,user-day,primary,https://example.org/x,\n",
		"eps negative":       "a,Org,Product,pure,-1,,,user-day,primary,https://example.org/x,\n",
		"eps NaN":            "a,Org,Product,pure,NaN,,,user-day,primary,https://example.org/x,\n",
		"delta plain":        "a,Org,Product,approx,1,0.00001,,user-day,primary,https://example.org/x,\n",
		"delta one":          "a,Org,Product,approx,1,1e-0,,user-day,primary,https://example.org/x,\n",
		"unit words":         "a,Org,Product,pure,1,,,User Day,primary,https://example.org/x,\n",
		"unit from unknown":  "a,Org,Product,pure,1,,,user-day,a blog,https://example.org/x,\n",
		"unit from no unit":  "a,Org,Product,pure,1,,,,primary,https://example.org/x,\n",
		"unit without from":  "a,Org,Product,pure,1,,,user-day,,https://example.org/x,\n",
		"http source":        "a,Org,Product,pure,1,,,user-day,primary,http://example.org/x,\n",
		"javascript source":  "a,Org,Product,pure,1,,,user-day,primary,javascript:alert(1),\n",
		"source with a user": "a,Org,Product,pure,1,,,user-day,primary,https://u@example.org/x,\n",
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
