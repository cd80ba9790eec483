package site

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// mathScript is the Node side of Math (math.mjs).
//
//go:embed math.mjs
var mathScript string

// Math renders TeX formulas to MathML with Temml, a maintained TeX-to-
// MathML library made for MathML Core (npm temml, pinned in
// package-lock.json), in one Node process for the whole build: each
// formula is a line of JSON to it and its MathML a line back. Each
// distinct formula is rendered once. Lesson authors write ordinary LaTeX;
// an unknown command is an error, so a typo fails the build instead of
// showing up garbled on a projector.
//
// The process resolves temml from the node_modules of the working
// directory or one above it (`make site` runs `npm ci` first).
type Math struct {
	mu    sync.Mutex
	cmd   *exec.Cmd
	in    *bufio.Writer
	stdin io.Closer
	out   *bufio.Reader
	cache map[mathKey]mathResult
}

type mathKey struct {
	tex     string
	display bool
}

type mathResult struct {
	MathML string `json:"mathml"`
	Error  string `json:"error"`
}

// StartMath starts the renderer's Node process; Close ends it.
func StartMath() (*Math, error) {
	cmd := exec.Command("node", "--input-type=module", "--eval", mathScript)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the TeX renderer needs Node (node on PATH): %v", err)
	}
	return &Math{cmd: cmd, in: bufio.NewWriter(stdin), stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<16), cache: map[mathKey]mathResult{}}, nil
}

// MathML returns the MathML of a TeX formula, inline or displayed (a
// block of its own), with its TeX as the annotation. A nil *Math returns
// the TeX as text, for a caller that reads the lessons' structure and not
// their pages (dpplay figures), so that it needs no Node.
func (m *Math) MathML(tex string, display bool) (string, error) {
	if m == nil {
		return html.EscapeString(tex), nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := mathKey{tex, display}
	r, ok := m.cache[k]
	if !ok {
		req := struct {
			TeX     string `json:"tex"`
			Display bool   `json:"display"`
		}{tex, display}
		if err := m.call(req, &r); err != nil {
			return "", err
		}
		if r.MathML == "" && r.Error == "" {
			return "", fmt.Errorf("the TeX renderer answered nothing for %q", tex)
		}
		m.cache[k] = r
	}
	if r.Error != "" {
		return "", fmt.Errorf("math %q: %s", tex, r.Error)
	}
	return r.MathML, nil
}

// call sends one request to the Node process and reads its answer into reply.
func (m *Math) call(req, reply any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	m.in.Write(append(b, '\n'))
	if err := m.in.Flush(); err != nil {
		return fmt.Errorf("the TeX renderer stopped: %v", err)
	}
	line, err := m.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("the TeX renderer stopped (is node_modules installed? npm ci): %v", err)
	}
	if err := json.Unmarshal(line, reply); err != nil {
		return fmt.Errorf("the TeX renderer answered %.200q: %v", line, err)
	}
	return nil
}

// MathFont and MathFontLicense are where the site serves its math font and
// the font's licence.
const (
	MathFont        = "fonts/stix-two-math.woff2"
	MathFontLicense = "fonts/STIX-Two-Math-OFL.txt"
)

// Font returns the site's one math font, STIX Two Math (SIL Open Font
// License 1.1), as WOFF2 cut to the characters of every formula m has
// rendered (mathChars), and its licence.
func (m *Math) Font() (woff2, license []byte, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []string
	for _, r := range m.cache {
		all = append(all, r.MathML)
	}
	var reply struct {
		WOFF2   []byte `json:"woff2"` // base64 in JSON
		License string `json:"license"`
	}
	if err := m.call(struct {
		Subset string `json:"subset"`
	}{mathChars(all)}, &reply); err != nil {
		return nil, nil, err
	}
	if len(reply.WOFF2) == 0 || reply.License == "" {
		return nil, nil, fmt.Errorf("the font subsetter returned no font or no licence")
	}
	return reply.WOFF2, []byte(reply.License), nil
}

var reMathToken = regexp.MustCompile(`<(mi|mo|mn|mtext|ms)\b([^>]*)>([^<]*)</`)

// mathChars returns, sorted, every character the token elements of the
// MathML fragments show, and for a single-letter <mi> (which MathML Core
// draws in italic unless its mathvariant is normal) its mathematical
// italic form too (mathItalic), with the invisible function application
// and a space; and √ where a fragment has a root (<msqrt>, <mroot>), whose
// sign the browser draws from the font though no token holds it.
func mathChars(mathml []string) string {
	set := map[rune]bool{' ': true, '\u2061': true, '\u00a0': true}
	for _, m := range mathml {
		if strings.Contains(m, "<msqrt") || strings.Contains(m, "<mroot") {
			set['√'] = true
		}
		for _, t := range reMathToken.FindAllStringSubmatch(m, -1) {
			text := []rune(html.UnescapeString(t[3]))
			for _, r := range text {
				set[r] = true
			}
			if t[1] == "mi" && len(text) == 1 && !strings.Contains(t[2], `mathvariant="normal"`) {
				set[mathItalic(text[0])] = true
			}
		}
	}
	out := make([]rune, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	slices.Sort(out)
	return string(out)
}

// mathItalic is the mathematical italic form of a Latin or Greek letter
// (Unicode's Mathematical Alphanumeric Symbols, with the holes filled
// elsewhere: ℎ), or the letter itself.
func mathItalic(r rune) rune {
	switch {
	case r == 'h':
		return 'ℎ'
	case r >= 'a' && r <= 'z':
		return 0x1D44E + r - 'a'
	case r >= 'A' && r <= 'Z':
		return 0x1D434 + r - 'A'
	case r >= 'α' && r <= 'ω':
		return 0x1D6FC + r - 'α'
	case r >= 'Α' && r <= 'Ω':
		return 0x1D6E2 + r - 'Α'
	}
	if i := strings.IndexRune("∂ϵϑϰϕϱϖ", r); i >= 0 {
		return 0x1D715 + rune(len([]rune("∂ϵϑϰϕϱϖ"[:i])))
	}
	return r
}

// Close ends the renderer's process.
func (m *Math) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.stdin.Close()
	return errors.Join(err, m.cmd.Wait())
}
