package pair

import (
	"math"

	"github.com/dpplay/dpplay/core/validate"
)

// The runs of the published evaluations whose figures Benchmark holds,
// all from the repository of DP-Sniper (github.com/eth-sri/dp-sniper,
// eval_sp2021/reference-results): DP-Sniper with its logistic-regression
// and its neural-network classifier (dd_search_reg_data.log and
// dd_search_mlp_data.log), and two runs of StatDP with DP-Sniper's
// post-processing, as that paper evaluates it (statdp_1_data.log and
// statdp_2_data.log). Each reports, per mechanism, the pair of inputs it
// chose, an estimate of ε for its best attack and a lower confidence bound
// (90% confidence, Clopper–Pearson, from 2·10⁸ samples).
const (
	RunDPSniperLogistic = "dpsniper-logistic"
	RunDPSniperNeural   = "dpsniper-neural"
	RunStatDP1          = "statdp-1"
	RunStatDP2          = "statdp-2"
)

// Runs lists the runs Benchmark knows.
func Runs() []string {
	return []string{RunDPSniperLogistic, RunDPSniperNeural, RunStatDP1, RunStatDP2}
}

// RunSource returns the file of DP-Sniper's repository a run's figures come from.
func RunSource(run string) string {
	return map[string]string{
		RunDPSniperLogistic: "eval_sp2021/reference-results/dd_search_reg_data.log",
		RunDPSniperNeural:   "eval_sp2021/reference-results/dd_search_mlp_data.log",
		RunStatDP1:          "eval_sp2021/reference-results/statdp_1_data.log",
		RunStatDP2:          "eval_sp2021/reference-results/statdp_2_data.log",
	}[run]
}

// Neighbour notions of the benchmark: DP-Sniper's pattern generator makes
// pairs that differ in one entry by at most 1, or (for mechanisms over
// several queries of sensitivity 1) in every entry by at most 1.
const (
	OneEntry   = "one entry differs by at most 1"
	EveryEntry = "every entry differs by at most 1"
)

// A Case is one mechanism of a published evaluation: the mechanism as that
// evaluation ran it, the ε it is meant to have, the pair the tool chose
// and the figures it reported for it.
type Case struct {
	Mechanism string // the class name in DP-Sniper's code
	Claimed   float64
	// Neighbours is the notion the tool's pairs obey (OneEntry or
	// EveryEntry), and Proved the ε proved for the mechanism under it,
	// +Inf where none is: the exact loss of every such pair is at most
	// Proved.
	Neighbours string
	Proved     float64
	M          Mechanism
	Pair       [2][]float64
	// Estimate is the tool's estimate of ε for its attack (+Inf when it saw
	// an output under one input only), LowerBound its lower confidence
	// bound.
	Estimate, LowerBound float64
	Run                  string
}

type figure struct {
	mechanism            string
	pair                 [2][]float64
	estimate, lowerBound float64
}

var inf = math.Inf(1)

