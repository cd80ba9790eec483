package site

import (
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TeXToMathML converts the TeX subset the lessons use into presentation
// MathML, so formulas need no script or font download and screen readers
// can read them. It knows letters, numbers, operators, groups, sub- and
// superscripts, \frac, \sqrt, \text, \mathrm, \operatorname, \mathcal,
// accents (\hat, \bar, \tilde), \left/\right, spacing, Greek letters and the
// common relations and big operators. An unknown command is an error, so a
// typo fails the build instead of showing up garbled on a projector.
func TeXToMathML(tex string, display bool) (string, error) {
	p := &texParser{src: tex, display: display}
	body, err := p.parseSeq(0)
	if err != nil {
		return "", fmt.Errorf("math %q: %v", tex, err)
	}
	if p.pos < len(p.src) {
		return "", fmt.Errorf("math %q: unexpected %q", tex, p.src[p.pos:])
	}
	var b strings.Builder
	b.WriteString(`<math`)
	if display {
		b.WriteString(` display="block"`)
	}
	b.WriteString(`><semantics><mrow>`)
	b.WriteString(body)
	b.WriteString(`</mrow><annotation encoding="application/x-tex">`)
	b.WriteString(html.EscapeString(tex))
	b.WriteString(`</annotation></semantics></math>`)
	return b.String(), nil
}

type texParser struct {
	src     string
	pos     int
	display bool
}

var texGreek = map[string]string{
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
	"zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ",
	"nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
	"varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
	"Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}

// texOps are commands that become an operator (<mo>).
var texOps = map[string]string{
	"cdot": "·", "times": "×", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠",
	"approx": "≈", "propto": "∝", "in": "∈", "notin": "∉", "subseteq": "⊆", "subset": "⊂", "to": "→",
	"rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "mid": "∣", "pm": "±", "mp": "∓",
	"ldots": "…", "dots": "…", "cdots": "⋯", "sim": "∼", "equiv": "≡", "cup": "∪", "cap": "∩",
	"setminus": "∖", "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "lvert": "|", "rvert": "|",
	"vert": "|", "Vert": "‖", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋",
	"lceil": "⌈", "rceil": "⌉", "forall": "∀", "exists": "∃", "neg": "¬", "land": "∧", "lor": "∨",
	"gets": "←", "mapsto": "↦", "ll": "≪", "gg": "≫", "%": "%", "#": "#", "&": "&",
}

// texBigOps take limits below and above in display math.
var texBigOps = map[string]string{"sum": "∑", "prod": "∏", "int": "∫"}

// texFuncs are upright function names; those in texLimitFuncs take their
// subscript underneath in display math, like max.
var texFuncs = map[string]bool{
	"exp": true, "ln": true, "log": true, "max": true, "min": true, "Pr": true, "arg": true,
	"argmax": true, "argmin": true, "sup": true, "inf": true, "sin": true, "cos": true, "E": true,
}
var texLimitFuncs = map[string]bool{"max": true, "min": true, "argmax": true, "argmin": true, "sup": true, "inf": true}

var texSpaces = map[string]string{",": "0.1667em", ";": "0.2777em", ":": "0.2222em", "quad": "1em", "qquad": "2em", " ": "0.3333em", "!": "0em"}

var texScript = map[rune]string{
	'A': "𝒜", 'B': "ℬ", 'C': "𝒞", 'D': "𝒟", 'E': "ℰ", 'F': "ℱ", 'G': "𝒢", 'H': "ℋ", 'I': "ℐ",
	'J': "𝒥", 'K': "𝒦", 'L': "ℒ", 'M': "ℳ", 'N': "𝒩", 'O': "𝒪", 'P': "𝒫", 'Q': "𝒬", 'R': "ℛ",
	'S': "𝒮", 'T': "𝒯", 'U': "𝒰", 'V': "𝒱", 'W': "𝒲", 'X': "𝒳", 'Y': "𝒴", 'Z': "𝒵",
}

var texAccents = map[string]string{"hat": "^", "bar": "¯", "tilde": "~", "vec": "→", "widehat": "^", "overline": "¯"}

// parseSeq parses atoms until end of input, a closing brace, or the
// \right that closes a \left (depth > 0).
func (p *texParser) parseSeq(depth int) (string, error) {
	var b strings.Builder
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] == '}' || p.src[p.pos] == '&' {
			return b.String(), nil
		}
		if depth > 0 && strings.HasPrefix(p.src[p.pos:], `\right`) {
			return b.String(), nil
		}
		atom, limits, err := p.parseAtom()
		if err != nil {
			return "", err
		}
		atom, err = p.parseScripts(atom, limits)
		if err != nil {
			return "", err
		}
		b.WriteString(atom)
	}
}

