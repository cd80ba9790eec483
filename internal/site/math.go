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
		req, _ := json.Marshal(struct {
			TeX     string `json:"tex"`
			Display bool   `json:"display"`
		}{tex, display})
		m.in.Write(append(req, '\n'))
		if err := m.in.Flush(); err != nil {
			return "", fmt.Errorf("the TeX renderer stopped: %v", err)
		}
		line, err := m.out.ReadBytes('\n')
		if err != nil {
			return "", fmt.Errorf("the TeX renderer stopped (is node_modules installed? npm ci): %v", err)
		}
		if err := json.Unmarshal(line, &r); err != nil || r.MathML == "" && r.Error == "" {
			return "", fmt.Errorf("the TeX renderer answered %q", line)
		}
		m.cache[k] = r
	}
	if r.Error != "" {
		return "", fmt.Errorf("math %q: %s", tex, r.Error)
	}
	return r.MathML, nil
}

// Close ends the renderer's process.
func (m *Math) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.stdin.Close()
	return errors.Join(err, m.cmd.Wait())
}