// Benchmark returns the cases of one run, in the order the run lists them.
// The mechanisms take DP-Sniper's parameters (dpsniper/mechanisms/*.py and
// dpsniper/experiments/exp_default.py: ε = 0.1, threshold 1, cutoff 1, or
// 0.5 for SparseVectorTechnique1 and cutoff 2 for the parallel SVT and the
// numerical SVT), and for the StatDP runs those of DP-Sniper's wrapper
// around StatDP (statdpwrapper/experiments/mechanism_config.py), which
// differ in three places: SparseVectorTechnique5 runs with ε = 0.05 and
// threshold noise Lap(2/ε); RAPPOR's value is hashed as a float ("1.0"
// rather than "1"); and its p and q are swapped (which changes no loss:
// it flips every reported bit).
func Benchmark(run string) ([]Case, error) {
	figs, ok := published[run]
	if !ok {
		return nil, validate.Errorf("run", "unknown run %q", run)
	}
	statdp := run == RunStatDP1 || run == RunStatDP2
	var out []Case
	for _, f := range figs {
		c, err := benchmarkMechanism(f.mechanism, statdp)
		if err != nil {
			return nil, err
		}
		c.Pair, c.Estimate, c.LowerBound, c.Run = f.pair, f.estimate, f.lowerBound, run
		if c.Proved == perQuery {
			// Proved by the Laplace mechanism on all the answers, whose
			// sensitivity under EveryEntry is their number.
			c.Proved = float64(len(f.pair[0])) * c.Claimed
			if c.Mechanism == "ReportNoisyMax3" {
				c.Proved /= 2 // the noise is Lap(2/ε)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// perQuery marks a Proved that Benchmark fills in once it knows the number
// of answers in the pair.
const perQuery = -1

// benchmarkMechanism builds one mechanism of the evaluation, with the ε
// proved for it under its pairs' neighbour notion:
//   - the Laplace mechanisms, noisy histogram 1, the 20 parallel Laplace
//     mechanisms (sequential composition) and report noisy max with
//     Laplace or exponential noise releasing the index only: the claimed ε;
//   - noisy histogram 2, whose noise Lap(ε) has scale ε rather than 1/ε:
//     1/ε;
//   - the truncated geometric mechanism: ln(1 + 2^−k), which Balcer and
//     Vadhan prove for GeoSample (TruncatedGeometric.Proved);
//   - report noisy max releasing the noisy maximum with Laplace noise: n·ε/2
//     for n answers, as the Laplace mechanism on all n noisy answers (L1
//     sensitivity n under EveryEntry, scale 2/ε) of which the output is a
//     function; with exponential noise none, as an output possible under
//     one input only shows;
//   - the sparse vector variants: what Lyu et al. prove (Variant.Proven),
//     and for the numerical SVT, their Algorithm 7, ε; a sum of parts,
//     their sum;
//   - RAPPOR: Erlingsson et al.'s bound, the claim;
//   - prefix sums of Laplace answers, claimed for pairs that differ in one
//     entry: under EveryEntry, n·ε for n answers (the Laplace mechanism
//     with L1 sensitivity n, then running sums).
func benchmarkMechanism(name string, statdp bool) (Case, error) {
	const eps = 0.1
	lyu := func(k, c int, t float64) Case {
		v, _ := Lyu(k, eps, c, t)
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: v.Proven, M: v.SVT}
	}
	rappor := func(f float64, oneTime bool) RAPPOR {
		r := RAPPOR{Hashes: 4, Filter: 20, F: f, P: 0.45, Q: 0.55, OneTime: oneTime, FloatInput: statdp}
		if statdp {
			r.P, r.Q = r.Q, r.P
		}
		return r
	}
	// RAPPOR's claim is Erlingsson et al.'s for one report of a value
	// setting h bits: ε₁ = h·ln(q*(1−p*)/(p*(1−q*))), and for the permanent
	// response alone ε∞ = 2h·ln((1−f/2)/(f/2)).
	rapporClaim := func(r RAPPOR) float64 {
		one, zero := r.OneProbabilities()
		return float64(r.Hashes) * math.Abs(math.Log(one*(1-zero)/(zero*(1-one))))
	}
	switch name {
	case "LaplaceMechanism":
		return Case{Mechanism: name, Claimed: eps, Neighbours: OneEntry, Proved: eps, M: LaplaceVector{Scale: 1 / eps, Copies: 1}}, nil
	case "TruncatedGeometricMechanism":
		m := TruncatedGeometric{Epsilon: eps, N: 5}
		return Case{Mechanism: name, Claimed: eps, Neighbours: OneEntry, Proved: m.Proved(), M: m}, nil
	case "NoisyHist1":
		return Case{Mechanism: name, Claimed: eps, Neighbours: OneEntry, Proved: eps, M: LaplaceVector{Scale: 1 / eps, Copies: 1}}, nil
	case "NoisyHist2":
		return Case{Mechanism: name, Claimed: eps, Neighbours: OneEntry, Proved: 1 / eps, M: LaplaceVector{Scale: eps, Copies: 1}}, nil
	case "ReportNoisyMax1":
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: eps, M: NoisyMax{Noise: Laplace, Scale: 2 / eps}}, nil
	case "ReportNoisyMax2":
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: eps, M: NoisyMax{Noise: Exponential, Scale: 2 / eps}}, nil
	case "ReportNoisyMax3":
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: perQuery, M: NoisyMax{Noise: Laplace, Scale: 2 / eps, Value: true}}, nil
	case "ReportNoisyMax4":
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: inf, M: NoisyMax{Noise: Exponential, Scale: 2 / eps, Value: true}}, nil
	case "SparseVectorTechnique1":
		return lyu(1, 1, 0.5), nil
	case "SparseVectorTechnique2", "SparseVectorTechnique3", "SparseVectorTechnique4", "SparseVectorTechnique6":
		return lyu(int(name[len(name)-1]-'0'), 1, 1), nil
	case "SparseVectorTechnique5":
		if statdp {
			v, _ := Lyu(5, eps/2, 1, 1)
			return Case{Mechanism: name, Claimed: eps / 2, Neighbours: EveryEntry, Proved: v.Proven, M: v.SVT}, nil
		}
		return lyu(5, 1, 1), nil
	case "Rappor":
		r := rappor(0.75, false)
		return Case{Mechanism: name, Claimed: rapporClaim(r), Neighbours: OneEntry, Proved: rapporClaim(r), M: r}, nil
	case "OneTimeRappor":
		r := rappor(0.95, true)
		return Case{Mechanism: name, Claimed: rapporClaim(r), Neighbours: OneEntry, Proved: rapporClaim(r), M: r}, nil
	case "LaplaceParallel":
		const each, n = 0.005, 20
		return Case{Mechanism: name, Claimed: each * n, Neighbours: OneEntry, Proved: each * n, M: LaplaceVector{Scale: 1 / each, Copies: n}}, nil
	case "SVT34Parallel":
		a, _ := Lyu(3, eps, 2, 1)
		b, _ := Lyu(4, eps, 2, 1)
		return Case{Mechanism: name, Claimed: 2 * eps, Neighbours: EveryEntry, Proved: a.Proven + b.Proven, M: Parallel{Parts: []Mechanism{a.SVT, b.SVT}}}, nil
	case "PrefixSum":
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: perQuery, M: LaplaceVector{Scale: 1 / eps, Copies: 1, PrefixSums: true}}, nil
	case "NumericalSVT":
		const c = 2
		return Case{Mechanism: name, Claimed: eps, Neighbours: EveryEntry, Proved: eps, M: SVT{Threshold: 1, ThresholdScale: 3 / eps,
			QueryScale: 6 * c / eps, Cutoff: c, Release: ReleaseFresh, ReleaseScale: 3 * c / eps}}, nil
	}
	return Case{}, validate.Errorf("mechanism", "unknown benchmark mechanism %q", name)
}

