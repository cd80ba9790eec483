package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	mrand "math/rand/v2"
	"strconv"
	"strings"

	"github.com/dpplay/dpplay/app/data"
	"github.com/dpplay/dpplay/core/synth"
)

// synthFlags are the inputs dpplay smalldb and dpplay mwem share.
type synthFlags struct {
	data, columns, queries *string
	epsilon                *float64
	seed                   func() (*mrand.Rand, *uint64, error)
}

func addSynthFlags(fs *flag.FlagSet) synthFlags {
	return synthFlags{
		data:    fs.String("data", "", "CSV file with a header row and yes/no columns (0/1, yes/no, true/false; required)"),
		columns: fs.String("columns", "", "comma-separated columns to keep (default: all)"),
		queries: fs.String("queries", "marginals:2", "query set: marginals:W, halfspaces, or list:col=1&col=0;col=1"),
		epsilon: fs.Float64("epsilon", 1, "privacy parameter ε"),
		seed:    seedFlag(fs),
	}
}

// load reads the data and builds the query set; errors are usage errors
// because they come from the flags' values.
func (f synthFlags) load() (*synth.Data, *synth.QuerySet, *mrand.Rand, *uint64, error) {
	if *f.data == "" {
		return nil, nil, nil, nil, usagef("-data FILE.csv is required")
	}
	if !(*f.epsilon > 0) {
		return nil, nil, nil, nil, usagef("-epsilon must be > 0")
	}
	d, err := readBits(*f.data, *f.columns)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	qs, err := parseQuerySpec(d.Columns(), *f.queries)
	if err != nil {
		return nil, nil, nil, nil, usagef("-queries: %v", err)
	}
	r, seed, err := f.seed()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return d, qs, r, seed, nil
}

func parseQuerySpec(columns []string, spec string) (*synth.QuerySet, error) {
	switch kind, arg, _ := strings.Cut(spec, ":"); kind {
	case "marginals":
		w, err := strconv.Atoi(arg)
		if err != nil {
			return nil, usagef("marginals:W needs a width W, got %q", arg)
		}
		return synth.Marginals(columns, w)
	case "halfspaces":
		return synth.Halfspaces(columns)
	case "list":
		return synth.ParseQueries(columns, arg)
	default:
		return nil, usagef("unknown query set %q (want marginals:W, halfspaces or list:...)", spec)
	}
}

type errorLevelJSON struct {
	MaxError    float64 `json:"max_error"`
	Candidates  uint64  `json:"candidates"`
	Probability float64 `json:"probability"`
}

// boundsJSON holds the notes' accuracy bounds at -beta. prop_4_4 is
// Proposition 4.4 at this run's m (alpha = √(ln|Q|/m)), the bound the
// measured error is compared with; thm_4_5 is Theorem 4.5, a statement
// about SmallDB run with its own number of rows, printed with that number.
type boundsJSON struct {
	Alpha    float64   `json:"alpha"`
	Beta     float64   `json:"beta"`
	Prop44   float64   `json:"prop_4_4"`
	TailProp float64   `json:"exact_probability_above_prop_4_4"`
	Thm45    thm45JSON `json:"thm_4_5"`
}

// thm45JSON is Theorem 4.5: error at most bound with probability 1 − β for
// SmallDB with size = ⌈4·ln|Q|/bound²⌉ rows. same_size_as_this_run says
// whether this run has that m; when it does not, the bound says nothing
// about this run.
type thm45JSON struct {
	Bound          float64 `json:"bound"`
	Size           int     `json:"size"`
	SameSizeAsThis bool    `json:"same_size_as_this_run"`
}

type halfspaceJSON struct {
	Learned            string  `json:"learned"`
	Pi                 []int   `json:"pi"`
	SyntheticAgreement float64 `json:"synthetic_agreement"`
	RealAgreement      float64 `json:"real_agreement"`
	Best               string  `json:"best_on_real"`
	BestAgreement      float64 `json:"best_real_agreement"`
}

// halfspace learns the best halfspace from the synthetic distribution (a
// weight per point of the universe) and scores it on the real data, when the
// queries are halfspaces; for other queries it returns nil.
func halfspace(queries string, synthetic []float64, d *synth.Data) (*halfspaceJSON, error) {
	if !strings.HasPrefix(queries, "halfspaces") {
		return nil, nil
	}
	fit, err := synth.LearnHalfspace(synthetic, d)
	if err != nil {
		return nil, err
	}
	return &halfspaceJSON{
		Learned: fit.Name, Pi: fit.Learned.Pi, SyntheticAgreement: fit.SyntheticAgreement,
		RealAgreement: fit.RealAgreement, Best: fit.BestName, BestAgreement: fit.BestAgreement,
	}, nil
}

