// Command dpplay is the command line of the dpplay playground: it serves the
// site and the lecture API, and exposes the core mechanisms to scripts.
//
// Each subcommand lives in its own file; the table commands below lists them
// all.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// A command is one subcommand. Run parses args with its own FlagSet, writes
// its result to stdout and returns an error; a usageError exits with status 2.
type command struct {
	summary string
	run     func(args []string, stdout io.Writer) error
}

// commands maps each subcommand's name to its summary (the line `dpplay
// help` prints) and its run function.
var commands = map[string]command{
	"allocate": {"allocate goods by private billboard prices (joint differential privacy)", runAllocate},
	"audit":    {"check a mechanism's ε claim exactly on every pair of neighbouring data sets", runAudit},
	"figures":  {"write every lesson's figures as SVG, PNG and PDF for slides (seeded, reproducible)", runFigures},
	"mwem":     {"release a synthetic distribution with MWEM (multiplicative weights)", runMWEM},
	"pricing":  {"price a digital good privately (exponential mechanism) and print the exact price distribution", runPricing},
	"sample":   {"draw from a selection mechanism and print counts and exact probabilities", runSample},
	"serve":    {"serve the static site and the lecture API (SQLite)", runServe},
	"site":     {"build the static site (lessons, web shell, wasm) into a directory", runSite},
	"smalldb":  {"release a synthetic database with SmallDB (exact exponential mechanism)", runSmallDB},
}

// usageError marks bad flags or arguments: the process exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// newFlagSet returns a FlagSet that reports problems as errors instead of
// printing usage and exiting, so every bad flag gives one line on stderr.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("dpplay "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// helpRequest is what parseFlags returns when args ask for help (-h,
// -help): run prints the command's usage and fs's flags instead of running
// it.
type helpRequest struct{ fs *flag.FlagSet }

func (helpRequest) Error() string { return "help requested" }

// parseFlags parses args into fs and turns any failure into a usageError,
// or a request for help into a helpRequest.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return helpRequest{fs}
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(args[1:], stdout, stderr)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "dpplay: unknown command %q (run 'dpplay help')\n", args[0])
		return 2
	}
	if err := cmd.run(args[1:], stdout); err != nil {
		var help helpRequest
		if errors.As(err, &help) {
			printCommandUsage(stdout, args[0], help.fs)
			return 0
		}
		fmt.Fprintln(stderr, "dpplay "+args[0]+": "+oneLine(err.Error()))
		if _, ok := err.(usageError); ok {
			return 2
		}
		return 1
	}
	return 0
}

func oneLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: dpplay <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'dpplay help <command>' (or 'dpplay <command> -h') for a command's flags.")
}

// runHelp carries out `dpplay help [command]`: with no argument it prints
// the list of commands, with a command's name that command's usage and
// flags, the same as `dpplay <command> -h`. An unknown name or a second
// argument is a usage error (status 2).
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		printUsage(stdout)
		return 0
	case len(args) > 1:
		fmt.Fprintf(stderr, "dpplay help: give one command, got %d arguments (run 'dpplay help')\n", len(args))
		return 2
	}
	if _, ok := commands[args[0]]; !ok {
		fmt.Fprintf(stderr, "dpplay help: unknown command %q (run 'dpplay help')\n", args[0])
		return 2
	}
	// Each command defines its flags inside its run function, which stops at
	// parseFlags when asked for help: running it with -h is how to reach them.
	return run([]string{args[0], "-h"}, stdout, stderr)
}

// printCommandUsage prints command name's usage line, its summary and the
// flags of fs with their defaults.
func printCommandUsage(w io.Writer, name string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: dpplay %s [flags]\n\n%s\n\nflags:\n", name, commands[name].summary)
	fs.SetOutput(w)
	fs.PrintDefaults()
}
