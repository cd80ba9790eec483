// Package deployments holds real deployments of differential privacy and the
// privacy parameters they publish, from the OpenDP Epsilon Registry with the
// unit of privacy of each (deployments.csv says where every value comes
// from, under which licence). The page marks them on every ε slider; the
// file is parsed strictly, so a row that breaks a rule fails the build's
// tests, not the page.
package deployments

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

//go:embed deployments.csv
var file []byte

// Kind is the privacy definition a deployment's parameters are stated in.
type Kind string

const (
	// Pure is ε-differential privacy: no δ.
	Pure Kind = "pure"
	// Approx is (ε, δ)-differential privacy.
	Approx Kind = "approx"
	// ZCDP is ρ-zero-concentrated differential privacy (Bun and Steinke).
	ZCDP Kind = "zcdp"
)

// RhoFrom says where a ZCDP row's ρ comes from.
type RhoFrom string

const (
	// Stated: a document the row's note names gives ρ.
	Stated RhoFrom = "stated"
	// Inferred: no document read for the file gives ρ. It is the ρ that
	// ZCDPEpsilon maps to the row's (ε, δ), that is ZCDPRho(ε, δ), rounded
	// to the digits it is written with.
	Inferred RhoFrom = "inferred"
)

// Deployment is one row of the file.
type Deployment struct {
	ID           string // the registry's citation name
	Organisation string
	Product      string
	Kind         Kind
	// Epsilon and Delta are the ε and δ the row gives (0 when none): for a
	// ZCDP row, an (ε, δ) that ZCDPEpsilon maps its ρ to, if it gives one.
	Epsilon, Delta float64
	Rho            float64 // ρ of a ZCDP row, else 0
	RhoFrom        RhoFrom // where Rho comes from; "" when there is no ρ
	Unit           string  // the unit of privacy ("user-day", …); "" when not recorded
	UnitFrom       string  // where Unit was read: one of UnitSources
	Source         string  // the primary source, an https URL
	// RegistryEpsilon and RegistryDelta are the ε and δ of the row in the
	// registry's own table (δ 0 when it has none).
	RegistryEpsilon, RegistryDelta float64
	Note                           string // where the sources differ, and what this row keeps
	Label                          string // the row as the page names it (see label)
}

// Corrected reports whether the row's ε or δ differs from the registry's:
// a row corrected from the sources its note names.
func (d Deployment) Corrected() bool {
	return d.Epsilon != d.RegistryEpsilon || d.Delta != d.RegistryDelta
}

// UnitSources are where a row's unit of privacy may be read.
var UnitSources = []string{"Desfontaines", "primary", "registry.opendp.org"}

// Header is the file's header row, in order.
var Header = []string{"id", "organisation", "product", "kind", "epsilon", "delta", "rho", "rho_from", "unit", "unit_from", "source", "registry_epsilon", "registry_delta", "note"}

// All returns the rows of the embedded file, in its order.
func All() ([]Deployment, error) { return Parse(file) }