// synthInputJSON is the first keys of what `dpplay smalldb` and `dpplay
// mwem` print: the mechanism and the data and queries it ran on.
type synthInputJSON struct {
	Mechanism string   `json:"mechanism"`
	Columns   []string `json:"columns"`
	Rows      int      `json:"rows"`
	Queries   []string `json:"queries"`
}

func synthInput(mechanism string, d *synth.Data, qs *synth.QuerySet) synthInputJSON {
	return synthInputJSON{Mechanism: mechanism, Columns: d.Columns(), Rows: d.N(), Queries: qs.Names()}
}

type smallDBJSON struct {
	synthInputJSON
	Size             int              `json:"size"`
	Epsilon          float64          `json:"epsilon"`
	Seed             *uint64          `json:"seed"`
	Candidates       uint64           `json:"candidates"`
	Synthetic        [][]int          `json:"synthetic"`
	MaxError         float64          `json:"max_error"`
	ErrorLevels      []errorLevelJSON `json:"error_levels"`
	TrueAnswers      []float64        `json:"true_answers"`
	SyntheticAnswers []float64        `json:"synthetic_answers"`
	Bounds           *boundsJSON      `json:"bounds"`
	Halfspace        *halfspaceJSON   `json:"halfspace,omitempty"`
}

func runSmallDB(args []string, stdout io.Writer) error {
	fs := newFlagSet("smalldb")
	in := addSynthFlags(fs)
	size := fs.Int("size", 4, "m, the number of rows of the synthetic database")
	beta := fs.Float64("beta", 0.05, "failure probability β for the accuracy bounds")
	limit := fs.Uint64("max-candidates", synth.DefaultMaxCandidates, "refuse instances with more candidates than this")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !(*beta > 0 && *beta < 1) {
		return usagef("-beta must be in (0, 1)")
	}
	d, qs, r, seed, err := in.load()
	if err != nil {
		return err
	}
	cfg := synth.SmallDBConfig{Data: d, Queries: qs, Size: *size, Epsilon: *in.epsilon, MaxCandidates: *limit}
	res, err := synth.SmallDB(context.Background(), cfg, r, nil)
	if err != nil {
		return usagef("%v", err)
	}
	out := smallDBJSON{
		synthInputJSON: synthInput("smalldb", d, qs),
		Size:           *size, Epsilon: *in.epsilon, Seed: seed, Candidates: res.Candidates,
		MaxError: res.MaxError, TrueAnswers: res.TrueAnswers, SyntheticAnswers: res.SyntheticAnswers,
	}
	for _, p := range res.Synthetic {
		row, _ := d.Point(p)
		out.Synthetic = append(out.Synthetic, row)
	}
	for _, l := range res.Levels {
		out.ErrorLevels = append(out.ErrorLevels, errorLevelJSON{MaxError: l.MaxError, Candidates: l.Candidates, Probability: l.Probability})
	}
	// The bounds need |Q| ≥ 3 (the sampling lemma's union bound); with fewer
	// queries they say nothing and "bounds" is null.
	if alpha, err := synth.AlphaForSize(qs.Len(), *size); err == nil {
		p44, err1 := synth.Prop44Bound(d.UniverseSize(), qs.Len(), d.N(), *in.epsilon, alpha, *beta)
		t45, err2 := synth.Thm45Bound(d.UniverseSize(), qs.Len(), d.N(), *in.epsilon, *beta)
		tail, err3 := synth.TailProbability(res.Levels, p44)
		m45, err4 := synth.Thm45Size(qs.Len(), t45)
		if err1 == nil && err2 == nil && err3 == nil && err4 == nil {
			out.Bounds = &boundsJSON{Alpha: alpha, Beta: *beta, Prop44: p44, TailProp: tail,
				Thm45: thm45JSON{Bound: t45, Size: m45, SameSizeAsThis: m45 == *size}}
		}
	}
	if out.Halfspace, err = halfspace(*in.queries, res.SyntheticData.Fractions(), d); err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(out)
}

// readBits reads the yes/no columns of a CSV file (all of them, or the
// comma-separated list columns) with app/data into a histogram.
func readBits(path, columns string) (*synth.Data, error) {
	t, err := readTable(path, data.HeaderYes)
	if err != nil {
		return nil, err
	}
	names := t.Names
	if columns != "" {
		names = strings.Split(columns, ",")
	}
	idx := make([]int, len(names))
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
		if idx[i], err = t.Column(names[i]); err != nil {
			return nil, usagef("-columns: %v", err)
		}
	}
	rows, err := t.Bits(idx)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	d, err := synth.FromRows(names, rows)
	if err != nil {
		return nil, usagef("-columns: %v", err)
	}
	return d, nil
}