func (p *texParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\n' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// parseScripts attaches ^ and _ to base.
func (p *texParser) parseScripts(base string, limits bool) (string, error) {
	var sub, sup string
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || (p.src[p.pos] != '^' && p.src[p.pos] != '_') {
			break
		}
		c := p.src[p.pos]
		p.pos++
		arg, err := p.parseArg()
		if err != nil {
			return "", err
		}
		if c == '^' {
			if sup != "" {
				return "", fmt.Errorf("double superscript")
			}
			sup = arg
		} else {
			if sub != "" {
				return "", fmt.Errorf("double subscript")
			}
			sub = arg
		}
	}
	under, over, both := "msub", "msup", "msubsup"
	if limits && p.display {
		under, over, both = "munder", "mover", "munderover"
	}
	// A function name is two elements, its name and the function
	// application after it; a script element takes one base, so the
	// application follows the scripted name (\max_r x: max_r ⁡ x).
	apply := ""
	if (sub != "" || sup != "") && strings.HasSuffix(base, texApply) {
		base, apply = strings.TrimSuffix(base, texApply), texApply
	}
	switch {
	case sub != "" && sup != "":
		return "<" + both + ">" + base + sub + sup + "</" + both + ">" + apply, nil
	case sub != "":
		return "<" + under + ">" + base + sub + "</" + under + ">" + apply, nil
	case sup != "":
		return "<" + over + ">" + base + sup + "</" + over + ">" + apply, nil
	}
	return base, nil
}

// texApply is the invisible function application that follows a function's name.
const texApply = "<mo>\u2061</mo>"

// parseArg parses one argument: a braced group or a single atom, as one mrow.
func (p *texParser) parseArg() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return "", fmt.Errorf("missing argument")
	}
	if p.src[p.pos] == '{' {
		p.pos++
		inner, err := p.parseSeq(0)
		if err != nil {
			return "", err
		}
		if p.pos >= len(p.src) || p.src[p.pos] != '}' {
			return "", fmt.Errorf("missing }")
		}
		p.pos++
		return "<mrow>" + inner + "</mrow>", nil
	}
	atom, _, err := p.parseAtom()
	return atom, err
}

// rawArg returns the text of a braced argument without parsing it.
func (p *texParser) rawArg() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '{' {
		return "", fmt.Errorf("expected {")
	}
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				s := p.src[p.pos+1 : i]
				p.pos = i + 1
				return s, nil
			}
		}
	}
	return "", fmt.Errorf("missing }")
}

func mo(s string) string { return "<mo>" + html.EscapeString(s) + "</mo>" }

