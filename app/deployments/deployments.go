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

// Deployment is one row of the file.
type Deployment struct {
	ID           string // the registry's citation name
	Organisation string
	Product      string
	Kind         Kind
	// Epsilon and Delta are the stated ε and δ (0 when not stated): for a
	// ZCDP row, the (ε, δ) its source converts ρ to, if it gives one.
	Epsilon, Delta float64
	Rho            float64 // ρ of a ZCDP row, else 0
	Unit           string  // the unit of privacy ("user-day", …); "" when not recorded
	UnitFrom       string  // where Unit was read: one of UnitSources
	Source         string  // the primary source, an https URL
	Note           string  // where the sources differ, and what this row keeps
	Label          string  // the row as the page names it (see label)
}

// UnitSources are where a row's unit of privacy may be read.
var UnitSources = []string{"Desfontaines", "primary", "registry.opendp.org"}

// Header is the file's header row, in order.
var Header = []string{"id", "organisation", "product", "kind", "epsilon", "delta", "rho", "unit", "unit_from", "source", "note"}

// All returns the rows of the embedded file, in its order.
func All() ([]Deployment, error) { return Parse(file) }

var (
	idRE     = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)
	numberRE = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]+)?$`)
	deltaRE  = regexp.MustCompile(`^([1-9](?:\.[0-9]+)?)e-([1-9][0-9]*)$`)
	unitRE   = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	powerRE  = regexp.MustCompile(`^([1-9](?:\.[0-9]+)?)e-([0-9]+)$`)
)

// Parse reads the file format of deployments.csv: lines starting with # are
// comments, then the header row Header, then one row per deployment. It is
// strict: every field is checked and the first problem is returned with its
// line. A row's ε and ρ are plain decimals greater than 0, its δ a power
// of ten such as 1e-5 or 7e-9 below 1; a pure row has ε and no δ or ρ, an
// approx row ε and δ and no ρ, a zcdp row ρ with an (ε, δ) pair or none,
// and a pair that ρ's conversion ZCDPEpsilon gives to the precision it is
// written in. Ids are unique, sources https URLs.
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
	d := Deployment{ID: f[0], Organisation: f[1], Product: f[2], Kind: Kind(f[3]), Unit: f[7], UnitFrom: f[8], Source: f[9], Note: f[10]}
	if !idRE.MatchString(d.ID) {
		return d, fmt.Errorf("id %q is not lower-case words joined by _", d.ID)
	}
	if d.Organisation == "" || d.Product == "" {
		return d, errors.New("organisation and product must not be empty")
	}
	var err error
	if d.Epsilon, err = decimal("epsilon", f[4]); err != nil {
		return d, err
	}
	if d.Rho, err = decimal("rho", f[6]); err != nil {
		return d, err
	}
	if f[5] != "" {
		m := deltaRE.FindStringSubmatch(f[5])
		if m == nil {
			return d, fmt.Errorf("delta %q is not written as m·10⁻ᵏ, such as 1e-5 or 2.1e-29", f[5])
		}
		d.Delta, _ = strconv.ParseFloat(f[5], 64)
		if !(d.Delta > 0 && d.Delta < 1) {
			return d, fmt.Errorf("delta %q is not in (0, 1)", f[5])
		}
	}
	has := func(s string) bool { return s != "" }
	switch d.Kind {
	case Pure:
		if !has(f[4]) || has(f[5]) || has(f[6]) {
			return d, errors.New("a pure row has epsilon and no delta or rho")
		}
	case Approx:
		if !has(f[4]) || !has(f[5]) || has(f[6]) {
			return d, errors.New("an approx row has epsilon and delta and no rho")
		}
	case ZCDP:
		if !has(f[6]) || has(f[4]) != has(f[5]) {
			return d, errors.New("a zcdp row has rho, and epsilon and delta both or neither")
		}
		if has(f[4]) {
			e, err := ZCDPEpsilon(d.Rho, d.Delta)
			if err != nil {
				return d, err
			}
			if half := halfUnit(f[4]); math.Abs(e-d.Epsilon) > half {
				return d, fmt.Errorf("rho %s converts to ε = %.4g at δ = %s, not %s as written", f[6], e, f[5], f[4])
			}
		}
	default:
		return d, fmt.Errorf("kind %q is not pure, approx or zcdp", f[3])
	}
	if d.Unit == "" {
		if d.UnitFrom != "" {
			return d, errors.New("unit_from without a unit")
		}
	} else {
		if !unitRE.MatchString(d.Unit) {
			return d, fmt.Errorf("unit %q is not lower-case words joined by -", d.Unit)
		}
		if !oneOf(d.UnitFrom, UnitSources) {
			return d, fmt.Errorf("unit_from %q is not one of %q", d.UnitFrom, UnitSources)
		}
	}
	u, err := url.Parse(d.Source)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return d, fmt.Errorf("source %q is not an https URL", d.Source)
	}
	d.Label = label(d, f[4], f[6])
	return d, nil
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

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// ZCDPEpsilon returns the ε for which ρ-zCDP implies (ε, δ)-differential
// privacy by Bun and Steinke's conversion (Proposition 1.3):
// ε = ρ + 2·√(ρ·ln(1/δ)), for ρ > 0 and 0 < δ < 1.
func ZCDPEpsilon(rho, delta float64) (float64, error) {
	if !(rho > 0) || math.IsInf(rho, 0) {
		return 0, fmt.Errorf("ρ = %v: want a finite number greater than 0", rho)
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("δ = %v: want a number in (0, 1)", delta)
	}
	return rho + 2*math.Sqrt(rho*math.Log(1/delta)), nil
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

// label is the row as the page names it, from the numbers as written:
// "Apple, Emoji suggestions: ε = 4 per user-day",
// "LinkedIn, Audience Engagements API: (ε, δ) = (34.9, 7 × 10⁻⁹) per user-month",
// "…: ρ = 0.015 (zCDP), stated as (ε, δ) = (1, 10⁻⁷) per user-day";
// a row without a unit ends "…, unit of privacy not recorded".
func label(d Deployment, eps, rho string) string {
	var p string
	switch d.Kind {
	case Pure:
		p = "ε = " + eps
	case Approx:
		p = fmt.Sprintf("(ε, δ) = (%s, %s)", eps, Power(d.Delta))
	case ZCDP:
		p = "ρ = " + rho + " (zCDP)"
		if eps != "" {
			p += fmt.Sprintf(", stated as (ε, δ) = (%s, %s)", eps, Power(d.Delta))
		}
	}
	unit := " per " + d.Unit
	if d.Unit == "" {
		unit = ", unit of privacy not recorded"
	}
	return d.Organisation + ", " + d.Product + ": " + p + unit
}
