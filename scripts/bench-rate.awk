# Reads `go test -bench` output and prints the batch-draw rate of the
# exponential mechanism relative to the raw source (issue: must be ≥ 0.5).
# Takes each benchmark's fastest run, since load only ever slows a run down.
/^BenchmarkSourceUint64/     { if (!src || $3 < src) src = $3 }
/^BenchmarkExponentialBatch/ { if (!em || $3 < em) em = $3 }
{ print }
END {
  if (src && em) printf "\nbatch draws vs raw source: %.2f ns vs %.2f ns per word: rate ratio %.2f (target ≥ 0.5)\n", em, src, src / em
}