var (
	idRE     = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)
	numberRE = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]+)?$`)
	deltaRE  = regexp.MustCompile(`^([1-9](?:\.[0-9]+)?)e-([1-9][0-9]*)$`)
	unitRE   = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	powerRE  = regexp.MustCompile(`^([1-9](?:\.[0-9]+)?)e-([0-9]+)$`)
	// registryDeltaRE is a δ as the registry writes it: "10^-5", "2.1 10^-29".
	registryDeltaRE = regexp.MustCompile(`^(?:([1-9](?:\.[0-9]+)?) )?10\^-([1-9][0-9]*)$`)
)

// Parse reads the file format of deployments.csv: lines starting with # are
// comments, then the header row Header, then one row per deployment. It is
// strict: every field is checked and the first problem is returned with its
// line. A row's ε and ρ are plain decimals greater than 0, its δ a power
// of ten such as 1e-5 or 7e-9 below 1; a pure row has ε and no δ or ρ, an
// approx row ε and δ and no ρ, a zcdp row ρ with an (ε, δ) pair or none.
// A zcdp row's ρ is stated or inferred (rho_from): a stated ρ's pair, if
// any, is what ZCDPEpsilon gives to the precision the pair is written in;
// an inferred ρ has a pair, and is ZCDPRho of it to the precision ρ is
// written in. Every row keeps the registry's ε and δ as the registry writes
// them (registry_delta "N/A", "" or such as "2.1 10^-29"); a row whose ε
// or δ differs from them has a note. Ids are unique, sources https URLs.
func Parse(b []byte) ([]Deployment, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.Comment = '#'
	r.FieldsPerRecord = len(Header)
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("deployments: header: %w", err)
	}
	if strings.Join(head, ",") != strings.Join(Header, ",") {
		return nil, fmt.Errorf("deployments: header is %q, want %q", head, Header)
	}
	var out []Deployment
	seen := map[string]bool{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("deployments: %w", err)
		}
		line, _ := r.FieldPos(0)
		d, err := row(rec)
		if err != nil {
			return nil, fmt.Errorf("deployments: line %d: %w", line, err)
		}
		if seen[d.ID] {
			return nil, fmt.Errorf("deployments: line %d: id %q occurs twice", line, d.ID)
		}
		seen[d.ID] = true
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, errors.New("deployments: no rows")
	}
	return out, nil
}

// row checks and reads one record.
func row(f []string) (Deployment, error) {
	for i, s := range f {
		if s != strings.TrimSpace(s) {
			return Deployment{}, fmt.Errorf("%s %q has spaces at an end", Header[i], s)
		}
	}
	field := func(name string) string { return f[slices.Index(Header, name)] }
	d := Deployment{ID: field("id"), Organisation: field("organisation"), Product: field("product"), Kind: Kind(field("kind")),
		RhoFrom: RhoFrom(field("rho_from")), Unit: field("unit"), UnitFrom: field("unit_from"), Source: field("source"), Note: field("note")}
	if !idRE.MatchString(d.ID) {
		return d, fmt.Errorf("id %q is not lower-case words joined by _", d.ID)
	}
	if d.Organisation == "" || d.Product == "" {
		return d, errors.New("organisation and product must not be empty")
	}
	eps, delta, rho := field("epsilon"), field("delta"), field("rho")
	var err error
	if d.Epsilon, err = decimal("epsilon", eps); err != nil {
		return d, err
	}
	if d.Rho, err = decimal("rho", rho); err != nil {
		return d, err
	}
	if delta != "" {
		if !deltaRE.MatchString(delta) {
			return d, fmt.Errorf("delta %q is not written as m·10⁻ᵏ, such as 1e-5 or 2.1e-29", delta)
		}
		d.Delta, _ = strconv.ParseFloat(delta, 64)
		if !(d.Delta > 0 && d.Delta < 1) {
			return d, fmt.Errorf("delta %q is not in (0, 1)", delta)
		}
	}
	has := func(s string) bool { return s != "" }
	switch d.Kind {
	case Pure:
		if !has(eps) || has(delta) || has(rho) {
			return d, errors.New("a pure row has epsilon and no delta or rho")
		}
	case Approx:
		if !has(eps) || !has(delta) || has(rho) {
			return d, errors.New("an approx row has epsilon and delta and no rho")
		}
	case ZCDP:
		if !has(rho) || has(eps) != has(delta) {
			return d, errors.New("a zcdp row has rho, and epsilon and delta both or neither")
		}
		if err := checkRho(d, eps, rho); err != nil {
			return d, err
		}
	default:
		return d, fmt.Errorf("kind %q is not pure, approx or zcdp", d.Kind)
	}
	if d.Kind != ZCDP && d.RhoFrom != "" {
		return d, errors.New("rho_from on a row without rho")
	}
	if d.Unit == "" {
		if d.UnitFrom != "" {
			return d, errors.New("unit_from without a unit")
		}
	} else {
		if !unitRE.MatchString(d.Unit) {
			return d, fmt.Errorf("unit %q is not lower-case words joined by -", d.Unit)
		}
		if !slices.Contains(UnitSources, d.UnitFrom) {
			return d, fmt.Errorf("unit_from %q is not one of %q", d.UnitFrom, UnitSources)
		}
	}
	u, err := url.Parse(d.Source)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return d, fmt.Errorf("source %q is not an https URL", d.Source)
	}
	if d.RegistryEpsilon, err = decimal("registry_epsilon", field("registry_epsilon")); err != nil {
		return d, err
	}
	if d.RegistryEpsilon == 0 {
		return d, errors.New("registry_epsilon is empty: every row keeps the registry's ε")
	}
	if d.RegistryDelta, err = registryDelta(field("registry_delta")); err != nil {
		return d, err
	}
	if d.Corrected() && d.Note == "" {
		return d, errors.New("ε or δ differs from the registry's and no note says why")
	}
	d.Label = label(d, eps, rho)
	return d, nil
}

// checkRho checks a zcdp row's ρ against its (ε, δ), as written in eps and
// rho: a stated ρ must convert to the pair, if there is one, to the pair's
// written precision; an inferred ρ must have a pair and be the pair's
// ZCDPRho to ρ's written precision.
func checkRho(d Deployment, eps, rho string) error {
	switch d.RhoFrom {
	case Stated:
		if eps == "" {
			return nil
		}
		e, err := ZCDPEpsilon(d.Rho, d.Delta)
		if err != nil {
			return err
		}
		if math.Abs(e-d.Epsilon) > halfUnit(eps) {
			return fmt.Errorf("rho %s converts to ε = %.4g at δ = %s, not %s as written", rho, e, Power(d.Delta), eps)
		}
	case Inferred:
		if eps == "" {
			return errors.New("an inferred rho needs the epsilon and delta it is inferred from")
		}
		r, err := ZCDPRho(d.Epsilon, d.Delta)
		if err != nil {
			return err
		}
		if math.Abs(r-d.Rho) > halfUnit(rho) {
			return fmt.Errorf("(ε, δ) = (%s, %s) comes from ρ = %.4g, not %s as written", eps, Power(d.Delta), r, rho)
		}
	default:
		return fmt.Errorf("rho_from %q is not %s or %s", d.RhoFrom, Stated, Inferred)
	}
	return nil
}

// registryDelta reads a δ as the registry writes it: "N/A" or "" for none
// (0), else "10^-k" or "m 10^-k" with 0 < δ < 1.
func registryDelta(s string) (float64, error) {
	if s == "" || s == "N/A" {
		return 0, nil
	}
	m := registryDeltaRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("registry_delta %q is not N/A, empty or written as the registry writes δ, such as 10^-5 or 2.1 10^-29", s)
	}
	mantissa := m[1]
	if mantissa == "" {
		mantissa = "1"
	}
	x, err := strconv.ParseFloat(mantissa+"e-"+m[2], 64)
	if err != nil || !(x > 0 && x < 1) {
		return 0, fmt.Errorf("registry_delta %q is not in (0, 1)", s)
	}
	return x, nil
}

// decimal reads an optional plain decimal greater than 0 ("" is 0).
func decimal(name, s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	if !numberRE.MatchString(s) {
		return 0, fmt.Errorf("%s %q is not a plain decimal", name, s)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s %q is not a number greater than 0", name, s)
	}
	return x, nil
}

// halfUnit is half a unit in the last written digit of decimal s: 0.005 for "6.92", 0.5 for "1".
func halfUnit(s string) float64 {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return 0.5 * math.Pow(10, -float64(len(s)-i-1))
	}
	return 0.5
}

// ZCDPEpsilon returns an ε for which ρ-zCDP implies (ε, δ)-differential
// privacy, by Bun and Steinke's conversion (Proposition 1.3):
// ε = ρ + 2·√(ρ·ln(1/δ)), for ρ > 0 and 0 < δ < 1. It is an upper bound:
// tighter conversions (Canonne, Kamath and Steinke 2020) give a smaller ε
// for the same ρ and δ.
func ZCDPEpsilon(rho, delta float64) (float64, error) {
	if !(rho > 0) || math.IsInf(rho, 0) {
		return 0, fmt.Errorf("ρ = %v: want a finite number greater than 0", rho)
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("δ = %v: want a number in (0, 1)", delta)
	}
	return rho + 2*math.Sqrt(rho*math.Log(1/delta)), nil
}

// ZCDPRho returns the ρ that ZCDPEpsilon maps to ε at δ, its inverse:
// ρ = (√(ln(1/δ) + ε) − √ln(1/δ))², for ε > 0 and 0 < δ < 1 (from
// ε + ln(1/δ) = (√ρ + √ln(1/δ))²).
func ZCDPRho(eps, delta float64) (float64, error) {
	if !(eps > 0) || math.IsInf(eps, 0) {
		return 0, fmt.Errorf("ε = %v: want a finite number greater than 0", eps)
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("δ = %v: want a number in (0, 1)", delta)
	}
	l := math.Log(1 / delta)
	// eps/(√(l+eps) + √l) is √(l+eps) − √l without the cancellation.
	s := eps / (math.Sqrt(l+eps) + math.Sqrt(l))
	return s * s, nil
}

// Power writes δ as "m × 10⁻ᵏ" with the shortest mantissa m that reads
// back as δ, or "10⁻ᵏ" when m is 1: 7e-9 is "7 × 10⁻⁹", 1e-5 is "10⁻⁵".
// A δ not in (0, 1) is written as Go writes it.
func Power(delta float64) string {
	m := powerRE.FindStringSubmatch(strconv.FormatFloat(delta, 'e', -1, 64))
	if m == nil || !(delta > 0 && delta < 1) {
		return strconv.FormatFloat(delta, 'g', -1, 64)
	}
	exp := "⁻" + strings.Map(func(r rune) rune { return []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")[r-'0'] }, strings.TrimLeft(m[2], "0"))
	if m[1] == "1" {
		return "10" + exp
	}
	return m[1] + " × 10" + exp
}

// label is the row as the page names it, from the numbers as written: its
// parameters, then its unit, then for a zcdp row with a pair where ρ comes
// from:
// "Apple, Emoji suggestions: ε = 4 per user-day",
// "LinkedIn, Audience Engagements API: (ε, δ) = (34.9, 7 × 10⁻⁹) per user-month",
// "…: ρ = 0.015 (zCDP) per device-day, given as (ε, δ) = (1, 10⁻⁷)" (a stated ρ),
// "…: (ε, δ) = (6.92, 10⁻⁵) per user; ρ ≈ 0.81 (zCDP) converts to it" (an inferred ρ);
// a row without a unit says "unit of privacy not recorded" in its place.
func label(d Deployment, eps, rho string) string {
	pair := fmt.Sprintf("(ε, δ) = (%s, %s)", eps, Power(d.Delta))
	unit := " per " + d.Unit
	if d.Unit == "" {
		unit = ", unit of privacy not recorded"
	}
	var p string
	switch {
	case d.Kind == Pure:
		p = "ε = " + eps + unit
	case d.Kind == Approx:
		p = pair + unit
	case d.RhoFrom == Inferred:
		p = pair + unit + "; ρ ≈ " + rho + " (zCDP) converts to it"
	case eps != "":
		p = "ρ = " + rho + " (zCDP)" + unit + ", given as " + pair
	default:
		p = "ρ = " + rho + " (zCDP)" + unit
	}
	return d.Organisation + ", " + d.Product + ": " + p
}
