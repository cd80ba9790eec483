#!/usr/bin/env bash
# times.sh [DIR]: prints the table of what `make test` took, from DIR
# (default build/times): each suite's wall time, exit status and load
# average (suites.tsv, written by scripts/timed.sh), then each browser test
# file's (browser.tsv, written by e2e/reporter.mjs), slowest first.
dir=${1:-build/times}
[ -f "$dir/suites.tsv" ] || exit 0
echo
echo "make test: time per suite (suites run side by side on $(nproc) cores)"
sort -t$'\t' -k2,2nr "$dir/suites.tsv" | awk -F'\t' '{ printf "  %-10s %7.1f s  %s  load %s\n", $1, $2, ($3 == 0 ? "ok  " : "FAIL"), $4 }'
if [ -f "$dir/browser.tsv" ]; then
  echo "browser: time per file (files run side by side)"
  sort -t$'\t' -k2,2nr "$dir/browser.tsv" | awk -F'\t' '{ printf "  %-34s %7.1f s  %3d tests%s\n", $1, $2, $3, ($4 > 0 ? "  " $4 " failed" : "") }'
fi