// published holds each run's figures, copied from its log: the mechanism,
// the pair (a1, a2), the estimate "eps" and the bound "eps_lcb".
var published = map[string][]figure{
	RunDPSniperLogistic: {
		{"LaplaceMechanism", [2][]float64{{1}, {2}}, 0.0990613277260195, 0.09680373477842874},
		{"TruncatedGeometricMechanism", [2][]float64{{2}, {1}}, 0.11781259396197541, 0.11556448250263873},
		{"NoisyHist1", [2][]float64{{0, 1, 1, 1, 1}, {1, 1, 1, 1, 1}}, 0.10004429939360726, 0.09779357853762427},
		{"NoisyHist2", [2][]float64{{0, 1, 1, 1, 1}, {1, 1, 1, 1, 1}}, 4.603181950437034, 4.60202151350145},
		{"ReportNoisyMax1", [2][]float64{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}}, 0.0945151211081825, 0.09225381318933756},
		{"ReportNoisyMax2", [2][]float64{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}}, 0.09976075482751412, 0.09750314019873763},
		{"ReportNoisyMax3", [2][]float64{{0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}}, 0.24998958863476872, 0.24781576679261352},
		{"ReportNoisyMax4", [2][]float64{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}}, 0.34846682354116076, 0.34634322696561437},
		{"SparseVectorTechnique1", [2][]float64{{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, 0.08806788653261499, 0.08579843744077742},
		{"SparseVectorTechnique2", [2][]float64{{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, 0.08819919036407686, 0.085933777378977},
		{"SparseVectorTechnique3", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.17378669139879932, 0.17157204754154964},
		{"SparseVectorTechnique4", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.17089783655096813, 0.1686833019846503},
		{"SparseVectorTechnique5", [2][]float64{{2, 2, 2, 2, 2, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}, 1.7628103392152887, 1.7611853568928795},
		{"SparseVectorTechnique6", [2][]float64{{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, 0.27420665259705856, 0.2720409230566201},
		{"Rappor", [2][]float64{{1}, {0}}, 0.2951396534262738, 0.2929848129867416},
		{"OneTimeRappor", [2][]float64{{1}, {0}}, 0.599792777214347, 0.5977779392161473},
		{"LaplaceParallel", [2][]float64{{1}, {0}}, 0.037243754558828, 0.03495277953654963},
		{"SVT34Parallel", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.26320954754161097, 0.2610381735699283},
		{"PrefixSum", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, 0.5060671047282748, 0.5040117462103613},
		{"NumericalSVT", [2][]float64{{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}, 0.03661542222872516, 0.034323746664875365},
	},
	RunDPSniperNeural: {
		{"LaplaceMechanism", [2][]float64{{0}, {1}}, 0.09989149323520419, 0.09763363715243845},
		{"TruncatedGeometricMechanism", [2][]float64{{2}, {1}}, 0.11779049137011999, 0.11554327252275165},
		{"NoisyHist1", [2][]float64{{1, 1, 1, 1, 1}, {0, 1, 1, 1, 1}}, 0.09995542329567897, 0.09769858890379979},
		{"NoisyHist2", [2][]float64{{1, 1, 1, 1, 1}, {2, 1, 1, 1, 1}}, 4.602630237022225, 4.601469785311435},
		{"ReportNoisyMax1", [2][]float64{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}}, 0.09476004741351929, 0.09250095026875194},
		{"ReportNoisyMax2", [2][]float64{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}}, 0.10017656619914117, 0.09792031720947492},
		{"ReportNoisyMax3", [2][]float64{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}}, 0.2509910240772255, 0.2488099442765046},
		{"ReportNoisyMax4", [2][]float64{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}}, 0.3555740111291641, 0.35344366038471353},
		{"SparseVectorTechnique1", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.08804508780745568, 0.0857818700940598},
		{"SparseVectorTechnique2", [2][]float64{{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, 0.08751599275748223, 0.08524718743004556},
		{"SparseVectorTechnique3", [2][]float64{{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, 0.1843796670038671, 0.1821683565930945},
		{"SparseVectorTechnique4", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.17178632372999925, 0.16956867255560404},
		{"SparseVectorTechnique5", [2][]float64{{0, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}, 1.7626132130193586, 1.760988163636311},
		{"SparseVectorTechnique6", [2][]float64{{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, 0.2719900979084775, 0.269826687868739},
		{"Rappor", [2][]float64{{1}, {0}}, 0.30296439124860974, 0.30080244946686197},
		{"OneTimeRappor", [2][]float64{{0}, {1}}, 0.601914154051336, 0.5998986783208569},
		{"LaplaceParallel", [2][]float64{{0}, {1}}, 0.03216680147872619, 0.029869306141541152},
		{"SVT34Parallel", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.26378921249959486, 0.26162082346312676},
		{"PrefixSum", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, 0.5794517301422761, 0.5774330979382549},
		{"NumericalSVT", [2][]float64{{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, 0.03679403426756167, 0.034501347436509455},
	},
	RunStatDP1: {
		{"LaplaceMechanism", [2][]float64{{1}, {0}}, 0.1000780062144021, 0.09981418282420251},
		{"TruncatedGeometricMechanism", [2][]float64{{1}, {2}}, 0.1169678379430148, 0.11588070285791208},
		{"NoisyHist1", [2][]float64{{1, 1, 1, 1, 1}, {2, 1, 1, 1, 1}}, 0.08378732995236371, 0.08283071852918455},
		{"NoisyHist2", [2][]float64{{1, 1, 1, 1, 1}, {2, 1, 1, 1, 1}}, 9.74957593826324, 9.7169265671521},
		{"ReportNoisyMax1", [2][]float64{{1, 1, 1, 1, 1}, {2, 0, 0, 0, 0}}, 0.09240372436717359, 0.09195171216431208},
		{"ReportNoisyMax2", [2][]float64{{1, 1, 1, 1, 1}, {0, 2, 2, 2, 2}}, 0.10005534052983944, 0.09957525329005956},
		{"ReportNoisyMax3", [2][]float64{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}}, 0.2001292076665533, 0.1991418003968266},
		{"ReportNoisyMax4", [2][]float64{{1, 1, 1, 1, 1}, {2, 2, 2, 2, 2}}, 0.19698913460728296, 0.19601980077941494},
		{"SparseVectorTechnique1", [2][]float64{{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, 0.03274076064781806, 0.029753775766650392},
		{"SparseVectorTechnique2", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.0346543398975232, 0.031642012639005124},
		{"SparseVectorTechnique3", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 1, 1, 1, 1, 1, 1, 1, 1, 1}}, 0.043131070969710805, 0.023061332406729917},
		{"SparseVectorTechnique4", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.17272674102962338, 0.17085960551924195},
		{"SparseVectorTechnique5", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, inf, 14.314308557571438},
		{"SparseVectorTechnique6", [2][]float64{{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, 0.32558166317564297, 0.32203660515097443},
		{"Rappor", [2][]float64{{1}, {0}}, 0.24952871613441996, 0.2415825425465492},
		{"OneTimeRappor", [2][]float64{{1}, {2}}, 0.47633928920414714, 0.4706352801234841},
		{"LaplaceParallel", [2][]float64{{1}, {2}}, 0.013417214338117933, 0.012592981052077068},
		{"SVT34Parallel", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 2, 2, 2, 2, 2, 2, 2, 2, 2}}, 0.1648017517809457, 0.1370886491760004},
		{"PrefixSum", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2, 2, 2, 2, 2}}, 0.3521856993451542, 0.35160641681052285},
	},
	RunStatDP2: {
		{"LaplaceMechanism", [2][]float64{{1}, {2}}, 0.09988718363766624, 0.09961720683589348},
		{"TruncatedGeometricMechanism", [2][]float64{{1}, {0}}, 0.11787584973275278, 0.11685385390209024},
		{"NoisyHist1", [2][]float64{{1, 1, 1, 1, 1}, {2, 1, 1, 1, 1}}, 0.09990559963870105, 0.09943568335950492},
		{"NoisyHist2", [2][]float64{{1, 1, 1, 1, 1}, {2, 1, 1, 1, 1}}, 10.034140140071692, 10.002168576736125},
		{"ReportNoisyMax1", [2][]float64{{1, 1, 1, 1, 1}, {2, 0, 0, 0, 0}}, 0.0925541237291112, 0.0921021169451548},
		{"ReportNoisyMax2", [2][]float64{{1, 1, 1, 1, 1}, {2, 0, 0, 0, 0}}, 0.1001232943076873, 0.09967230375558023},
		{"ReportNoisyMax3", [2][]float64{{1, 1, 1, 1, 1}, {0, 0, 0, 0, 0}}, 0.19703918208832194, 0.1960705014773274},
		{"ReportNoisyMax4", [2][]float64{{1, 1, 1, 1, 1}, {0, 0, 0, 0, 0}}, 0.1998121147716767, 0.1988300779701171},
		{"SparseVectorTechnique1", [2][]float64{{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, 0.032832513487596415, 0.029845918933959936},
		{"SparseVectorTechnique2", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.04329786911059408, 0.040683452034789624},
		{"SparseVectorTechnique3", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, 0.19864875814578653, 0.17928544503534738},
		{"SparseVectorTechnique4", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 0, 0, 0, 0, 0}}, 0.17377432096033107, 0.17190839183318207},
		{"SparseVectorTechnique5", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 2, 2, 2, 2, 2, 2, 2, 2, 2}}, inf, 14.314307341616473},
		{"SparseVectorTechnique6", [2][]float64{{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, 0.3234980698427794, 0.3199544091460842},
		{"Rappor", [2][]float64{{1}, {0}}, 0.032186365956985874, 0.024254948245880925},
		{"OneTimeRappor", [2][]float64{{1}, {0}}, 0.06585817380527192, 0.060191745045908185},
		{"LaplaceParallel", [2][]float64{{1}, {2}}, 0.014332355914143058, 0.013493289334906677},
		{"SVT34Parallel", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, 0.2214056159066633, 0.19632395827496651},
		{"PrefixSum", [2][]float64{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, 0.3451483760531924, 0.3445934123089889},
	},
}