// parseAtom parses one atom; limits reports a big operator or max-like
// function whose scripts go underneath in display math.
func (p *texParser) parseAtom() (string, bool, error) {
	c := p.src[p.pos]
	switch {
	case c == '{':
		a, err := p.parseArg()
		return a, false, err
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		// A number is digits with decimal points. As in TeX, a comma is
		// punctuation (f(1,234) is f of 1 and 234); {,} between digits
		// groups thousands inside the number (490{,}314).
		var num strings.Builder
		for p.pos < len(p.src) {
			if c := p.src[p.pos]; c >= '0' && c <= '9' || c == '.' {
				num.WriteByte(c)
				p.pos++
			} else if strings.HasPrefix(p.src[p.pos:], "{,}") && p.pos+3 < len(p.src) && isDigits(p.src[p.pos+3:p.pos+4]) {
				num.WriteByte(',')
				p.pos += 3
			} else {
				break
			}
		}
		return "<mn>" + num.String() + "</mn>", false, nil
	case c == '\\':
		return p.parseCommand()
	case c == '\'':
		p.pos++
		return mo("′"), false, nil
	}
	r, size := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += size
	if unicode.IsLetter(r) {
		return "<mi>" + html.EscapeString(string(r)) + "</mi>", false, nil
	}
	if strings.ContainsRune("+-=<>()[]|,;:/!*", r) || unicode.IsSymbol(r) || unicode.IsPunct(r) {
		s := string(r)
		if r == '-' {
			s = "−"
		}
		if r == '*' {
			s = "∗"
		}
		return mo(s), false, nil
	}
	return "", false, fmt.Errorf("unexpected character %q", r)
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (p *texParser) parseCommand() (string, bool, error) {
	p.pos++ // backslash
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] >= 'a' && p.src[p.pos] <= 'z' || p.src[p.pos] >= 'A' && p.src[p.pos] <= 'Z') {
		p.pos++
	}
	if p.pos == start && p.pos < len(p.src) {
		p.pos++ // a one-symbol command such as \, or \{
	}
	name := p.src[start:p.pos]
	if s, ok := texGreek[name]; ok {
		if unicode.IsUpper([]rune(s)[0]) {
			return `<mi mathvariant="normal">` + s + "</mi>", false, nil
		}
		return "<mi>" + s + "</mi>", false, nil
	}
	if s, ok := texOps[name]; ok {
		return mo(s), false, nil
	}
	if s, ok := texBigOps[name]; ok {
		return "<mo largeop=\"true\">" + s + "</mo>", true, nil
	}
	if texFuncs[name] {
		text := name
		if name == "argmax" || name == "argmin" {
			text = "arg\u2009" + name[3:]
		}
		return `<mi mathvariant="normal">` + text + "</mi>" + texApply, texLimitFuncs[name], nil
	}
	if w, ok := texSpaces[name]; ok {
		return `<mspace width="` + w + `"></mspace>`, false, nil
	}
	if acc, ok := texAccents[name]; ok {
		arg, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		return `<mover accent="true">` + arg + mo(acc) + "</mover>", false, nil
	}
	switch name {
	case "frac", "dfrac", "tfrac":
		num, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		den, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		return "<mfrac>" + num + den + "</mfrac>", false, nil
	case "sqrt":
		arg, err := p.parseArg()
		if err != nil {
			return "", false, err
		}
		return "<msqrt>" + arg + "</msqrt>", false, nil
	case "text", "textrm", "mbox":
		s, err := p.rawArg()
		if err != nil {
			return "", false, err
		}
		return "<mtext>" + html.EscapeString(s) + "</mtext>", false, nil
	case "mathrm", "operatorname":
		s, err := p.rawArg()
		if err != nil {
			return "", false, err
		}
		return `<mi mathvariant="normal">` + html.EscapeString(s) + "</mi>", false, nil
	case "mathcal":
		s, err := p.rawArg()
		if err != nil {
			return "", false, err
		}
		var b strings.Builder
		for _, r := range s {
			if sc, ok := texScript[r]; ok {
				b.WriteString("<mi>" + sc + "</mi>")
			} else {
				return "", false, fmt.Errorf(`\mathcal{%s}: only capital letters`, s)
			}
		}
		return b.String(), false, nil
	case "left":
		open, err := p.delimiter()
		if err != nil {
			return "", false, err
		}
		inner, err := p.parseSeq(1)
		if err != nil {
			return "", false, err
		}
		if !strings.HasPrefix(p.src[p.pos:], `\right`) {
			return "", false, fmt.Errorf(`\left without \right`)
		}
		p.pos += len(`\right`)
		closing, err := p.delimiter()
		if err != nil {
			return "", false, err
		}
		return "<mrow>" + open + inner + closing + "</mrow>", false, nil
	case "infty":
		return "<mi>∞</mi>", false, nil
	case "ell":
		return "<mi>ℓ</mi>", false, nil
	}
	return "", false, fmt.Errorf(`unknown command \%s`, name)
}

// delimiter reads the delimiter after \left or \right ("." is none).
func (p *texParser) delimiter() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return "", fmt.Errorf("missing delimiter")
	}
	if p.src[p.pos] == '.' {
		p.pos++
		return "", nil
	}
	if p.src[p.pos] == '\\' {
		atom, _, err := p.parseCommand()
		if err != nil {
			return "", err
		}
		return strings.Replace(atom, "<mo>", `<mo stretchy="true">`, 1), nil
	}
	r, size := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += size
	if !strings.ContainsRune("()[]|", r) {
		return "", fmt.Errorf("bad delimiter %q", r)
	}
	return `<mo stretchy="true">` + string(r) + "</mo>", nil
}
