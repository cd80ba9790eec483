package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dpplay/dpplay/figures"
)

func init() {
	register("figures", "write every lesson's figures as SVG, PNG and PDF for slides (seeded, reproducible)", runFigures)
}

type figuresResult struct {
	Out   string   `json:"out"`
	State string   `json:"state"`
	Files []string `json:"files"`
	Bytes int64    `json:"bytes"`
}

func runFigures(args []string, stdout io.Writer) error {
	fs := newFlagSet("figures")
	out := fs.String("out", "figures-out", "directory to write the figures into (created if needed)")
	format := fs.String("format", "svg,png,pdf", "comma-separated formats: svg, png, pdf")
	lesson := fs.Int("lesson", 0, "draw only this lesson's figures (0: every lesson)")
	state := fs.String("state", "", "a URL hash such as '#lesson=1&eps=1&seed=7&draws=10000' (see docs/figures.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	spec, err := figures.ParseSpec(*state)
	if err != nil {
		return usagef("-state: %v", err)
	}
	if *lesson != 0 {
		spec.Lesson = *lesson
	}
	if err := spec.Validate(); err != nil {
		return usagef("%v", err)
	}
	var formats []string
	for _, f := range strings.Split(*format, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		ok := false
		for _, g := range figures.Formats() {
			ok = ok || f == g
		}
		if !ok {
			return usagef("-format: %q is not one of %v", f, figures.Formats())
		}
		formats = append(formats, f)
	}
	figs, err := figures.Build(spec)
	if err != nil {
		return usagef("%v", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	res := figuresResult{Out: *out, State: spec.Hash(), Files: []string{}}
	for _, f := range figs {
		for _, ext := range formats {
			b, err := figures.Render(f, ext, spec.Width, spec.Height)
			if err != nil {
				return err
			}
			p := filepath.Join(*out, f.FileName(ext))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
			res.Files = append(res.Files, p)
			res.Bytes += int64(len(b))
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
